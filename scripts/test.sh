#!/usr/bin/env bash
# The test command: installs dependencies, then runs the `ci` workflow preset (configure with GCC
# and -Werror, build, run every CTest: unit, golden, property, fuzz-regress, bench-smoke).
# Extra arguments go to ctest, e.g. `scripts/test.sh -L golden`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-deps.sh
if [ "$#" -eq 0 ]; then
  exec cmake --workflow --preset ci
fi
cmake --preset ci
cmake --build --preset ci
ctest --preset ci "$@"
