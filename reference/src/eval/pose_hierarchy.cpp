// Matrix helpers, LocalToModelJob and SkinningJob (docs/spec/evaluation.md#D20).
//
// Matrices are column-major (m[c * 4 + r]). The hierarchy walk follows the runtime's
// parent-first order, so a skeleton that lists a child before its parent composes correctly.
//
// With SSE (every x86-64) mat4_mul and the LocalToModelJob loop work on whole columns: the same
// products and the same left-to-right sums per element as the scalar code (no FMA: the build
// uses -ffp-contract=off), so the results are bit for bit those of the portable path.
// LocalToModelJob takes the parent-first order four joints at a time (ozz-animation's layout):
// the four local TRS are transposed into SoA registers, the 12 matrix terms of T * R * S are
// computed for all four at once (the scalar trs_affine's operations, lane by lane), and each
// joint then multiplies its parent's columns by broadcasts of its own lane. The products with
// the local matrix's constant row (0 0 0 1) are still computed (p * 0 can be -0 or NaN), so
// every bit matches the scalar composition. Splats are pshufd from the SoA terms on the stack
// (a non-destructive integer shuffle: no register copy, bits unchanged).
//
// The SSE2 kernel (l2m_sse2) walks the runtime's step table (byte offsets of each joint's model,
// TRS and parent model: no index arithmetic per joint), computes only the nine rotation-scale
// terms SoA (rs_terms4; the translation is splatted from the joint's own TRS), reads a
// 16-byte-aligned parent's columns as mulps memory operands, and is software-pipelined by one
// group: the terms of group g + 1 are computed before the products of group g, so their long
// dependency chain overlaps independent work (that, not the instruction count, was the limit).
// Kernels (pose.h PoseKernels): l2m_sse2 is the baseline every x86-64 runs; l2m_avx (built with
// target("avx"), chosen at run time when the CPU has AVX) takes groups of eight: T * R * S of
// joints 0-3 and 4-7 in the two 128-bit halves (trs_affine8), then joints L and 4 + L composed
// by one 256-bit product each (one at a time when one is a root or the second's parent is not
// written yet); the rest in groups of four (pairs 0+1, 2+3) and the tail. Per 128-bit half it
// does the SSE2 kernel's operations in its order, so both give the same bits; pose_exact_test
// runs both.
#include <atomic>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "voxrig/pose.h"

namespace voxrig {
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

}  // namespace

Mat4 Mat4::identity() {
  Mat4 r{};
  r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1.0f;
  return r;
}

Mat4 trs_to_mat4(const Trs& trs) {
  const Affine l = trs_affine(trs);
  Mat4 m;
  for (int c = 0; c < 4; ++c) {
    for (int row = 0; row < 3; ++row) m.m[c * 4 + row] = l.m[c * 3 + row];
    m.m[c * 4 + 3] = c == 3 ? 1.0f : 0.0f;
  }
  return m;
}

Mat4 mat4_mul(const Mat4& a, const Mat4& b) {
  Mat4 r;
#if defined(__SSE2__)
  const __m128 ac[4] = {_mm_loadu_ps(a.m), _mm_loadu_ps(a.m + 4), _mm_loadu_ps(a.m + 8),
                        _mm_loadu_ps(a.m + 12)};
  for (int c = 0; c < 4; ++c) {
    _mm_storeu_ps(r.m + 4 * c, mul_column(ac, _mm_loadu_ps(b.m + 4 * c)));
  }
#else
  for (int c = 0; c < 4; ++c) {
    const float b0 = b.m[c * 4 + 0], b1 = b.m[c * 4 + 1], b2 = b.m[c * 4 + 2], b3 = b.m[c * 4 + 3];
    for (int row = 0; row < 4; ++row) {
      r.m[c * 4 + row] = a.m[row] * b0 + a.m[4 + row] * b1 + a.m[8 + row] * b2 + a.m[12 + row] * b3;
    }
  }
#endif
  return r;
}

