#!/bin/bash -eu
# OSS-Fuzz build script for voxrig (projects/voxrig/build.sh). The build logic has one home, the
# repository's .clusterfuzzlite/build.sh (also ClusterFuzzLite's): it builds every target of
# fuzz/targets.txt with $CXX $CXXFLAGS $LIB_FUZZING_ENGINE and puts binaries, options,
# dictionaries and seed corpora into $OUT.
exec "$SRC/voxrig/.clusterfuzzlite/build.sh"
