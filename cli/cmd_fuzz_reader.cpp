// voxrig fuzz-reader: differential fuzzing of a third-party reader against the reference
// (docs/spec/protocols.md). The run is the library's run_fuzz_reader()
// (voxrig/conform/fuzz_reader.h) with voxrig::testing's mutators and generated seed files; this
// file parses the options, stops the run on SIGINT / SIGTERM, prints progress and the summary and
// writes the results.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "golden_dir.h"
#include "option_values.h"
#include "voxrig/conform/fuzz_reader.h"
#include "voxrig/testing/fuzz_inputs.h"
#include "voxrig/testing/rule_breakers.h"

namespace voxrig::cli {
namespace {

using namespace conform;

constexpr std::string_view kUsage =
    "usage: voxrig fuzz-reader (--reader 'COMMAND' | --testee LIB.so) --profile P\n"
    "                          [--seconds N] [--runs N] [--seed S] [--out DIR] [--jobs N]\n"
    "                          [--codes strict|loose] [--expected FILE] [--golden DIR]\n"
    "                          [--timeout SEC] [--minimize N] [--filter SUBSTR] [--generated N]\n"
    "                          [--protocol auto|serve|oneshot] [--breakers on|off]\n"
    "Differential fuzzing: mutates golden and generated files (the fuzz targets' structure-aware\n"
    "mutators, which keep lengths and hashes consistent, and plain byte mutations), runs the\n"
    "reference (in process) and the reader on each input, and compares verdict, error code and\n"
    "dump as `voxrig conform` does. Each disagreement is minimized while it keeps its class\n"
    "(kind, expected, got, first differing dump path); classes are de-duplicated.\n"
    "  --reader CMD        run as `CMD dump --profile P FILE` (the reader protocol)\n"
    "  --protocol P        auto (default): `CMD serve` (one process per job, JSON lines;\n"
    "                      docs/spec/protocols.md) when it answers hello, else a process per\n"
    "                      input; serve: require it (exit 2 if not); oneshot: never\n"
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
    "  --breakers on|off   on (default): first break each rule at first/middle/last/deep\n"
    "                      elements of deep seed files (report.json \"rules\"), then stack\n"
    "  --generated N       generated seed files per format of the profile (`voxrig gen`'s\n"
    "                      generators, 1 in 4 negative; default 16, 0 = golden files only)\n"
    "Progress (execs/s, classes, time left) goes to stderr, the summary to stdout.\n"
    "Exit: 0 no disagreement, 4 disagreement found, 2 usage, 3 I/O.\n";

constexpr std::string_view kCodesChoices[] = {"strict", "loose"};
constexpr std::string_view kOnOff[] = {"on", "off"};
constexpr OptionSpec kOptions[] = {
    {"--protocol", true, kProtocolChoices},
    {"--reader", true},   {"--testee", true}, {"--profile", true, kProfileChoices},
    {"--seconds", true},  {"--runs", true},   {"--seed", true},
    {"--out", true},      {"--jobs", true},   {"--codes", true, kCodesChoices},
    {"--expected", true}, {"--golden", true}, {"--timeout", true},
    {"--minimize", true}, {"--filter", true}, {"--generated", true},
    {"--breakers", true, kOnOff}};

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop(int) { g_stop = 1; }

// The options that shape the run: reader, profile, budgets, codes. Returns kExitOk or
// kExitUsage after one line.
int parse_run(const Args& args, FuzzReaderRun& run, uint64_t& generated) {
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
  run.command = reader.value_or("");
  const auto profile_name = args.last("--profile");
  const auto profile = profile_name ? profile_from_string(*profile_name) : std::nullopt;
  if (!profile) {
    std::cerr << "voxrig fuzz-reader: --profile takes vfp-static, vfp-rig, rkc-strict or "
                 "rkc-compat"
              << (profile_name ? ", got '" + *profile_name + "'" : std::string(" (required)"))
              << "\n";
    return kExitUsage;
  }
  FuzzOptions& o = run.options;
  o.profile = *profile;
  uint64_t jobs = available_cpus(), minimize = o.minimize_budget;
  const std::string_view who = "fuzz-reader";
  if (!number_option(args, who, "--runs", 1, uint64_t{1} << 40, o.runs) ||
      !number_option(args, who, "--seed", 0, UINT64_MAX, o.seed) ||
      !number_option(args, who, "--jobs", 1, 64, jobs) ||
      !number_option(args, who, "--minimize", 0, 1000000, minimize) ||
      !number_option(args, who, "--generated", 0, 100000, generated) ||
      !seconds_option(args, who, "--timeout", 0.001, 1e7, run.timeout_seconds))
    return kExitUsage;
  run.jobs = unsigned(jobs);
  o.minimize_budget = minimize;
  // --runs alone is a reproducible run: no time limit unless --seconds is given too.
  o.seconds = o.runs != 0 ? 0 : 60;
  if (!seconds_option(args, who, "--seconds", 0, 1e7, o.seconds)) return kExitUsage;
  o.codes = args.last("--codes") == "loose" ? CodeMode::Loose : CodeMode::Strict;
  run.filter = args.last("--filter").value_or("");
  run.protocol = protocol_option(args);
  return kExitOk;
}

// --expected: the classes to skip. Returns kExitOk, kExitIo or kExitUsage.
int read_expected(const Args& args, FuzzReaderRun& run) {
  const auto x = args.last("--expected");
  if (!x) return kExitOk;
  auto text = read_file(*x);
  if (!text) return kExitIo;
  const ExpectedFailureList list = parse_expected_failures(as_text(*text));
  for (const auto& p : list.problems)
    std::cerr << "voxrig fuzz-reader: " << *x << ": " << p << "\n";
  if (!list.problems.empty()) return kExitUsage;
  for (const auto& e : list.entries)
    if (e.profile == to_string(run.options.profile)) run.options.known.insert(e.id);
  run.expected = *x;
  return kExitOk;
}

// Progress about once a second on stderr, rewritten in place.
void show_progress(const FuzzOptions& o, double& last, uint64_t execs, size_t classes,
                   double elapsed) {
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
}

// The run, with SIGINT / SIGTERM turned into a stop between batches.
FuzzReaderOutcome run_stoppable(FuzzReaderRun& run) {
  g_stop = 0;
  struct sigaction sa {
  }, old_int{}, old_term{};
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  run.options.stop = [] { return g_stop != 0; };
  FuzzReaderOutcome out = run_fuzz_reader(run);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return out;
}

// The exit code of a run that did not happen, after its lines.
int not_run(const FuzzReaderRun& run, const FuzzReaderOutcome& out) {
  if (out.status == FuzzRunStatus::NoSeeds) {
    std::cerr << "voxrig fuzz-reader: no seed files (no golden case of "
              << to_string(run.options.profile) << " matches --filter, and --generated is 0)\n";
    return kExitUsage;
  }
  if (out.status == FuzzRunStatus::NoServe) {
    std::cerr << "voxrig fuzz-reader: " << out.problems[0] << "\n";
    return kExitUsage;
  }
  if (out.problems.size() == 1 && out.problems[0] == "cannot create a temporary directory")
    std::cerr << "voxrig fuzz-reader: " << out.problems[0] << "\n";
  else
    print_corpus_problems(out.problems);
  return out.status == FuzzRunStatus::CorpusMismatch ? kExitFailed : kExitIo;
}

int run(const Args& args) {
  FuzzReaderRun run;
  uint64_t generated = 16;
  if (int rc = parse_run(args, run, generated); rc != kExitOk) return rc;
  if (int rc = read_expected(args, run); rc != kExitOk) return rc;
  std::vector<std::string> tried;
  const auto golden = find_golden(args.last("--golden"), tried);
  if (!golden) {
    std::cerr << "voxrig fuzz-reader: no golden corpus found (tried";
    for (const auto& t : tried) std::cerr << " " << t;
    std::cerr << "); pass --golden DIR\n";
    return kExitIo;
  }
  run.golden_dir = *golden;
  run.extra_seeds = testing::generated_seeds(run.options.profile, run.options.seed, generated);
  run.mutators = testing::reader_mutators(run.options.profile);
  if (args.last("--breakers") != "off") testing::add_rule_breakers(run);
  run.options.reduce = testing::drop_one_part;
  std::unique_ptr<Testee> testee;
  if (const auto path = args.last("--testee")) {
    std::string error;
    if (!(testee = Testee::load(*path, &error))) {
      std::cerr << "voxrig fuzz-reader: " << error << "\n";
      return kExitIo;
    }
    run.testee = testee.get();
  }
  run.started = [&](const FuzzRunInfo& info) {
    const FuzzOptions& o = run.options;
    std::cerr << "voxrig fuzz-reader: " << info.reader << " (" << info.protocol << ") under "
              << to_string(o.profile) << ", "
              << info.seeds << " seed files, seed 0x" << std::hex << o.seed << std::dec << ", "
              << (o.runs ? std::to_string(o.runs) + " runs" : std::to_string(int(o.seconds)) + " s")
              << "\n";
  };
  double last = -1;
  run.options.progress = [&](uint64_t execs, size_t classes, double elapsed) {
    show_progress(run.options, last, execs, classes, elapsed);
  };
  const FuzzReaderOutcome out = run_stoppable(run);
  if (out.status != FuzzRunStatus::Ran) return not_run(run, out);
  if (last >= 0) std::cerr << "\n";
  std::cout << fuzz_summary_text(out.info, out.result);
  if (const auto dir = args.last("--out")) {
    if (const std::string error = write_fuzz_output(*dir, out); !error.empty()) {
      std::cerr << "voxrig: " << error << "\n";
      return kExitIo;
    }
    std::cout << "written to " << *dir << " (report.json, cases/, corpus/)\n";
  }
  return out.result.findings.empty() ? kExitOk : kExitFailed;
}

}  // namespace

extern const Command kFuzzReader{
    "fuzz-reader", "differential fuzzing of a reader against the reference", kUsage, kOptions, run};

}  // namespace voxrig::cli
