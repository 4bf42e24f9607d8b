// SamplingJob: one clip at one time -> local TRS per joint (docs/spec/evaluation.md#D19).
//
// Per track the job finds the bracket k with time[k] <= t < time[k+1]. With a SamplingCache the
// previous bracket is tried first (before the clip-end tests), then the next one, and only then
// the interpolation guess and a binary search, so forward playback costs O(1) per track and
// random access O(log keys). A track whose key times equal the previous track's (flagged at
// build: baked clips key every joint at the same frames) takes that track's bracket and u as
// they are, so a clip keyed at common frames searches and divides once per frame, not per track.
//
// Linear sampling is value + d * u on whole SSE registers (RigRuntime::KeyStep precomputes d =
// next - this with the same float subtraction lerp would do), and the pending nlerp
// normalisations run four quaternions at a time in SoA registers (x x x x, y y y y, ...):
// sqrtps and divps are correctly rounded like sqrtss and divss, and every sum keeps the scalar
// association, so each bit equals the scalar formulas (pinned by pose_exact_test).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "voxrig/pose.h"

namespace voxrig {
namespace {

// normalized() for the hot loop (kept inline; the public function calls it).
inline Quat normalize_inline(const Quat& q) {
  const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (len < 1e-12f) return Quat{0, 0, 0, 1};
  const float inv = 1.0f / len;
  return Quat{q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

inline Vec3 lerp3(const Vec3& a, const Vec3& b, float u) {
  return Vec3{a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u};
}

// nlerp before its normalisation: the shortest-arc lerp of the four components.
inline Quat lerp_shortest(const Quat& a, const Quat& b, float u) {
  // Shortest arc without a branch: random key pairs make `dot < 0` unpredictable.
  const float dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  // +-1.0f from dot's sign bit by integer ops: GCC turns `signbit(dot) ? -1 : 1` into a
  // conditional jump, which random key pairs mispredict half of the time.
  const float sign =
      std::bit_cast<float>(0x3F800000u | (std::bit_cast<uint32_t>(dot) & 0x80000000u));
  const float bx = b.x * sign, by = b.y * sign, bz = b.z * sign, bw = b.w * sign;
  return Quat{a.x + (bx - a.x) * u, a.y + (by - a.y) * u, a.z + (bz - a.z) * u,
              a.w + (bw - a.w) * u};
}

inline Quat nlerp(const Quat& a, const Quat& b, float u) {
  return normalize_inline(lerp_shortest(a, b, u));
}

#if defined(__SSE2__)
// normalize_inline on four quaternions in SoA form (x, y, z, w: one component of each): one home
// for the operation order both SSE2 paths below must share with the scalar nlerp (same bits).
inline void normalize_soa(__m128& x, __m128& y, __m128& z, __m128& w) {
  const __m128 sum =
      _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)),
                 _mm_mul_ps(w, w));
  const __m128 len = _mm_sqrt_ps(sum);
  const __m128 tiny = _mm_cmplt_ps(len, _mm_set1_ps(1e-12f));  // false for NaN, as `<`
  const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), len);
  x = _mm_andnot_ps(tiny, _mm_mul_ps(x, inv));
  y = _mm_andnot_ps(tiny, _mm_mul_ps(y, inv));
  z = _mm_andnot_ps(tiny, _mm_mul_ps(z, inv));
  w = _mm_or_ps(_mm_andnot_ps(tiny, _mm_mul_ps(w, inv)), _mm_and_ps(tiny, _mm_set1_ps(1.0f)));
}
#endif

// Linear-policy rotations are normalised in batches after their tracks are sampled: the
// sqrt + divide of one joint then overlaps those of the others instead of ending a long
// dependency chain per joint, and with SSE four of them share one sqrtps + divps. Same
// operations, same bits as nlerp.
class PendingNormalize {
 public:
  void add(Quat* q) {
    q_[n_++] = q;
    if (n_ == kBatch) flush();
  }
  void flush() {
    uint32_t i = 0;
#if defined(__SSE2__)
    for (; i + 4 <= n_; i += 4) normalize4(q_ + i);
#endif
    for (; i < n_; ++i) *q_[i] = normalize_inline(*q_[i]);
    n_ = 0;
  }

 private:
#if defined(__SSE2__)
  // normalize_inline on four quaternions in SoA form.
  static void normalize4(Quat* const* q) {
    __m128 x = _mm_loadu_ps(&q[0]->x), y = _mm_loadu_ps(&q[1]->x);
    __m128 z = _mm_loadu_ps(&q[2]->x), w = _mm_loadu_ps(&q[3]->x);
    _MM_TRANSPOSE4_PS(x, y, z, w);
    normalize_soa(x, y, z, w);
    _MM_TRANSPOSE4_PS(x, y, z, w);
    _mm_storeu_ps(&q[0]->x, x);
    _mm_storeu_ps(&q[1]->x, y);
    _mm_storeu_ps(&q[2]->x, z);
    _mm_storeu_ps(&q[3]->x, w);
  }
#endif
  static constexpr uint32_t kBatch = 64;
  Quat* q_[kBatch];
  uint32_t n_ = 0;
};