std::optional<Mat4> affine_inverse(const Mat4& a) {
  double m[3][3];  // m[row][col]
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m[r][c] = a.m[c * 4 + r];
  for (float v : a.m)
    if (!std::isfinite(v)) return std::nullopt;
  const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
  const double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
  const double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  const double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
  if (!std::isfinite(det) || std::fabs(det) < 1e-12) return std::nullopt;
  const double inv_det = 1.0 / det;
  double inv[3][3];
  inv[0][0] = c00 * inv_det;
  inv[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * inv_det;
  inv[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * inv_det;
  inv[1][0] = c01 * inv_det;
  inv[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * inv_det;
  inv[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * inv_det;
  inv[2][0] = c02 * inv_det;
  inv[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * inv_det;
  inv[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * inv_det;
  const double t[3] = {a.m[12], a.m[13], a.m[14]};
  Mat4 r{};
  for (int row = 0; row < 3; ++row) {
    double it = 0;
    for (int c = 0; c < 3; ++c) {
      r.m[c * 4 + row] = static_cast<float>(inv[row][c]);
      it -= inv[row][c] * t[c];
    }
    r.m[12 + row] = static_cast<float>(it);
  }
  r.m[15] = 1.0f;
  for (float v : r.m)
    if (!std::isfinite(v)) return std::nullopt;
  return r;
}

Vec3 transform_point(const Mat4& m, const Vec3& p) {
  return Vec3{m.m[0] * p.x + m.m[4] * p.y + m.m[8] * p.z + m.m[12],
              m.m[1] * p.x + m.m[5] * p.y + m.m[9] * p.z + m.m[13],
              m.m[2] * p.x + m.m[6] * p.y + m.m[10] * p.z + m.m[14]};
}

Status LocalToModelJob::validate() const {
  if (runtime == nullptr) return model_error(ErrorCode::EvalBadArgument, {}, "no runtime");
  const size_t n = runtime->joint_count();
  if (locals.size() < n)
    return model_error(ErrorCode::EvalBufferSize, {}, "locals shorter than joints");
  if (models.size() < n)
    return model_error(ErrorCode::EvalBufferSize, {}, "models shorter than joints");
  return ok_status();
}

#if defined(__SSE2__)
namespace {

// The joints of `order` after the last whole group of four (scalar-shaped, same terms).
inline void l2m_tail(std::span<const uint32_t> order, std::span<const int32_t> parents,
                     std::span<const Trs> locals, std::span<Mat4> models) {
  for (uint32_t j : order)
    compose_one(locals[j], parents[j] < 0 ? nullptr : models[parents[j]].m, models[j].m);
}

// The nine rotation-scale terms of trs_affine (m[0..8]) for four TRS at once, written SoA to
// soa[4 * k + i] (term k of joint i); the same operations lane by lane. The translation is not
// transposed: compose_rs splats it from the joint's own TRS. Loads (x y z w) at float 3 and
// (w sx sy sz) at float 6 of each Trs (both inside its 40 bytes).
inline void rs_terms4(const Trs* const trs[4], float* soa) {
  const __m128 q0 = _mm_loadu_ps(&trs[0]->r.x), q1 = _mm_loadu_ps(&trs[1]->r.x);
  const __m128 q2 = _mm_loadu_ps(&trs[2]->r.x), q3 = _mm_loadu_ps(&trs[3]->r.x);
  const __m128 c0 = _mm_loadu_ps(&trs[0]->r.w), c1 = _mm_loadu_ps(&trs[1]->r.w);
  const __m128 c2 = _mm_loadu_ps(&trs[2]->r.w), c3 = _mm_loadu_ps(&trs[3]->r.w);
  const __m128 q01l = _mm_unpacklo_ps(q0, q1), q23l = _mm_unpacklo_ps(q2, q3);  // x x y y
  const __m128 q01h = _mm_unpackhi_ps(q0, q1), q23h = _mm_unpackhi_ps(q2, q3);  // z z w w
  const __m128 x = _mm_movelh_ps(q01l, q23l), y = _mm_movehl_ps(q23l, q01l);
  const __m128 z = _mm_movelh_ps(q01h, q23h), w = _mm_movehl_ps(q23h, q01h);
  const __m128 c01l = _mm_unpacklo_ps(c0, c1), c23l = _mm_unpacklo_ps(c2, c3);  // w w sx sx
  const __m128 c01h = _mm_unpackhi_ps(c0, c1), c23h = _mm_unpackhi_ps(c2, c3);  // sy sy sz sz
  const __m128 sx = _mm_movehl_ps(c23l, c01l);
  const __m128 sy = _mm_movelh_ps(c01h, c23h), sz = _mm_movehl_ps(c23h, c01h);
  // Written in an order that lets each two-operand SSE instruction overwrite a value it no
  // longer needs (fewer register copies). 2 * v is v + v and 1 - v is (-v) + 1 (both exact for
  // every v: the same rounding of the same real number; -v flips the sign bit only).
  const __m128 sign = _mm_castsi128_ps(_mm_set1_epi32(INT32_MIN));
  const __m128 one = _mm_set1_ps(1.0f);
  const auto one_minus_twice = [&](__m128 v) {
    return _mm_add_ps(_mm_xor_ps(_mm_add_ps(v, v), sign), one);
  };
  const auto twice = [](__m128 v) { return _mm_add_ps(v, v); };
  const __m128 xx = _mm_mul_ps(x, x), yy = _mm_mul_ps(y, y), zz = _mm_mul_ps(z, z);
  _mm_store_ps(soa + 0, _mm_mul_ps(one_minus_twice(_mm_add_ps(yy, zz)), sx));
  _mm_store_ps(soa + 16, _mm_mul_ps(one_minus_twice(_mm_add_ps(xx, zz)), sy));
  _mm_store_ps(soa + 32, _mm_mul_ps(one_minus_twice(_mm_add_ps(xx, yy)), sz));
  const __m128 xy = _mm_mul_ps(x, y), wz = _mm_mul_ps(w, z);
  _mm_store_ps(soa + 4, _mm_mul_ps(twice(_mm_add_ps(xy, wz)), sx));
  _mm_store_ps(soa + 12, _mm_mul_ps(twice(_mm_sub_ps(xy, wz)), sy));
  const __m128 xz = _mm_mul_ps(x, z), wy = _mm_mul_ps(w, y);
  _mm_store_ps(soa + 8, _mm_mul_ps(twice(_mm_sub_ps(xz, wy)), sx));
  _mm_store_ps(soa + 24, _mm_mul_ps(twice(_mm_add_ps(xz, wy)), sz));
  const __m128 yz = _mm_mul_ps(y, z), wx = _mm_mul_ps(w, x);
  _mm_store_ps(soa + 20, _mm_mul_ps(twice(_mm_add_ps(yz, wx)), sy));
  _mm_store_ps(soa + 28, _mm_mul_ps(twice(_mm_sub_ps(yz, wx)), sz));
}

// compose_lane with the rotation-scale terms of rs_terms4 and the translation splatted from the
// joint's TRS (pshufd of (tx ty tz x) in a register: bit moves).
template <int L>
inline void compose_rs(const float* soa, const Trs& trs, const float* parent, float* out) {
  const __m128 pc0 = _mm_loadu_ps(parent), pc1 = _mm_loadu_ps(parent + 4);
  const __m128 pc2 = _mm_loadu_ps(parent + 8), pc3 = _mm_loadu_ps(parent + 12);
  const __m128 p3_zero = _mm_mul_ps(pc3, _mm_setzero_ps());  // the 0 in row 3 of columns 0-2
  for (int c = 0; c < 3; ++c) {
    const __m128 p0 = _mm_mul_ps(pc0, lane<L>(soa + 4 * (3 * c)));
    const __m128 p1 = _mm_mul_ps(pc1, lane<L>(soa + 4 * (3 * c + 1)));
    const __m128 p2 = _mm_mul_ps(pc2, lane<L>(soa + 4 * (3 * c + 2)));
    _mm_storeu_ps(out + 4 * c, _mm_add_ps(_mm_add_ps(_mm_add_ps(p0, p1), p2), p3_zero));
  }
  const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&trs.t.x));
  const __m128 p0 =
      _mm_mul_ps(pc0, _mm_castsi128_ps(_mm_shuffle_epi32(t, _MM_SHUFFLE(0, 0, 0, 0))));
  const __m128 p1 =
      _mm_mul_ps(pc1, _mm_castsi128_ps(_mm_shuffle_epi32(t, _MM_SHUFFLE(1, 1, 1, 1))));
  const __m128 p2 =
      _mm_mul_ps(pc2, _mm_castsi128_ps(_mm_shuffle_epi32(t, _MM_SHUFFLE(2, 2, 2, 2))));
  const __m128 p3 = _mm_mul_ps(pc3, _mm_set1_ps(1.0f));
  _mm_storeu_ps(out + 12, _mm_add_ps(_mm_add_ps(_mm_add_ps(p0, p1), p2), p3));
}

// a * (the 16-byte-aligned four floats at p), with the load folded into the mulps. Written as
// asm because GCC loads a value used four times into a register once (a load and a register
// per parent column, on the hot path of every joint). The product is the one
// _mm_mul_ps gives (IEEE multiplication commutes; only which NaN comes out may differ).
inline __m128 mul_mem(__m128 a, const float* p) {
  asm("mulps %1, %0" : "+x"(a) : "m"(*reinterpret_cast<const __m128*>(p)));
  return a;
}

// compose_rs for a 16-byte-aligned parent: the parent's columns are memory operands.
template <int L>
inline void compose_rs_aligned(const float* soa, const Trs& trs, const float* parent, float* out) {
  const __m128 p3_zero = mul_mem(_mm_setzero_ps(), parent + 12);
  for (int c = 0; c < 3; ++c) {
    const __m128 p0 = mul_mem(lane<L>(soa + 4 * (3 * c)), parent);
    const __m128 p1 = mul_mem(lane<L>(soa + 4 * (3 * c + 1)), parent + 4);
    const __m128 p2 = mul_mem(lane<L>(soa + 4 * (3 * c + 2)), parent + 8);
    _mm_storeu_ps(out + 4 * c, _mm_add_ps(_mm_add_ps(_mm_add_ps(p0, p1), p2), p3_zero));
  }
  const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&trs.t.x));
  const __m128 p0 =
      mul_mem(_mm_castsi128_ps(_mm_shuffle_epi32(t, _MM_SHUFFLE(0, 0, 0, 0))), parent);
  const __m128 p1 =
      mul_mem(_mm_castsi128_ps(_mm_shuffle_epi32(t, _MM_SHUFFLE(1, 1, 1, 1))), parent + 4);
  const __m128 p2 =
      mul_mem(_mm_castsi128_ps(_mm_shuffle_epi32(t, _MM_SHUFFLE(2, 2, 2, 2))), parent + 8);
  _mm_storeu_ps(out + 12, _mm_add_ps(_mm_add_ps(_mm_add_ps(p0, p1), p2), _mm_load_ps(parent + 12)));
}

// One step of the SSE2 kernel: a root takes its local matrix (scalar path, same terms), a child
// composes with its parent (already written: parents come first in the order).
template <int L, bool kAligned>
inline void finish_step(const float* soa, const detail::L2mStep& step, const char* locals,
                        char* models) {
  const Trs& trs = *reinterpret_cast<const Trs*>(locals + step.trs);
  float* out = reinterpret_cast<Mat4*>(models + step.model)->m;
  if (step.parent == detail::kL2mRoot) {
    compose_one(trs, nullptr, out);
    return;
  }
  const float* parent = reinterpret_cast<const Mat4*>(models + step.parent)->m;
  if constexpr (kAligned) {
    compose_rs_aligned<L>(soa, trs, parent, out);
  } else {
    compose_rs<L>(soa, trs, parent, out);
  }
}

// The SSE2 baseline kernel (every x86-64), walking the runtime's steps (byte offsets).
// kAligned: the models span is 16-byte aligned (so is every Mat4 in it: 64-byte stride), and the
// parents' columns are read as memory operands of mulps.
template <bool kAligned>
void l2m_sse2(std::span<const detail::L2mStep> steps, std::span<const Trs> locals,
              std::span<Mat4> models) {
  const char* lb = reinterpret_cast<const char*>(locals.data());
  char* mb = reinterpret_cast<char*>(models.data());
  // Software-pipelined by one group: the T * R * S terms of group g + 1 (a long dependency
  // chain: loads, transposes, products, sums) are computed before the products of group g,
  // which do not depend on them, so the two overlap in the out-of-order window.
  const auto terms = [&](size_t g, float* soa) {
    const detail::L2mStep* s = steps.data() + g;
    const Trs* const trs[4] = {
        reinterpret_cast<const Trs*>(lb + s[0].trs), reinterpret_cast<const Trs*>(lb + s[1].trs),
        reinterpret_cast<const Trs*>(lb + s[2].trs), reinterpret_cast<const Trs*>(lb + s[3].trs)};
    rs_terms4(trs, soa);
  };
  alignas(16) float soa[2][36];
  float* cur = soa[0];
  float* next = soa[1];
  const detail::L2mStep* const end4 = steps.data() + steps.size() / 4 * 4;
  if (steps.data() != end4) terms(0, cur);
  for (const detail::L2mStep* s = steps.data(); s != end4; s += 4) {
    if (s + 4 != end4) terms(size_t(s + 4 - steps.data()), next);
    finish_step<0, kAligned>(cur, s[0], lb, mb);
    finish_step<1, kAligned>(cur, s[1], lb, mb);
    finish_step<2, kAligned>(cur, s[2], lb, mb);
    finish_step<3, kAligned>(cur, s[3], lb, mb);
    std::swap(cur, next);
  }
  size_t g = size_t(end4 - steps.data());
  for (; g < steps.size(); ++g) {
    const detail::L2mStep& step = steps[g];
    const float* parent = step.parent == detail::kL2mRoot
                              ? nullptr
                              : reinterpret_cast<const Mat4*>(mb + step.parent)->m;
    compose_one(*reinterpret_cast<const Trs*>(lb + step.trs), parent,
                reinterpret_cast<Mat4*>(mb + step.model)->m);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define VOXRIG_POSE_AVX 1
std::atomic<uint8_t> g_kernels{static_cast<uint8_t>(PoseKernels::Auto)};

// The AVX kernel runs when allowed (set_pose_kernels) and the CPU and OS support AVX (libgcc's
// check includes the OS's XSAVE state).
bool pose_avx_enabled() {
  static const bool has_avx = __builtin_cpu_supports("avx");
  return has_avx &&
         g_kernels.load(std::memory_order_relaxed) == static_cast<uint8_t>(PoseKernels::Auto);
}

// The AVX kernel's helpers: compiled for AVX (target attribute) and always inlined into l2m_avx.
#define VOXRIG_AVX __attribute__((target("avx"), always_inline)) inline
// Two parents' column c: a's in the low 128 bits, b's in the high.
VOXRIG_AVX __m256 pair_column(const float* a, const float* b) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(a)), _mm_loadu_ps(b), 1);
}
// The four SoA floats at p in both halves, then lane L in the low four, lane L + 1 in the high.
VOXRIG_AVX __m256 pair_splat(const float* p, __m256i ctrl) {
  return _mm256_permutevar_ps(_mm256_broadcast_ps(reinterpret_cast<const __m128*>(p)), ctrl);
}
VOXRIG_AVX void pair_store(float* a, float* b, __m256 v) {
  _mm_storeu_ps(a, _mm256_castps256_ps128(v));
  _mm_storeu_ps(b, _mm256_extractf128_ps(v, 1));
}

// compose_lane for the joints of lanes L and L + 1 at once: joint a in the low 128 bits of each
// ymm register, joint b in the high 128. The splat of lane L / L + 1 is vpermilps of the SoA term
// broadcast to both halves (bit moves), the parents' columns are two 128-bit loads; per 128-bit
// half the very products and sums of compose_lane, in its order.
template <int L>
VOXRIG_AVX void compose_pair(const float* soa, const float* pa, const float* pb, float* oa,
                             float* ob) {
  const __m256i ctrl = _mm256_setr_epi32(L, L, L, L, L + 1, L + 1, L + 1, L + 1);
  const __m256 pc0 = pair_column(pa, pb), pc1 = pair_column(pa + 4, pb + 4);
  const __m256 pc2 = pair_column(pa + 8, pb + 8), pc3 = pair_column(pa + 12, pb + 12);
  const __m256 p3_zero = _mm256_mul_ps(pc3, _mm256_setzero_ps());
  for (int c = 0; c < 3; ++c) {
    const __m256 p0 = _mm256_mul_ps(pc0, pair_splat(soa + 4 * (3 * c), ctrl));
    const __m256 p1 = _mm256_mul_ps(pc1, pair_splat(soa + 4 * (3 * c + 1), ctrl));
    const __m256 p2 = _mm256_mul_ps(pc2, pair_splat(soa + 4 * (3 * c + 2), ctrl));
    pair_store(oa + 4 * c, ob + 4 * c,
               _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(p0, p1), p2), p3_zero));
  }
  const __m256 p0 = _mm256_mul_ps(pc0, pair_splat(soa + 36, ctrl));
  const __m256 p1 = _mm256_mul_ps(pc1, pair_splat(soa + 40, ctrl));
  const __m256 p2 = _mm256_mul_ps(pc2, pair_splat(soa + 44, ctrl));
  const __m256 p3 = _mm256_mul_ps(pc3, _mm256_set1_ps(1.0f));
  pair_store(oa + 12, ob + 12, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(p0, p1), p2), p3));
}

