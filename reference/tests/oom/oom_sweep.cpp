// voxrig_oom_sweep — out-of-memory testing of the codec's entry points.
//
// For every golden case and every entry point that applies to it (decode, encode, dump,
// validate, mesh, pose; compile for the JSON compile cases), the operation first runs once
// without injection (the baseline: its result and its operator new count A). Then it runs again
// with the N-th allocation failing (voxrig::testing::fail_nth_allocation), for N = 1, 2, ... until
// a run completes without reaching the injected failure (full sweep), or for a few sampled N
// (the default; CTest oom_sweep_sampled). Every injected run must end in one of two ways:
//   - internal.out_of_memory (the library's entry-point guard, result.h guard_out_of_memory), or
//   - exactly the baseline result (same error code, or the same output bytes) when the failing
//     allocation was one the operation may survive (none today: any other outcome is listed).
// A crash, an escaped exception, another error code or a different output is a finding. Leaks
// are found by LeakSanitizer when the binary is built with the asan preset
// (scripts/oom-sweep.sh). zlib's and OpenSSL's allocations are counted and failed too (see
// check_c_library_hooks). Exit 0 clean, 1 findings, 2 usage, 3 I/O.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "voxrig/any_format.h"
#include "voxrig/export.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/sha256.h"
#include "voxrig/testing/alloc_counter.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace {

using voxrig::ErrorCode;
namespace vt = voxrig::testing;
using Bytes = std::vector<uint8_t>;

/// What one run of an operation produced: an error code, or output bytes (a digest-free copy;
/// golden outputs are small).
struct Outcome {
  std::optional<ErrorCode> error;
  std::string output;
  bool operator==(const Outcome&) const = default;
};

/// One operation; `n` is passed to inject(), which arms the failure around the library call only
/// (so the harness's own allocations, e.g. copying the output, are never failed or counted).
using Operation = std::function<Outcome(uint64_t n)>;

uint64_t g_allocs = 0;  // operator new calls of the last inject()ed call
bool g_hit = false;     // whether the armed failure happened in it

template <class F>
auto inject(uint64_t n, F&& f) {
  g_hit = false;
  const vt::AllocationProbe probe;
  vt::fail_nth_allocation(n);
  auto r = f();
  g_hit = vt::injected_failure_happened();
  vt::fail_nth_allocation(0);
  g_allocs = probe.count();
  return r;
}

template <class T>
Outcome outcome_of(const voxrig::Result<T>& r, std::string output = {}) {
  if (!r.ok()) return {r.error().code, {}};
  return {std::nullopt, std::move(output)};
}

std::string text_of(const Bytes& b) { return std::string(b.begin(), b.end()); }

std::string quads_text(const std::vector<voxrig::Quad>& q) {
  return std::string(reinterpret_cast<const char*>(q.data()), q.size() * sizeof(voxrig::Quad));
}

struct Job {
  std::string id;     // case id
  std::string entry;  // entry point
  Operation op;
};

