#!/usr/bin/env bash
# Installs an already-built voxrig into a temporary prefix, then configures, builds and tests
# golden/examples/reader_cmake against it: find_package(voxrig), voxrig::codec, voxrig::conform (a
# C++ harness calling run_conformance) and voxrig_add_conformance_test() work for another project, and the installed `voxrig conform`
# finds the installed corpus.
#
#   golden/tests/install_example.sh BUILD_DIR [CXX_COMPILER]
#
# Nothing of voxrig is rebuilt: `cmake --install` copies the built library, CLI and corpus. The
# example is one small source file. Registered as the CTest `golden_install_example`.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:?usage: golden/tests/install_example.sh BUILD_DIR [CXX_COMPILER]}" && pwd)"
cxx="${2:-$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")}"
generator="$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build/CMakeCache.txt")"
work="$(mktemp -d "${TMPDIR:-/tmp}/voxrig-install-XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "== install $build -> $work/prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -x "$work/prefix/bin/voxrig"
test -f "$work/prefix/share/voxrig/golden/manifest.json"

echo "== configure and build golden/examples/reader_cmake"
cmake -S "$src/golden/examples/reader_cmake" -B "$work/build" ${generator:+-G "$generator"} \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" \
  ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j 2

echo "== ctest in the example"
ctest --test-dir "$work/build" --output-on-failure

echo "== the installed voxrig finds the installed corpus by itself"
(cd "$work" && env -u VOXRIG_GOLDEN "$work/prefix/bin/voxrig" conform --filter "$(
  sed -n 's/.*"id": *"\([^"]*\)".*/\1/p' "$work/prefix/share/voxrig/golden/manifest.json" | head -n 1
)" > "$work/self.log") || { cat "$work/self.log"; exit 1; }
grep -q "golden:   .*/prefix/share/voxrig/golden$" "$work/self.log" || {
  echo "installed voxrig did not use the installed corpus:"; cat "$work/self.log"; exit 1; }
tail -n 1 "$work/self.log"
echo "install test passed"
