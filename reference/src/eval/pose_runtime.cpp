// RigRuntime::build: everything the pose jobs derive once from SKEL (+ ANIM).
//
// The runtime checks what sampling relies on even for a hand-built model (decoded models pass
// these checks by construction): unique joint ids, parents that exist, no cycles, tracks for
// existing joints (one per joint), at least one key, strictly increasing key times.
#include <algorithm>
#include <cmath>
#include <string>

#include "voxrig/path.h"
#include "voxrig/pose.h"
#include "voxrig/validate.h"

namespace voxrig {
namespace {

Trs zero_step() { return Trs{{0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0}}; }

// KeyStep::d (pose.h): b - a per component, the rotation toward b's shortest-arc sign (taken
// from the dot product's sign bit, as lerp_shortest in pose_sampling.cpp: -0.0 flips too).
Trs key_delta(const Trs& a, const Trs& b) {
  const float dot = a.r.x * b.r.x + a.r.y * b.r.y + a.r.z * b.r.z + a.r.w * b.r.w;
  const float sign = std::signbit(dot) ? -1.0f : 1.0f;
  return Trs{
      {b.t.x - a.t.x, b.t.y - a.t.y, b.t.z - a.t.z},
      {b.r.x * sign - a.r.x, b.r.y * sign - a.r.y, b.r.z * sign - a.r.z, b.r.w * sign - a.r.w},
      {b.s.x - a.s.x, b.s.y - a.s.y, b.s.z - a.s.z}};
}

}  // namespace

int32_t RigRuntime::joint_index(uint16_t joint_id) const {
  auto it = std::lower_bound(id_to_index_.begin(), id_to_index_.end(),
                             std::pair<uint16_t, uint32_t>{joint_id, 0});
  if (it == id_to_index_.end() || it->first != joint_id) return -1;
  return static_cast<int32_t>(it->second);
}

std::optional<size_t> RigRuntime::find_clip(uint16_t clip_id) const {
  for (size_t i = 0; i < clips_.size(); ++i)
    if (clips_[i].id == clip_id) return i;
  return std::nullopt;
}

Result<RigRuntime> RigRuntime::build(const Skel& skel, const Anim* anim) {
  // The public entry point: allocation failure becomes internal.out_of_memory (result.h).
  return guard_out_of_memory([&] { return build_unguarded(skel, anim); });
}

Result<RigRuntime> RigRuntime::build_unguarded(const Skel& skel, const Anim* anim) {
  RigRuntime rt;
  const size_t n = skel.joints.size();
  const Path skel_path("SKEL");
  if (n == 0)
    return model_error(ErrorCode::SkelNoJoints, skel_path.str(), "skeleton has no joints");

  // Joint ids -> indices (sorted pairs, for joint_index()).
  rt.joint_ids_.resize(n);
  rt.id_to_index_.resize(n);
  std::vector<int16_t> parent_ids(n);
  for (size_t i = 0; i < n; ++i) {
    rt.joint_ids_[i] = skel.joints[i].id;
    rt.id_to_index_[i] = {skel.joints[i].id, static_cast<uint32_t>(i)};
    parent_ids[i] = skel.joints[i].parent;
  }
  std::sort(rt.id_to_index_.begin(), rt.id_to_index_.end());

  // The hierarchy rules (voxrig/validate.h): unique ids (a duplicate is ambiguous for parents
  // and tracks), parents that exist, no cycles.
  if (const auto broken = check_joint_hierarchy(rt.joint_ids_, parent_ids, &rt.parent_)) {
    const size_t i = broken->joint;
    const std::string jp = skel_path.child("joint", int64_t(i)).str();
    switch (broken->rule) {
      case JointRule::DuplicateId:
        return model_error(ErrorCode::SkelJointOrder, jp,
                           "duplicate joint id " + std::to_string(skel.joints[i].id));
      case JointRule::ParentMissing:
        return model_error(
            ErrorCode::SkelParentMissing, jp,
            "parent id " + std::to_string(skel.joints[i].parent) + " does not exist");
      case JointRule::ParentCycle:
        return model_error(ErrorCode::SkelParentCycle, jp, "the parent chain of this joint loops");
    }
  }
  rt.order_ = voxrig::parent_first_order(rt.parent_);
  // n <= 65536 (uint16 ids), so every byte offset fits 32 bits.
  rt.l2m_steps_.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const uint32_t j = rt.order_[k];
    const int32_t p = rt.parent_[j];
    rt.l2m_steps_[k] =
        detail::L2mStep{uint32_t(j * sizeof(Mat4)), uint32_t(j * sizeof(Trs)),
                        p < 0 ? detail::kL2mRoot : uint32_t(uint32_t(p) * sizeof(Mat4))};
  }