// out = step.value + step.d * u for all ten floats (lerp3 for T and S, the shortest-arc lerp for
// R: KeyStep::d already points at the sign-corrected next key).
inline void lerp_step(const float* v, const float* d, float u, float* out) {
#if defined(__SSE2__)
  const __m128 uu = _mm_set1_ps(u);
  _mm_storeu_ps(out, _mm_add_ps(_mm_loadu_ps(v), _mm_mul_ps(_mm_loadu_ps(d), uu)));
  _mm_storeu_ps(out + 4, _mm_add_ps(_mm_loadu_ps(v + 4), _mm_mul_ps(_mm_loadu_ps(d + 4), uu)));
  const __m128 v2 = _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(v + 8)));
  const __m128 d2 = _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(d + 8)));
  _mm_store_sd(reinterpret_cast<double*>(out + 8),
               _mm_castps_pd(_mm_add_ps(v2, _mm_mul_ps(d2, uu))));
#else
  for (int i = 0; i < 10; ++i) out[i] = v[i] + d[i] * u;
#endif
}

#if defined(__SSE2__)
// Linear sampling of four tracks with the same bracket k and factor u (tracks[1..3] have
// same_times), straight from registers: lerp_step for each, then normalize4's operations on the
// four rotations transposed into SoA, then each Trs written once. Same operations, same bits as
// lerp_step + PendingNormalize, without storing the lerped rotations and reloading them.
// value[i] / step[i]: a key step's value and d (RigRuntime::KeyStep), as ten floats each.
inline void lerp4_linear(const float* const value[4], const float* const step[4], float u,
                         Trs* const out[4]) {
  const __m128 uu = _mm_set1_ps(u);
  __m128 a[4], b[4], c[4];  // (tx ty tz rx), (ry rz rw sx), (sy sz) per track
  for (int i = 0; i < 4; ++i) {
    const float* v = value[i];
    const float* d = step[i];
    a[i] = _mm_add_ps(_mm_loadu_ps(v), _mm_mul_ps(_mm_loadu_ps(d), uu));
    b[i] = _mm_add_ps(_mm_loadu_ps(v + 4), _mm_mul_ps(_mm_loadu_ps(d + 4), uu));
    const __m128 v2 = _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(v + 8)));
    const __m128 d2 = _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(d + 8)));
    c[i] = _mm_add_ps(v2, _mm_mul_ps(d2, uu));
  }
  // x = lane 3 of a[0..3]; y, z, w (and sx) = the transposed b.
  __m128 x = _mm_movehl_ps(_mm_unpackhi_ps(a[2], a[3]), _mm_unpackhi_ps(a[0], a[1]));
  __m128 y = b[0], z = b[1], w = b[2], sx = b[3];
  _MM_TRANSPOSE4_PS(y, z, w, sx);
  normalize_soa(x, y, z, w);
  _MM_TRANSPOSE4_PS(y, z, w, sx);  // back to (ry rz rw sx) per track
  const __m128 rows[4] = {y, z, w, sx};
  // a[i] with lane 3 replaced by x lane i: s = (tz, tz, x_i, x_i), then (tx, ty, tz, x_i).
  const __m128 s0 = _mm_shuffle_ps(a[0], x, _MM_SHUFFLE(0, 0, 2, 2));
  const __m128 s1 = _mm_shuffle_ps(a[1], x, _MM_SHUFFLE(1, 1, 2, 2));
  const __m128 s2 = _mm_shuffle_ps(a[2], x, _MM_SHUFFLE(2, 2, 2, 2));
  const __m128 s3 = _mm_shuffle_ps(a[3], x, _MM_SHUFFLE(3, 3, 2, 2));
  const __m128 first[4] = {_mm_shuffle_ps(a[0], s0, _MM_SHUFFLE(2, 0, 1, 0)),
                           _mm_shuffle_ps(a[1], s1, _MM_SHUFFLE(2, 0, 1, 0)),
                           _mm_shuffle_ps(a[2], s2, _MM_SHUFFLE(2, 0, 1, 0)),
                           _mm_shuffle_ps(a[3], s3, _MM_SHUFFLE(2, 0, 1, 0))};
  for (int i = 0; i < 4; ++i) {
    float* o = &out[i]->t.x;
    _mm_storeu_ps(o, first[i]);
    _mm_storeu_ps(o + 4, rows[i]);
    _mm_store_sd(reinterpret_cast<double*>(o + 8), _mm_castps_pd(c[i]));
  }
}
#endif

