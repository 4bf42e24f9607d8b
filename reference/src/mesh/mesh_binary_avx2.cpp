// The binary mesher's AVX2 build (mesh.h MeshKernels): mesh_binary_kernel.h compiled for AVX2 +
// BMI1/BMI2 + POPCNT by a target pragma around the include, chosen at run time by
// detail::mesh_binary (mesh_binary.cpp). A pragma rather than a per-file -mavx2: every header is
// included before it, so the inline functions the headers define (std::vector, the mask helpers
// of mesh_internal.h) are baseline code in every object file, and the linker can never pick an
// AVX2 copy of one for a caller on a CPU without AVX2. Elsewhere (no x86-64, or a compiler
// without these pragmas) this file is empty and the SSE2 build runs.
#include <algorithm>
#include <bit>
#include <type_traits>

#include "mesh/mesh_internal.h"

#if defined(VOXRIG_MESH_AVX2)
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,popcnt")
#endif

#define VOXRIG_MESH_ISA avx2
#define VOXRIG_MESH_VZEROUPPER 1  // the kernel returns with a vzeroupper (see its end)
#define VOXRIG_MESH_WIDE 1        // 256-bit AVX2 code where it pays (expand_packed)
#include "mesh/mesh_binary_kernel.h"
#undef VOXRIG_MESH_WIDE
#undef VOXRIG_MESH_VZEROUPPER
#undef VOXRIG_MESH_ISA

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
