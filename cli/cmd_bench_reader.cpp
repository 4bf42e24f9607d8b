// voxrig bench-reader: performance regression tracking for an implementer's own reader. Runs a
// perf corpus through the reader under test (in process through voxrig/testee.h, or as a
// process through the reader protocol) and through the reference in the same run, and writes
// Google Benchmark JSON that bench/compare.sh gates (docs/performance.md "Benchmarking your
// reader").
//
// The corpus is built on the fly from voxrig/testing/perf_inputs.h, the deterministic generators
// behind the library's own benchmarks (fixed seeds, std::mt19937_64 only: every machine builds the
// same bytes, in about a second), so a figure here and in voxrig_bench describe the same inputs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/any_format.h"
#include "voxrig/conform/conform.h"
#include "voxrig/conform/process_pool.h"
#include "voxrig/conform/testee_loader.h"
#include "voxrig/rkc.h"
#include "voxrig/testing/perf_inputs.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig bench-reader (--testee LIB.so | --reader COMMAND) [-o OUT.json]\n"
    "                           [--repetitions N] [--min-time SECONDS] [--quick]\n"
    "                           [--profile LIST]\n"
    "Times a reader on the perf corpus (large VOX0 grids, 64-joint rigs with 30-key clips on\n"
    "every joint, RKCH characters with KV6 meshes and RVC voxel clips; generated on the fly,\n"
    "deterministically, the benchmarks' own inputs) next to the reference, in one run, and\n"
    "writes Google Benchmark JSON (to OUT.json, else stdout) that bench/compare.sh can gate:\n"
    "  READER/<case>      the reader under test (time per dump, bytes_per_second)\n"
    "  REFERENCE/<case>   voxrig's own dump of the same bytes (marked baseline=1)\n"
    "  READER/process_startup  (--reader only) COMMAND --help: the fixed cost of one process,\n"
    "                     measured on its own and NOT subtracted from READER/<case>\n"
    "--testee LIB.so   an in-process testee (voxrig/testee.h; dlopen, same process)\n"
    "--reader COMMAND  the reader protocol: COMMAND dump --profile P FILE, run through sh\n"
    "--repetitions N   repetitions per case, interleaved round-robin (default 5)\n"
    "--min-time S      minimum time per repetition (default 0.2; the process mode runs at\n"
    "                  least 3 dumps per repetition)\n"
    "--quick           a small corpus (CI smoke runs)\n"
    "--profile LIST    only the cases of these profiles (comma-separated; the corpus has\n"
    "                  vfp-static, vfp-rig and rkc-strict cases): for a reader that supports\n"
    "                  some profiles only, e.g. --profile vfp-static\n"
    "Every dump is checked once first: a reader that rejects or fails a corpus file, or whose\n"
    "dump differs from the reference's (compared as JSON values, as voxrig conform does), is\n"
    "reported and the command exits 4 (no JSON).\n"
    "Exit: 0 written, 2 usage, 3 I/O (library not loadable, file not writable), 4 check failed.\n";

constexpr OptionSpec kOptions[] = {{"--testee", true},
                                   {"--reader", true},
                                   {"-o", true},
                                   {"--repetitions", true},
                                   {"--min-time", true},
                                   {"--quick", false},
                                   {"--profile", true, kProfileChoices, true}};

struct Case {
  std::string name;
  Profile profile;
  std::vector<uint8_t> bytes;
};

std::vector<uint8_t> vfp_bytes(const VfpFile& f) { return perf::must(encode_vfp(f), "VFP encode"); }

VfpFile static_only(VfpFile f) {
  std::erase_if(f.sections, [](const Section& s) { return !std::holds_alternative<Vox0>(s.body); });
  return f;
}

std::vector<Case> corpus(bool quick) {
  using perf::GridKind;
  std::vector<Case> out;
  const uint32_t big = quick ? 32 : 128, rig = quick ? 16 : 64;
  const auto grid_case = [&](GridKind kind, uint32_t n) {
    out.push_back({"vfp_static/" + std::string(perf::grid_name(kind)) + "/" + std::to_string(n),
                   Profile::VfpStatic, vfp_bytes(static_only(perf::rig_file(kind, n, 1)))});
  };
  grid_case(GridKind::Sphere, big);
  grid_case(GridKind::Random50, big);
  for (GridKind kind : {GridKind::Random50, GridKind::Terrain}) {
    out.push_back({"vfp_rig/" + std::string(perf::grid_name(kind)) + "_j64/" + std::to_string(rig),
                   Profile::VfpRig, vfp_bytes(perf::rig_file(kind, rig, 64))});
  }
  for (uint32_t bones : quick ? std::vector<uint32_t>{1, 10} : std::vector<uint32_t>{1, 10, 50}) {
    out.push_back({"rkch/vclp/" + std::to_string(bones), Profile::RkcStrict,
                   perf::must(encode_rkc(perf::character(bones, true)), "RKCH encode")});
  }
  return out;
}

// One timed unit of work: returns false (and says why) when the reader did not accept the file.
using Work = std::function<bool(std::string& why)>;

