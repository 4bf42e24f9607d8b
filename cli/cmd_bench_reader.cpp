// voxrig bench-reader: performance regression tracking for an implementer's own reader. The
// timing is the library's bench_reader() (voxrig/conform/bench_reader.h) on the perf corpus of
// voxrig/testing/perf_corpus.h; this file parses the options, loads a testee, prints progress
// and writes the JSON.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "option_values.h"
#include "voxrig/conform/bench_reader.h"
#include "voxrig/testing/perf_corpus.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig bench-reader (--testee LIB.so | --reader COMMAND) [-o OUT.json]\n"
    "                           [--repetitions N] [--min-time SECONDS] [--quick]\n"
    "                           [--profile LIST] [--protocol auto|serve|oneshot]\n"
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
    "--protocol P      auto (default): `COMMAND serve` (one persistent process, JSON lines;\n"
    "                  docs/spec/protocols.md) when it answers hello, else a process per\n"
    "                  dump; serve: require it (exit 2 if not); oneshot: never\n"
    "--repetitions N   repetitions per case, interleaved round-robin (default 5)\n"
    "--min-time S      minimum time per repetition (default 0.2; the process mode runs at\n"
    "                  least 3 dumps per repetition)\n"
    "--quick           a small corpus (CI smoke runs)\n"
    "--profile LIST    only the cases of these profiles (comma-separated; the corpus has\n"
    "                  vfp-static, vfp-rig and rkc-strict cases): for a reader that supports\n"
    "                  some profiles only, e.g. --profile vfp-static. Without it, a serve\n"
    "                  reader runs only the profiles its hello claims\n"
    "Every dump is checked once first: a reader that rejects or fails a corpus file, or whose\n"
    "dump differs from the reference's (compared as JSON values, as voxrig conform does), is\n"
    "reported and the command exits 4 (no JSON).\n"
    "Exit: 0 written, 2 usage (or --protocol serve and no serve), 3 I/O (library not loadable,\n"
    "file not writable), 4 check failed.\n";

constexpr OptionSpec kOptions[] = {{"--testee", true},
                                   {"--reader", true},
                                   {"-o", true},
                                   {"--repetitions", true},
                                   {"--min-time", true},
                                   {"--quick", false},
                                   {"--protocol", true, kProtocolChoices},
                                   {"--profile", true, kProfileChoices, true}};

// The perf corpus, restricted to --profile. Empty after one line when nothing is left.
std::vector<conform::BenchCase> corpus(const Args& args) {
  std::cerr << "voxrig bench-reader: building the perf corpus\n";
  std::vector<conform::BenchCase> cases = perf::reader_corpus(args.has("--quick"));
  if (const auto wanted = args.last("--profile")) {
    const std::string list = "," + *wanted + ",";
    std::erase_if(cases, [&](const conform::BenchCase& c) {
      return list.find("," + std::string(to_string(c.profile)) + ",") == std::string::npos;
    });
    if (cases.empty())
      std::cerr << "voxrig bench-reader: --profile " << *wanted
                << ": the perf corpus has no case of these profiles (it has vfp-static, vfp-rig, "
                   "rkc-strict)\n";
  }
  return cases;
}

int run(const Args& args) {
  const auto testee_path = args.last("--testee");
  const auto reader = args.last("--reader");
  if (testee_path.has_value() == reader.has_value()) {
    std::cerr << "voxrig bench-reader: give exactly one of --testee LIB.so or --reader COMMAND\n";
    return kExitUsage;
  }
  if (!args.positional.empty()) {
    std::cerr << "voxrig bench-reader: unexpected argument '" << args.positional[0] << "'\n";
    return kExitUsage;
  }
  conform::BenchOptions options;
  uint64_t repetitions = 5;
  if (!number_option(args, "bench-reader", "--repetitions", 1, 1000, repetitions) ||
      !seconds_option(args, "bench-reader", "--min-time", 0, 60, options.min_time))
    return kExitUsage;
  options.repetitions = int(repetitions);
  std::unique_ptr<conform::Testee> testee;
  if (testee_path) {
    std::string error;
    if (!(testee = conform::Testee::load(*testee_path, &error))) {
      std::cerr << "voxrig bench-reader: --testee: " << error << "\n";
      return kExitIo;
    }
  }
  const std::vector<conform::BenchCase> cases = corpus(args);
  if (cases.empty()) return kExitUsage;
  options.progress = [](size_t done, size_t total, const std::string& series) {
    std::cerr << "[" << done << "/" << total << "] " << series << "\n";
  };
  const conform::BenchResult r = conform::bench_reader(
      cases, {testee.get(), reader.value_or(""), protocol_option(args), !args.last("--profile")},
      options);
  if (r.status != conform::BenchStatus::Written) {
    std::cerr << "voxrig bench-reader: " << r.problem << "\n";
    return r.status == conform::BenchStatus::IoError   ? kExitIo
           : r.status == conform::BenchStatus::NoServe ? kExitUsage
                                                       : kExitFailed;
  }
  for (const std::string& p : r.unclaimed)
    std::cerr << "voxrig bench-reader: " << p << ": not claimed by the reader's hello, not run\n";
  if (auto out = args.last("-o")) {
    if (!write_file(*out, r.json)) {
      std::cerr << "voxrig bench-reader: cannot write " << *out << "\n";
      return kExitIo;
    }
  } else {
    std::cout << r.json;
  }
  return kExitOk;
}

}  // namespace

extern const Command kBenchReader{"bench-reader",
                                  "time a reader (testee library or command) against the reference",
                                  kUsage, kOptions, run};

}  // namespace voxrig::cli
