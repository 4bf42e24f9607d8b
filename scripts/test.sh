#!/usr/bin/env bash
# The test command: installs dependencies, builds with the `ci` preset (GCC, -Werror) and runs
# every CTest (unit, golden, property, fuzz-regress, bench-smoke). Extra arguments go to ctest,
# e.g. `scripts/test.sh -L golden`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-deps.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci "$@"
