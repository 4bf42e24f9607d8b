// voxrig/conform/bench_reader.h — performance regression tracking for an implementer's reader
// (`voxrig bench-reader`, docs/performance.md "Benchmarking your reader"): a perf corpus timed
// through the reader under test and through the reference in the same run, written as Google
// Benchmark JSON that bench/compare.sh gates.
//
// Every file is checked once before timing: the reader must accept it and dump what the
// reference dumps (compared as JSON values, as a conformance run does), so a fast wrong answer is
// never timed. The reader runs in process (a testee library, testee_loader.h) or as one process
// per dump (the reader protocol, through the process pool; the files are written to a temporary
// directory first). Repetitions interleave round-robin over the series, so a slow phase of a
// shared machine hits every series a little rather than one a lot. Prints nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "voxrig/conform/run.h"
#include "voxrig/conform/testee_loader.h"
#include "voxrig/profile.h"

namespace voxrig::conform {

/// One file of the perf corpus: its benchmark name ("vfp_static/sphere/128"), profile, bytes.
struct BenchCase {
  std::string name;
  Profile profile = Profile::VfpRig;
  std::vector<uint8_t> bytes;
};

/// The reader under test: a loaded testee (in process) or a reader command (`COMMAND dump
/// --profile P FILE`, run through sh). Exactly one is set.
struct BenchReader {
  const Testee* testee = nullptr;
  std::string command;
  /// How dumps reach the command (run.h): Auto uses `COMMAND serve` (serve.h) when it answers
  /// hello, so a persistent reader is timed without its start-up.
  ReaderProtocol protocol = ReaderProtocol::Auto;
  /// True (no --profile given): a serve reader whose hello claims profiles is timed only on
  /// the cases of those profiles, as `voxrig conform` runs only claimed profiles
  /// (docs/spec/protocols.md); the others are listed in BenchResult::unclaimed.
  bool claimed_only = false;
};

struct BenchOptions {
  int repetitions = 5;    ///< per series, interleaved round-robin
  double min_time = 0.2;  ///< seconds per repetition (a process reader runs >= 3 dumps each)
  /// Called after each repetition of a series: `done` of `total`, the series' name.
  std::function<void(size_t done, size_t total, const std::string& series)> progress;
};

/// How a benchmark run ended.
enum class BenchStatus {
  Written,      ///< `json` holds the results
  IoError,      ///< the corpus could not be written for a process reader
  NoServe,      ///< protocol Serve, and the command does not answer hello (`problem`)
  CheckFailed,  ///< the reader rejected, failed or mis-dumped a file (`problem` says which)
};

struct BenchResult {
  BenchStatus status = BenchStatus::Written;
  std::string problem;  ///< one line, when not Written
  /// Google Benchmark JSON: per repetition READER/<case> (the reader) and REFERENCE/<case>
  /// (voxrig's own dump, baseline = 1; context.protocol: "serve", "oneshot" or "testee"), plus
/// READER/process_startup (`COMMAND --help`, the fixed
  /// cost of one process, not subtracted) for a process reader.
  std::string json;
  /// Profiles of the corpus left out because the reader's hello does not claim them (sorted).
  std::vector<std::string> unclaimed;
};

/// Times `reader` and the reference on `cases` (see the top of this file).
BenchResult bench_reader(const std::vector<BenchCase>& cases, const BenchReader& reader,
                         const BenchOptions& options);

}  // namespace voxrig::conform
