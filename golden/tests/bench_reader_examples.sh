#!/bin/sh
# CTest golden_bench_reader_examples: `voxrig bench-reader` against real readers that are not the
# reference: the example C testee (golden/examples/testee_c, in process, vfp-static only) and
# the independent Python reader (golden/readers/python, through the reader protocol).
#   1. --testee libvoxrig_testee_c.so --profile vfp-static: exit 0; the JSON has a READER/ and a
#      REFERENCE/ row per vfp_static case and repetition, sane numbers (check_json below), and
#      bench/compare.sh passes it against itself;
#   2. the same testee on the whole corpus: exit 4 (it does not support vfp-rig), no JSON;
#   3. --reader 'python3 voxrig_reader.py' --profile vfp-static (it reads vfp-static and vfp-rig;
#      the rig cases would cost ~15 s of Python here): exit 0, the same checks plus
#      READER/process_startup (`voxrig_reader.py --help`, which exits 2: start-up is timed anyway);
#   4. the Python reader without --profile: only the profiles its serve hello claims are timed,
#      the rest named on stderr;
#   5. --profile rkc-compat (no such case in the corpus): exit 2.
# Usage: bench_reader_examples.sh VOXRIG TESTEE_DIR SOURCE_ROOT
set -u
voxrig=$1 testee_dir=$2 root=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench_reader_examples: $*" >&2; exit 1; }
testee="$testee_dir/libvoxrig_testee_c.so"
[ -f "$testee" ] || fail "no $testee (build the voxrig_testee_c target)"

# check_json FILE MODE CASES...: every case has READER/<case> and REFERENCE/<case> rows, one per
# repetition (2), with iterations >= 1, finite positive times equal in real and cpu (wall time),
# bytes_per_second = the case's bytes / time, baseline = 1 on REFERENCE rows only; in reader
# mode also READER/process_startup; nothing else.
check_json() {
  python3 - "$@" <<'EOF' || exit 1
import json, math, sys
path, mode, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
doc = json.load(open(path))
ctx = doc["context"]
assert ctx["bench_reader_mode"] == mode, ctx
rows = {}
for b in doc["benchmarks"]:
    rows.setdefault(b["name"], []).append(b)
want = {side + "/" + c for c in cases for side in ("READER", "REFERENCE")}
if mode == "reader":
    want.add("READER/process_startup")
assert set(rows) == want, "rows %s, want %s" % (sorted(rows), sorted(want))
for name, reps in rows.items():
    assert len(reps) == 2, (name, len(reps))
    assert sorted(r["repetition_index"] for r in reps) == [0, 1], name
    for r in reps:
        t = r["real_time"]
        assert r["iterations"] >= 1 and math.isfinite(t) and t > 0, (name, r)
        assert r["cpu_time"] == t and r["time_unit"] == "ns", (name, r)
        assert (r.get("baseline") == 1) == name.startswith("REFERENCE/"), (name, r)
        if name == "READER/process_startup":
            assert "bytes_per_second" not in r, r
            continue
        bps = r["bytes_per_second"]
        assert math.isfinite(bps) and bps > 0, (name, r)
    if name != "READER/process_startup":
        # The same file on both sides: bytes per call = rate x time, equal for READER/REFERENCE.
        size = reps[0]["bytes_per_second"] * reps[0]["real_time"] * 1e-9
        other = rows[("REFERENCE/" if name.startswith("READER/") else "READER/") +
                     name.split("/", 1)[1]][0]
        osize = other["bytes_per_second"] * other["real_time"] * 1e-9
        assert size > 100 and abs(size - osize) < 1e-6 * size, (name, size, osize)
print("check_json: %d rows ok" % sum(len(v) for v in rows.values()))
EOF
}
static_cases="vfp_static/sphere/32 vfp_static/random50/32"

# 1. The C testee, in process, on what it supports.
"$voxrig" bench-reader --testee "$testee" --profile vfp-static --quick --repetitions 2 \
  --min-time 0 -o "$tmp/t.json" 2>"$tmp/err" || fail "--testee exited $? ($(tail -1 "$tmp/err"))"
check_json "$tmp/t.json" testee $static_cases || fail "--testee JSON: see above"
"$root/bench/compare.sh" "$tmp/t.json" "$tmp/t.json" --no-table >"$tmp/cmp" 2>&1 ||
  fail "compare.sh: $(cat "$tmp/cmp")"
grep -q "gate: PASS: 2 library benchmark(s) compared" "$tmp/cmp" ||
  fail "compare.sh did not gate the 2 READER rows: $(cat "$tmp/cmp")"

# 2. The whole corpus: the testee does not support vfp-rig, which is a check failure.
"$voxrig" bench-reader --testee "$testee" --quick --repetitions 1 --min-time 0 \
  -o "$tmp/all.json" 2>"$tmp/err"
rc=$?
[ "$rc" = 4 ] || fail "--testee on the whole corpus exited $rc, want 4"
grep -q "vfp_rig/random50_j64/16 (vfp-rig): the reader did not accept it (testee failure" \
  "$tmp/err" || fail "no reason given: $(cat "$tmp/err")"
[ ! -e "$tmp/all.json" ] || fail "JSON written although the check failed"

# 3. The Python reader through the reader protocol (process start-up measured on its own).
py="python3 $root/golden/readers/python/voxrig_reader.py"
"$voxrig" bench-reader --reader "$py" --profile vfp-static --quick --repetitions 2 \
  --min-time 0 -o "$tmp/p.json" 2>"$tmp/err" || fail "--reader exited $? ($(tail -1 "$tmp/err"))"
check_json "$tmp/p.json" reader $static_cases ||
  fail "--reader JSON: see above"

# 4. The Python reader without --profile: its serve hello claims vfp-static and vfp-rig, so the
#    rkc-strict cases are left out and named, not failed.
"$voxrig" bench-reader --reader "$py" --quick --repetitions 1 --min-time 0 -o "$tmp/c.json" \
  2>"$tmp/err" || fail "--reader without --profile exited $? ($(tail -1 "$tmp/err"))"
grep -q "rkc-strict: not claimed by the reader's hello, not run" "$tmp/err" ||
  fail "unclaimed profile not named: $(tail -2 "$tmp/err")"
python3 - "$tmp/c.json" <<'EOF' || fail "--reader without --profile: JSON rows"
import json, sys
names = {b["name"] for b in json.load(open(sys.argv[1]))["benchmarks"]}
assert any(n.startswith("READER/vfp_rig/") for n in names), sorted(names)
assert not any(n.startswith("READER/rkch") for n in names), sorted(names)
EOF

# 5. A profile the corpus has no case of.
"$voxrig" bench-reader --testee "$testee" --profile rkc-compat --quick 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] || fail "--profile rkc-compat exited $rc, want 2"
echo "bench_reader_examples: ok"
