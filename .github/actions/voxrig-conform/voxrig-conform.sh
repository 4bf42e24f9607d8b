#!/usr/bin/env bash
# The steps of the voxrig-conform CI integrations (the GitHub composite action beside this file
# and ci/gitlab-voxrig-conform.yml): build the voxrig CLI from this checkout, then run
# `voxrig conform` on the caller's reader and write JUnit XML, the JSON report and the HTML page.
#
# usage: voxrig-conform.sh deps              apt-get install the build dependencies (Debian/Ubuntu)
#        voxrig-conform.sh build BUILD_DIR   configure + build the `voxrig` CLI (Release, no tests)
#        voxrig-conform.sh conform VOXRIG    run conform; configured by the environment:
#   VOXRIG_READER (required)   the reader command, run as `READER dump --profile P FILE`
#   VOXRIG_PROFILES            space- or comma-separated profiles (default: all four)
#   VOXRIG_OUT_DIR             where the reports go (default: voxrig-conform)
#   VOXRIG_EXPECTED_FAILURES   an expected-failure file (optional)
#   VOXRIG_CODES               strict | loose (default strict); VOXRIG_LEVEL required | all
#   VOXRIG_WRITER              true: also the roundtrip/canonicalize checks
#   VOXRIG_ARGS                more `voxrig conform` options, word-split
# conform prints the summary and writes, under VOXRIG_OUT_DIR: conform-junit.xml,
# conform-report.json, conform-report.html, conform-summary.txt, and (when GITHUB_OUTPUT is set)
# the outputs exit-code, passed, failed. It exits with conform's code (0 ok, 4 a case failed,
# 2 usage, 3 I/O) so the caller decides when to fail the job.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"   # the voxrig checkout this action belongs to

case "${1:-}" in
  deps)
    sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_=sudo
    $sudo_ apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -q --no-install-recommends \
      cmake g++ ninja-build pkg-config libssl-dev zlib1g-dev nlohmann-json3-dev
    ;;
  build)
    build="${2:?usage: voxrig-conform.sh build BUILD_DIR}"
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXRIG_DEVELOPER_MODE=OFF
    cmake --build "$build" --target voxrig
    ;;
  conform)
    voxrig="${2:?usage: voxrig-conform.sh conform VOXRIG_EXE}"
    : "${VOXRIG_READER:?set VOXRIG_READER to your reader command}"
    out="${VOXRIG_OUT_DIR:-voxrig-conform}"
    mkdir -p "$out"
    args=(conform --golden "$root/golden" --reader "$VOXRIG_READER"
          --junit "$out/conform-junit.xml" --report "$out/conform-report.json"
          --html "$out/conform-report.html")
    for p in ${VOXRIG_PROFILES//,/ }; do args+=(--profile "$p"); done
    [ -n "${VOXRIG_EXPECTED_FAILURES:-}" ] && args+=(--expected-failures "$VOXRIG_EXPECTED_FAILURES")
    [ -n "${VOXRIG_CODES:-}" ] && args+=(--codes "$VOXRIG_CODES")
    [ -n "${VOXRIG_LEVEL:-}" ] && args+=(--level "$VOXRIG_LEVEL")
    [ "${VOXRIG_WRITER:-false}" = "true" ] && args+=(--writer)
    # shellcheck disable=SC2206  # VOXRIG_ARGS is meant to be word-split
    [ -n "${VOXRIG_ARGS:-}" ] && args+=(${VOXRIG_ARGS})
    set +e
    "$voxrig" "${args[@]}" | tee "$out/conform-summary.txt"
    rc=${PIPESTATUS[0]}
    set -e
    last="$(tail -n 1 "$out/conform-summary.txt")"
    passed="$(sed -n 's/^\([0-9]*\) passed, [0-9]* failed$/\1/p' <<<"$last")"
    failed="$(sed -n 's/^[0-9]* passed, \([0-9]*\) failed$/\1/p' <<<"$last")"
    if [ -n "${GITHUB_OUTPUT:-}" ]; then
      { echo "exit-code=$rc"; echo "passed=${passed:-0}"; echo "failed=${failed:-0}"; } >> "$GITHUB_OUTPUT"
    fi
    echo "voxrig-conform: exit $rc; reports in $out/ (conform-junit.xml, conform-report.json, conform-report.html)"
    exit "$rc"
    ;;
  *)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
