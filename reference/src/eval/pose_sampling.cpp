// SamplingJob: one clip at one time -> local TRS per joint (formats.md "Evaluation", D19).
//
// Per track the job finds the bracket k with time[k] <= t < time[k+1]. With a SamplingCache the
// previous bracket is tried first, then the next two, and only then a binary search, so forward
// playback costs O(1) amortised per track and random access O(log keys).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

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

// Linear-policy rotations are normalised in batches after their tracks are sampled: the
// sqrt + divide of one joint then overlaps those of the others instead of ending a long
// dependency chain per joint (~1.4x on 256 joints). Same operations, same bits as nlerp.
class PendingNormalize {
 public:
  void add(Quat* q) {
    q_[n_++] = q;
    if (n_ == kBatch) flush();
  }
  void flush() {
    for (uint32_t i = 0; i < n_; ++i) *q_[i] = normalize_inline(*q_[i]);
    n_ = 0;
  }

 private:
  static constexpr uint32_t kBatch = 64;
  Quat* q_[kBatch];
  uint32_t n_ = 0;
};

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
  double r = std::fmod(t_ms, d);  // exact; has the sign of t_ms
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
  const Trs* all_values = rt.key_value_.data();
  for (uint32_t i = 0; i < c.track_count; ++i) {
    const RigRuntime::Track& tr = tracks[i];
    const double* times = all_times + tr.first_key;
    const uint32_t n = tr.key_count;
    Trs& out = output[tr.joint];
    uint32_t k;
    if (t <= times[0]) {
      k = 0;
    } else if (t >= times[n - 1]) {
      k = n - 1;
    } else {
      // Here n >= 2 and times[0] < t < times[n-1]: the bracket k is in [0, n-2]. Try the
      // cached bracket and the next one (forward playback), else guess by interpolation
      // (exact for evenly spaced keys), else binary-search the side the guess rules out.
      uint32_t hint = n;
      if (cursors != nullptr) {
        const uint32_t c = std::min(cursors[i], n - 2);
        if (times[c] <= t) {
          if (t < times[c + 1]) {
            hint = c;
          } else if (t < times[c + 2]) {  // c + 2 <= n - 1 because t < times[n-1]
            hint = c + 1;
          }
        }
      }
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
        if (cursors != nullptr) cursors[i] = hint;
      } else if (cursors != nullptr) {
        cursors[i] = hint;
      }
      k = hint;
      const double t0 = times[k];
      if (t != t0 && policy != SamplePolicy::Step) {
        const float u = static_cast<float>((t - t0) / (times[k + 1] - t0));
        const Trs& a = all_values[tr.first_key + k];
        const Trs& b = (&a)[1];
        out.t = lerp3(a.t, b.t, u);
        out.s = lerp3(a.s, b.s, u);
        if (policy == SamplePolicy::Linear) {
          out.r = lerp_shortest(a.r, b.r, u);
          pending.add(&out.r);
        } else {
          out.r = slerp(a.r, b.r, u);
        }
        continue;
      }
    }
    // On a key (or Step): the normalised key, exactly.
    out = all_values[tr.first_key + k];
  }
  pending.flush();
  return ok_status();
}

}  // namespace voxrig
