#!/bin/sh
# CTest bench-unit-faces: the naive mesher's face counts (MESH/naive and MESH/naive_j64 `quads`
# on the sphere and terrain grids, 32^3 and 64^3) equal bench/unit_faces.py's, which rebuilds
# the grids and joint maps from their definitions in numpy. Two independent counts of one thing:
# the face counts docs/performance.md reasons with and the naive oracle both stand on them.
# Usage: unit_faces_selftest.sh VOXRIG_BENCH
set -u
bench=$1
here=$(dirname "$0")
. "$here/selftest_lib.sh"
selftest_init unit_faces_selftest
python_with numpy python3-numpy
"$bench" --benchmark_filter='^MESH/naive(_j64)?/(sphere|terrain)/(32|64)$' \
  --benchmark_min_time=0.000001 --benchmark_format=json >"$tmp/run.json" 2>"$tmp/err" ||
  fail "voxrig_bench exited $?: $(cat "$tmp/err")"
"$py" "$here/unit_faces.py" 32 64 >"$tmp/faces.txt" || fail "unit_faces.py exited $?"
"$py" - "$tmp/run.json" "$tmp/faces.txt" <<'PY' || exit 1
import json, re, sys
bench = {b["run_name"]: int(b["quads"]) for b in json.load(open(sys.argv[1]))["benchmarks"]}
checked = 0
for line in open(sys.argv[2]):
    m = re.match(r"(\w+) (\d+): plain (\d+), 8 joints \d+, 64 joints (\d+)", line)
    if m is None:
        sys.exit(f"unit_faces_selftest: unit_faces.py printed an unexpected line: {line!r}")
    kind, n, plain, j64 = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
    for name, want in ((f"MESH/naive/{kind}/{n}", plain), (f"MESH/naive_j64/{kind}/{n}", j64)):
        if name not in bench:
            sys.exit(f"unit_faces_selftest: {name} did not run")
        if bench[name] != want:
            sys.exit(f"unit_faces_selftest: {name} emits {bench[name]} quads, unit_faces.py counts {want}")
        checked += 1
if checked != 8:
    sys.exit(f"unit_faces_selftest: compared {checked} counts, want 8")
print(f"unit_faces_selftest: ok ({checked} counts agree)")
PY
