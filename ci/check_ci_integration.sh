#!/usr/bin/env bash
# Checks the CI integrations for implementers (README "3."): the GitHub composite action
# .github/actions/voxrig-conform/action.yml and the GitLab snippet ci/gitlab-voxrig-conform.yml.
#   1. action.yml passes action-validator (the action JSON schema; npm @action-validator/cli,
#      installed into tools/ by scripts/install-deps.sh);
#   2. the GitLab snippet is YAML with the hidden job, its script lines and its JUnit report;
#      every script path both files name exists;
#   3. the script both run (voxrig-conform.sh conform) works: on the reference reader it exits 0
#      and writes the four reports and the GITHUB_OUTPUT values (level reached included); at
#      --level verdicts it reports that rung; on a broken reader it exits 4;
#   4. the release workflow (.github/workflows/release.yml; linted by CTest workflow_lint) makes
#      the packages; both set voxrig up from a cache keyed by voxrig's commit: the action restores it with
#      actions/cache and builds only on a miss, the GitLab job caches .voxrig-prefix; `setup`
#      unpacks a package, then finds the same prefix a cache hit.
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

python3 - "$snippet" "$action" "$root/.github/workflows/release.yml" <<'PY'
import sys, yaml
snippet, action = yaml.safe_load(open(sys.argv[1])), yaml.safe_load(open(sys.argv[2]))
release = yaml.safe_load(open(sys.argv[3]))
runs = " ".join(s.get("run", "") for j in release["jobs"].values() for s in j["steps"])
assert 'cpack' in runs and '"TGZ;DEB"' in runs and "conform" in runs, runs
print("ok: the release workflow makes the .tar.gz and .deb and runs conform from the package")
job = snippet[".voxrig-conform"]
assert job["artifacts"]["reports"]["junit"] == "voxrig-conform/conform-junit.xml", job["artifacts"]
assert job["artifacts"]["when"] == "always"
lines = job["before_script"] + job["script"]
assert any("voxrig-conform.sh\" conform" in l for l in lines), lines
runs = [s.get("run", "") for s in action["runs"]["steps"]]
assert any("voxrig-conform.sh\" conform" in r for r in runs), runs
assert any(s.get("uses", "").startswith("actions/upload-artifact@") for s in action["runs"]["steps"])
assert action["inputs"]["reader"]["required"] is True
steps = action["runs"]["steps"]
cache = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
assert cache and "steps.key.outputs.key" in cache[0]["with"]["key"], cache
build = [s for s in steps if "setup" in s.get("run", "")]
assert build and "voxrig-prefix" in build[0]["run"], build
deps = [s for s in steps if s.get("run", "").endswith('voxrig-conform.sh" deps')]
assert deps and "cache-hit != 'true'" in deps[0]["if"], deps
assert "level" in action["outputs"] and "level" in action["inputs"], action["outputs"]
assert ".voxrig-prefix/" in job["cache"]["paths"], job.get("cache")
assert any(" setup " in l for l in job["before_script"]), job["before_script"]
print("ok: the GitLab snippet and the action both run voxrig-conform.sh, cache voxrig and publish the reports")
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
grep -qx 'level=dumps' "$tmp/out" && grep -qx 'level-run=dumps' "$tmp/out" \
  || { echo "FAIL: GITHUB_OUTPUT has no level: $(cat "$tmp/out")"; exit 1; }
echo "ok: voxrig-conform.sh conform on the reference reader: $(tr '\n' ' ' < "$tmp/out")"
(cd "$tmp" && GITHUB_OUTPUT="$tmp/out-v" VOXRIG_OUT_DIR=verdicts VOXRIG_READER="$voxrig" \
   VOXRIG_PROFILES="vfp-rig" VOXRIG_LEVEL=verdicts VOXRIG_ARGS="--filter vfp/section/ --jobs 2" \
   "$script" conform "$voxrig" > "$tmp/log" 2>&1) \
  || { echo "FAIL: voxrig-conform.sh conform at level verdicts"; cat "$tmp/log"; exit 1; }
grep -qx 'level=verdicts' "$tmp/out-v" || { echo "FAIL: level verdicts: $(cat "$tmp/out-v")"; exit 1; }
echo "ok: VOXRIG_LEVEL=verdicts runs and reports the first rung"

# setup: a package is unpacked into the prefix and stamped; the next setup is a cache hit.
mkdir -p "$tmp/pkg/voxrig-0-Linux/bin"
cp "$voxrig" "$tmp/pkg/voxrig-0-Linux/bin/voxrig"
mkdir -p "$tmp/pkg/voxrig-0-Linux/share/voxrig"
tar -czf "$tmp/voxrig-0-Linux.tar.gz" -C "$tmp/pkg" voxrig-0-Linux
VOXRIG_PACKAGE="$tmp/voxrig-0-Linux.tar.gz" "$script" setup "$tmp/prefix" > "$tmp/setup1" 2>&1 \
  || { echo "FAIL: setup from a package"; cat "$tmp/setup1"; exit 1; }
grep -q 'release package' "$tmp/setup1" && [ -x "$tmp/prefix/bin/voxrig" ] \
  || { echo "FAIL: setup did not unpack the package"; cat "$tmp/setup1"; exit 1; }
"$script" setup "$tmp/prefix" > "$tmp/setup2" 2>&1 && grep -q 'cache hit' "$tmp/setup2" \
  || { echo "FAIL: a second setup is not a cache hit"; cat "$tmp/setup2"; exit 1; }
echo "ok: setup: $(cat "$tmp/setup1"); then $(cat "$tmp/setup2")"
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
