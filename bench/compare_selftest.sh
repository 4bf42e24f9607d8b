#!/usr/bin/env bash
# bench/compare_selftest.sh BENCH_BINARY — proves the regression gate both ways (CTest
# bench-compare, label bench-smoke). Takes a short real run of two benchmarks (9 repetitions)
# and checks that bench/compare.sh
#   - passes BASE against itself and against a copy with every time x1.05 (under 10 %);
#   - fails against a copy with every library time doubled, and against a copy where a benchmark
#     reports an error;
#   - fails against a real run with VOXRIG_BENCH_INJECT_SLOWDOWN=2 (CPU time, so the verdict
#     does not depend on the machine's load);
#   - notes two runs of different CPU classes (context cpu_class), and only those.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
filter='^(SKEL/decode/16|memcpy/skel_16)$'
run() {
  "$bin" --benchmark_filter="$filter" --benchmark_repetitions=9 --benchmark_min_time=0.002 \
    --benchmark_out="$1" --benchmark_out_format=json > /dev/null
}
run "$work/base.json"
VOXRIG_BENCH_INJECT_SLOWDOWN=2 run "$work/injected.json"

python3 - "$work" <<'EOF'
import json, sys
work = sys.argv[1]
base = json.load(open(work + "/base.json"))
def doctored(factor, error=False):
    doc = json.loads(json.dumps(base))
    for b in doc["benchmarks"]:
        if b.get("baseline", 0) != 1:
            b["cpu_time"] *= factor
            b["real_time"] *= factor
            if error:
                b["error_occurred"] = True
                b["error_message"] = "doctored"
    return doc
def of_class(cpu_class):
    doc = json.loads(json.dumps(base))
    doc["context"]["cpu_class"] = cpu_class
    return doc
for name, doc in (("x105", doctored(1.05)), ("x2", doctored(2.0)), ("error", doctored(1, True)),
                  ("zen4", of_class("AuthenticAMD family 25 model 17 avx2+avx512")),
                  ("zen4b", of_class("AuthenticAMD family 25 model 17 avx2+avx512")),
                  ("zen5", of_class("AuthenticAMD family 26 model 2 avx2+avx512"))):
    json.dump(doc, open("%s/%s.json" % (work, name), "w"))
EOF

fails=0
expect() {  # expect <exit code> <description> <compare.sh args...>
  local want="$1" what="$2"
  shift 2
  set +e
  "$here/compare.sh" "$@" --quiet > "$work/out.txt" 2>&1
  local got=$?
  set -e
  if [ "$got" -eq "$want" ]; then
    echo "ok:   $what (exit $got)"
  else
    echo "FAIL: $what: exit $got, expected $want"
    cat "$work/out.txt"
    fails=$((fails + 1))
  fi
}
expect 0 "unchanged (BASE vs BASE) passes" "$work/base.json" "$work/base.json"
expect 0 "x1.05 passes the 10 % threshold" "$work/base.json" "$work/x105.json"
expect 4 "doctored x2 fails" "$work/base.json" "$work/x2.json"
expect 4 "doctored x2 fails with --normalize" "$work/base.json" "$work/x2.json" --normalize
expect 0 "doctored x2 passes --threshold 1.5" "$work/base.json" "$work/x2.json" --threshold 1.5
expect 4 "an errored benchmark fails" "$work/base.json" "$work/error.json"
expect 4 "injected 2x slowdown (real run) fails" "$work/base.json" "$work/injected.json"
expect 3 "a missing NEW file is an I/O error" "$work/base.json" "$work/missing.json"
# The default output is short: an unchanged run prints no benchmark row, only the verdict; a
# doubled run prints one row per changed library benchmark, then the verdict.
"$here/compare.sh" "$work/base.json" "$work/base.json" > "$work/same.txt" 2>&1 || true
"$here/compare.sh" "$work/base.json" "$work/x2.json" > "$work/x2.txt" 2>&1 || true
if grep -q ' ns  x' "$work/same.txt" || [ "$(grep -c 'REGRESSION' "$work/x2.txt")" -ne 1 ] ||
   grep -q 'baseline  (reps' "$work/x2.txt" || ! tail -n 1 "$work/x2.txt" | grep -q '^gate: FAIL'; then
  echo "FAIL: compare.sh output is not the short changed-only table + verdict"
  cat "$work/same.txt" "$work/x2.txt"
  fails=$((fails + 1))
else
  echo "ok:   short table of changed benchmarks only, verdict last"
fi
# Runs of two CPU classes (or one recorded and one not) pass as before, with one note line;
# runs of one class, or of none recorded, print none.
note_count() {  # note_count BASE NEW: how many CPU-class notes compare.sh prints
  "$here/compare.sh" "$1" "$2" --quiet 2>&1 | grep -c "ran on CPU class" || true
}
if [ "$(note_count "$work/zen4.json" "$work/zen5.json")" -ne 1 ] ||
   [ "$(note_count "$work/base.json" "$work/zen5.json")" -ne 1 ] ||
   [ "$(note_count "$work/zen4.json" "$work/zen4b.json")" -ne 0 ] ||
   [ "$(note_count "$work/base.json" "$work/base.json")" -ne 0 ]; then
  echo "FAIL: the CPU-class note is missing for two classes, or printed for one"
  fails=$((fails + 1))
else
  echo "ok:   a note for runs of two CPU classes, none for one"
fi
expect 0 "two CPU classes: a note, not a failure" "$work/zen4.json" "$work/zen5.json"
[ "$fails" -eq 0 ]
