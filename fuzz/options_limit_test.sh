#!/usr/bin/env bash
# CTest fuzz_options_limits_apply: the fuzz-regress replays (scripts/fuzz.sh replay) really apply
# the per-input limits of fuzz/<target>.options. The 200,001-frame RVC bomb (golden
# rvc/bomb/empty_deltas_200001.rvc: 2.3 KB, a 1 MB inflated FRMS held in a 3.4 MB frame buffer)
# must pass fuzz_rvc under fuzz/rvc.options and fail under a copy with malloc_limit_mb = 1; with
# the GCC replay driver (whose RSS check runs after every input; libFuzzer samples RSS once a
# second, so a short input can slip by) the 2^20-frame bomb must pass too and fail under
# rss_limit_mb = 16. Works with either build (ci or fuzz preset).
# Usage: fuzz/options_limit_test.sh ROOT FUZZ_RVC_EXE. Exit 0 when every check holds.
set -uo pipefail
root="$1" exe="$2"
bomb="$root/golden/files/rvc/bomb/empty_deltas_200001.rvc"
big="$root/golden/files/rvc/bomb/empty_deltas_at.rvc"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }

"$root/scripts/fuzz.sh" replay rvc "$exe" "$bomb" >"$tmp/base.log" 2>&1
rc=$?
check "the bomb passes under fuzz/rvc.options (exit $rc)" '[[ $rc -eq 0 ]]'
grep -q 'limit' "$root/fuzz/rvc.options" || { echo "FAIL: fuzz/rvc.options sets no limit"; fail=1; }

tight() {  # tight KEY VALUE INPUT: a copy of rvc.options with KEY = VALUE (replacing any KEY line)
  mkdir -p "$tmp/$1"
  grep -v "^[[:space:]]*$1[[:space:]]*=" "$root/fuzz/rvc.options" >"$tmp/$1/rvc.options"
  echo "$1 = $2" >>"$tmp/$1/rvc.options"
  VOXRIG_FUZZ_OPTIONS_DIR="$tmp/$1" "$root/scripts/fuzz.sh" replay rvc "$exe" "$3" \
    >"$tmp/$1.log" 2>&1
}
tight malloc_limit_mb 1 "$bomb"
rc=$?
check "malloc_limit_mb = 1 fails the replay (exit $rc)" \
  '[[ $rc -ne 0 ]] && grep -q "out-of-memory (malloc(" "$tmp/malloc_limit_mb.log"'
if ! grep -q 'libFuzzer\|INFO: Seed' "$tmp/base.log"; then
  "$root/scripts/fuzz.sh" replay rvc "$exe" "$big" >"$tmp/big.log" 2>&1
  rc=$?
  check "the 2^20-frame bomb passes under fuzz/rvc.options (exit $rc)" '[[ $rc -eq 0 ]]'
  tight rss_limit_mb 16 "$big"
  rc=$?
  check "rss_limit_mb = 16 fails the replay (exit $rc)" \
    '[[ $rc -ne 0 ]] && grep -q "rss_limit_mb" "$tmp/rss_limit_mb.log"'
fi
[[ $fail -eq 0 ]] || { echo "--- logs"; tail -n 5 "$tmp"/*.log; }
exit $fail
