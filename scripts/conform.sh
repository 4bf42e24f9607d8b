#!/usr/bin/env bash
# The main job: check a reader against the golden corpus. Installs dependencies, builds voxrig
# (the `ci` preset) and runs `voxrig conform` with the given arguments; without --reader the
# built-in reference reader is checked. Everything runs from the folder you call it from: the
# reader command, --golden, --expected-failures and every report path (--junit, --report,
# --html) are relative to it, not to the voxrig checkout. Examples:
#   scripts/conform.sh                                   # the reference, every profile
#   scripts/conform.sh --reader 'python3 my_reader.py' --level verdicts   # the first rung
#   scripts/conform.sh --reader 'python3 my_reader.py' --profile vfp-rig --junit out.xml
#   scripts/conform.sh --compile --pose --mesh          # also the compiler / player / mesher cases
#   scripts/conform.sh --reader ./my_mesher --mesh --no-dump   # a mesher on its own
# VOXRIG=PATH runs that voxrig executable (an installed or prebuilt one) instead of installing
# dependencies and building the checkout; the corpus is still this checkout's golden/ unless
# --golden, --generated or VOXRIG_GOLDEN says otherwise.
# Exit: 0 nothing failed, 4 a case failed/crashed/timed out, 2 usage, 3 I/O.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${VOXRIG:-}" ]]; then
  # Setup runs in the checkout (the presets live there); conform below runs where we were called.
  (cd "$root" && scripts/install-deps.sh && cmake --preset ci &&
     cmake --build --preset ci --target voxrig) >&2
  VOXRIG="$root/build/ci/cli/voxrig"
fi
golden=()
[[ " $* " == *" --golden "* || " $* " == *" --generated "* || -n "${VOXRIG_GOLDEN:-}" ]] ||
  golden=(--golden "$root/golden")
exec "$VOXRIG" conform "${golden[@]}" "$@"
