#!/bin/sh
# CTest bench_reader: `voxrig bench-reader` end to end on the quick corpus.
#   1. --reader VOXRIG (the reference as a process reader): exit 0, JSON that bench/compare.sh
#      passes against itself, READER/process_startup and REFERENCE/* rows (baseline = 1);
#   2. --testee FAKE.so (conform's fake testee, whose dumps are not the reference's): exit 4;
#   3. --testee and --reader together: exit 2.
# Usage: bench_reader_test.sh VOXRIG FAKE_TESTEE.so COMPARE_SH
set -u
voxrig=$1 fake=$2 compare=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench_reader_test: $*" >&2; exit 1; }

"$voxrig" bench-reader --reader "$voxrig" --quick --repetitions 2 --min-time 0 -o "$tmp/r.json" \
  2>"$tmp/err" || fail "--reader run exited $? ($(tail -1 "$tmp/err"))"
grep -q '"name": "READER/process_startup"' "$tmp/r.json" || fail "no READER/process_startup row"
grep -q '"name": "REFERENCE/rkch/vclp/10".*"baseline": 1' "$tmp/r.json" ||
  fail "no REFERENCE/rkch/vclp/10 baseline row"
grep -q '"name": "READER/vfp_rig/terrain_j64/16".*"bytes_per_second"' "$tmp/r.json" ||
  fail "no READER/vfp_rig/terrain_j64/16 rate"
"$compare" "$tmp/r.json" "$tmp/r.json" --no-table >"$tmp/cmp" 2>&1 || fail "compare.sh: $(cat "$tmp/cmp")"
grep -q "gate: PASS" "$tmp/cmp" || fail "compare.sh did not pass"

"$voxrig" bench-reader --testee "$fake" --quick --repetitions 1 --min-time 0 -o "$tmp/t.json" \
  2>"$tmp/err"
rc=$?
[ "$rc" = 4 ] || fail "--testee with a wrong reader exited $rc, want 4"
grep -q "differs from the reference" "$tmp/err" || fail "no 'differs' message: $(cat "$tmp/err")"
[ ! -e "$tmp/t.json" ] || fail "JSON written although the check failed"

"$voxrig" bench-reader --testee "$fake" --reader "$voxrig" 2>/dev/null
rc=$?
[ "$rc" = 2 ] || fail "--testee with --reader exited $rc, want 2"
echo "bench_reader_test: ok"
