// voxrig/conform/serve.h — the persistent reader protocol `COMMAND serve` (docs/spec/protocols.md,
// "Persistent protocol (serve)"): JSON Lines over the reader's stdin and stdout, one request and
// one response at a time, each carrying what the one-shot protocol passes on the command line
// and prints. Both sides live here: the runner's transport (serve_transport, used by conform,
// fuzz-reader and bench-reader) and the reader's loop (serve_loop, behind `voxrig serve`).
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/conform/process_pool.h"
#include "voxrig/conform/run.h"

namespace voxrig::conform {

/// The protocol name a hello request carries and its response must echo.
inline constexpr std::string_view kServeProtocol = "voxrig-serve/1";

/// The one-shot operations the serve protocol carries.
inline constexpr std::string_view kServeOps[] = {"dump",    "roundtrip", "canonicalize",
                                                  "compile", "pose",      "mesh"};

/// What a reader said to hello, or why it did not say it.
struct ServeHello {
  bool ok = false;
  std::vector<std::string> ops;       ///< operations it serves (a subset of kServeOps)
  std::vector<std::string> profiles;  ///< profiles it claims; empty: it claims none
  std::string problem;                ///< !ok: one line (no answer, exit N, not a hello, ...)
  /// Whether a run without --profile runs `profile`: without a hello, or with one claiming
  /// no profile, every profile runs (docs/spec/protocols.md, "Hello").
  bool claims(std::string_view profile) const;
};

/// Starts `reader_argv + {"serve"}` once, sends hello, waits at most `timeout_seconds` for the
/// answer, then stops the process. Never throws except std::bad_alloc.
ServeHello probe_serve(const std::vector<std::string>& reader_argv, double timeout_seconds);

/// The serve transport: up to `pool.parallel` workers, each `reader_argv + {"serve"}` fed one
/// request at a time. A worker starts on first use (hello first) and lives until the transport
/// is destroyed, across run() calls. A fresh worker has `hello_timeout_seconds` to answer hello
/// (a slow start is not the request's time; no answer ends the request as a timeout or crash).
/// Timeouts (`pool.timeout_seconds` per request, from the request being sent), exits, EOF, overflow (`pool.max_stdout`
/// per answer) and garbage (a line that is not the answer object) end the request in flight with
/// the matching RunOutcome (timed_out, signal / protocol_error, output_overflow); the worker's
/// process group is killed and the next request starts a new one. Requests whose operation is
/// not in `hello.ops` run one-shot through run_processes() with the same pool options.
std::unique_ptr<ReaderTransport> serve_transport(std::vector<std::string> reader_argv,
                                                 ServeHello hello, const PoolOptions& pool,
                                                 double hello_timeout_seconds);

/// The transport for `protocol`: OneShot is process_transport(); Serve and Auto probe serve
/// (timeout: `hello_timeout_seconds`) and use serve_transport() when hello succeeds; Auto falls
/// back to process_transport(), Serve returns null. `*hello` receives the probe's outcome
/// (ok = false and no problem for OneShot).
std::unique_ptr<ReaderTransport> reader_transport(const std::vector<std::string>& reader_argv,
                                                  ReaderProtocol protocol, const PoolOptions& pool,
                                                  double hello_timeout_seconds, ServeHello* hello);

// ---- the reader's side -------------------------------------------------------------------------

/// One request's answer as the one-shot protocol would have given it.
struct ServeAnswer {
  int exit = 0;        ///< the one-shot exit status (0, 1, or 2 / 3 for usage and I/O)
  std::string out;     ///< what the one-shot command prints on stdout
  std::string err;     ///< what it prints on stderr (sent as "stderr" when not empty)
};

/// Answers one request: `args` is the one-shot command line after COMMAND (args[0] is the op).
using ServeHandler = std::function<ServeAnswer(const std::vector<std::string>& args)>;

/// The reader's serve loop: reads request lines from `in` until EOF, answers hello with `ops`
/// and `profiles` and every other request with `handler`, one flushed line each on `out`. A
/// line that is not a request is answered {"id": null, "exit": 2, "stdout": "", "stderr": why}.
/// Returns 0 at EOF, 3 when `out` fails.
int serve_loop(std::istream& in, std::ostream& out, const std::vector<std::string>& ops,
               const std::vector<std::string>& profiles, const ServeHandler& handler);

}  // namespace voxrig::conform