inline Quat slerp(const Quat& a, Quat b, float u) {
  float dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (dot < 0.0f) {
    b = Quat{-b.x, -b.y, -b.z, -b.w};
    dot = -dot;
  }
  // Nearly parallel (D19): sin(theta) ~ 0 makes slerp's weights ill-conditioned.
  if (!(dot <= 0.9995f)) return nlerp(a, b, u);
  const float theta = std::acos(dot);
  const float inv_sin = 1.0f / std::sin(theta);
  const float wa = std::sin((1.0f - u) * theta) * inv_sin;
  const float wb = std::sin(u * theta) * inv_sin;
  return Quat{a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb};
}

// The last index k in [lo, hi) with times[k] <= t, given times[lo] <= t < times[hi].
// Branch-free halving (a conditional move per step): random times make a branchy search
// mispredict about every step.
inline uint32_t search(const double* times, uint32_t lo, uint32_t hi, double t) {
  uint32_t len = hi - lo;
  while (len > 1) {
    const uint32_t half = len / 2;
    lo = times[lo + half] <= t ? lo + half : lo;
    len -= half;
  }
  return lo;
}

}  // namespace

Quat normalized(const Quat& q) { return normalize_inline(q); }

double map_clip_time(double t_ms, uint32_t duration_ms, TimeMode mode) {
  if (!std::isfinite(t_ms)) return 0.0;
  const double d = static_cast<double>(duration_ms);
  if (mode == TimeMode::Clamp) return std::clamp(t_ms, 0.0, d) + 0.0;  // + 0.0: -0.0 -> 0.0
  if (duration_ms == 0) return 0.0;
  double r;
  if (t_ms >= 0.0 && t_ms < 0x1p52) {
    // fmod's exact result without its iterative library call (playback asks every frame).
    // q = trunc(t / d) is floor(t / d) or, when the division rounds up to the next integer
    // (rounding is monotone: never down past one), one more. q * d is an integer below 2^53,
    // so exact; t - q * d is exact (Sterbenz: q * d lies within [t / 2, t + d] once q >= 1),
    // and so is the + d below that corrects a quotient one too large (the sum is a multiple of
    // t's ulp below d). The remainder in [0, d) is unique: fmod's.
    const double q = static_cast<double>(static_cast<int64_t>(t_ms / d));
    r = t_ms - q * d;
  } else {
    r = std::fmod(t_ms, d);  // exact; has the sign of t_ms
  }
  if (r < 0.0) r += d;
  if (r >= d) r = 0.0;  // r + d rounded up to d: that is the start of the next period
  return r + 0.0;
}

Status SamplingJob::validate() const {
  if (runtime == nullptr) return model_error(ErrorCode::EvalBadArgument, {}, "no runtime");
  if (policy != SamplePolicy::Step && policy != SamplePolicy::Linear &&
      policy != SamplePolicy::Slerp) {
    return model_error(ErrorCode::EvalBadArgument, {}, "unknown policy");
  }
  if (mode != TimeMode::Clamp && mode != TimeMode::Loop) {
    return model_error(ErrorCode::EvalBadArgument, {}, "unknown time mode");
  }
  if (clip >= runtime->clip_count()) return model_error(ErrorCode::EvalBadClip, {}, "no such clip");
  if (!std::isfinite(time_ms)) return model_error(ErrorCode::EvalBadTime, {}, "time is not finite");
  if (output.size() < runtime->joint_count()) {
    return model_error(ErrorCode::EvalBufferSize, {}, "output shorter than joints");
  }
  if (cache != nullptr && cache->capacity() < runtime->clip_track_count(clip)) {
    return model_error(ErrorCode::EvalBufferSize, {}, "cache smaller than the clip's tracks");
  }
  return ok_status();
}

