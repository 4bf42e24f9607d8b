// LocalToModelJob's AVX kernel and the choice of kernels (pose.h PoseKernels). l2m_sse2
// (pose_hierarchy.cpp) is the baseline every x86-64 runs; l2m_avx (built with target("avx"),
// chosen at run time when the CPU has AVX) takes groups of eight: T * R * S of joints 0-3 and
// 4-7 in the two 128-bit halves (trs_affine8), then joints L and 4 + L composed by one 256-bit
// product each (one at a time when one is a root or the second's parent is not written yet);
// the rest in groups of four (pairs 0+1, 2+3) and the tail. Per 128-bit half it does the SSE2
// kernel's operations in its order, so both give the same bits; pose_exact_test runs both.
//
// Only the functions that carry target("avx") are compiled for AVX; the shared pieces
// (pose_l2m_lanes.h) stay baseline code. Elsewhere (not GCC or clang on x86-64) only the choice
// of kernels below is compiled and LocalToModelJob runs the SSE2 or portable path.
#include <atomic>
#include <cstdint>
#include <span>
#include <utility>

#include "eval/pose_l2m_lanes.h"

#if defined(VOXRIG_POSE_AVX)
#include <immintrin.h>
#endif

namespace voxrig {

#if defined(VOXRIG_POSE_AVX)
namespace {
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
}  // namespace

// In this file so that the kernel stays local to it: the compiler then specialises it for its
// one call (as it did when LocalToModelJob::run called it directly), which measured faster at
// 64 joints than an external call.
bool detail::l2m_avx_if_enabled(std::span<const uint32_t> order, std::span<const int32_t> parents,
                                std::span<const Trs> locals, std::span<Mat4> models) {
  if (!pose_avx_enabled()) return false;
  l2m_avx(order, parents, locals, models);
  return true;
}
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

}  // namespace voxrig
