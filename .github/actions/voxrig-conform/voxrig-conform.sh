#!/usr/bin/env bash
# The steps of the voxrig-conform CI integrations (the GitHub composite action beside this file
# and ci/gitlab-voxrig-conform.yml): get a voxrig (a cached one, the release package, or a build
# of this checkout), then run `voxrig conform` on the caller's reader and write JUnit XML, the
# JSON report and the HTML page.
#
# usage: voxrig-conform.sh key               print the cache key: voxrig-<commit of this checkout>
#                                            (a hash of its sources when there is no .git)
#        voxrig-conform.sh deps [runtime]    apt-get install the build dependencies (Debian/Ubuntu),
#                                            or only what a prebuilt voxrig needs (runtime)
#        voxrig-conform.sh setup PREFIX      make PREFIX/bin/voxrig: nothing when PREFIX holds the
#                                            voxrig of this commit (a cache hit: PREFIX/share/voxrig/
#                                            commit matches the key); else unpack VOXRIG_PACKAGE (a
#                                            release .tar.gz, path or URL) when set; else build
#                                            (Release, no tests) and install. Prints how and how long.
#        voxrig-conform.sh build BUILD_DIR   configure + build the `voxrig` CLI only
#        voxrig-conform.sh conform VOXRIG    run conform; configured by the environment:
#   VOXRIG_READER (required)   the reader command, run as `READER dump --profile P FILE`
#   VOXRIG_PROFILES            space- or comma-separated profiles (default: all four)
#   VOXRIG_OUT_DIR             where the reports go (default: voxrig-conform)
#   VOXRIG_EXPECTED_FAILURES   an expected-failure file (optional)
#   VOXRIG_CODES               strict | loose (default strict)
#   VOXRIG_LEVEL               verdicts | dumps | writers | capabilities (the adoption ladder)
#   VOXRIG_RECOMMENDED         true: recommended cases count too
#   VOXRIG_WRITER              true: also the roundtrip/canonicalize checks
#   VOXRIG_ARGS                more `voxrig conform` options, word-split
# conform prints the summary and writes, under VOXRIG_OUT_DIR: conform-junit.xml,
# conform-report.json, conform-report.html, conform-summary.txt, and (when GITHUB_OUTPUT is set)
# the outputs exit-code, passed, failed, level (the rung reached) and level-run. The corpus is the
# one installed beside VOXRIG when there is one, else this checkout's golden/. It exits with
# conform's code (0 ok, 4 a case failed, 2 usage, 3 I/O) so the caller decides when to fail.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"   # the voxrig checkout this action belongs to

key() {
  local id
  if id="$(git -C "$root" rev-parse HEAD 2>/dev/null)"; then
    echo "voxrig-$id"
  else  # a downloaded action has no .git: the sources' own hash names the same thing
    id="$(cd "$root" && find CMakeLists.txt cmake reference conform cli golden testing -type f \
            -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-40)"
    echo "voxrig-src-$id"
  fi
}

case "${1:-}" in
  key)
    key
    ;;
  deps)
    sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_=sudo
    pkgs=(cmake g++ ninja-build pkg-config libssl-dev zlib1g-dev nlohmann-json3-dev)
    [ "${2:-}" = runtime ] && pkgs=(ca-certificates curl libssl3 zlib1g)
    if [ "${2:-}" = runtime ] && dpkg -s "${pkgs[@]}" >/dev/null 2>&1; then exit 0; fi
    $sudo_ apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -q --no-install-recommends "${pkgs[@]}"
    ;;
  build)
    build="${2:?usage: voxrig-conform.sh build BUILD_DIR}"
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXRIG_DEVELOPER_MODE=OFF
    cmake --build "$build" --target voxrig
    ;;
  setup)
    prefix="${2:?usage: voxrig-conform.sh setup PREFIX}"
    want="$(key)"
    start=$(date +%s)
    stamp="$prefix/share/voxrig/commit"
    if [ -x "$prefix/bin/voxrig" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
      how="cache hit ($want)"
    elif [ -n "${VOXRIG_PACKAGE:-}" ]; then
      rm -rf "$prefix" && mkdir -p "$prefix"
      case "$VOXRIG_PACKAGE" in
        http://*|https://*) curl -fsSL "$VOXRIG_PACKAGE" | tar -xz -C "$prefix" --strip-components=1 ;;
        *) tar -xzf "$VOXRIG_PACKAGE" -C "$prefix" --strip-components=1 ;;
      esac
      echo "$want" > "$stamp"
      how="release package $VOXRIG_PACKAGE"
    else
      build="${VOXRIG_BUILD_DIR:-$prefix.build}"
      cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVOXRIG_DEVELOPER_MODE=OFF \
        -DCMAKE_INSTALL_PREFIX="$prefix" >&2
      cmake --build "$build" >&2
      rm -rf "$prefix"
      cmake --install "$build" >&2
      echo "$want" > "$stamp"
      how="built from source (cache miss: $want)"
    fi
    "$prefix/bin/voxrig" --version >/dev/null
    echo "voxrig-conform: voxrig ready in $(( $(date +%s) - start )) s: $how"
    ;;
  conform)
    voxrig="${2:?usage: voxrig-conform.sh conform VOXRIG_EXE}"
    : "${VOXRIG_READER:?set VOXRIG_READER to your reader command}"
    out="${VOXRIG_OUT_DIR:-voxrig-conform}"
    mkdir -p "$out"
    golden=()
    installed="$(cd "$(dirname "$voxrig")/.." && pwd)/share/voxrig/golden"
    [ -f "$installed/manifest.json" ] || golden=(--golden "$root/golden")
    args=(conform "${golden[@]}" --reader "$VOXRIG_READER"
          --junit "$out/conform-junit.xml" --report "$out/conform-report.json"
          --html "$out/conform-report.html")
    for p in ${VOXRIG_PROFILES//,/ }; do args+=(--profile "$p"); done
    [ -n "${VOXRIG_EXPECTED_FAILURES:-}" ] && args+=(--expected-failures "$VOXRIG_EXPECTED_FAILURES")
    [ -n "${VOXRIG_CODES:-}" ] && args+=(--codes "$VOXRIG_CODES")
    [ -n "${VOXRIG_LEVEL:-}" ] && args+=(--level "$VOXRIG_LEVEL")
    [ "${VOXRIG_RECOMMENDED:-false}" = "true" ] && args+=(--recommended)
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
    levels="$(sed -n 's/^level reached: \([a-z]*\)\( (\(run: \([a-z]*\)\)\?.*\)\?$/\1 \4/p' \
                "$out/conform-summary.txt" | tail -n 1)"
    reached="${levels%% *}"; run_level="${levels#* }"; run_level="${run_level:-$reached}"
    if [ -n "${GITHUB_OUTPUT:-}" ]; then
      { echo "exit-code=$rc"; echo "passed=${passed:-0}"; echo "failed=${failed:-0}"
        echo "level=${reached:-none}"; echo "level-run=${run_level:-none}"; } >> "$GITHUB_OUTPUT"
    fi
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
      { echo "### voxrig conform: level reached **${reached:-none}**"
        grep '^level reached: ' "$out/conform-summary.txt" || true
        echo; echo "$last"; } >> "$GITHUB_STEP_SUMMARY"
    fi
    echo "voxrig-conform: exit $rc; level reached: ${reached:-none}; reports in $out/ (conform-junit.xml, conform-report.json, conform-report.html)"
    exit "$rc"
    ;;
  *)
    sed -n '2,32p' "$0"
    exit 2
    ;;
esac
