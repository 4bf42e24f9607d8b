#!/bin/sh
# CTest mesh_avx2_object_keeps_avx2_to_its_kernel: in the object file of mesh_binary_avx2.cpp
# (the greedy kernel compiled for AVX2 + BMI1/BMI2 + POPCNT, mesh.h MeshKernels) only the
# kernel's own functions, those of namespace voxrig::detail::avx2, hold instructions of those
# extensions, and they do hold some. Any other function there (a weak copy of a std::vector
# member or of a mesh_internal.h helper, which debug builds emit) may be the copy the linker
# keeps for every caller, and must run on a CPU without AVX2; the file keeps it so by including
# every header before its target pragma, and this test checks the instructions themselves.
# Usage: check_avx2_object.sh 'OBJ;OBJ;...' (CMake's $<TARGET_OBJECTS:voxrig_codec>).
set -u
obj=$(printf '%s\n' "$1" | tr ';' '\n' | grep 'mesh_binary_avx2\.cpp\.o$')
fail() { echo "check_avx2_object: $*" >&2; exit 1; }
[ -n "$obj" ] && [ -f "$obj" ] || fail "no mesh_binary_avx2 object in $1"
# Per function (objdump's "<name>:" lines, demangled): how many VEX-encoded (v...), BMI1/BMI2,
# LZCNT or POPCNT instructions it holds. Not tzcnt: baseline code spells count-trailing-zeros
# `rep bsf`, which objdump prints as tzcnt and which every x86-64 runs.
counts=$(objdump -d --no-show-raw-insn -C "$obj" | awk '
  /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
  /\t(v[a-z0-9]+|andn|bextr|blsi|blsmsk|blsr|lzcnt|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx) / { n[fn]++ }
  /\tpopcnt / { n[fn]++ }
  END { for (f in n) print n[f] "\t" f }')
[ -n "$counts" ] || fail "no AVX2/BMI instruction in $obj: was the target pragma lost?"
stray=$(printf '%s\n' "$counts" | grep -v 'voxrig::detail::avx2::')
if [ -n "$stray" ]; then
  fail "functions outside voxrig::detail::avx2 hold AVX2/BMI instructions in $obj:
$stray"
fi
n=$(printf '%s\n' "$counts" | wc -l)
echo "check_avx2_object: ok ($n kernel functions use the extensions; $obj)"
