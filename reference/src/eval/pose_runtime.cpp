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

namespace voxrig {
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
  RigRuntime rt;
  const size_t n = skel.joints.size();
  const Path skel_path("SKEL");
  if (n == 0)
    return model_error(ErrorCode::SkelNoJoints, skel_path.str(), "skeleton has no joints");

  // Joint ids -> indices (sorted pairs; a duplicate id is ambiguous for parents and tracks).
  rt.joint_ids_.resize(n);
  rt.id_to_index_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    rt.joint_ids_[i] = skel.joints[i].id;
    rt.id_to_index_[i] = {skel.joints[i].id, static_cast<uint32_t>(i)};
  }
  std::sort(rt.id_to_index_.begin(), rt.id_to_index_.end());
  for (size_t i = 1; i < n; ++i) {
    if (rt.id_to_index_[i].first == rt.id_to_index_[i - 1].first) {
      return model_error(ErrorCode::SkelJointOrder,
                         skel_path.child("joint", rt.id_to_index_[i].second).str(),
                         "duplicate joint id " + std::to_string(rt.id_to_index_[i].first));
    }
  }

  // Parents, in joint order (missing parents before cycles, as the SKEL decoder does).
  rt.parent_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const int16_t p = skel.joints[i].parent;
    if (p == -1) {
      rt.parent_[i] = -1;
      continue;
    }
    const int32_t pi = p < 0 ? -1 : rt.joint_index(static_cast<uint16_t>(p));
    if (pi < 0) {
      return model_error(ErrorCode::SkelParentMissing, skel_path.child("joint", int64_t(i)).str(),
                         "parent id " + std::to_string(p) + " does not exist");
    }
    rt.parent_[i] = pi;
  }

  // Depths by walking each chain once (state 0 = unseen, 1 = on the current walk, 2 = done);
  // a walk that meets itself is a cycle, reported at the first joint in file order whose chain
  // reaches it.
  std::vector<uint8_t> state(n, 0);
  std::vector<uint32_t> depth(n, 0);
  std::vector<uint32_t> walk;
  walk.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (state[i] == 2) continue;
    walk.clear();
    int32_t j = static_cast<int32_t>(i);
    while (j >= 0 && state[j] == 0) {
      state[j] = 1;
      walk.push_back(static_cast<uint32_t>(j));
      j = rt.parent_[j];
    }
    if (j >= 0 && state[j] == 1) {
      return model_error(ErrorCode::SkelParentCycle, skel_path.child("joint", int64_t(i)).str(),
                         "the parent chain of this joint loops");
    }
    uint32_t d = j < 0 ? 0 : depth[j] + 1;
    for (size_t k = walk.size(); k-- > 0;) {
      depth[walk[k]] = d++;
      state[walk[k]] = 2;
    }
  }
  // Parent-first order: a stable counting sort by depth.
  const uint32_t max_depth = *std::max_element(depth.begin(), depth.end());
  std::vector<uint32_t> start(size_t{max_depth} + 2, 0);
  for (size_t i = 0; i < n; ++i) ++start[depth[i] + 1];
  for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  rt.order_.resize(n);
  for (size_t i = 0; i < n; ++i) rt.order_[start[depth[i]]++] = static_cast<uint32_t>(i);

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
  rt.key_value_.reserve(total_keys);
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
      rt.tracks_.push_back({static_cast<uint32_t>(joint),
                            static_cast<uint32_t>(rt.key_time_.size()),
                            static_cast<uint32_t>(t.keys.size()),
                            span > 0 ? double(t.keys.size() - 1) / span : 0.0});
      for (const AnimKey& k : t.keys) {
        rt.key_time_.push_back(static_cast<double>(k.time_ms));
        rt.key_value_.push_back(Trs{k.trs.t, normalized(k.trs.r), k.trs.s});
      }
    }
    rt.max_tracks_ = std::max<size_t>(rt.max_tracks_, c.tracks.size());
    rt.clips_.push_back(clip);
  }
  return rt;
}

}  // namespace voxrig
