// The binary mesher's SSE2 build and the run-time choice between it and the AVX2 build
// (mesh.h MeshKernels; the kernel itself is mesh_binary_kernel.h, one source for both).
#include <algorithm>
#include <atomic>
#include <bit>
#include <type_traits>

#include "mesh/mesh_internal.h"

#define VOXRIG_MESH_ISA sse2
#include "mesh/mesh_binary_kernel.h"
#undef VOXRIG_MESH_ISA

namespace voxrig {
namespace {

std::atomic<uint8_t> g_mesh_kernels{static_cast<uint8_t>(MeshKernels::Auto)};

// The AVX2 build runs when allowed (set_mesh_kernels) and the CPU has every extension it was
// compiled for (libgcc's check of AVX2 includes the OS's saving of the YMM state).
bool mesh_avx2_enabled() {
#if defined(VOXRIG_MESH_AVX2)
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                          __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  return has && g_mesh_kernels.load(std::memory_order_relaxed) ==
                    static_cast<uint8_t>(MeshKernels::Auto);
#else
  return false;
#endif
}

}  // namespace

namespace detail {

void mesh_binary(const Grid& g, uint16_t joint0, MeshScratch::Impl& s, std::vector<Quad>& out) {
#if defined(VOXRIG_MESH_AVX2)
  if (mesh_avx2_enabled()) return avx2::mesh_binary_kernel(g, joint0, s, out);
#endif
  sse2::mesh_binary_kernel(g, joint0, s, out);
}

Quad* expand_packed(const uint64_t* q, size_t n, const PackedTile& tile, Quad* dst,
                    const Quad* dst_end) {
#if defined(VOXRIG_MESH_AVX2)
  if (mesh_avx2_enabled()) return avx2::expand_packed(q, n, tile, dst, dst_end);
#endif
  return sse2::expand_packed(q, n, tile, dst, dst_end);
}

size_t uniform_prefix(const uint16_t* joints, size_t i, size_t n, uint16_t j0) {
#if defined(VOXRIG_MESH_AVX2)
  if (mesh_avx2_enabled()) return avx2::uniform_prefix(joints, i, n, j0);
#endif
  return sse2::uniform_prefix(joints, i, n, j0);
}

}  // namespace detail

void set_mesh_kernels(MeshKernels kernels) {
  g_mesh_kernels.store(static_cast<uint8_t>(kernels), std::memory_order_relaxed);
}

const char* mesh_kernels_in_use() {
  if (mesh_avx2_enabled()) return "avx2";
#if defined(__SSE2__)
  return "sse2";
#else
  return "portable";
#endif
}

}  // namespace voxrig
