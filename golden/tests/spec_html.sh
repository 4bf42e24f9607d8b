#!/usr/bin/env bash
# The rendered specification in a real browser: scripts/spec-html.py renders docs/spec/ with the
# golden cases of every rule (voxrig rules --coverage), then golden/tests/spec_html_check.cjs loads
# the page in headless Chromium (puppeteer-core) and checks every rule anchor, case list and link.
# usage: golden/tests/spec_html.sh VOXRIG_EXE OUT_DIR
# Writes OUT_DIR/voxrig-spec.html, OUT_DIR/coverage.json and OUT_DIR/spec-page.png (a screenshot).
# Exit 77 (CTest SKIP_RETURN_CODE) when Chromium, node, puppeteer-core or python3-markdown is missing.
set -euo pipefail
voxrig=${1:?usage: spec_html.sh VOXRIG_EXE OUT_DIR}
out=${2:?usage: spec_html.sh VOXRIG_EXE OUT_DIR}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/golden/tests/headless_env.sh"
mkdir -p "$out"
"$voxrig" rules --coverage --json --golden "$root/golden" > "$out/coverage.json"
set +e
python3 "$root/scripts/spec-html.py" --coverage "$out/coverage.json" --golden "$root/golden" \
  "$out/voxrig-spec.html"
rc=$?
set -e
if [ "$rc" -eq 3 ] && ! /usr/bin/python3 -c 'import markdown' 2>/dev/null; then
  echo "SKIP: python3-markdown is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
[ "$rc" -eq 0 ] || { echo "FAIL: scripts/spec-html.py exited $rc"; exit 1; }
node "$root/golden/tests/spec_html_check.cjs" "$out/voxrig-spec.html" "$root/golden/rules.json" \
  "$out/coverage.json" "$out/spec-page.png" "$chromium" "$root/tools"
