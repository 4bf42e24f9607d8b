// SamplingJob: one clip at one time -> local TRS per joint (formats.md "Evaluation", D19).
//
// Per track the job finds the bracket k with time[k] <= t < time[k+1]. With a SamplingCache the
// previous bracket is tried first, then the next two, and only then a binary search, so forward
// playback costs O(1) amortised per track and random access O(log keys).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "voxrig/pose.h"

namespace voxrig {
namespace {

Error job_error(ErrorCode code, const char* detail) {
  Error e;
  e.code = code;
  e.detail = detail;
  return e;
}

inline Vec3 lerp3(const Vec3& a, const Vec3& b, float u) {
  return Vec3{a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u};
}

inline Quat nlerp(const Quat& a, Quat b, float u) {
  const float dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (dot < 0.0f) b = Quat{-b.x, -b.y, -b.z, -b.w};
  return normalized(Quat{a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u,
                         a.w + (b.w - a.w) * u});
}

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
inline uint32_t search(const double* times, uint32_t lo, uint32_t hi, double t) {
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (times[mid] <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

Quat normalized(const Quat& q) {
  const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (len < 1e-12f) return Quat{0, 0, 0, 1};
  const float inv = 1.0f / len;
  return Quat{q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

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
  if (runtime == nullptr) return job_error(ErrorCode::EvalBadArgument, "no runtime");
  if (policy != SamplePolicy::Step && policy != SamplePolicy::Linear &&
      policy != SamplePolicy::Slerp) {
    return job_error(ErrorCode::EvalBadArgument, "unknown policy");
  }
  if (mode != TimeMode::Clamp && mode != TimeMode::Loop) {
    return job_error(ErrorCode::EvalBadArgument, "unknown time mode");
  }
  if (clip >= runtime->clip_count()) return job_error(ErrorCode::EvalBadClip, "no such clip");
  if (!std::isfinite(time_ms)) return job_error(ErrorCode::EvalBadTime, "time is not finite");
  if (output.size() < runtime->joint_count()) {
    return job_error(ErrorCode::EvalBufferSize, "output shorter than joints");
  }
  if (cache != nullptr && cache->capacity() < runtime->clip_track_count(clip)) {
    return job_error(ErrorCode::EvalBufferSize, "cache smaller than the clip's tracks");
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

  const RigRuntime::Track* tracks = rt.tracks_.data() + c.first_track;
  const double* all_times = rt.key_time_.data();
  const Vec3* all_t = rt.key_t_.data();
  const Quat* all_r = rt.key_r_.data();
  const Vec3* all_s = rt.key_s_.data();
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
      // Here n >= 2 and times[0] < t < times[n-1]: the bracket k is in [0, n-2].
      uint32_t hint = cursors != nullptr ? std::min(cursors[i], n - 2) : 0;
      if (cursors != nullptr && times[hint] <= t) {
        if (t < times[hint + 1]) {
          k = hint;
        } else if (t < times[hint + 2]) {  // hint + 2 <= n - 1 because t < times[n-1]
          k = hint + 1;
        } else {
          k = search(times, hint + 2, n - 1, t);
        }
      } else {
        k = search(times, 0, cursors != nullptr ? hint : n - 1, t);
      }
      if (cursors != nullptr) cursors[i] = k;
      const double t0 = times[k];
      if (t != t0 && policy != SamplePolicy::Step) {
        const float u = static_cast<float>((t - t0) / (times[k + 1] - t0));
        const uint32_t a = tr.first_key + k;
        out.t = lerp3(all_t[a], all_t[a + 1], u);
        out.s = lerp3(all_s[a], all_s[a + 1], u);
        out.r = policy == SamplePolicy::Linear ? nlerp(all_r[a], all_r[a + 1], u)
                                               : slerp(all_r[a], all_r[a + 1], u);
        continue;
      }
    }
    // On a key (or Step): the normalised key, exactly.
    const uint32_t a = tr.first_key + k;
    out.t = all_t[a];
    out.r = all_r[a];
    out.s = all_s[a];
  }
  return ok_status();
}

}  // namespace voxrig
