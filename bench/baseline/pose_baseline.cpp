// bench/baseline/pose_baseline.cpp — see pose_baseline.h. The bodies below are copies of
// reference/src/eval/pose_sampling.cpp and pose_hierarchy.cpp at commit 0d3ba6a (before issue 15),
// with the RigRuntime members they read replaced by this class's copies.
#include "baseline/pose_baseline.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <xmmintrin.h>

namespace voxrig::bench_baseline {
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
#endif

}  // namespace

PoseBaseline::PoseBaseline(const RigRuntime& rt, const Anim& anim) {
  parent_.assign(rt.parents().begin(), rt.parents().end());
  order_.assign(rt.parent_first_order().begin(), rt.parent_first_order().end());
  bind_local_.assign(rt.bind_locals().begin(), rt.bind_locals().end());
  size_t max_tracks = 0;
  for (const AnimClip& c : anim.clips) {
    clips_.push_back({c.duration_ms, static_cast<uint32_t>(tracks_.size()),
                      static_cast<uint32_t>(c.tracks.size())});
    max_tracks = std::max(max_tracks, c.tracks.size());
    for (const AnimTrack& t : c.tracks) {
      const double span = double(t.keys.back().time_ms) - double(t.keys.front().time_ms);
      tracks_.push_back({static_cast<uint32_t>(rt.joint_index(t.joint)),
                         static_cast<uint32_t>(key_time_.size()),
                         static_cast<uint32_t>(t.keys.size()),
                         span > 0 ? double(t.keys.size() - 1) / span : 0.0});
      for (const AnimKey& k : t.keys) {
        key_time_.push_back(static_cast<double>(k.time_ms));
        key_value_.push_back(Trs{k.trs.t, normalized(k.trs.r), k.trs.s});
      }
    }
  }
  cursor_.assign(max_tracks, 0);
}

void PoseBaseline::sample(size_t clip, double time_ms, SamplePolicy policy, TimeMode mode,
                          bool use_cursors, std::span<Trs> out) {
  const Clip& c = clips_[clip];
  const double t = map_clip_time(time_ms, c.duration_ms, mode);

  // Joints without a track keep the bind pose; skip the copy when every joint has a track.
  if (c.track_count < joint_count()) {
    std::memcpy(out.data(), bind_local_.data(), joint_count() * sizeof(Trs));
  }
  uint32_t* cursors = nullptr;
  if (use_cursors) {
    if (cursor_clip_ != clip) {
      std::fill(cursor_.begin(), cursor_.end(), 0u);
      cursor_clip_ = clip;
    }
    cursors = cursor_.data();
  }
  PendingNormalize pending;
  const Track* tracks = tracks_.data() + c.first_track;
  const double* all_times = key_time_.data();
  const Trs* all_values = key_value_.data();
  for (uint32_t i = 0; i < c.track_count; ++i) {
    const Track& tr = tracks[i];
    const double* times = all_times + tr.first_key;
    const uint32_t n = tr.key_count;
    Trs& o = out[tr.joint];
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
        o.t = lerp3(a.t, b.t, u);
        o.s = lerp3(a.s, b.s, u);
        if (policy == SamplePolicy::Linear) {
          o.r = lerp_shortest(a.r, b.r, u);
          pending.add(&o.r);
        } else {
          o.r = slerp(a.r, b.r, u);
        }
        continue;
      }
    }
    // On a key (or Step): the normalised key, exactly.
    o = all_values[tr.first_key + k];
  }
  pending.flush();
}

void PoseBaseline::local_to_model(std::span<const Trs> locals, std::span<Mat4> models) const {
  const std::span<const int32_t> parents = std::span<const int32_t>(parent_);
#if defined(__SSE2__)
  for (uint32_t j : order_) {
    __m128 local[4];
    trs_columns(locals[j], local);
    float* out = models[j].m;
    if (parents[j] < 0) {
      for (int c = 0; c < 4; ++c) _mm_storeu_ps(out + 4 * c, local[c]);
      continue;
    }
    const float* p = models[parents[j]].m;
    const __m128 pc[4] = {_mm_loadu_ps(p), _mm_loadu_ps(p + 4), _mm_loadu_ps(p + 8),
                          _mm_loadu_ps(p + 12)};
    for (int c = 0; c < 4; ++c) _mm_storeu_ps(out + 4 * c, mul_column(pc, local[c]));
  }
#else
#error the baseline is the SSE path
#endif
}

}  // namespace voxrig::bench_baseline
