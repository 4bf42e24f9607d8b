#!/usr/bin/env bash
# CTest library_consumers (label unit): a project that wants only the codec configures voxrig
# with the codec's dependencies alone (OpenSSL, zlib, nlohmann_json). With GoogleTest,
# RapidCheck, Google Benchmark and Python made unfindable (CMAKE_DISABLE_FIND_PACKAGE_<name>: a
# REQUIRED find of any of them is then a configure error), each of these must configure:
#   1. a project that does add_subdirectory(voxrig) and include(CTest) for its own tests: voxrig
#      is in library mode (VOXRIG_DEVELOPER_MODE OFF), and registers no test and builds no test,
#      fuzz or benchmark target of its own;
#   2. voxrig on its own with -DVOXRIG_DEVELOPER_MODE=OFF (what a user builds to install it):
#      no tests, no fuzz targets, no benchmarks;
#   3. golden/examples/reader_cmake against the package installed from BUILD_DIR
#      (find_package(voxrig) needs none of them either).
#
#   cmake/tests/library_consumers_test.sh BUILD_DIR [CXX_COMPILER]
#
# Configures only (the compile of the same sources is the rest of the suite's business); about
# 10 s of CPU. Nothing is written outside a temporary folder.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:?usage: cmake/tests/library_consumers_test.sh BUILD_DIR [CXX_COMPILER]}" && pwd)"
cxx="${2:-$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")}"
generator="$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build/CMakeCache.txt")"
work="$(mktemp -d "${TMPDIR:-/tmp}/voxrig-consumers-XXXXXX")"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "library_consumers: $*" >&2; exit 1; }

no_dev_packages=(-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_rapidcheck=ON
                 -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DCMAKE_DISABLE_FIND_PACKAGE_Python3=ON)
configure() {  # configure NAME SOURCE BINARY [ARGS...]: cmake configure, the log on failure
  local name="$1" from="$2" to="$3"
  shift 3
  cmake -S "$from" -B "$to" ${generator:+-G "$generator"} ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} \
    "${no_dev_packages[@]}" "$@" > "$work/$name.log" 2>&1 ||
    { cat "$work/$name.log" >&2; fail "$name: configure failed without the test packages"; }
}
# No test and no developer target: nothing voxrig registers with CTest, and no unit-test,
# property, fuzz or benchmark target in the build files.
library_only() {  # library_only NAME BINARY
  local tests
  tests="$(cd "$2" && ctest -N | sed -n 's/^Total Tests: //p')"
  [ "${tests:-0}" = "$3" ] || fail "$1: $tests test(s) registered, want $3 (voxrig registers none)"
  if grep -qE 'voxrig_bench|voxrig_icount|_tests\b|voxrig_props_|fuzz/CMakeFiles/' \
      "$2/build.ninja" "$2/Makefile" 2>/dev/null; then
    fail "$1: a test, property, fuzz or benchmark target is in the build"
  fi
}

echo "== 1. add_subdirectory(voxrig) from a project with its own tests"
mkdir -p "$work/sub"
cat > "$work/sub/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(voxrig_subdirectory_consumer LANGUAGES CXX)
include(CTest)
add_subdirectory("$src" voxrig)
if(NOT TARGET voxrig::codec)
  message(FATAL_ERROR "add_subdirectory(voxrig) gave no voxrig::codec")
endif()
add_executable(uses_codec main.cpp)
target_link_libraries(uses_codec PRIVATE voxrig::codec)
add_test(NAME consumer_own_test COMMAND uses_codec)
CMAKE
printf '#include "voxrig/rkc.h"\nint main() { return 0; }\n' > "$work/sub/main.cpp"
configure subdirectory "$work/sub" "$work/sub-build"
grep -q '^VOXRIG_DEVELOPER_MODE:BOOL=OFF$' "$work/sub-build/CMakeCache.txt" ||
  fail "subdirectory: VOXRIG_DEVELOPER_MODE is not OFF for a project that is not top-level"
library_only subdirectory "$work/sub-build" 1

echo "== 2. voxrig alone with VOXRIG_DEVELOPER_MODE=OFF"
configure standalone "$src" "$work/alone-build" -DVOXRIG_DEVELOPER_MODE=OFF
library_only standalone "$work/alone-build" 0

echo "== 3. find_package(voxrig) from the package installed from $build"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }
configure installed "$src/golden/examples/reader_cmake" "$work/installed-build" \
  -DCMAKE_PREFIX_PATH="$work/prefix"
echo "library_consumers: ok"