// Lanes L and L + 1 of a group: a pair when both have parents and b's parent is not a (whose
// matrix is not written yet), else one at a time.
template <int L>
VOXRIG_AVX void finish_pair(const float* soa, const uint32_t* j, std::span<const int32_t> parents,
                            std::span<Mat4> models) {
  const int32_t pa = parents[j[L]], pb = parents[j[L + 1]];
  if (pa < 0 || pb < 0 || pb == int32_t(j[L])) {
    finish_lane<L>(soa, j[L], parents, models);
    finish_lane<L + 1>(soa, j[L + 1], parents, models);
    return;
  }
  compose_pair<L>(soa, models[pa].m, models[pb].m, models[j[L]].m, models[j[L + 1]].m);
}

// trs_affine4 for eight TRS: joints 0-3 in the low 128 bits of a[k], joints 4-7 in the high
// (lane i of each half = joint i or 4 + i). The transposes are trs_affine4's, per 128-bit half
// (in-lane unpack/shuffle: bit moves); the arithmetic is trs_affine4's, lane by lane.
VOXRIG_AVX void trs_affine8(const Trs* const trs[8], __m256 a[12]) {
  __m256 r0[4], r1[4], r2[4];
  for (int i = 0; i < 4; ++i) {
    const float* lo = &trs[i]->t.x;
    const float* hi = &trs[4 + i]->t.x;
    r0[i] = pair_column(lo, hi);
    r1[i] = pair_column(lo + 4, hi + 4);
    r2[i] = _mm256_insertf128_ps(
        _mm256_castps128_ps256(_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(lo + 8)))),
        _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(hi + 8))), 1);
  }
  const auto transpose = [](__m256 r[4]) __attribute__((target("avx"))) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpacklo_ps(r[2], r[3]);
    const __m256 t2 = _mm256_unpackhi_ps(r[0], r[1]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    r[0] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
    r[1] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
    r[2] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
    r[3] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
  };
  transpose(r0);
  transpose(r1);
  const __m256 s01 = _mm256_unpacklo_ps(r2[0], r2[1]);  // sy0 sy1 sz0 sz1 per half
  const __m256 s23 = _mm256_unpacklo_ps(r2[2], r2[3]);
  const __m256 tx = r0[0], ty = r0[1], tz = r0[2], x = r0[3];
  const __m256 y = r1[0], z = r1[1], w = r1[2], sx = r1[3];
  const __m256 sy = _mm256_shuffle_ps(s01, s23, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 sz = _mm256_shuffle_ps(s01, s23, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 one = _mm256_set1_ps(1.0f), two = _mm256_set1_ps(2.0f);
  const __m256 xx = _mm256_mul_ps(x, x), yy = _mm256_mul_ps(y, y), zz = _mm256_mul_ps(z, z);
  const __m256 xy = _mm256_mul_ps(x, y), xz = _mm256_mul_ps(x, z), yz = _mm256_mul_ps(y, z);
  const __m256 wx = _mm256_mul_ps(w, x), wy = _mm256_mul_ps(w, y), wz = _mm256_mul_ps(w, z);
  a[0] = _mm256_mul_ps(_mm256_sub_ps(one, _mm256_mul_ps(two, _mm256_add_ps(yy, zz))), sx);
  a[1] = _mm256_mul_ps(_mm256_mul_ps(two, _mm256_add_ps(xy, wz)), sx);
  a[2] = _mm256_mul_ps(_mm256_mul_ps(two, _mm256_sub_ps(xz, wy)), sx);
  a[3] = _mm256_mul_ps(_mm256_mul_ps(two, _mm256_sub_ps(xy, wz)), sy);
  a[4] = _mm256_mul_ps(_mm256_sub_ps(one, _mm256_mul_ps(two, _mm256_add_ps(xx, zz))), sy);
  a[5] = _mm256_mul_ps(_mm256_mul_ps(two, _mm256_add_ps(yz, wx)), sy);
  a[6] = _mm256_mul_ps(_mm256_mul_ps(two, _mm256_add_ps(xz, wy)), sz);
  a[7] = _mm256_mul_ps(_mm256_mul_ps(two, _mm256_sub_ps(yz, wx)), sz);
  a[8] = _mm256_mul_ps(_mm256_sub_ps(one, _mm256_mul_ps(two, _mm256_add_ps(xx, yy))), sz);
  a[9] = tx;
  a[10] = ty;
  a[11] = tz;
}

// Joints j[L] (low half) and j[4 + L] (high half) of a group of eight, the SoA terms at soa
// (stride 8). As compose_pair, but the splat is an in-lane vpermilps (lane L of both halves).
// One after the other when a joint is a root or j[4 + L]'s parent is j[L]. The caller has made
// sure that j[4 + L]'s parent is not j[L + 1..3] (split_eight).
template <int L>
VOXRIG_AVX void finish_pair8(const float* soa, const uint32_t* j, std::span<const int32_t> parents,
                             std::span<Mat4> models) {
  const int32_t pa = parents[j[L]], pb = parents[j[4 + L]];
  if (pa < 0 || pb < 0 || pb == int32_t(j[L])) {
    finish_lane<L, 8>(soa, j[L], parents, models);
    finish_lane<L, 8>(soa + 4, j[4 + L], parents, models);
    return;
  }
  const float* ppa = models[pa].m;
  const float* ppb = models[pb].m;
  float* oa = models[j[L]].m;
  float* ob = models[j[4 + L]].m;
  const auto splat = [&](int k) __attribute__((target("avx"))) {
    return _mm256_permute_ps(_mm256_load_ps(soa + 8 * k), _MM_SHUFFLE(L, L, L, L));
  };
  const __m256 pc0 = pair_column(ppa, ppb), pc1 = pair_column(ppa + 4, ppb + 4);
  const __m256 pc2 = pair_column(ppa + 8, ppb + 8), pc3 = pair_column(ppa + 12, ppb + 12);
  const __m256 p3_zero = _mm256_mul_ps(pc3, _mm256_setzero_ps());
  for (int c = 0; c < 3; ++c) {
    const __m256 p0 = _mm256_mul_ps(pc0, splat(3 * c));
    const __m256 p1 = _mm256_mul_ps(pc1, splat(3 * c + 1));
    const __m256 p2 = _mm256_mul_ps(pc2, splat(3 * c + 2));
    pair_store(oa + 4 * c, ob + 4 * c,
               _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(p0, p1), p2), p3_zero));
  }
  const __m256 p0 = _mm256_mul_ps(pc0, splat(9));
  const __m256 p1 = _mm256_mul_ps(pc1, splat(10));
  const __m256 p2 = _mm256_mul_ps(pc2, splat(11));
  const __m256 p3 = _mm256_mul_ps(pc3, _mm256_set1_ps(1.0f));
  pair_store(oa + 12, ob + 12, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(p0, p1), p2), p3));
}

