#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh (through oss-fuzz/build.sh) locally the way ClusterFuzzLite's
# base-builder image would (clang++-14 instead of the image's clang, AddressSanitizer + libFuzzer),
# then checks that $OUT holds, for every fuzz target: the binary, fuzz_<target>_seed_corpus.zip,
# fuzz_<target>.dict and fuzz_<target>.options, and that each binary runs its corpus
# (corpus/<target>/, -runs=0) cleanly under the timeout and malloc_limit_mb of its options.
# Inputs of fuzz/regressions/ are packed into the zip but not run here: an open finding is the
# fuzz-regress CTest's business, not a build problem.
# Slow (a full clang build): not a default CTest; .ci/run calls it next to the fuzz smoke.
# usage: fuzz/cflite_build_test.sh [--keep]   (--keep: leave the temp dirs and print them)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KEEP=0
[[ "${1:-}" == "--keep" ]] && KEEP=1
[[ "${1:-}" == "-h" || "${1:-}" == "--help" ]] && { sed -n '2,11p' "$0"; exit 0; }

TMP="$(mktemp -d)"
[[ $KEEP -eq 1 ]] || trap 'rm -rf "$TMP"' EXIT
export SRC="$TMP/src" WORK="$TMP/work" OUT="$TMP/out"
mkdir -p "$SRC" "$WORK" "$OUT"
ln -s "$ROOT" "$SRC/voxrig"
export CC=clang-14 CXX=clang++-14
export SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"

# Through OSS-Fuzz's entry point (oss-fuzz/build.sh), which runs $SRC/voxrig/.clusterfuzzlite/build.sh,
# the script ClusterFuzzLite's image runs as $SRC/build.sh: one build script for both.
echo "[test-cflite-build] running oss-fuzz/build.sh -> .clusterfuzzlite/build.sh (OUT=$OUT)"
(cd "$SRC/voxrig" && bash -eu "$ROOT/oss-fuzz/build.sh") >"$TMP/build.log" 2>&1 || {
  tail -40 "$TMP/build.log"; echo "[test-cflite-build] FAIL: build.sh failed"; exit 1; }

fail=0
n=0
for name in $(grep -v '^[[:space:]]*\(#\|$\)' "$ROOT/fuzz/targets.txt"); do
  t="fuzz_$name"
  n=$((n + 1))
  for f in "$t" "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
    [[ -s "$OUT/$f" ]] || { echo "[test-cflite-build] missing or empty: \$OUT/$f"; fail=1; }
  done
  [[ -x "$OUT/$t" ]] || { echo "[test-cflite-build] not executable: \$OUT/$t"; fail=1; continue; }
  mkdir -p "$TMP/seeds/$t"
  unzip -q -o "$OUT/${t}_seed_corpus.zip" -d "$TMP/seeds/$t"
  zipped="$(ls "$TMP/seeds/$t" | wc -l)"
  expected="$(cat <(ls "$ROOT/corpus/${t#fuzz_}") <(ls "$ROOT/fuzz/regressions/${t#fuzz_}" 2>/dev/null) | sort -u | wc -l)"
  [[ "$zipped" -eq "$expected" ]] || { echo "[test-cflite-build] $t: zip has $zipped inputs, expected $expected"; fail=1; }
  # Under the limits of its .options (timeout, malloc_limit_mb), as ClusterFuzzLite runs it.
  limits=()
  for key in timeout malloc_limit_mb; do
    value="$(sed -n "s/^[[:space:]]*$key[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p" "$OUT/$t.options" | tail -1)"
    [[ -n "$value" ]] && limits+=("-$key=$value")
  done
  if ! (cd "$OUT" && "./$t" -runs=0 "${limits[@]}" "$ROOT/corpus/${t#fuzz_}" >"$TMP/$t.run.log" 2>&1); then
    echo "[test-cflite-build] $t fails on its corpus:"; grep -m3 -E 'ERROR|runtime error|INVARIANT' "$TMP/$t.run.log"; fail=1
  fi
done
[[ $KEEP -eq 1 ]] && echo "[test-cflite-build] kept $TMP"
if [[ $fail -ne 0 ]]; then echo "[test-cflite-build] FAIL"; exit 1; fi
echo "[test-cflite-build] OK: $n targets, each with binary, seed corpus zip, dict and options"