struct Series {
  std::string name;
  uint64_t bytes = 0;  // per call
  bool baseline = false;
  Work work;
  std::vector<std::pair<uint64_t, double>> reps;  // (iterations, seconds) per repetition
};

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One repetition: calls work() until min_time has passed (at least `min_calls` times).
bool run_rep(Series& s, double min_time, uint64_t min_calls, std::string& why) {
  const double start = now_seconds();
  uint64_t n = 0;
  double elapsed = 0;
  while (n < min_calls || elapsed < min_time) {
    if (!s.work(why)) return false;
    ++n;
    elapsed = now_seconds() - start;
  }
  s.reps.emplace_back(n, elapsed);
  return true;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Google Benchmark's JSON shape (what compare.py, gate.py and report.py read): one entry per
// repetition with run_name, run_type "iteration", times in ns, bytes_per_second, and
// baseline = 1 on the reference's rows (gate.py never gates those).
std::string to_json(const std::vector<Series>& all, const std::string& mode,
                    const std::string& who) {
  std::ostringstream j;
  j << "{\n  \"context\": {\"executable\": \"voxrig bench-reader\", \"bench_reader_mode\": "
    << json_string(mode) << ", \"reader\": " << json_string(who)
    << ", \"num_cpus\": " << std::max(1u, std::thread::hardware_concurrency())
    << ", \"library_build_type\": \"release\"},\n  \"benchmarks\": [";
  bool first = true;
  for (const Series& s : all) {
    for (size_t r = 0; r < s.reps.size(); ++r) {
      const auto [iters, secs] = s.reps[r];
      const double ns = secs * 1e9 / static_cast<double>(iters);
      j << (first ? "\n" : ",\n") << "    {\"name\": " << json_string(s.name)
        << ", \"run_name\": " << json_string(s.name) << ", \"run_type\": \"iteration\""
        << ", \"repetitions\": " << s.reps.size() << ", \"repetition_index\": " << r
        << ", \"threads\": 1, \"iterations\": " << iters << ", \"real_time\": "
        << number(ns)
        // Wall time for both: a reader process's CPU time is not this process's to read.
        << ", \"cpu_time\": " << number(ns) << ", \"time_unit\": \"ns\"";
      if (s.bytes != 0)
        j << ", \"bytes_per_second\": " << number(static_cast<double>(s.bytes) * 1e9 / ns);
      if (s.baseline) j << ", \"baseline\": 1";
      j << "}";
      first = false;
    }
  }
  j << "\n  ]\n}\n";
  return j.str();
}

int run(const Args& args) {
  const auto testee_path = args.last("--testee");
  const auto reader = args.last("--reader");
  if (testee_path.has_value() == reader.has_value()) {
    std::cerr << "bench-reader: give exactly one of --testee LIB.so or --reader COMMAND\n";
    return kExitUsage;
  }
  if (!args.positional.empty()) {
    std::cerr << "bench-reader: unexpected argument '" << args.positional[0] << "'\n";
    return kExitUsage;
  }
  int reps = 5;
  double min_time = 0.2;
  try {
    if (auto v = args.last("--repetitions")) reps = std::stoi(*v);
    if (auto v = args.last("--min-time")) min_time = std::stod(*v);
  } catch (const std::exception&) {
    reps = -1;
  }
  if (reps < 1 || reps > 1000 || !(min_time >= 0 && min_time <= 60)) {
    std::cerr << "bench-reader: --repetitions must be 1..1000 and --min-time 0..60 seconds\n";
    return kExitUsage;
  }

  std::unique_ptr<conform::Testee> testee;
  if (testee_path) {
    std::string error;
    testee = conform::Testee::load(*testee_path, &error);
    if (!testee) {
      std::cerr << "bench-reader: --testee: " << error << "\n";
      return kExitIo;
    }
  }
  std::cerr << "bench-reader: building the perf corpus\n";
  std::vector<Case> cases = corpus(args.has("--quick"));
  if (const auto wanted = args.last("--profile")) {
    const std::string list = "," + *wanted + ",";
    std::erase_if(cases, [&](const Case& c) {
      return list.find("," + std::string(to_string(c.profile)) + ",") == std::string::npos;
    });
    if (cases.empty()) {
      std::cerr << "bench-reader: --profile " << *wanted
                << ": the perf corpus has no case of these profiles (it has vfp-static, vfp-rig, "
                   "rkc-strict)\n";
      return kExitUsage;
    }
  }

  // The process mode needs the corpus as files.
  std::filesystem::path dir;
  std::vector<std::string> files;
  if (reader) {
    std::error_code ec;
    dir = std::filesystem::temp_directory_path(ec) /
          ("voxrig-bench-reader-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir, ec);
    for (const Case& c : cases) {
      std::string leaf = c.name;
      std::replace(leaf.begin(), leaf.end(), '/', '_');
      files.push_back((dir / leaf).string());
      if (ec || !write_file(files.back(), c.bytes)) {
        std::cerr << "bench-reader: cannot write the corpus under " << dir.string() << "\n";
        return kExitIo;
      }
    }
  }
  const auto cleanup = [&] {
    if (!dir.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  };

  // One process run of the reader; `out` receives its stdout.
  const auto run_reader = [&](std::vector<std::string> extra, std::string& out, int& exit) {
    conform::PoolOptions po;
    po.timeout_seconds = 120;
    bool ran = false;
    conform::run_processes({conform::ProcessJob{conform::shell_command(*reader, extra)}}, po,
                           [&](size_t, conform::RunOutcome&& o) {
                             ran = o.started && !o.timed_out;
                             out = std::move(o.out);
                             exit = o.exit_code;
                           });
    return ran;
  };

  std::vector<Series> all;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::string profile(to_string(c.profile));
    const Limits limits;
    Series ref{"REFERENCE/" + c.name,
               c.bytes.size(),
               true,
               [&c, limits](std::string& why) {
                 auto r = dump_any(c.bytes, c.profile, limits);
                 if (!r.ok()) why = r.error().to_text();
                 return r.ok();
               },
               {}};
    Series sut{"READER/" + c.name, c.bytes.size(), false, {}, {}};
    if (testee) {
      sut.work = [&c, &testee, profile](std::string& why) {
        const conform::TesteeOutcome o = testee->dump(c.bytes, profile);
        if (o.status != conform::TesteeStatus::Accept)
          why = std::string(to_string(o.status)) + ": " + o.text;
        return o.status == conform::TesteeStatus::Accept;
      };
    } else {
      sut.work = [&, i, profile](std::string& why) {
        std::string out;
        int exit = -1;
        if (!run_reader({"dump", "--profile", profile, files[i]}, out, exit) || exit != 0) {
          why = "exit " + std::to_string(exit);
          return false;
        }
        return true;
      };
    }
    // The check before timing: accepted, and the same dump as the reference, compared as JSON
    // values (conformance.md: key order and whitespace are free, numbers typed by the
    // reference's spelling), as `voxrig conform` and `fuzz-reader` compare them.
    const std::string want = perf::must(dump_any(c.bytes, c.profile, limits), "reference dump");
    std::string got, refused;
    if (testee) {
      const conform::TesteeOutcome o = testee->dump(c.bytes, profile);
      got = o.text;
      if (o.status != conform::TesteeStatus::Accept)
        refused =
            std::string(to_string(o.status)) + (o.text.empty() ? "" : ": ") + o.text.substr(0, 200);
    } else {
      int exit = -1;
      if (!run_reader({"dump", "--profile", profile, files[i]}, got, exit) || exit != 0)
        refused = "exit " + std::to_string(exit) + (got.empty() ? "" : ": ") + got.substr(0, 200);
    }
    std::string differs;
    if (refused.empty()) {
      const conform::JsonDiff diff = conform::compare_dump_json(want, got);
      if (diff.outcome != conform::JsonCompare::Equal)
        differs = diff.path.empty() ? diff.detail : diff.path + ": " + diff.detail;
    }
    if (!refused.empty() || !differs.empty()) {
      std::cerr << "bench-reader: " << c.name << " (" << profile << "): "
                << (refused.empty() ? "the reader's dump differs from the reference's: " + differs
                                    : "the reader did not accept it (" + refused +
                                          "); --profile restricts the corpus to the profiles "
                                          "a reader supports")
                << "\n";
      cleanup();
      return kExitFailed;
    }
    all.push_back(std::move(sut));
    all.push_back(std::move(ref));
  }
  if (reader) {
    all.push_back({"READER/process_startup",
                   0,
                   false,
                   [&](std::string& why) {
                     std::string out;
                     int exit = -1;
                     const bool ok = run_reader({"--help"}, out, exit);
                     if (!ok) why = "could not run the reader";
                     return ok;
                   },
                   {}});
  }

  // Round-robin over the series, one repetition each per round: a slow phase of a shared
  // machine hits every series a little rather than one a lot.
  const uint64_t min_calls = reader ? 3 : 1;
  for (int r = 0; r < reps; ++r) {
    for (size_t s = 0; s < all.size(); ++s) {
      std::string why;
      if (!run_rep(all[s], min_time, min_calls, why)) {
        std::cerr << "bench-reader: " << all[s].name << " failed while timing: " << why << "\n";
        cleanup();
        return kExitFailed;
      }
      std::cerr << "[" << r * all.size() + s + 1 << "/" << reps * all.size() << "] " << all[s].name
                << "\n";
    }
  }
  cleanup();
  const std::string json =
      to_json(all, testee ? "testee" : "reader", testee ? *testee_path : *reader);
  if (auto out = args.last("-o")) {
    if (!write_file(*out, json)) {
      std::cerr << "bench-reader: cannot write " << *out << "\n";
      return kExitIo;
    }
  } else {
    std::cout << json;
  }
  return kExitOk;
}

}  // namespace

extern const Command kBenchReader{"bench-reader",
                                  "time a reader (testee library or command) against the reference",
                                  kUsage, kOptions, run};

}  // namespace voxrig::cli
