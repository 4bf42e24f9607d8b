#!/usr/bin/env bash
# Checks the CI integrations for implementers (README "3."): the GitHub composite action
# .github/actions/voxrig-conform/action.yml and the GitLab snippet ci/gitlab-voxrig-conform.yml.
#   1. action.yml passes action-validator (the action JSON schema; npm @action-validator/cli,
#      installed into tools/ by scripts/install-deps.sh);
#   2. the GitLab snippet is YAML with the hidden job, its script lines and its JUnit report;
#      every script path both files name exists;
#   3. the script both run (voxrig-conform.sh conform) works: on the reference reader it exits 0
#      and writes the four reports and the GITHUB_OUTPUT values; on a broken reader it exits 4.
# usage: ci/check_ci_integration.sh VOXRIG_EXE
set -euo pipefail
voxrig=${1:?usage: check_ci_integration.sh VOXRIG_EXE}
voxrig="$(cd "$(dirname "$voxrig")" && pwd)/$(basename "$voxrig")"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
action="$root/.github/actions/voxrig-conform/action.yml"
script="$root/.github/actions/voxrig-conform/voxrig-conform.sh"
snippet="$root/ci/gitlab-voxrig-conform.yml"
validator="$root/tools/node_modules/.bin/action-validator"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$validator" ] || ! command -v node >/dev/null 2>&1; then
  echo "FAIL: node or $validator is missing; run scripts/install-deps.sh"
  exit 1
fi
if ! out="$("$validator" "$action" 2>&1)"; then
  echo "FAIL: action-validator: $action"
  echo "$out"
  exit 1
fi
echo "ok: action-validator passes $action"

python3 - "$snippet" "$action" <<'PY'
import sys, yaml
snippet, action = yaml.safe_load(open(sys.argv[1])), yaml.safe_load(open(sys.argv[2]))
job = snippet[".voxrig-conform"]
assert job["artifacts"]["reports"]["junit"] == "voxrig-conform/conform-junit.xml", job["artifacts"]
assert job["artifacts"]["when"] == "always"
lines = job["before_script"] + job["script"]
assert any("voxrig-conform.sh\" conform" in l for l in lines), lines
runs = [s.get("run", "") for s in action["runs"]["steps"]]
assert any("voxrig-conform.sh\" conform" in r for r in runs), runs
assert any(s.get("uses", "").startswith("actions/upload-artifact@") for s in action["runs"]["steps"])
assert action["inputs"]["reader"]["required"] is True
print("ok: the GitLab snippet and the action both run voxrig-conform.sh and publish the reports")
PY
[ -x "$script" ] || { echo "FAIL: $script is not executable"; exit 1; }

# The script on the reference reader (voxrig itself) and on a broken reader, a few cases each.
(cd "$tmp" && GITHUB_OUTPUT="$tmp/out" VOXRIG_READER="$voxrig" VOXRIG_PROFILES="vfp-static,vfp-rig" \
   VOXRIG_ARGS="--filter vfp/section/ --jobs 2" "$script" conform "$voxrig" > "$tmp/log" 2>&1) \
  || { echo "FAIL: voxrig-conform.sh conform on the reference reader"; cat "$tmp/log"; exit 1; }
for f in conform-junit.xml conform-report.json conform-report.html conform-summary.txt; do
  [ -s "$tmp/voxrig-conform/$f" ] || { echo "FAIL: voxrig-conform/$f was not written"; exit 1; }
done
grep -qx 'exit-code=0' "$tmp/out" && grep -qx 'failed=0' "$tmp/out" && grep -q '^passed=[1-9]' "$tmp/out" \
  || { echo "FAIL: GITHUB_OUTPUT: $(cat "$tmp/out")"; exit 1; }
echo "ok: voxrig-conform.sh conform on the reference reader: $(tr '\n' ' ' < "$tmp/out")"
set +e
(cd "$tmp" && VOXRIG_OUT_DIR=broken \
   VOXRIG_READER="sh $root/golden/readers/broken/reference_two_bugs.sh $voxrig" \
   VOXRIG_PROFILES="vfp-static" VOXRIG_ARGS="--filter vfp/section/ --jobs 2" \
   "$script" conform "$voxrig" > "$tmp/log2" 2>&1)
rc=$?
set -e
[ "$rc" -eq 4 ] || { echo "FAIL: a broken reader gave exit $rc (expected 4)"; cat "$tmp/log2"; exit 1; }
grep -q 'FAIL ' "$tmp/broken/conform-summary.txt" || { echo "FAIL: no FAIL line for a broken reader"; exit 1; }
echo "ok: voxrig-conform.sh conform on a broken reader exits 4 with FAIL lines"
echo "ci integration checks passed"
