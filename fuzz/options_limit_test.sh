#!/usr/bin/env bash
# CTest fuzz_options_limits_apply: the fuzz-regress replays (scripts/fuzz.sh replay) really apply
# the per-input limits of fuzz/<target>.options. The 200,001-frame RVC bomb (golden
# rvc/bomb/empty_deltas_200001.rvc: 2.3 KB, a 1 MB inflated FRMS held in a 3.4 MB frame buffer)
# must pass fuzz_rvc under fuzz/rvc.options and fail under a copy with malloc_limit_mb = 1; with
# the GCC replay driver (whose RSS check runs after every input; libFuzzer samples RSS once a
# second, so a short input can slip by) the 2^20-frame bomb must pass too and fail under
# rss_limit_mb = 16. Each run but the timeout's own uses timeout = 60 (a loaded machine must not
# fail a run for the wrong limit). Works with either build (ci or fuzz preset).
# Usage: fuzz/options_limit_test.sh ROOT FUZZ_RVC_EXE. Exit 0 when every check holds.
set -uo pipefail
root="$1" exe="$2"
bomb="$root/golden/files/rvc/bomb/empty_deltas_200001.rvc"
big="$root/golden/files/rvc/bomb/empty_deltas_at.rvc"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }

grep -q 'limit' "$root/fuzz/rvc.options" || { echo "FAIL: fuzz/rvc.options sets no limit"; fail=1; }

# with KEY VALUE [KEY VALUE...] -- INPUT: replays INPUT under a copy of rvc.options with those
# keys replaced; the log is $tmp/<first KEY>.log. Every run here gets timeout = 60 unless it
# tightens the timeout itself, so a loaded machine cannot make a run fail for the wrong reason.
with() {
  local dir="$tmp/$1" name="$1" keys=() vals=()
  while [[ "$1" != "--" ]]; do keys+=("$1"); vals+=("$2"); shift 2; done
  shift
  mkdir -p "$dir"
  local pattern='^[[:space:]]*\(timeout'
  for k in "${keys[@]}"; do pattern+="\\|$k"; done
  grep -v "$pattern\\)[[:space:]]*=" "$root/fuzz/rvc.options" >"$dir/rvc.options"
  [[ " ${keys[*]} " == *" timeout "* ]] || echo "timeout = 60" >>"$dir/rvc.options"
  for i in "${!keys[@]}"; do echo "${keys[$i]} = ${vals[$i]}" >>"$dir/rvc.options"; done
  VOXRIG_FUZZ_OPTIONS_DIR="$dir" "$root/scripts/fuzz.sh" replay rvc "$exe" "$1" >"$tmp/$name.log" 2>&1
}

with base 0 -- "$bomb"
rc=$?
check "the bomb passes under fuzz/rvc.options, timeout 60 (exit $rc)" '[[ $rc -eq 0 ]]'
with malloc_limit_mb 1 -- "$bomb"
rc=$?
check "malloc_limit_mb = 1 fails the replay (exit $rc)" \
  '[[ $rc -ne 0 ]] && grep -q "out-of-memory (malloc(" "$tmp/malloc_limit_mb.log"'
if ! grep -q 'libFuzzer\|INFO: Seed' "$tmp/base.log"; then
  with big 0 -- "$big"
  rc=$?
  check "the 2^20-frame bomb passes under fuzz/rvc.options, timeout 60 (exit $rc)" '[[ $rc -eq 0 ]]'
  with rss_limit_mb 16 -- "$big"
  rc=$?
  check "rss_limit_mb = 16 fails the replay (exit $rc)" \
    '[[ $rc -ne 0 ]] && grep -q "rss_limit_mb" "$tmp/rss_limit_mb.log"'
fi
[[ $fail -eq 0 ]] || { echo "--- logs"; tail -n 5 "$tmp"/*.log; }
exit $fail
