#!/usr/bin/env bash
# Proves that `voxrig conform` catches a broken reader with the right case names: the example
# Python reader with the REQUIRED-flag rule switched off (golden/readers/broken/) must fail on
# exactly the (case, profile) pairs whose declared verdict is vfp.section.unknown_required, and
# pass everything else it runs.
# usage: golden/tests/broken_reader_caught.sh VOXRIG_EXE
set -euo pipefail
voxrig=${1:?usage: broken_reader_caught.sh VOXRIG_EXE}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

set +e
"$voxrig" conform --golden "$root/golden" --reader "python3 $root/golden/readers/broken/ignore_required.py" \
  --profile vfp-static --profile vfp-rig --filter required --jobs 2 --report "$tmp/report.json" \
  > "$tmp/stdout"
rc=$?
set -e
tail -1 "$tmp/stdout"
if [ "$rc" -ne 4 ]; then
  echo "FAIL: conform exited $rc for a broken reader (expected 4)"
  exit 1
fi
python3 - "$root/golden/manifest.json" "$tmp/report.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
want = {(c["id"], p) for c in manifest["cases"] if "required" in c["id"]
        for p, e in c["expect"].items()
        if p.startswith("vfp-") and e.get("error") == "vfp.section.unknown_required"}
got = {(r["id"], r["profile"]) for r in report["results"] if r["verdict"] != "pass"}
if not want:
    sys.exit("FAIL: the corpus has no vfp.section.unknown_required case")
if got != want:
    print("missed (should fail):", sorted(want - got))
    print("unexpected failures:", sorted(got - want))
    sys.exit("FAIL: conform did not single out exactly the REQUIRED-flag cases")
print("ok: conform caught the broken reader on exactly %d (case, profile) pairs" % len(want))
PY