// The SoA terms of T * R * S (trs_affine8) of joints j[0..7], stored to soa (stride 8).
VOXRIG_AVX void terms8(const uint32_t* j, std::span<const Trs> locals, float* soa) {
  const Trs* const trs[8] = {&locals[j[0]], &locals[j[1]], &locals[j[2]], &locals[j[3]],
                             &locals[j[4]], &locals[j[5]], &locals[j[6]], &locals[j[7]]};
  __m256 a[12];
  trs_affine8(trs, a);
  for (int k = 0; k < 12; ++k) _mm256_store_ps(soa + 8 * k, a[k]);
}

// Joints j[0..7] from their terms (terms8): pairs (j[L], j[4 + L]) in L order. Those write
// j[4 + L] before j[L + 1..3]: when one of those is its parent, the group runs as two halves,
// j[0..3] then j[4..7], one joint at a time.
VOXRIG_AVX void finish8(const float* soa, const uint32_t* j, std::span<const int32_t> parents,
                        std::span<Mat4> models) {
  const int32_t p4 = parents[j[4]], p5 = parents[j[5]], p6 = parents[j[6]];
  const int32_t j1 = int32_t(j[1]), j2 = int32_t(j[2]), j3 = int32_t(j[3]);
  if (p4 == j1 || p4 == j2 || p4 == j3 || p5 == j2 || p5 == j3 || p6 == j3) {
    finish_lane<0, 8>(soa, j[0], parents, models);
    finish_lane<1, 8>(soa, j[1], parents, models);
    finish_lane<2, 8>(soa, j[2], parents, models);
    finish_lane<3, 8>(soa, j[3], parents, models);
    finish_lane<0, 8>(soa + 4, j[4], parents, models);
    finish_lane<1, 8>(soa + 4, j[5], parents, models);
    finish_lane<2, 8>(soa + 4, j[6], parents, models);
    finish_lane<3, 8>(soa + 4, j[7], parents, models);
    return;
  }
  finish_pair8<0>(soa, j, parents, models);
  finish_pair8<1>(soa, j, parents, models);
  finish_pair8<2>(soa, j, parents, models);
  finish_pair8<3>(soa, j, parents, models);
}

