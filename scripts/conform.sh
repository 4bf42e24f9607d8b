#!/usr/bin/env bash
# The main job: check a reader against the golden corpus. Installs dependencies, builds voxrig
# (the `ci` preset) and runs `voxrig conform` with the given arguments; without --reader the
# built-in reference reader is checked. Examples:
#   scripts/conform.sh                                   # the reference, every profile
#   scripts/conform.sh --reader 'python3 my_reader.py' --profile vfp-rig --junit out.xml
#   scripts/conform.sh --compile --pose --mesh          # also the compiler / player / mesher cases
#   scripts/conform.sh --reader ./my_mesher --mesh --no-dump   # a mesher on its own
# Exit: 0 nothing failed, 4 a case failed/crashed/timed out, 2 usage, 3 I/O.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-deps.sh >&2
cmake --preset ci >&2
cmake --build --preset ci --target voxrig >&2
exec build/ci/cli/voxrig conform --golden "$PWD/golden" "$@"