  // Bind pose: normalised locals, model matrices parents first, inverses (D20).
  rt.bind_local_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    rt.bind_local_[i] = skel.joints[i].bind;
    rt.bind_local_[i].r = normalized(skel.joints[i].bind.r);
  }
  rt.bind_model_.resize(n);
  for (uint32_t j : rt.order_) {
    const Mat4 local = trs_to_mat4(rt.bind_local_[j]);
    rt.bind_model_[j] = rt.parent_[j] < 0 ? local : mat4_mul(rt.bind_model_[rt.parent_[j]], local);
  }
  rt.inverse_bind_.resize(n);
  rt.singular_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    std::optional<Mat4> inv = affine_inverse(rt.bind_model_[i]);
    if (inv) {
      rt.inverse_bind_[i] = *inv;
    } else {
      rt.inverse_bind_[i] = Mat4::identity();
      rt.singular_[i] = 1;
      Warning w{WarningCode::EvalSingularBind, 0, skel_path.child("joint", int64_t(i)).str(),
                "bind model matrix is singular or non-finite; the joint stays at bind pose"};
      rt.warnings_.push_back(std::move(w));
    }
  }

  if (anim == nullptr) return rt;

  // Clips: SoA key streams, tracks contiguous, clips in model order.
  const Path anim_path("ANIM");
  size_t total_keys = 0, total_tracks = 0;
  for (const AnimClip& c : anim->clips) {
    total_tracks += c.tracks.size();
    for (const AnimTrack& t : c.tracks) total_keys += t.keys.size();
  }
  if (total_keys > UINT32_MAX || total_tracks > UINT32_MAX) {
    return model_error(ErrorCode::AnimLimitTotalKeys, anim_path.str(),
                       "too many keys for a runtime");
  }
  rt.clips_.reserve(anim->clips.size());
  rt.tracks_.reserve(total_tracks);
  rt.key_time_.reserve(total_keys);
  rt.key_step_.reserve(total_keys);
  std::vector<int64_t> seen(n, -1);  // clip position that last used each joint
  for (size_t ci = 0; ci < anim->clips.size(); ++ci) {
    const AnimClip& c = anim->clips[ci];
    const Path clip_path = anim_path.child("clip", int64_t(ci));
    Clip clip{c.id, c.duration_ms, static_cast<uint32_t>(rt.tracks_.size()),
              static_cast<uint32_t>(c.tracks.size())};
    for (size_t ti = 0; ti < c.tracks.size(); ++ti) {
      const AnimTrack& t = c.tracks[ti];
      const Path track_path = clip_path.child("track", int64_t(ti));
      const int32_t joint = rt.joint_index(t.joint);
      if (joint < 0) {
        return model_error(ErrorCode::AnimJointMissing, track_path.str(),
                           "joint id " + std::to_string(t.joint) + " does not exist");
      }
      if (seen[joint] == int64_t(ci)) {
        return model_error(ErrorCode::AnimTrackOrder, track_path.str(),
                           "second track for one joint");
      }
      seen[joint] = int64_t(ci);
      if (t.keys.empty())
        return model_error(ErrorCode::AnimNoKeys, track_path.str(), "track has no keys");
      for (size_t ki = 1; ki < t.keys.size(); ++ki) {
        if (t.keys[ki].time_ms <= t.keys[ki - 1].time_ms) {
          return model_error(ErrorCode::AnimKeyTimeOrder,
                             track_path.child("key", int64_t(ki)).str(),
                             "key times must increase strictly");
        }
      }
      const double span = double(t.keys.back().time_ms) - double(t.keys.front().time_ms);
      // Same key times as the previous track of this clip (RigRuntime::Track::same_times).
      bool same_times = false;
      if (ti > 0 && c.tracks[ti - 1].keys.size() == t.keys.size()) {
        same_times =
            std::equal(t.keys.begin(), t.keys.end(), c.tracks[ti - 1].keys.begin(),
                       [](const AnimKey& a, const AnimKey& b) { return a.time_ms == b.time_ms; });
      }
      rt.tracks_.push_back({static_cast<uint32_t>(joint),
                            static_cast<uint32_t>(rt.key_time_.size()),
                            static_cast<uint32_t>(t.keys.size()), same_times ? 1u : 0u, 0u,
                            span > 0 ? double(t.keys.size() - 1) / span : 0.0});
      const size_t first = rt.key_step_.size();
      for (const AnimKey& k : t.keys) {
        rt.key_time_.push_back(static_cast<double>(k.time_ms));
        rt.key_step_.push_back({Trs{k.trs.t, normalized(k.trs.r), k.trs.s}, zero_step()});
      }
      for (size_t k = first; k + 1 < rt.key_step_.size(); ++k)
        rt.key_step_[k].d = key_delta(rt.key_step_[k].value, rt.key_step_[k + 1].value);
    }
    RigRuntime::Track* tracks = rt.tracks_.data() + clip.first_track;
    for (size_t ti = 0; ti + 3 < c.tracks.size(); ++ti) {
      tracks[ti].leads_four =
          tracks[ti + 1].same_times & tracks[ti + 2].same_times & tracks[ti + 3].same_times;
    }
    rt.max_tracks_ = std::max<size_t>(rt.max_tracks_, c.tracks.size());
    rt.clips_.push_back(clip);
  }
  return rt;
}

}  // namespace voxrig
