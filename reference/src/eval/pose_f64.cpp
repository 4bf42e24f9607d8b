// evaluate_models_f64: docs/spec/evaluation.md#pose-at-time-t / D19 in binary64 (voxrig/pose_f64.h).
//
// Deliberately written apart from the binary32 jobs (pose_sampling.cpp, pose_hierarchy.cpp): it
// is the expectation the conformance corpus records, so it shares no arithmetic with the code it
// checks. Plain loops, no caches: it runs once per golden pose case and per protocol request.
#include <algorithm>
#include <cmath>
#include <string>

#include "voxrig/pose_f64.h"
#include "voxrig/validate.h"

namespace voxrig {
namespace {

struct Q {
  double x = 0, y = 0, z = 0, w = 1;
};
struct V {
  double x = 0, y = 0, z = 0;
};
struct TrsD {
  V t;
  Q r;
  V s{1, 1, 1};
};

Q normalize(const Quat& q) {
  const double x = q.x, y = q.y, z = q.z, w = q.w;
  const double len = std::sqrt(x * x + y * y + z * z + w * w);
  if (len < 1e-12) return Q{};
  return Q{x / len, y / len, z / len, w / len};
}

Q normalize(const Q& q) {
  const double len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (len < 1e-12) return Q{};
  return Q{q.x / len, q.y / len, q.z / len, q.w / len};
}

TrsD widen(const Trs& t) {
  return TrsD{{t.t.x, t.t.y, t.t.z}, normalize(t.r), {t.s.x, t.s.y, t.s.z}};
}

V lerp(const V& a, const V& b, double u) {
  return V{a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u};
}

double dot(const Q& a, const Q& b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

Q nlerp(const Q& a, Q b, double u) {
  if (dot(a, b) < 0) b = Q{-b.x, -b.y, -b.z, -b.w};
  return normalize(Q{a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u,
                     a.w + (b.w - a.w) * u});
}

Q slerp(const Q& a, Q b, double u) {
  double d = dot(a, b);
  if (d < 0) {
    b = Q{-b.x, -b.y, -b.z, -b.w};
    d = -d;
  }
  if (d > 0.9995) return nlerp(a, b, u);  // D19: nearly parallel
  const double theta = std::acos(d);
  const double s = std::sin(theta);
  const double wa = std::sin((1 - u) * theta) / s, wb = std::sin(u * theta) / s;
  return Q{a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb};
}

TrsD sample(const AnimTrack& tr, double t, SamplePolicy policy) {
  const auto& k = tr.keys;
  if (t <= k.front().time_ms) return widen(k.front().trs);
  if (t >= k.back().time_ms) return widen(k.back().trs);
  // The last key with time <= t (keys are strictly increasing in time).
  const size_t i = size_t(std::upper_bound(k.begin(), k.end(), t,
                                           [](double v, const AnimKey& key) {
                                             return v < double(key.time_ms);
                                           }) -
                          k.begin()) -
                   1;
  if (policy == SamplePolicy::Step || t == double(k[i].time_ms)) return widen(k[i].trs);
  const TrsD a = widen(k[i].trs), b = widen(k[i + 1].trs);
  const double t0 = k[i].time_ms, t1 = k[i + 1].time_ms;
  const double u = (t - t0) / (t1 - t0);
  TrsD r;
  r.t = lerp(a.t, b.t, u);
  r.s = lerp(a.s, b.s, u);
  r.r = policy == SamplePolicy::Slerp ? slerp(a.r, b.r, u) : nlerp(a.r, b.r, u);
  return r;
}

Mat4d to_matrix(const TrsD& l) {
  const double x = l.r.x, y = l.r.y, z = l.r.z, w = l.r.w;
  Mat4d m{};
  m[0] = (1 - 2 * (y * y + z * z)) * l.s.x;
  m[1] = 2 * (x * y + w * z) * l.s.x;
  m[2] = 2 * (x * z - w * y) * l.s.x;
  m[4] = 2 * (x * y - w * z) * l.s.y;
  m[5] = (1 - 2 * (x * x + z * z)) * l.s.y;
  m[6] = 2 * (y * z + w * x) * l.s.y;
  m[8] = 2 * (x * z + w * y) * l.s.z;
  m[9] = 2 * (y * z - w * x) * l.s.z;
  m[10] = (1 - 2 * (x * x + y * y)) * l.s.z;
  m[12] = l.t.x;
  m[13] = l.t.y;
  m[14] = l.t.z;
  m[15] = 1;
  return m;
}

Mat4d mul(const Mat4d& a, const Mat4d& b) {
  Mat4d r{};
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row) {
      double s = 0;
      for (int k = 0; k < 4; ++k) s += a[k * 4 + row] * b[c * 4 + k];
      r[c * 4 + row] = s;
    }
  return r;
}

// Composes local TRS into model matrices; parents are resolved by id, in any listing order.
// The hierarchy rules and their codes are RigRuntime::build's (voxrig/validate.h): unique ids,
// parents that exist, no cycles.
Result<std::vector<Mat4d>> compose(const Skel& skel, const std::vector<TrsD>& locals) {
  const size_t n = skel.joints.size();
  if (n == 0) return model_error(ErrorCode::SkelNoJoints, "SKEL", "no joints");
  std::vector<uint16_t> ids(n);
  std::vector<int16_t> parent_ids(n);
  for (size_t i = 0; i < n; ++i) {
    ids[i] = skel.joints[i].id;
    parent_ids[i] = skel.joints[i].parent;
  }
  std::vector<int32_t> parent;
  if (const auto broken = check_joint_hierarchy(ids, parent_ids, &parent)) {
    ErrorCode code = ErrorCode::SkelParentCycle;
    switch (broken->rule) {
      case JointRule::DuplicateId:
        code = ErrorCode::SkelJointOrder;
        break;
      case JointRule::ParentMissing:
        code = ErrorCode::SkelParentMissing;
        break;
      case JointRule::ParentCycle:
        break;
    }
    return model_error(code, "SKEL/joint[" + std::to_string(broken->joint) + "]");
  }
  std::vector<Mat4d> model(n);
  for (uint32_t c : parent_first_order(parent)) {
    const Mat4d local = to_matrix(locals[c]);
    model[c] = parent[c] < 0 ? local : mul(model[size_t(parent[c])], local);
  }
  return model;
}

}  // namespace

Result<std::vector<Mat4d>> bind_models_f64(const Skel& skel) {
  std::vector<TrsD> locals;
  for (const auto& j : skel.joints) locals.push_back(widen(j.bind));
  return compose(skel, locals);
}

Result<std::vector<Mat4d>> evaluate_models_f64(const Skel& skel, const Anim& anim, size_t clip,
                                               double time_ms, SamplePolicy policy, TimeMode mode) {
  if (clip >= anim.clips.size()) return model_error(ErrorCode::EvalBadClip, "ANIM", "no such clip");
  if (!std::isfinite(time_ms)) return model_error(ErrorCode::EvalBadTime, "", "time is not finite");
  const AnimClip& c = anim.clips[clip];
  const double t = map_clip_time(time_ms, c.duration_ms, mode);
  std::vector<TrsD> locals;
  for (const auto& j : skel.joints) locals.push_back(widen(j.bind));
  for (size_t k = 0; k < c.tracks.size(); ++k) {
    const AnimTrack& tr = c.tracks[k];
    const std::string where =
        "ANIM/clip[" + std::to_string(clip) + "]/track[" + std::to_string(k) + "]";
    auto it = std::find_if(skel.joints.begin(), skel.joints.end(),
                           [&](const SkelJoint& j) { return j.id == tr.joint; });
    if (it == skel.joints.end()) return model_error(ErrorCode::AnimJointMissing, where);
    if (tr.keys.empty()) return model_error(ErrorCode::AnimNoKeys, where);
    locals[size_t(it - skel.joints.begin())] = sample(tr, t, policy);
  }
  return compose(skel, locals);
}

}  // namespace voxrig
