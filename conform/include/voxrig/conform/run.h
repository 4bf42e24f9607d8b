// voxrig/conform/run.h — a whole conformance run as one call: load and verify the corpus, plan
// a request per (case, profile, check), send the requests to the reader under test, judge every
// answer against the manifest, apply the expected-failure list and tally. `voxrig conform` is
// this call plus option parsing and printing; an implementer's own C++ test harness can call it
// the same way:
//
//   voxrig::conform::RunOptions o;
//   o.golden_dir = "/usr/share/voxrig/golden";
//   o.reader_argv = voxrig::conform::shell_command("python3 my_reader.py", {});
//   o.profiles = {"vfp-static", "vfp-rig"};
//   const voxrig::conform::RunResult r = voxrig::conform::run_conformance(o);
//   EXPECT_TRUE(r.passed()) << summary_text(r.info, r.results, r.summary);
//
// How a request reaches the reader is one seam, ReaderTransport: by default one process per
// request (`READER dump --profile P FILE`, docs/spec/protocols.md#the-reader-protocol, through the
// process pool's timeouts and output caps); a harness can pass its own transport (an in-process
// reader, a long-lived reader process per worker fed over stdin) and nothing else changes.
// Which checks run is RunChecks; a coarser "level" of conformance is a preset of it.
//
// Reads the corpus and the files a writer request produces (in a temporary directory it creates
// and removes); prints nothing. Safe on any reader output (the judges of conform.h).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/conform/conform.h"
#include "voxrig/conform/process_pool.h"

