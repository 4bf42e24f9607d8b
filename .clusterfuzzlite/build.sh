#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script for voxrig. Runs inside the base-builder image (or
# locally through fuzz/cflite_build_test.sh) with the usual environment:
#   $CXX, $CXXFLAGS       compiler and flags (sanitizer + coverage instrumentation included)
#   $LIB_FUZZING_ENGINE   link flags of the fuzzing engine (-fsanitize=fuzzer for libFuzzer)
#   $SRC, $WORK, $OUT     source checkout, scratch space, output directory
# For every target of fuzz/targets.txt it puts into $OUT: the binary fuzz_<target>, its options
# (fuzz/<target>.options), its dictionary (fuzz_<target>.dict, plus the shared <format>.dict the
# options name) and fuzz_<target>_seed_corpus.zip (corpus/<target>/ + fuzz/regressions/<target>/).
SRC_DIR="${VOXRIG_SRC:-$SRC/voxrig}"
BUILD_DIR="$WORK/voxrig-build"

generator="Unix Makefiles"
command -v ninja >/dev/null 2>&1 && generator="Ninja"
cmake -S "$SRC_DIR" -B "$BUILD_DIR" -G "$generator" \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DVOXRIG_FUZZ=ON -DVOXRIG_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DVOXRIG_SANITIZE=OFF \
  -DBUILD_TESTING=OFF -DVOXRIG_BUILD_BENCH=OFF \
  -DOPENSSL_USE_STATIC_LIBS=TRUE -DZLIB_USE_STATIC_LIBS=ON

# The one list of targets (fuzz/targets.txt, also read by fuzz/CMakeLists.txt and scripts/fuzz.sh).
mapfile -t targets < <(grep -v '^[[:space:]]*\(#\|$\)' "$SRC_DIR/fuzz/targets.txt")
cmake --build "$BUILD_DIR" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

zip_dir() {  # zip_dir ZIP DIR...: the files of the DIRs, flat; a name met twice is kept once when
  # the contents agree (libFuzzer names inputs by their SHA-1, so a regression copied from the
  # corpus has the corpus file's name; zip -j refuses repeated names), else stored as D-NAME.
  local zip="$1" d f name i=0 stage
  shift
  stage="$(mktemp -d)"
  for d in "$@"; do
    i=$((i + 1))
    [[ -d "$d" ]] || continue
    while IFS= read -r -d '' f; do
      name="$(basename "$f")"
      if [[ -e "$stage/$name" ]]; then
        cmp -s "$f" "$stage/$name" && continue
        name="$i-$name"
      fi
      cp "$f" "$stage/$name"
    done < <(find "$d" -type f -print0)
  done
  zip="$(cd "$(dirname "$zip")" && pwd)/$(basename "$zip")"
  rm -f "$zip"
  if [[ -n "$(ls -A "$stage")" ]]; then (cd "$stage" && zip -q -r "$zip" .); fi
  rm -rf "$stage"
  return 0
}

for t in "${targets[@]}"; do
  cp "$BUILD_DIR/fuzz/fuzz_$t" "$OUT/fuzz_$t"
  options="$SRC_DIR/fuzz/$t.options"
  if [[ -f "$options" ]]; then
    cp "$options" "$OUT/fuzz_$t.options"
    dict="$(sed -n 's/^[[:space:]]*dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$options" | tail -1)"
    if [[ -n "$dict" ]]; then
      cp "$SRC_DIR/corpus/$dict" "$OUT/$dict"
      cp "$SRC_DIR/corpus/$dict" "$OUT/fuzz_$t.dict"
    fi
  fi
  zip_dir "$OUT/fuzz_${t}_seed_corpus.zip" "$SRC_DIR/corpus/$t" "$SRC_DIR/fuzz/regressions/$t"
done
echo "voxrig: built ${#targets[@]} fuzz targets into $OUT"
