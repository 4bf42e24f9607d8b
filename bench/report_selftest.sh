#!/bin/sh
# CTest bench-report: bench/report.py on a small hand-written run (bench/testdata/report_run.json)
# whose figures and verdicts are declared here, not by report.py: each figure sits next to its
# in-run reference (x memcpy, x per-voxel greedy), the allocation check judges every repetition
# (POSE/l2m/256 allocates in one of three: the check fails and the exit status is 1, though the
# median is 0), --checks prints the Checks table alone, a run whose loops do not allocate passes
# (exit 0), a run with no benchmark that counts allocations has no check row, and an unreadable
# file exits 3.
set -u
here=$(dirname "$0")
. "$here/selftest_lib.sh"
selftest_init report_selftest
run="$here/testdata/report_run.json"
out=$(python3 "$here/report.py" "$run")
[ $? = 1 ] || fail "report.py on a run whose check fails did not exit 1"
row() {  # row PATTERN ENDING: exactly one table row matches PATTERN and ends in ENDING
  n=$(printf '%s\n' "$out" | grep -c -- "$1")
  [ "$n" = 1 ] || fail "want one row matching '$1', got $n"
  printf '%s\n' "$out" | grep -- "$1" | grep -q -- "$2\$" || fail "'$1' does not end in '$2'"
}
row "^| zero heap allocations.*| 4 benchmarks, 1 allocate: POSE/l2m/256 |" "| \*\*fails\*\* |"
row "^| VOX0 | decode | sphere/64 | 30.00 GB/s |" "| 0.50 | 2 |"
row "^| SKEL | decode | 16 | 3.50 GB/s |" "| 0.05 | 6 |"
row "^| RKCH | decode | tiny/259 | 1.80 GB/s |" "| 0.030 | 7 |"
row "^| sphere 64^3 |.* 3.9 G (7.85 k) |.* 1.55 G (9.53 k) | 22.1 M (9.53 k) |" "| 70.1x |  |"
row "^| 256 |" "| 275 M | 140 M |  |  |  |"
only=$(python3 "$here/report.py" --checks "$run")
[ $? = 1 ] || fail "report.py --checks on a failing check did not exit 1"
printf '%s\n' "$only" | grep -q "^### Checks" || fail "--checks printed no Checks table"
[ "$(printf '%s\n' "$only" | grep -c '^### ')" = 1 ] || fail "--checks printed other tables"
derive() {  # derive OUT PYTHON-FILTER: the hand-written run with its benchmarks filtered
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
keep = eval("lambda b: " + sys.argv[3])
d["benchmarks"] = [b for b in d["benchmarks"] if keep(b)]
for b in d["benchmarks"]:
    if b["name"] == "POSE/l2m/256": b["allocs/iter"] = 0
json.dump(d, open(sys.argv[2], "w"))' "$run" "$@" || fail "could not derive $1"
}
derive "$tmp/clean.json" "True"
out=$(python3 "$here/report.py" "$tmp/clean.json") || fail "a run that allocates nowhere exited $?"
row "^| zero heap allocations.*| 4 benchmarks, 0 allocate |" "| holds |"
derive "$tmp/none.json" "not b['name'].startswith(('MESH/', 'POSE/'))"
out=$(python3 "$here/report.py" "$tmp/none.json") || fail "a run without checks exited $?"
printf '%s\n' "$out" | grep -q "zero heap" && fail "a run without alloc-counting loops has a row"
python3 "$here/report.py" "$tmp/missing.json" > /dev/null 2>&1
[ $? = 3 ] || fail "an unreadable file did not exit 3"
echo "report_selftest: ok"