Status SamplingJob::run() const {
  VOXRIG_TRY(validate());
  const RigRuntime& rt = *runtime;
  const RigRuntime::Clip& c = rt.clips_[clip];
  const double t = map_clip_time(time_ms, c.duration_ms, mode);

  // Joints without a track keep the bind pose; skip the copy when every joint has a track.
  if (c.track_count < rt.joint_count()) {
    std::memcpy(output.data(), rt.bind_local_.data(), rt.joint_count() * sizeof(Trs));
  }
  uint32_t* cursors = nullptr;
  if (cache != nullptr) {
    if (cache->runtime_ != runtime || cache->clip_ != clip) {
      std::fill(cache->cursor_.begin(), cache->cursor_.end(), 0u);
      cache->runtime_ = runtime;
      cache->clip_ = clip;
    }
    cursors = cache->cursor_.data();
  }

  PendingNormalize pending;
  const RigRuntime::Track* tracks = rt.tracks_.data() + c.first_track;
  const double* all_times = rt.key_time_.data();
  const RigRuntime::KeyStep* all_steps = rt.key_step_.data();
  // The bracket k and the interpolation factor u of the last track that searched: a track with
  // `same_times` (its key times equal the previous track's) has the same bracket and the same u
  // (same operands, same bits), so it skips the cursor, the search and the division.
  uint32_t k = 0;
  bool lerp = false;  // t is strictly inside bracket k and the policy interpolates
  float u = 0.0f;
  for (uint32_t i = 0; i < c.track_count; ++i) {
    const RigRuntime::Track& tr = tracks[i];
    Trs& out = output[tr.joint];
    if (!tr.same_times) {
      const double* times = all_times + tr.first_key;
      const uint32_t n = tr.key_count;
      bool inside;  // times[k] <= t < times[k + 1]
      // Forward playback: the cached bracket still holds (cur <= n - 2, so this also proves
      // times[0] <= t < times[n-1]: no clip-end test, no search).
      const uint32_t cur = cursors != nullptr && n >= 2 ? std::min(cursors[i], n - 2) : 0;
      if (cursors != nullptr && n >= 2 && times[cur] <= t && t < times[cur + 1]) {
        k = cur;
        inside = true;
      } else if (t <= times[0]) {
        k = 0;
        inside = false;
      } else if (t >= times[n - 1]) {
        k = n - 1;
        inside = false;
      } else {
        // Here n >= 2 and times[0] < t < times[n-1]: the bracket k is in [0, n-2]. Try the
        // bracket after the cached one (forward playback; cur + 2 <= n - 1 as t < times[n-1]),
        // else guess by interpolation (exact for evenly spaced keys), else binary-search the
        // side the guess rules out.
        uint32_t hint = n;
        if (cursors != nullptr && times[cur] <= t && t < times[cur + 2]) hint = cur + 1;
        if (hint == n) {
          const double g = (t - times[0]) * tr.index_scale;
          const uint32_t guess = g >= double(n - 2) ? n - 2 : static_cast<uint32_t>(g);
          if (times[guess] > t) {
            hint = search(times, 0, guess, t);
          } else if (t < times[guess + 1]) {
            hint = guess;
          } else {
            hint = search(times, guess + 1, n - 1, t);
          }
        }
        if (cursors != nullptr) cursors[i] = hint;
        k = hint;
        inside = true;
      }
      lerp = inside && t != times[k] && policy != SamplePolicy::Step;
      if (lerp) {
        const double t0 = times[k];
        u = static_cast<float>((t - t0) / (times[k + 1] - t0));
      }
    }
#if defined(__SSE2__)
    // Four tracks that share this bracket and u (the next three have same_times): one SoA batch.
    if (tr.leads_four != 0 && lerp && policy == SamplePolicy::Linear) {
      // The four tracks' keys follow one another in the streams, key_count apiece (same times).
      const RigRuntime::KeyStep* const k0 = all_steps + tr.first_key + k;
      const size_t stride = tr.key_count;
      const RigRuntime::KeyStep* const ks[4] = {k0, k0 + stride, k0 + 2 * stride, k0 + 3 * stride};
      const float* const values[4] = {&ks[0]->value.t.x, &ks[1]->value.t.x, &ks[2]->value.t.x,
                                      &ks[3]->value.t.x};
      const float* const ds[4] = {&ks[0]->d.t.x, &ks[1]->d.t.x, &ks[2]->d.t.x, &ks[3]->d.t.x};
      Trs* const outs[4] = {&out, &output[tracks[i + 1].joint], &output[tracks[i + 2].joint],
                            &output[tracks[i + 3].joint]};
      lerp4_linear(values, ds, u, outs);
      i += 3;
      continue;
    }
#endif
    const RigRuntime::KeyStep& step = all_steps[tr.first_key + k];
    if (lerp) {
      if (policy == SamplePolicy::Linear) {
        lerp_step(&step.value.t.x, &step.d.t.x, u, &out.t.x);
        pending.add(&out.r);
      } else {
        const Trs& a = step.value;
        const Trs& b = (&step)[1].value;
        out.t = lerp3(a.t, b.t, u);
        out.s = lerp3(a.s, b.s, u);
        out.r = slerp(a.r, b.r, u);
      }
      continue;
    }
    // On a key (or Step): the normalised key, exactly.
    out = step.value;
  }
  pending.flush();
  return ok_status();
}

}  // namespace voxrig