// The AVX kernel (function multiversioning by hand: chosen at run time, pose.h PoseKernels):
// VEX encoding (no register copies) and two joints per 256-bit product. Same bits as l2m_sse2.
// Software-pipelined by one group of eight, like l2m_sse2: the terms of group g + 1 are
// computed before the products of group g, so their dependency chains overlap.
__attribute__((target("avx"))) void l2m_avx(std::span<const uint32_t> order,
                                            std::span<const int32_t> parents,
                                            std::span<const Trs> locals, std::span<Mat4> models) {
  alignas(32) float soa[2][96];
  float* cur = soa[0];
  float* next = soa[1];
  const size_t end8 = order.size() / 8 * 8;
  if (end8 != 0) terms8(order.data(), locals, cur);
  size_t g = 0;
  for (; g < end8; g += 8) {
    if (g + 8 != end8) terms8(order.data() + g + 8, locals, next);
    finish8(cur, order.data() + g, parents, models);
    std::swap(cur, next);
  }
  for (; g + 4 <= order.size(); g += 4) {
    const uint32_t* j = order.data() + g;
    const Trs* const trs[4] = {&locals[j[0]], &locals[j[1]], &locals[j[2]], &locals[j[3]]};
    __m128 a[12];
    trs_affine4(trs, a);
    alignas(16) float soa[48];
    for (int k = 0; k < 12; ++k) _mm_store_ps(soa + 4 * k, a[k]);
    finish_pair<0>(soa, j, parents, models);
    finish_pair<2>(soa, j, parents, models);
  }
  l2m_tail(order.subspan(g), parents, locals, models);
}
#endif

}  // namespace
#endif

