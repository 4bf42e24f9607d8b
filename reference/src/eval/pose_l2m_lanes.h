// Pieces shared by LocalToModelJob's kernels: pose_hierarchy.cpp (trs_to_mat4, mat4_mul, the
// portable path and the SSE2 kernel l2m_sse2) and pose_l2m_avx.cpp (the AVX kernel l2m_avx and
// the choice between the two, pose.h PoseKernels). The scalar terms of T * R * S, their SoA
// form for four joints, and the composition of one lane of a group with its parent: one home
// for the operation order every path must share so that all give the same bits.
//
// Plain inline functions with internal linkage (an unnamed namespace: each including file has
// its own copies, inlined as that file's kernel needs, and no copy is shared between files), all
// compiled for the baseline ISA: the AVX kernel's own functions carry target("avx"), these do
// not, so no caller on a CPU without AVX can reach an AVX copy of one.
#pragma once

#include <cstdint>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "voxrig/pose.h"

namespace voxrig {

#if defined(__x86_64__) && defined(__GNUC__)
#define VOXRIG_POSE_AVX 1
namespace detail {
// LocalToModelJob's AVX path (pose_l2m_avx.cpp): when the AVX kernel is allowed
// (set_pose_kernels) and the CPU and OS support AVX, computes the models of the joints of
// `order` (parent-first) from their local TRS, with the same bits as l2m_sse2, and returns true;
// else returns false and writes nothing.
bool l2m_avx_if_enabled(std::span<const uint32_t> order, std::span<const int32_t> parents,
                        std::span<const Trs> locals, std::span<Mat4> models);
}  // namespace detail
#endif

namespace {
// The 12 non-constant elements of T * R * S (rows 0-2 of the four columns; row 3 is 0 0 0 1).
struct Affine {
  float m[12];  // column c, row r at c * 3 + r
};

inline Affine trs_affine(const Trs& trs) {
  const float x = trs.r.x, y = trs.r.y, z = trs.r.z, w = trs.r.w;
  const float xx = x * x, yy = y * y, zz = z * z;
  const float xy = x * y, xz = x * z, yz = y * z;
  const float wx = w * x, wy = w * y, wz = w * z;
  // Column 0 = R * e_x * sx, column 1 = R * e_y * sy, column 2 = R * e_z * sz.
  return Affine{{(1.0f - 2.0f * (yy + zz)) * trs.s.x, (2.0f * (xy + wz)) * trs.s.x,
                 (2.0f * (xz - wy)) * trs.s.x, (2.0f * (xy - wz)) * trs.s.y,
                 (1.0f - 2.0f * (xx + zz)) * trs.s.y, (2.0f * (yz + wx)) * trs.s.y,
                 (2.0f * (xz + wy)) * trs.s.z, (2.0f * (yz - wx)) * trs.s.z,
                 (1.0f - 2.0f * (xx + yy)) * trs.s.z, trs.t.x, trs.t.y, trs.t.z}};
}

#if defined(__SSE2__)
// r = a * b for one column b = (b0, b1, b2, b3): ((a0*b0 + a1*b1) + a2*b2) + a3*b3 per lane,
// the association of the scalar mat4_mul.
inline __m128 mul_column(const __m128 a[4], __m128 b) {
  const __m128 p0 = _mm_mul_ps(a[0], _mm_shuffle_ps(b, b, _MM_SHUFFLE(0, 0, 0, 0)));
  const __m128 p1 = _mm_mul_ps(a[1], _mm_shuffle_ps(b, b, _MM_SHUFFLE(1, 1, 1, 1)));
  const __m128 p2 = _mm_mul_ps(a[2], _mm_shuffle_ps(b, b, _MM_SHUFFLE(2, 2, 2, 2)));
  const __m128 p3 = _mm_mul_ps(a[3], _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 3, 3, 3)));
  return _mm_add_ps(_mm_add_ps(_mm_add_ps(p0, p1), p2), p3);
}

// The four columns of trs_to_mat4(trs) in registers.
inline void trs_columns(const Trs& trs, __m128 col[4]) {
  const Affine l = trs_affine(trs);
  col[0] = _mm_setr_ps(l.m[0], l.m[1], l.m[2], 0.0f);
  col[1] = _mm_setr_ps(l.m[3], l.m[4], l.m[5], 0.0f);
  col[2] = _mm_setr_ps(l.m[6], l.m[7], l.m[8], 0.0f);
  col[3] = _mm_setr_ps(l.m[9], l.m[10], l.m[11], 1.0f);
}

// One joint on its own (scalar-shaped, the terms of trs_affine and mat4_mul): out = the local
// matrix of trs for a root (parent == nullptr), else parent * local. The SSE2 kernel's roots
// and the joints after the kernels' last whole group take this path.
inline void compose_one(const Trs& trs, const float* parent, float* out) {
  __m128 local[4];
  trs_columns(trs, local);
  if (parent == nullptr) {
    for (int c = 0; c < 4; ++c) _mm_storeu_ps(out + 4 * c, local[c]);
    return;
  }
  const __m128 pc[4] = {_mm_loadu_ps(parent), _mm_loadu_ps(parent + 4), _mm_loadu_ps(parent + 8),
                        _mm_loadu_ps(parent + 12)};
  for (int c = 0; c < 4; ++c) _mm_storeu_ps(out + 4 * c, mul_column(pc, local[c]));
}

