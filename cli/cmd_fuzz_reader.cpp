// voxrig fuzz-reader: differential fuzzing of a third-party reader against the reference
// (conformance.md "Beyond a fixed corpus"). The engine is voxrig::conform's fuzz_reader.h; this
// file gathers the seed files (golden + generated), the mutators (voxrig::testing), the runner
// (a process per input, or an in-process testee), prints progress and writes the results.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "golden_dir.h"
#include "voxrig/conform/corpus.h"
#include "voxrig/conform/fuzz_reader.h"
#include "voxrig/conform/process_pool.h"
#include "voxrig/conform/testee_loader.h"
#include "voxrig/testing/gen.h"
#include "voxrig/testing/layout.h"
#include "voxrig/testing/mutate.h"

namespace voxrig::cli {
namespace {

namespace fs = std::filesystem;
using namespace conform;

constexpr std::string_view kUsage =
    "usage: voxrig fuzz-reader (--reader 'COMMAND' | --testee LIB.so) --profile P\n"
    "                          [--seconds N] [--runs N] [--seed S] [--out DIR] [--jobs N]\n"
    "                          [--codes strict|loose] [--expected FILE] [--golden DIR]\n"
    "                          [--timeout SEC] [--minimize N] [--filter SUBSTR] [--generated N]\n"
    "Differential fuzzing: mutates golden and generated files (the fuzz targets' structure-aware\n"
    "mutators, which keep lengths and hashes consistent, and plain byte mutations), runs the\n"
    "reference (in process) and the reader on each input, and compares verdict, error code and\n"
    "dump as `voxrig conform` does. Each disagreement is minimized while it keeps its class\n"
    "(kind, expected, got, first differing dump path); classes are de-duplicated.\n"
    "  --reader CMD        run as `CMD dump --profile P FILE` (the reader protocol)\n"
    "  --testee LIB.so     an in-process reader exporting voxrig/testee.h's two symbols\n"
    "  --profile P         vfp-static, vfp-rig, rkc-strict or rkc-compat (required)\n"
    "  --seconds N         stop after N seconds (default 60; 0 = no time limit)\n"
    "  --runs N            stop after N executions; with --seed, reproduces a run exactly\n"
    "                      (execution i depends only on the seed and i, not on --jobs or time)\n"
    "  --seed S            run seed (default 1; decimal or 0x hex)\n"
    "  --out DIR           write report.json, expected-failures.txt, cases/<id>/ (the file,\n"
    "                      case.json = a ready-to-add case-source entry, finding.json = class,\n"
    "                      chain, seed) and corpus/ (a golden directory of the findings:\n"
    "                      `voxrig conform --golden DIR/corpus --reader CMD` re-runs them)\n"
    "  --jobs N            parallel reader processes (default: the number of CPUs)\n"
    "  --codes MODE        strict (default) compares error codes; loose only accept/reject\n"
    "  --expected FILE     expected-failure list (`ID PROFILE  # reason` lines, as written to\n"
    "                      DIR/expected-failures.txt): classes listed there are skipped\n"
    "  --golden DIR        the golden corpus the seed files come from (default: as conform)\n"
    "  --timeout SEC       per reader run; its process group is killed (default 10)\n"
    "  --minimize N        reader runs spent minimizing each class (default 300)\n"
    "  --filter SUBSTR     seed only from golden cases whose id contains SUBSTR\n"
    "  --generated N       generated seed files per format of the profile (`voxrig gen`'s\n"
    "                      generators, 1 in 4 negative; default 16, 0 = golden files only)\n"
    "Progress (execs/s, classes, time left) goes to stderr, the summary to stdout.\n"
    "Exit: 0 no disagreement, 4 disagreement found, 2 usage, 3 I/O.\n";

constexpr std::string_view kCodesChoices[] = {"strict", "loose"};
constexpr OptionSpec kOptions[] = {
    {"--reader", true},   {"--testee", true}, {"--profile", true, kProfileChoices},
    {"--seconds", true},  {"--runs", true},   {"--seed", true},
    {"--out", true},      {"--jobs", true},   {"--codes", true, kCodesChoices},
    {"--expected", true}, {"--golden", true}, {"--timeout", true},
    {"--minimize", true}, {"--filter", true}, {"--generated", true}};

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop(int) { g_stop = 1; }

/// An unsigned number (decimal or 0x hex) in [lo, hi], or a usage error naming the option.
bool number(const Args& args, std::string_view name, uint64_t lo, uint64_t hi, uint64_t& out) {
  auto v = args.last(name);
  if (!v) return true;
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(v->c_str(), &end, 0);
  if (v->empty() || *end || errno != 0 || (*v)[0] == '-' || n < lo || n > hi) {
    std::cerr << "voxrig fuzz-reader: " << name << " takes a number from " << lo << " to " << hi
              << ", got '" << *v << "'\n";
    return false;
  }
  out = n;
  return true;
}

bool seconds_option(const Args& args, std::string_view name, double lo, double& out) {
  auto v = args.last(name);
  if (!v) return true;
  char* end = nullptr;
  const double d = std::strtod(v->c_str(), &end);
  if (v->empty() || *end || !(d >= lo) || d > 1e7) {
    std::cerr << "voxrig fuzz-reader: " << name << " takes seconds (>= " << lo << "), got '" << *v
              << "'\n";
    return false;
  }
  out = d;
  return true;
}

/// The golden files of the profile plus generated files of its formats (valid and negative).
std::vector<FuzzSeed> seed_files(const Corpus& corpus, Profile profile, uint64_t seed,
                                 const std::string& filter, uint64_t generated) {
  std::vector<FuzzSeed> seeds;
  const std::string pn(to_string(profile));
  for (const auto& c : corpus.manifest.cases) {
    if (c.find(pn) == nullptr || c.id.find(filter) == std::string::npos) continue;
    if (auto bytes = read_regular_file(corpus.file(c.path)))
      seeds.push_back({"golden:" + c.id, std::move(*bytes)});
  }
  const bool vfp = profile == Profile::VfpStatic || profile == Profile::VfpRig;
  const std::vector<gen::GenFormat> formats =
      vfp ? std::vector{gen::GenFormat::Vfp}
          : std::vector{gen::GenFormat::Rkc, gen::GenFormat::Kv6, gen::GenFormat::Rvc,
                        gen::GenFormat::Kfa};
  for (gen::GenFormat f : formats)
    for (uint64_t i = 0; i < generated; ++i) {
      const uint64_t s = gen::case_seed(seed, i);
      const bool negative = i % 4 == 3;
      gen::GenCase g = gen::generate_case(f, s, gen::GenSize::Small, negative);
      char origin[96];
      std::snprintf(origin, sizeof origin, "gen:%s:seed=0x%llx%s",
                    std::string(gen::to_string(f)).c_str(), static_cast<unsigned long long>(s),
                    negative ? ":negative" : "");
      seeds.push_back({origin, std::move(g.bytes)});
    }
  return seeds;
}

/// A mutator over a grown copy of the input (room for structural growth).
FuzzMutator structured(std::string name, size_t (*fn)(uint8_t*, size_t, size_t, unsigned,
                                                      const testing::ByteMutator&)) {
  return {std::move(name), [fn](std::span<const uint8_t> in, uint64_t seed) {
            FuzzBytes b(in.begin(), in.end());
            b.resize(in.size() + 8192);
            const testing::ByteMutator bytes = testing::plain_byte_mutator(seed);
            b.resize(fn(b.data(), in.size(), b.size(), unsigned(seed), bytes));
            return b;
          }};
}

std::vector<FuzzMutator> mutators_for(Profile profile) {
  std::vector<FuzzMutator> m;
  if (profile == Profile::VfpStatic || profile == Profile::VfpRig) {
    m.push_back(structured("vfp-structure", [](uint8_t* d, size_t n, size_t max, unsigned seed,
                                               const testing::ByteMutator& b) {
      return testing::mutate_vfp(d, n, max, seed, b, true);
    }));
    m.push_back(structured("vfp-stale-hashes", [](uint8_t* d, size_t n, size_t max, unsigned seed,
                                                  const testing::ByteMutator& b) {
      return testing::mutate_vfp(d, n, max, seed, b, false);
    }));
  } else {
    m.push_back(structured("rkc-structure", [](uint8_t* d, size_t n, size_t max, unsigned seed,
                                               const testing::ByteMutator& b) {
      return testing::mutate_rkc(d, n, max, seed, b);
    }));
    m.push_back(structured("rvc-structure", [](uint8_t* d, size_t n, size_t max, unsigned seed,
                                               const testing::ByteMutator& b) {
      return testing::mutate_rvc(d, n, max, seed, b);
    }));
  }
  m.push_back({"bytes", [](std::span<const uint8_t> in, uint64_t seed) {
                 FuzzBytes b(in.begin(), in.end());
                 b.resize(in.size() + 64);
                 b.resize(testing::mutate_plain_bytes(b.data(), in.size(), b.size(), seed));
                 return b;
               }});
  return m;
}

/// Minimization's structural step: the input with one section / chunk dropped, lengths and
/// counts recomputed, once with the hashes rebound and once as they were.
std::vector<FuzzBytes> drop_one_part(std::span<const uint8_t> in) {
  std::vector<FuzzBytes> out;
  const auto split = testing::split(in);
  if (!split || split->container == testing::Container::Rvc) return out;
  for (size_t k = 0; k < split->parts.size(); ++k) {
    testing::Split s = *split;
    s.parts.erase(s.parts.begin() + ptrdiff_t(k));
    out.push_back(testing::join(s));
    if (s.container == testing::Container::Vfp) {
      testing::rebind_split(s, true);
      out.push_back(testing::join(s));
    }
  }
  return out;
}

std::string make_temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/voxrig-fuzz-reader-XXXXXX";
  return ::mkdtemp(templ.data()) ? templ : "";
}

int run(const Args& args) {
  if (!args.positional.empty()) {
    std::cerr << "voxrig fuzz-reader: unexpected argument '" << args.positional[0]
              << "' (see --help)\n";
    return kExitUsage;
  }
  const auto reader = args.last("--reader");
  const auto testee_path = args.last("--testee");
  if (reader.has_value() == testee_path.has_value()) {
    std::cerr << "voxrig fuzz-reader: give exactly one of --reader 'COMMAND' and --testee LIB.so\n";
    return kExitUsage;
  }
  if (reader && reader->find_first_not_of(" \t") == std::string::npos) {
    std::cerr << "voxrig fuzz-reader: --reader needs a command\n";
    return kExitUsage;
  }
  const auto profile_name = args.last("--profile");
  const auto profile = profile_name ? profile_from_string(*profile_name) : std::nullopt;
  if (!profile) {
    std::cerr << "voxrig fuzz-reader: --profile takes vfp-static, vfp-rig, rkc-strict or "
                 "rkc-compat"
              << (profile_name ? ", got '" + *profile_name + "'" : std::string(" (required)"))
              << "\n";
    return kExitUsage;
  }
  FuzzOptions o;
  o.profile = *profile;
  uint64_t jobs = available_cpus(), minimize = o.minimize_budget, generated = 16;
  double timeout = 10;
  if (!number(args, "--runs", 1, uint64_t{1} << 40, o.runs) ||
      !number(args, "--seed", 0, UINT64_MAX, o.seed) || !number(args, "--jobs", 1, 64, jobs) ||
      !number(args, "--minimize", 0, 1000000, minimize) ||
      !number(args, "--generated", 0, 100000, generated) ||
      !seconds_option(args, "--timeout", 0.001, timeout))
    return kExitUsage;
  o.minimize_budget = minimize;
  o.reduce = drop_one_part;
  // --runs alone is a reproducible run: no time limit unless --seconds is given too.
  o.seconds = o.runs != 0 ? 0 : 60;
  if (!seconds_option(args, "--seconds", 0, o.seconds)) return kExitUsage;
  if (auto c = args.last("--codes")) {
    if (*c != "strict" && *c != "loose") {
      std::cerr << "voxrig fuzz-reader: --codes takes strict or loose, got '" << *c << "'\n";
      return kExitUsage;
    }
    o.codes = *c == "strict" ? CodeMode::Strict : CodeMode::Loose;
  }
  FuzzRunInfo info;
  if (auto x = args.last("--expected")) {
    auto text = read_file(*x);
    if (!text) return kExitIo;
    const ExpectedFailureList list = parse_expected_failures(as_text(*text));
    for (const auto& p : list.problems)
      std::cerr << "voxrig fuzz-reader: " << *x << ": " << p << "\n";
    if (!list.problems.empty()) return kExitUsage;
    for (const auto& e : list.entries)
      if (e.profile == to_string(o.profile)) o.known.insert(e.id);
    info.expected = *x;
  }
  const auto out_dir = args.last("--out");

  std::vector<std::string> tried;
  const auto golden = find_golden(args.last("--golden"), tried);
  if (!golden) {
    std::cerr << "voxrig fuzz-reader: no golden corpus found (tried";
    for (const auto& t : tried) std::cerr << " " << t;
    std::cerr << "); pass --golden DIR\n";
    return kExitIo;
  }
  Corpus corpus;
  std::vector<std::string> problems;
  if (const CorpusStatus s = load_corpus(*golden, corpus, problems); s != CorpusStatus::Ok) {
    print_corpus_problems(problems);
    return s == CorpusStatus::Mismatch ? kExitFailed : kExitIo;
  }
  const std::vector<FuzzSeed> seeds =
      seed_files(corpus, o.profile, o.seed, args.last("--filter").value_or(""), generated);
  if (seeds.empty()) {
    std::cerr << "voxrig fuzz-reader: no seed files (no golden case of " << to_string(o.profile)
              << " matches --filter, and --generated is 0)\n";
    return kExitUsage;
  }
  const std::vector<FuzzMutator> mutators = mutators_for(o.profile);

  std::unique_ptr<Testee> testee;
  std::string work;
  FuzzRunner runner;
  if (testee_path) {
    std::string error;
    testee = Testee::load(*testee_path, &error);
    if (!testee) {
      std::cerr << "voxrig fuzz-reader: " << error << "\n";
      return kExitIo;
    }
    jobs = 1;  // the ABI promises a testee one call at a time
    runner = testee_runner(*testee, o.profile);
    info.reader = "testee:" + *testee_path;
  } else {
    if ((work = make_temp_dir()).empty()) {
      std::cerr << "voxrig fuzz-reader: cannot create a temporary directory\n";
      return kExitIo;
    }
    PoolOptions pool;
    pool.parallel = unsigned(jobs);
    pool.timeout_seconds = timeout;
    runner = process_runner(*reader, o.profile, work, pool);
    info.reader = *reader;
  }
  o.batch = testee ? 64 : size_t(jobs) * 4;

  info.profile = o.profile;
  info.codes = o.codes;
  info.seed = o.seed;
  info.runs = o.runs;
  info.seconds = o.seconds;
  info.jobs = unsigned(jobs);
  info.seeds = seeds.size();
  for (const auto& m : mutators) info.mutators.push_back(m.name);
  std::cerr << "fuzz-reader: " << info.reader << " under " << to_string(o.profile) << ", "
            << seeds.size() << " seed files, seed 0x" << std::hex << o.seed << std::dec << ", "
            << (o.runs ? std::to_string(o.runs) + " runs" : std::to_string(int(o.seconds)) + " s")
            << "\n";

  double last = -1;
  o.progress = [&](uint64_t execs, size_t classes, double elapsed) {
    if (elapsed - last < 1.0) return;
    last = elapsed;
    char line[160];
    const double left = o.seconds > 0 ? std::max(0.0, o.seconds - elapsed) : 0;
    std::snprintf(line, sizeof line, "\rfuzz-reader: %llu execs (%.0f/s), %zu classes, %s   ",
                  static_cast<unsigned long long>(execs), elapsed > 0 ? execs / elapsed : 0.0,
                  classes,
                  o.seconds > 0 ? (std::to_string(int(left)) + " s left").c_str()
                                : (std::to_string(o.runs - execs) + " runs left").c_str());
    std::cerr << line << std::flush;
  };
  g_stop = 0;
  struct sigaction sa {
  }, old_int{}, old_term{};
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  o.stop = [] { return g_stop != 0; };
  const FuzzResult result = fuzz_reader(seeds, mutators, runner, o);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  if (!work.empty()) {
    std::error_code ec;
    fs::remove_all(work, ec);
  }
  if (last >= 0) std::cerr << "\n";

  std::cout << fuzz_summary_text(info, result);
  if (out_dir) {
    std::error_code ec;
    for (const FuzzOutputFile& f : fuzz_output_files(info, result, seeds, mutators)) {
      const fs::path p = fs::path(*out_dir) / f.path;
      fs::create_directories(p.parent_path(), ec);
      if (!write_file(p.string(), f.bytes)) return kExitIo;
    }
    std::cout << "written to " << *out_dir << " (report.json, cases/, corpus/)\n";
  }
  return result.findings.empty() ? kExitOk : kExitFailed;
}

}  // namespace

extern const Command kFuzzReader{
    "fuzz-reader", "differential fuzzing of a reader against the reference", kUsage, kOptions, run};

}  // namespace voxrig::cli