// The entry points that apply to one reader case. Preparation (decoding the model a later
// stage needs) happens here, outside injection; only the operation itself runs under it.
void add_reader_jobs(const std::string& id, const Bytes& bytes, voxrig::Profile profile,
                     std::vector<Job>& jobs) {
  const voxrig::Limits limits{};
  const voxrig::DecodeOptions o{profile, limits};
  const voxrig::Format f = voxrig::detect_format(bytes);
  auto add = [&](std::string entry, Operation op) {
    jobs.push_back({id, std::move(entry), std::move(op)});
  };
  add("dump", [bytes, profile, limits](uint64_t n) {
    auto r = inject(n, [&] { return voxrig::dump_any(bytes, profile, limits); });
    return outcome_of(r, r.ok() ? *r : std::string());
  });
  add("validate", [bytes, profile, limits](uint64_t n) {
    voxrig::ValidationReport r =
        inject(n, [&] { return voxrig::validate_any(bytes, profile, limits); });
    Outcome out;
    if (r.error) out.error = r.error->code;
    for (const voxrig::Warning& w : r.warnings) out.output += std::to_string(int(w.code)) + ",";
    return out;
  });
  switch (f) {
    case voxrig::Format::Vfp: {
      add("decode", [bytes, o](uint64_t n) {
        return outcome_of(inject(n, [&] { return voxrig::decode_vfp(bytes, o); }));
      });
      auto model = voxrig::decode_vfp(bytes, o);
      if (!model.ok()) break;
      auto file = std::make_shared<voxrig::VfpFile>(std::move(*model));
      add("encode", [file](uint64_t n) {
        auto r = inject(n, [&] { return voxrig::encode_vfp(*file); });
        return outcome_of(r, r.ok() ? text_of(*r) : std::string());
      });
      if (file->vox0()) {
        add("mesh", [file](uint64_t n) {
          std::vector<voxrig::Quad> q;
          voxrig::MeshScratch s;
          const voxrig::Status st =
              inject(n, [&] { return voxrig::mesh_greedy(*file->vox0(), q, s); });
          return outcome_of(st, st.ok() ? quads_text(q) : std::string());
        });
      }
      if (file->vox0() && file->skel() && file->vskn() && file->anim() &&
          !file->anim()->clips.empty()) {
        auto joints = voxrig::joint_map(*file->vox0(), *file->vskn());
        if (!joints.ok()) break;
        auto map = std::make_shared<std::vector<uint16_t>>(std::move(*joints));
        add("pose", [file, map](uint64_t n) {
          voxrig::PoseRequest req;
          req.time_ms = file->anim()->clips[0].duration_ms / 2.0;
          auto obj = inject(n, [&]() -> voxrig::Result<std::string> {
            auto rt = voxrig::RigRuntime::build(*file->skel(), file->anim());
            if (!rt.ok()) return std::move(rt).error();
            return voxrig::export_posed_obj(*file->vox0(), *map, *rt, req);
          });
          return outcome_of(obj, obj.ok() ? *obj : std::string());
        });
      }
      break;
    }
    case voxrig::Format::Rkc: {
      add("decode", [bytes, o](uint64_t n) {
        return outcome_of(inject(n, [&] { return voxrig::decode_rkc(bytes, o); }));
      });
      auto model = voxrig::decode_rkc(bytes, o);
      if (!model.ok()) break;
      auto c = std::make_shared<voxrig::Character>(std::move(*model));
      add("encode", [c](uint64_t n) {
        auto r = inject(n, [&] { return voxrig::encode_rkc(*c); });
        return outcome_of(r, r.ok() ? text_of(*r) : std::string());
      });
      break;
    }
    case voxrig::Format::Kv6: {
      add("decode", [bytes, o](uint64_t n) {
        return outcome_of(inject(n, [&] { return voxrig::decode_kv6(bytes, 0, o); }));
      });
      auto model = voxrig::decode_kv6(bytes, 0, o);
      if (!model.ok()) break;
      auto k = std::make_shared<voxrig::Kv6>(std::move(*model));
      add("encode", [k](uint64_t n) {
        auto r = inject(n, [&] { return voxrig::encode_kv6(*k); });
        return outcome_of(r, r.ok() ? text_of(*r) : std::string());
      });
      add("mesh", [k](uint64_t n) {
        std::vector<voxrig::Quad> q;
        voxrig::MeshScratch s;
        const voxrig::Status st = inject(n, [&] { return voxrig::mesh_kv6_greedy(*k, q, s); });
        return outcome_of(st, st.ok() ? quads_text(q) : std::string());
      });
      break;
    }
    case voxrig::Format::Rvc: {
      add("decode", [bytes, o](uint64_t n) {
        return outcome_of(inject(n, [&] { return voxrig::decode_rvc(bytes, 0, o); }));
      });
      auto model = voxrig::decode_rvc(bytes, 0, o);
      if (!model.ok()) break;
      auto r = std::make_shared<voxrig::RvcClip>(std::move(*model));
      add("encode", [r](uint64_t n) {
        auto e = inject(n, [&] { return voxrig::encode_rvc(*r); });
        return outcome_of(e, e.ok() ? text_of(*e) : std::string());
      });
      break;
    }
    case voxrig::Format::Kfa: {
      add("decode", [bytes, o](uint64_t n) {
        return outcome_of(inject(n, [&] { return voxrig::decode_kfa(bytes, o); }));
      });
      auto model = voxrig::decode_kfa(bytes, o);
      if (!model.ok()) break;
      auto k = std::make_shared<voxrig::Kfa>(std::move(*model));
      add("encode", [k](uint64_t n) {
        auto e = inject(n, [&] { return voxrig::encode_kfa(*k); });
        return outcome_of(e, e.ok() ? text_of(*e) : std::string());
      });
      break;
    }
    default:
      break;
  }
}

struct Totals {
  uint64_t jobs = 0, runs = 0, oom = 0, same = 0, findings = 0;
};

std::string describe(const Outcome& o) {
  if (o.error) return std::string("error ") + std::string(voxrig::to_string(*o.error));
  return "ok (" + std::to_string(o.output.size()) + " output bytes)";
}

Outcome run_guarded(const Operation& op, uint64_t n, bool& escaped) {
  escaped = false;
  try {
    return op(n);
  } catch (const std::exception& e) {
    g_hit = vt::injected_failure_happened();
    vt::fail_nth_allocation(0);
    escaped = true;
    return {ErrorCode::InternalBug, e.what()};
  }
}

