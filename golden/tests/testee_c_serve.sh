#!/usr/bin/env bash
# The C example testee as a serve reader (golden/examples/testee_c/voxrig_testee_serve.c):
# conform runs it through the persistent protocol and only under the profile its hello claims
# (vfp-static), every check passing; fuzz-reader through serve agrees with it on 3000 inputs and
# finds the planted bug of the planted build.
# usage: golden/tests/testee_c_serve.sh VOXRIG_EXE TESTEE_SERVE_EXE PLANTED_EXE
set -euo pipefail
voxrig=${1:?usage: testee_c_serve.sh VOXRIG_EXE TESTEE_SERVE_EXE PLANTED_EXE}
testee=${2:?}
planted=${3:?}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$voxrig" conform --golden "$root/golden" --reader "$testee" --protocol serve --jobs 2 \
  --report "$tmp/report.json" > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/out" "$tmp/err"; echo "FAIL: conform"; exit 1; }
grep -q "protocol: serve" "$tmp/out" || { cat "$tmp/out"; echo "FAIL: not run through serve"; exit 1; }
grep -q "^not claimed, not run: vfp-rig rkc-strict rkc-compat" "$tmp/out" ||
  { cat "$tmp/out"; echo "FAIL: unclaimed profiles not reported"; exit 1; }
python3 - "$tmp/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
profiles = {x["profile"] for x in r["results"]}
if r["protocol"] != "serve" or profiles != {"vfp-static"} or len(r["results"]) < 200:
    sys.exit("FAIL: protocol %s, profiles %s, %d results" % (r["protocol"], profiles, len(r["results"])))
if r["checks_per_s"] <= 0:
    sys.exit("FAIL: no throughput in the report")
print("ok conform: %d vfp-static checks through serve, %.0f checks/s" % (len(r["results"]), r["checks_per_s"]))
PY
"$voxrig" fuzz-reader --reader "$testee" --protocol serve --profile vfp-static --runs 3000 \
  --jobs 2 > "$tmp/fuzz" 2>&1 || { cat "$tmp/fuzz"; echo "FAIL: fuzz-reader disagrees with the clean testee"; exit 1; }
grep "execs/s, serve" "$tmp/fuzz" || { cat "$tmp/fuzz"; echo "FAIL: fuzz-reader did not use serve"; exit 1; }
rc=0
"$voxrig" fuzz-reader --reader "$planted" --protocol serve --profile vfp-static --runs 3000 \
  --jobs 2 > "$tmp/planted" 2>&1 || rc=$?
if [ "$rc" -ne 4 ] || ! grep -q "^DISAGREE" "$tmp/planted"; then
  cat "$tmp/planted"
  echo "FAIL: fuzz-reader through serve missed the planted bug (exit $rc)"
  exit 1
fi
echo "ok: the C testee serves; fuzz-reader through serve finds the planted bug"
