// A small process pool for `voxrig conform` (voxrig::conform): runs reader commands in parallel
// with a per-run timeout and bounded output capture. POSIX only (posix_spawn, poll, groups).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "voxrig/conform/conform.h"

namespace voxrig::conform {

/// One command to run: argv[0] must be an absolute path (no PATH search).
struct ProcessJob {
  std::vector<std::string> argv;
};

struct PoolOptions {
  unsigned parallel = 1;        ///< at most this many children at once (clamped to 1..64)
  double timeout_seconds = 10;  ///< per job, from spawn; the child's process group is killed
  size_t max_stdout = size_t{64} << 20;  ///< more stdout than this kills the job (overflow)
  size_t max_stderr = size_t{1} << 20;   ///< stderr beyond this is discarded (not an error)
};

/// Runs every job, at most `parallel` at once. Each child gets stdin from /dev/null, its own
/// process group (so a timeout kills its children too), default signal dispositions and an
/// empty signal mask. `done(index, outcome)` is called on the calling thread as each job ends,
/// in completion order. SIGINT/SIGTERM during the run kill every running group and stop
/// starting new jobs; the function then returns false (true when every job ran).
/// Never throws; a job that cannot be started ends with `started = false`.
bool run_processes(const std::vector<ProcessJob>& jobs, const PoolOptions& options,
                   const std::function<void(size_t, RunOutcome&&)>& done);

/// The `sh -c` argv that runs a user's reader command with `args` appended as positional
/// arguments ("$@"), so file paths never pass through the shell's word splitting.
std::vector<std::string> shell_command(const std::string& command,
                                       const std::vector<std::string>& args);

/// The running executable's absolute path (/proc/self/exe resolved), or "" if unknown.
std::string self_executable();

/// Number of CPUs this process may run on (affinity mask), at least 1.
unsigned available_cpus();

}  // namespace voxrig::conform