// Runs one job: the baseline, then N = 1.. (full) or the sampled N values.
void sweep_job(const Job& job, bool full, Totals& t) {
  bool escaped = false;
  const auto t0 = std::chrono::steady_clock::now();
  const Outcome base = run_guarded(job.op, 0, escaped);
  const bool heavy = std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(20);
  const uint64_t allocs = g_allocs;
  ++t.jobs;
  if (escaped) {
    ++t.findings;
    std::cout << "FINDING " << job.id << " " << job.entry
              << " baseline: exception escaped: " << base.output << "\n";
    return;
  }
  std::vector<uint64_t> ns;
  if (full) {
    for (uint64_t n = 1; n <= allocs + 1; ++n) ns.push_back(n);
  } else if (heavy) {
    // A job that runs for tens of milliseconds (the 2^20-frame bombs): one sample keeps the
    // default CTest at a few seconds; the full sweep covers every N.
    ns = {std::max<uint64_t>(1, allocs / 2)};
  } else {
    // First, last and middle allocation, plus the one past the end (must succeed unfailed).
    ns = {1, allocs / 2, allocs, allocs + 1};
    std::sort(ns.begin(), ns.end());
    ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
    ns.erase(std::remove(ns.begin(), ns.end(), uint64_t{0}), ns.end());
  }
  for (uint64_t n : ns) {
    const Outcome got = run_guarded(job.op, n, escaped);
    const bool hit = g_hit;
    ++t.runs;
    if (!escaped && hit && got.error == ErrorCode::InternalOutOfMemory) {
      ++t.oom;
      continue;
    }
    if (!escaped && got == base) {
      ++t.same;
      continue;
    }
    ++t.findings;
    std::cout << "FINDING " << job.id << " " << job.entry << " N=" << n << "/" << allocs << ": "
              << (escaped ? "exception escaped: " + got.output : describe(got))
              << (hit ? "" : " (injected failure not reached)") << ", baseline " << describe(base)
              << "\n";
  }
}

std::optional<Bytes> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

// The C libraries' allocations are in the sweep too: zlib's through the codec's z_stream.zalloc
// (operator new), OpenSSL's through CRYPTO_set_mem_functions (count_openssl_allocations, called
// first in main). Checked here once, so a hook that stops working fails the sweep instead of
// silently shrinking it: SHA-256 and D4 deflation must allocate under the counter, and failing
// each of their allocations must throw std::bad_alloc (which the entry points map to
// internal.out_of_memory) or give the unfailed result, never another one (before, a failed
// deflateInit gave a raw chunk and a failed OpenSSL call aborted).
int check_c_library_hooks() {
  int bad = 0;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) {
      ++bad;
      std::cout << "FINDING c-library-hooks: " << what << "\n";
    }
  };
  const Bytes zeros(4096, 0);
  const voxrig::Sha256 want = voxrig::sha256(zeros);
  auto count_of = [](auto&& f) {
    const vt::AllocationProbe p;
    f();
    return p.count();
  };
  const uint64_t sha_allocs = count_of([&] { (void)voxrig::sha256(zeros); });
  const uint64_t deflate_allocs = count_of([&] {
    (void)voxrig::rvc_make_chunk({'X', 'T', 'R', 'A'}, zeros);
  });
  expect(sha_allocs > 0, "OpenSSL's SHA-256 made no counted allocation");
  // A raw copy costs a few vectors; deflateInit2 alone allocates 5 blocks (state, window, prev,
  // head, pending buffer).
  expect(deflate_allocs >= 5, "D4 deflation made " + std::to_string(deflate_allocs) +
                                  " counted allocations: zlib's are not counted");
  // f() returns whether its result equals the unfailed one: a failure OpenSSL recovers from
  // (it has a few, e.g. a cache entry) must still give the right digest.
  auto each_fails = [&](const char* what, uint64_t allocs, auto&& f) {
    for (uint64_t n = 1; n <= allocs; ++n) {
      bool threw = false, same = false;
      vt::fail_nth_allocation(n);
      try {
        same = f();
      } catch (const std::bad_alloc&) {
        threw = true;
      }
      const bool hit = vt::injected_failure_happened();
      vt::fail_nth_allocation(0);
      expect(threw || same, std::string(what) + ": allocation " + std::to_string(n) + "/" +
                                std::to_string(allocs) + (hit ? " failed" : " (not reached)") +
                                ": no std::bad_alloc and a different result");
    }
  };
  const voxrig::RvcChunk chunk = voxrig::rvc_make_chunk({'X', 'T', 'R', 'A'}, zeros);
  each_fails("sha256", sha_allocs, [&] { return voxrig::sha256(zeros) == want; });
  each_fails("Sha256Stream", sha_allocs + 4, [&] {
    voxrig::Sha256Stream h;
    h.update(zeros);
    return h.finish() == want;
  });
  each_fails("rvc_make_chunk", deflate_allocs, [&] {
    return voxrig::rvc_make_chunk({'X', 'T', 'R', 'A'}, zeros) == chunk &&
           chunk.flags == 1;  // 4 KiB of zeros deflate: a raw chunk means zlib failed silently
  });
  expect(voxrig::sha256(zeros) == want, "SHA-256 differs after injected failures");
  std::cout << "c-library hooks: SHA-256 " << sha_allocs << " and D4 deflate " << deflate_allocs
            << " counted allocations, each failure a std::bad_alloc or survived\n";
  return bad;
}