// trs_affine for four TRS at once: a[k] lane i = trs_affine(*trs[i]).m[k], same operations.
inline void trs_affine4(const Trs* const trs[4], __m128 a[12]) {
  // Rows (tx ty tz rx), (ry rz rw sx), (sy sz) per joint, transposed into one register per field.
  __m128 r0[4], r1[4], r2[4];
  for (int i = 0; i < 4; ++i) {
    const float* f = &trs[i]->t.x;
    r0[i] = _mm_loadu_ps(f);
    r1[i] = _mm_loadu_ps(f + 4);
    r2[i] = _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(f + 8)));
  }
  _MM_TRANSPOSE4_PS(r0[0], r0[1], r0[2], r0[3]);
  _MM_TRANSPOSE4_PS(r1[0], r1[1], r1[2], r1[3]);
  const __m128 s01 = _mm_unpacklo_ps(r2[0], r2[1]);  // sy0 sy1 sz0 sz1
  const __m128 s23 = _mm_unpacklo_ps(r2[2], r2[3]);
  const __m128 tx = r0[0], ty = r0[1], tz = r0[2], x = r0[3];
  const __m128 y = r1[0], z = r1[1], w = r1[2], sx = r1[3];
  const __m128 sy = _mm_movelh_ps(s01, s23), sz = _mm_movehl_ps(s23, s01);
  const __m128 one = _mm_set1_ps(1.0f), two = _mm_set1_ps(2.0f);
  const __m128 xx = _mm_mul_ps(x, x), yy = _mm_mul_ps(y, y), zz = _mm_mul_ps(z, z);
  const __m128 xy = _mm_mul_ps(x, y), xz = _mm_mul_ps(x, z), yz = _mm_mul_ps(y, z);
  const __m128 wx = _mm_mul_ps(w, x), wy = _mm_mul_ps(w, y), wz = _mm_mul_ps(w, z);
  a[0] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(yy, zz))), sx);
  a[1] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xy, wz)), sx);
  a[2] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xz, wy)), sx);
  a[3] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xy, wz)), sy);
  a[4] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, zz))), sy);
  a[5] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(yz, wx)), sy);
  a[6] = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xz, wy)), sz);
  a[7] = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(yz, wx)), sz);
  a[8] = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, yy))), sz);
  a[9] = tx;
  a[10] = ty;
  a[11] = tz;
}

// Lane L of the four floats at p in all four lanes: pshufd with a memory operand (an integer
// shuffle: bit moves only, so the same bits) loads and splats in one instruction, without the
// register copy a shufps splat needs and without holding all 12 SoA terms in registers.
template <int L>
inline __m128 lane(const float* p) {
  return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(p)),
                                            _MM_SHUFFLE(L, L, L, L)));
}

// models[j] = models[parent] * local, the local matrix being lane L of `a` (trs_affine4).
// Per column the association of mul_column: ((p0 + p1) + p2) + p3.
// S: the float stride between consecutive SoA terms (4 for a group of four; 8 for one half of
// the AVX kernel's group of eight).
template <int L, int S = 4>
inline void compose_lane(const float* a, const float* parent, float* out) {
  const __m128 pc0 = _mm_loadu_ps(parent), pc1 = _mm_loadu_ps(parent + 4);
  const __m128 pc2 = _mm_loadu_ps(parent + 8), pc3 = _mm_loadu_ps(parent + 12);
  const __m128 p3_zero = _mm_mul_ps(pc3, _mm_setzero_ps());  // the 0 in row 3 of columns 0-2
  for (int c = 0; c < 3; ++c) {
    const __m128 p0 = _mm_mul_ps(pc0, lane<L>(a + S * (3 * c)));
    const __m128 p1 = _mm_mul_ps(pc1, lane<L>(a + S * (3 * c + 1)));
    const __m128 p2 = _mm_mul_ps(pc2, lane<L>(a + S * (3 * c + 2)));
    _mm_storeu_ps(out + 4 * c, _mm_add_ps(_mm_add_ps(_mm_add_ps(p0, p1), p2), p3_zero));
  }
  const __m128 p0 = _mm_mul_ps(pc0, lane<L>(a + S * 9));
  const __m128 p1 = _mm_mul_ps(pc1, lane<L>(a + S * 10));
  const __m128 p2 = _mm_mul_ps(pc2, lane<L>(a + S * 11));
  const __m128 p3 = _mm_mul_ps(pc3, _mm_set1_ps(1.0f));
  _mm_storeu_ps(out + 12, _mm_add_ps(_mm_add_ps(_mm_add_ps(p0, p1), p2), p3));
}

// The local matrix of lane L of `a` (trs_affine4 / trs_affine8: the scalar trs_affine's terms,
// bit for bit): a root's model, read from the terms the group computed anyway.
template <int L, int S = 4>
inline void store_local(const float* a, float* out) {
  for (int c = 0; c < 4; ++c) {
    out[4 * c] = a[S * (3 * c) + L];
    out[4 * c + 1] = a[S * (3 * c + 1) + L];
    out[4 * c + 2] = a[S * (3 * c + 2) + L];
    out[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
  }
}

// One joint of a group: a root takes its local matrix, a child composes with its parent
// (already written: parents come first in the order).
template <int L, int S = 4>
inline void finish_lane(const float* a, uint32_t j, std::span<const int32_t> parents,
                        std::span<Mat4> models) {
  float* out = models[j].m;
  if (parents[j] < 0) {
    store_local<L, S>(a, out);
    return;
  }
  compose_lane<L, S>(a, models[parents[j]].m, out);
}
#endif

#if defined(__SSE2__)
// The joints of `order` after the last whole group of four (scalar-shaped, same terms).
inline void l2m_tail(std::span<const uint32_t> order, std::span<const int32_t> parents,
                     std::span<const Trs> locals, std::span<Mat4> models) {
  for (uint32_t j : order)
    compose_one(locals[j], parents[j] < 0 ? nullptr : models[parents[j]].m, models[j].m);
}
#endif

}  // namespace
}  // namespace voxrig
