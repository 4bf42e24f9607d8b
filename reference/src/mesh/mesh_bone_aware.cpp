// Bone-aware greedy meshing: the public entry point over the binary mesher (mesh_binary.cpp),
// with the fast path for a grid whose solid voxels all share one joint.
//
// A face is exposed when its neighbour is empty or bound to a different joint; runs split where
// the joint changes; the quads are then grouped by joint id (per-joint block chains, emission
// order kept), so a renderer can draw each joint's quads with that joint's skinning matrix.
#include <algorithm>

#include "mesh/mesh_internal.h"

namespace voxrig {
namespace detail {
namespace {

// Index of the first non-zero voxel, or n.
size_t first_solid(const uint8_t* vox, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(vox + i));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) != 0xFFFF) break;
  }
#endif
  while (i < n && vox[i] == 0) ++i;
  return i;
}

// True when some solid voxel at or after `i` is bound to a joint other than j0.
bool mixed_joints(const uint8_t* vox, const uint16_t* joints, size_t i, size_t n, uint16_t j0) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i jv = _mm_set1_epi16(static_cast<short>(j0));
  for (; i + 16 <= n; i += 16) {
    const __m128i empty =
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(vox + i)), zero);
    const __m128i same = _mm_packs_epi16(
        _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(joints + i)), jv),
        _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(joints + i + 8)), jv));
    if (_mm_movemask_epi8(_mm_or_si128(empty, same)) != 0xFFFF) return true;
  }
#endif
  for (; i < n; ++i)
    if (vox[i] != 0 && joints[i] != j0) return true;
  return false;
}

}  // namespace
}  // namespace detail

static Status mesh_bone_aware_unguarded(const Vox0& vox0, std::span<const uint16_t> joints,
                                        std::vector<Quad>& out, MeshScratch& scratch) {
  detail::Grid g{};
  VOXRIG_TRY(detail::make_grid(vox0, joints, g));
  if (g.joints == nullptr) {
    return model_error(ErrorCode::EvalBufferSize, "VOX0",
                       "bone-aware meshing needs one joint per voxel");
  }
  MeshScratch::Impl& s = scratch.impl();
  s.ensure();
  // One joint over every solid voxel: exactly plain greedy with that joint (and no grouping).
  const size_t first = detail::first_solid(g.vox, g.count);
  if (first == g.count) {
    out.clear();
    return ok_status();
  }
  const uint16_t j0 = g.joints[first];
  // Ids before `from` all equal j0, so only the voxels from there on need the mixed test.
  const size_t from = detail::uniform_prefix(g.joints, first, g.count, j0);
  if (from == g.count || !detail::mixed_joints(g.vox, g.joints, from, g.count, j0)) {
    detail::Grid plain = g;
    plain.joints = nullptr;
    out.clear();
    detail::mesh_binary(plain, j0, s, out);
    if (s.over_quad_limit) return detail::quad_limit_error(s.max_quads);
    return ok_status();
  }
  detail::mesh_binary(g, 0, s, out);
  if (s.over_quad_limit) {
    s.discard_grouped();
    return detail::quad_limit_error(s.max_quads);
  }
  s.flush_grouped(out);
  return ok_status();
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Status mesh_bone_aware(const Vox0& vox0, std::span<const uint16_t> joints, std::vector<Quad>& out,
                       MeshScratch& scratch) {
  return guard_out_of_memory([&] { return mesh_bone_aware_unguarded(vox0, joints, out, scratch); });
}

}  // namespace voxrig