int usage() {
  std::cerr
      << "usage: voxrig_oom_sweep --golden DIR [--full] [--filter SUBSTR]\n"
         "Fails the N-th allocation of every entry point over every golden case: by default\n"
         "sampled N (1, the middle, the last, one past; only the middle for a job over 20 ms);\n"
         "--full runs N = 1.. until the\n"
         "operation completes without reaching the failure. Prints FINDING lines and a\n"
         "summary; exit 0 clean, 1 findings, 2 usage, 3 I/O.\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string golden, filter, skip;
  bool full = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--golden" && i + 1 < argc) {
      golden = argv[++i];
    } else if (a == "--filter" && i + 1 < argc) {
      filter = argv[++i];
    } else if (a == "--skip" && i + 1 < argc) {
      skip = argv[++i];
    } else if (a == "--full") {
      full = true;
    } else if (a == "--help") {
      usage();
      return 0;
    } else {
      return usage();
    }
  }
  if (golden.empty()) return usage();
  if (!vt::count_openssl_allocations()) {
    std::cerr << "voxrig_oom_sweep: OpenSSL allocated before CRYPTO_set_mem_functions\n";
    return 3;
  }
  const auto manifest_text = read_bytes(golden + "/manifest.json");
  if (!manifest_text) {
    std::cerr << "voxrig_oom_sweep: cannot read " << golden << "/manifest.json\n";
    return 3;
  }
  const auto manifest = nlohmann::json::parse(manifest_text->begin(), manifest_text->end());
  const auto start = std::chrono::steady_clock::now();
  Totals t;
  std::vector<Job> jobs;
  uint64_t cases = 0;
  for (const auto& c : manifest["cases"]) {
    const std::string id = c["id"];
    if (!filter.empty() && id.find(filter) == std::string::npos) continue;
    if (!skip.empty() && id.find(skip) != std::string::npos) continue;
    const auto bytes = read_bytes(golden + "/" + c["path"].get<std::string>());
    if (!bytes) {
      std::cerr << "voxrig_oom_sweep: cannot read " << c["path"] << "\n";
      return 3;
    }
    ++cases;
    // Every profile the case lists: vfp-static and vfp-rig decode different sections.
    for (const auto& [profile_name, unused] : c["expect"].items()) {
      auto profile = voxrig::profile_from_string(profile_name);
      if (profile) add_reader_jobs(id + "@" + profile_name, *bytes, *profile, jobs);
    }
  }
  for (const auto& c : manifest["compile_cases"]) {
    const std::string id = c["id"];
    if (!filter.empty() && id.find(filter) == std::string::npos) continue;
    if (!skip.empty() && id.find(skip) != std::string::npos) continue;
    const auto bytes = read_bytes(golden + "/" + c["path"].get<std::string>());
    if (!bytes) return 3;
    ++cases;
    const std::string text(bytes->begin(), bytes->end());
    jobs.push_back({id, "compile", [text](uint64_t n) {
                      auto e = inject(n, [&]() -> voxrig::Result<Bytes> {
                        auto r = voxrig::compile_vfp_json(text, voxrig::Limits{});
                        if (!r.ok()) return std::move(r).error();  // a move: no harness allocation
                        return voxrig::encode_vfp(*r);
                      });
                      return outcome_of(e, e.ok() ? text_of(*e) : std::string());
                    }});
  }
  t.findings += static_cast<uint64_t>(check_c_library_hooks());
  size_t done = 0;
  for (const Job& job : jobs) {
    sweep_job(job, full, t);
    if (++done % std::max<size_t>(1, jobs.size() / 10) == 0)
      std::cerr << "[" << done << "/" << jobs.size() << "] " << job.id << " " << job.entry << "\n";
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "oom sweep (" << (full ? "full" : "sampled") << "): " << cases << " cases, "
            << t.jobs << " case x entry point jobs, " << t.runs << " injected runs (" << t.oom
            << " internal.out_of_memory, " << t.same << " unaffected), " << t.findings
            << " findings, " << secs << " s\n";
  return t.findings == 0 ? 0 : 1;
}
