#!/usr/bin/env bash
# The full out-of-memory sweep (docs/robustness.md "Out-of-memory testing"):
# builds voxrig_oom_sweep under the asan preset (ASan + UBSan + LeakSanitizer, build/asan) and
# fails the N-th allocation of every entry point (decode, encode, dump, validate, mesh, pose,
# compile) over every golden case, for N = 1, 2, ... until the operation completes without
# reaching the failure. Every run must end in success or internal.out_of_memory; a crash, an
# escaped exception, another error code, a changed output or a leak fails the sweep.
# The default `ctest` runs the same binary with sampled N (CTest oom_sweep_sampled).
# With --cli it sweeps whole commands instead: voxrig_oom_cli, the CLI linked with the
# counting allocator, runs every command of cli/tests/oom_cli_sweep.py with allocation N failing,
# N = 1, 2, ... past the last; each run must end like the unfailed one or with exit 1 and
# internal.out_of_memory; an abort, another exit, a changed output or a leak is a FINDING (the
# default `ctest` samples N: CTest oom_sweep_cli_sampled).
# Usage: scripts/oom-sweep.sh [--filter SUBSTR]   (extra arguments go to voxrig_oom_sweep)
#        scripts/oom-sweep.sh --cli [--filter TEXT]   (TEXT: a part of the command line)
# Exit: 0 clean, 1 findings (FINDING lines on stdout), 2 usage, 3 I/O or build failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake --preset asan >/dev/null || exit 3
if [[ "${1:-}" == "--cli" ]]; then
  shift
  cmake --build --preset asan --target voxrig_oom_cli || exit 3
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}" \
    exec python3 cli/tests/oom_cli_sweep.py build/asan/cli/voxrig_oom_cli . --full "$@"
fi
cmake --build --preset asan --target voxrig_oom_sweep || exit 3
# detect_leaks: LeakSanitizer reports blocks still allocated at exit (a leak on an error path).
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}" \
  exec build/asan/reference/voxrig_oom_sweep --golden golden --full "$@"
