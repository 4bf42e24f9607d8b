#!/usr/bin/env bash
# The HTML report in a real browser: runs `voxrig conform --html` on a deliberately broken reader
# (golden/readers/broken/reference_two_bugs.sh: the reference with two bugs) over the VFP cases
# (both VFP profiles), then loads the page in headless Chromium through puppeteer-core
# (golden/tests/html_report_check.cjs) and checks it against the run's JSON report.
# usage: golden/tests/html_report.sh VOXRIG_EXE OUT_DIR
# Writes OUT_DIR/conform-broken.{html,json} and OUT_DIR/conform-report.png (the screenshot); a
# passing run of the reference (OUT_DIR/conform-passing.html) is checked too.
# Exit 77 (CTest SKIP_RETURN_CODE) when Chromium, node or puppeteer-core is missing.
set -euo pipefail
voxrig=${1:?usage: html_report.sh VOXRIG_EXE OUT_DIR}
out=${2:?usage: html_report.sh VOXRIG_EXE OUT_DIR}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/golden/tests/headless_env.sh"
mkdir -p "$out"
set +e
"$voxrig" conform --golden "$root/golden" --jobs 2 --profile vfp-static --profile vfp-rig \
  --reader "sh $root/golden/readers/broken/reference_two_bugs.sh $voxrig" \
  --report "$out/conform-broken.json" --html "$out/conform-broken.html" > "$out/conform-broken.txt"
rc=$?
set -e
tail -1 "$out/conform-broken.txt"
if [ "$rc" -ne 4 ]; then
  echo "FAIL: conform exited $rc for a broken reader (expected 4)"
  exit 1
fi
"$voxrig" conform --golden "$root/golden" --jobs 2 --filter vfp/header/ \
  --html "$out/conform-passing.html" > "$out/conform-passing.txt"
node "$root/golden/tests/html_report_check.cjs" "$out/conform-broken.html" \
  "$out/conform-broken.json" "$out/conform-report.png" "$chromium" "$root/tools" \
  "$out/conform-passing.html"