void set_pose_kernels(PoseKernels kernels) {
#if defined(VOXRIG_POSE_AVX)
  g_kernels.store(static_cast<uint8_t>(kernels), std::memory_order_relaxed);
#else
  (void)kernels;
#endif
}

const char* pose_kernels_in_use() {
#if defined(VOXRIG_POSE_AVX)
  if (pose_avx_enabled()) return "avx";
#endif
#if defined(__SSE2__)
  return "sse2";
#else
  return "portable";
#endif
}

Status LocalToModelJob::run() const {
  VOXRIG_TRY(validate());
  const std::span<const int32_t> parents = runtime->parents();
#if defined(__SSE2__)
  const std::span<const uint32_t> order = runtime->parent_first_order();
#if defined(VOXRIG_POSE_AVX)
  if (pose_avx_enabled()) {
    l2m_avx(order, parents, locals, models);
    return ok_status();
  }
#endif
  if ((reinterpret_cast<uintptr_t>(models.data()) & 15) == 0) {
    l2m_sse2<true>(runtime->l2m_steps_, locals, models);
  } else {
    l2m_sse2<false>(runtime->l2m_steps_, locals, models);
  }
#else
  for (uint32_t j : runtime->parent_first_order()) {
    const Mat4 local = trs_to_mat4(locals[j]);
    models[j] = parents[j] < 0 ? local : mat4_mul(models[parents[j]], local);
  }
#endif
  return ok_status();
}

Status SkinningJob::validate() const {
  if (runtime == nullptr) return model_error(ErrorCode::EvalBadArgument, {}, "no runtime");
  const size_t n = runtime->joint_count();
  if (models.size() < n)
    return model_error(ErrorCode::EvalBufferSize, {}, "models shorter than joints");
  if (skinning.size() < n) {
    return model_error(ErrorCode::EvalBufferSize, {}, "skinning shorter than joints");
  }
  return ok_status();
}

Status SkinningJob::run() const {
  VOXRIG_TRY(validate());
  const size_t n = runtime->joint_count();
  const std::span<const Mat4> inverse_bind = runtime->inverse_bind_models();
  const std::span<const uint8_t> singular = runtime->singular_bind();
  for (size_t j = 0; j < n; ++j) {
    skinning[j] = singular[j] ? Mat4::identity() : mat4_mul(models[j], inverse_bind[j]);
  }
  return ok_status();
}

}  // namespace voxrig
