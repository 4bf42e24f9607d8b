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
// The AVX kernel and the choice between the two (pose.h PoseKernels) live in pose_l2m_avx.cpp;
// the pieces both kernels share, in pose_l2m_lanes.h.
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "eval/pose_l2m_lanes.h"
#include "voxrig/pose.h"

namespace voxrig {

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

}  // namespace
#endif

Status LocalToModelJob::run() const {
  VOXRIG_TRY(validate());
  const std::span<const int32_t> parents = runtime->parents();
#if defined(__SSE2__)
  const std::span<const uint32_t> order = runtime->parent_first_order();
#if defined(VOXRIG_POSE_AVX)
  if (detail::l2m_avx_if_enabled(order, parents, locals, models)) return ok_status();
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