namespace voxrig::conform {

/// One request to the reader under test in the protocol's command-line form: `args[0]` is the
/// operation, the rest its arguments, e.g. {"dump", "--profile", "vfp-rig", FILE} or
/// {"roundtrip", "--profile", P, IN, OUT}; writer and compile requests name OUT, the file the
/// reader writes (absolute paths throughout).
struct ReaderRequest {
  Check check = Check::Dump;
  std::vector<std::string> args;
};

/// How requests reach the reader: the one seam between planning and judging (here) and running.
class ReaderTransport {
 public:
  virtual ~ReaderTransport() = default;
  /// Answers every request (in any order, possibly in parallel), calling `done(i, outcome)` on
  /// the calling thread as request i ends. Returns false when the run was interrupted (SIGINT or
  /// SIGTERM) before every request ended; true otherwise.
  virtual bool run(std::span<const ReaderRequest> requests,
                   const std::function<void(size_t, RunOutcome&&)>& done) = 0;
};

/// The process transport: request i runs as the process `reader_argv + requests[i].args`
/// through run_processes() with `pool` (timeouts, process groups, bounded output).
/// `reader_argv` is e.g. shell_command(COMMAND, {}) for a user's command line, or
/// {self_executable()} for a voxrig binary; argv[0] must be an absolute path.
std::unique_ptr<ReaderTransport> process_transport(std::vector<std::string> reader_argv,
                                                   const PoolOptions& pool);

/// How the runner reaches a reader: detect `COMMAND serve` once (Auto, serve.h), require it, or
/// run one process per request (OneShot).
enum class ReaderProtocol { Auto, Serve, OneShot };

/// "auto", "serve", "oneshot".
std::string_view to_string(ReaderProtocol p);
/// The protocol named `name` by to_string, or nullopt (the CLI's --protocol reads it).
std::optional<ReaderProtocol> reader_protocol_from_string(std::string_view name);

/// Which checks a run makes (docs/spec/protocols.md#the-reader-protocol, "Writers, evaluators and
/// meshers").
struct RunChecks {
  bool dump = true;          ///< reader cases: verdict, error code, dump
  bool dump_content = true;  ///< false: reader cases judged on verdict and error code alone
  bool writer = false;   ///< roundtrip / canonicalize output bytes of accepted reader cases
  bool compile = false;  ///< compile cases: `compile IN.json OUT.vfp`
  bool pose = false;     ///< pose cases: model matrices within D19's tolerance
  bool mesh = false;     ///< mesh cases: quads judged by properties
};

/// The checks of a rung of the adoption ladder (conform.h ConformanceLevel): verdicts = reader
/// cases without the dump, dumps = the default, writers = + writer, capabilities = + compile,
/// pose and mesh. None gives no reader cases and no capability.
RunChecks checks_for_level(ConformanceLevel level);

/// Everything a run needs. The defaults are `voxrig conform`'s.
struct RunOptions {
  std::string golden_dir;  ///< a corpus directory (manifest.json; locate_golden() finds one)
  /// How to start the reader (process_transport); ignored when `transport` is set.
  std::vector<std::string> reader_argv;
  std::string reader_name;  ///< how reports name the reader (RunInfo::reader)
  /// Another way to reach the reader (tests, an in-process reader, a persistent reader);
  /// null: process_transport(reader_argv, {jobs, timeout_seconds}).
  std::shared_ptr<ReaderTransport> transport;
  /// With `reader_argv` (no `transport`): whether to use the persistent protocol (serve.h).
  /// Under Auto and Serve, a reader whose hello claims profiles runs only those when `profiles`
  /// is empty (the others are counted in RunInfo::unclaimed_profiles). Serve without a hello
  /// answer stops the run with ReaderNotStarted.
  ReaderProtocol protocol = ReaderProtocol::Auto;
  /// How long a starting serve worker may take to answer hello (detection and restarts); a
  /// reader without `serve` usually exits at once, so this is only spent on a loaded machine.
  double hello_timeout_seconds = 20;
  /// Send the first request alone first, and stop with ReaderNotStarted when it shows the reader
  /// cannot be started (not started, killed by a signal, or the shell's exit 126 / 127).
  bool probe_reader = false;
  std::vector<std::string> profiles;  ///< profile names; empty: all four
  RunChecks checks;
  CodeMode codes = CodeMode::Strict;
  bool count_recommended = false;                 ///< recommended cases count too
  std::vector<std::string> filters;       ///< only case ids containing one of these; empty: all
  ExpectedFailureList expected_failures;  ///< parsed by the caller (its `problems` ignored)
  std::string expected_failures_path;     ///< for the reports only
  unsigned jobs = 0;                      ///< parallel requests; 0: available_cpus()
  double timeout_seconds = 10;            ///< per request
};

/// How a run ended.
enum class RunStatus {
  Completed,         ///< every request ran and was judged (the summary says whether it passed)
  IoError,           ///< a corpus file is missing / unreadable, or no temporary directory
  CorpusMismatch,    ///< a case file's SHA-256 differs from the manifest's; nothing ran
  NothingToRun,      ///< no case matches the filters, profiles and checks
  ReaderNotStarted,  ///< the probe showed the reader cannot be started (problems: the shell's
                     ///< first line, or "spawn failed" / "exit N"); nothing else ran
  Interrupted,       ///< SIGINT / SIGTERM stopped the run; `results` are incomplete
};

/// What a run found.
struct RunResult {
  RunStatus status = RunStatus::Completed;
  std::vector<std::string> problems;  ///< why it did not complete, one line each
  RunInfo info;                       ///< what the run was (reports, header, summary)
  std::vector<CaseResult> results;    ///< in plan order: case, profile, check
  Summary summary;
  /// Expected-failure entries that matched no result of this run but name a check of the
  /// corpus (kept by render_expected_failures), and entries naming no check at all (stale).
  std::vector<ExpectedFailure> kept, stale;

  /// Completed and no counted result failed (fail, crash, timeout or xpass).
  bool passed() const { return status == RunStatus::Completed && !summary.counted.failed(); }
};

/// Called as a run proceeds (either may be empty).
struct RunProgress {
  /// Once the corpus is verified, before anything is planned or sent (`info.seconds` is 0).
  std::function<void(const RunInfo& info)> started;
  /// After each result is judged: `done` of `total` results so far.
  std::function<void(size_t done, size_t total, const CaseResult& result)> judged;
};

/// Runs the reader over the corpus in `options.golden_dir` (see the top of this file).
/// Never throws except std::bad_alloc.
RunResult run_conformance(const RunOptions& options, const RunProgress& progress = {});

}  // namespace voxrig::conform
