#!/bin/sh
# CTest bench-plot: bench/plot.py on two small runs (bench/testdata/plot_run_{a,b}.json) writes
# exactly the families present (pose_sample_l2m, skel_decode) as SVG, each naming both runs, the
# pose family with its in-run baseline (the plain sampler) dashed and labelled; a family with a
# bytes-only baseline is plotted in bytes/s; the RKCH family plots the 259-byte character; a
# malformed --family is a usage error (exit 2).
set -u
here=$(dirname "$0")
. "$here/selftest_lib.sh"
selftest_init plot_selftest
python_with matplotlib python3-matplotlib
"$py" "$here/plot.py" -o "$tmp" "$here/testdata/plot_run_a.json" "$here/testdata/plot_run_b.json" \
  >"$tmp/log" 2>&1 || fail "plot.py exited $?: $(cat "$tmp/log")"
[ "$(ls "$tmp"/*.svg | wc -l)" = 2 ] || fail "want 2 plots, got: $(ls "$tmp")"
for f in pose_sample_l2m skel_decode; do
  svg="$tmp/$f.svg"
  [ -s "$svg" ] || fail "$f.svg missing"
  grep -q "aaaaaaa" "$svg" && grep -q "bbbbbbb" "$svg" || fail "$f.svg does not label both runs"
done
grep -q "POSE/plain_sampler/forward/256 (baseline)" "$tmp/pose_sample_l2m.svg" ||
  fail "pose_sample_l2m.svg has no baseline series"
grep -q "(baseline)" "$tmp/skel_decode.svg" && fail "skel_decode.svg has a baseline it was not given"
# A baseline that sets only bytes (items_per_second written as 0) next to a library benchmark
# that sets both: the family is plotted in the unit both have, bytes/s.
cat >"$tmp/bytes.json" <<'JSON'
{"context": {"git_commit": "ccccccc"}, "benchmarks": [
 {"name": "ZZ/base_decode/x", "run_name": "ZZ/base_decode/x", "run_type": "iteration",
  "items_per_second": 0.0, "bytes_per_second": 1.5e9, "cpu_time": 10, "time_unit": "ns",
  "baseline": 1},
 {"name": "ZZ/decode/x", "run_name": "ZZ/decode/x", "run_type": "iteration",
  "items_per_second": 2.0e6, "bytes_per_second": 3.0e9, "cpu_time": 5, "time_unit": "ns"}]}
JSON
"$py" "$here/plot.py" -o "$tmp/z" --family 'zz=^ZZ/' "$tmp/bytes.json" >"$tmp/log" 2>&1 ||
  fail "plot.py on a bytes-only baseline exited $?: $(cat "$tmp/log")"
grep -q "bytes/s" "$tmp/z/zz.svg" && ! grep -q "items/s" "$tmp/z/zz.svg" ||
  fail "a family with a bytes-only baseline is not plotted in bytes/s"
# The default families select the inputs the targets name: the RKCH family holds the 259-byte
# character (RKCH/decode/tiny/259), which a pattern ending in "tiny$" once left out of the plot.
cat >"$tmp/rkch.json" <<'JSON'
{"context": {"git_commit": "ddddddd"}, "benchmarks": [
 {"name": "RKCH/decode/tiny/25", "run_name": "RKCH/decode/tiny/25",
  "run_type": "iteration", "bytes_per_second": 1.0e8, "cpu_time": 10, "time_unit": "ns"},
 {"name": "RKCH/decode/tiny/259", "run_name": "RKCH/decode/tiny/259", "run_type": "iteration",
  "bytes_per_second": 4.0e8, "cpu_time": 5, "time_unit": "ns"}]}
JSON
"$py" "$here/plot.py" -o "$tmp/r" --format svg "$tmp/rkch.json" >"$tmp/log" 2>&1 ||
  fail "plot.py on the RKCH run exited $?: $(cat "$tmp/log")"
[ -s "$tmp/r/rkch_decode.svg" ] && grep -q "RKCH/decode/tiny/259" "$tmp/r/rkch_decode.svg" ||
  fail "the rkch_decode family does not plot RKCH/decode/tiny/259"
grep -q "RKCH/decode/tiny/25<\|RKCH/decode/tiny/25 " "$tmp/r/rkch_decode.svg" &&
  fail "the rkch_decode family plots RKCH/decode/tiny/25, which it does not name"
"$py" "$here/plot.py" -o "$tmp" --family nonsense "$here/testdata/plot_run_a.json" 2>/dev/null
[ $? = 2 ] || fail "a malformed --family did not exit 2"
echo "plot_selftest: ok"
