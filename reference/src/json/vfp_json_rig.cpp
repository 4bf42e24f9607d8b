// The `rig` object of the compile input -> SKEL, VSKN, ANIM (docs/spec/compile.md,
// docs/spec/compile.md, D16). The seed's schema:
//
//   rig         {joints*, default_joint, bindings, animations}          (* = required)
//   joint       {id*, parent, name, translation, rotation, scale}
//   binding     {position*, joint*}
//   clip        {id*, name, duration_ms*, tracks}
//   track       {joint*, keys*}
//   key         {time_ms*, translation, rotation, scale}
//
// Check order (the first failure wins): in each object, unknown keys (JSON order), then missing
// required keys, then the fields in the order listed above. Joints one by one in JSON order
// (id uniqueness as each id is read), then parent existence in JSON order, then cycles (the
// first joint in JSON order whose parent chain never reaches a root). Then default_joint, then
// bindings one by one (position, joint, non-empty voxel, joint exists), then conflicting bindings
// (the first binding in JSON order that disagrees with an earlier one for the same voxel), then
// clips.
#include "json/vfp_json_rig.h"

#include <algorithm>
#include <cmath>

#include "voxrig/validate.h"
#include "voxrig/vfp.h"

namespace voxrig::detail {
namespace {

constexpr int64_t kU16Max = 0xFFFF;
constexpr int64_t kU32Max = 0xFFFFFFFF;
constexpr int32_t kNoJoint = -1;

bool finite(const Quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

// A joint as read, with the nodes later checks point at.
struct JointIn {
  SkelJoint joint;
  const JsonNode* node = nullptr;
  const JsonNode* parent_node = nullptr;  // nullptr: root
};

class RigCompiler {
 public:
  RigCompiler(const JsonSchemaReader& r, const Vox0& vox0, const Limits& limits)
      : r_(r), doc_(r.doc()), vox0_(vox0), limits_(limits), index_of_id_(kU16Max + 1, kNoJoint) {}

  Result<CompiledRig> run(const JsonNode& rig, const JsonPath& path) {
    VOXRIG_TRY(
        r_.object(rig, path, {"joints", "default_joint", "bindings", "animations"}, {"joints"}));
    VOXRIG_TRY(joints(*doc_.member(rig, "joints"), path.child("joints")));
    VOXRIG_TRY(default_joint(doc_.member(rig, "default_joint"), path.child("default_joint")));
    if (const JsonNode* b = doc_.member(rig, "bindings")) {
      VOXRIG_TRY(bindings(*b, path.child("bindings")));
    }
    if (const JsonNode* a = doc_.member(rig, "animations")) {
      VOXRIG_TRY(clips(*a, path.child("animations")));
    }
    return std::move(out_);
  }

 private:
  Status joints(const JsonNode& list, const JsonPath& path) {
    VOXRIG_TRY(r_.expect(list, JsonKind::Array, path));
    if (list.count() == 0) return r_.error(ErrorCode::JsonRange, list, path, "a rig needs a joint");
    // jointCount is a u16 whatever the configured limit.
    const uint64_t max_joints = std::min<uint64_t>(limits_.skel_joints, kU16Max);
    if (list.count() > max_joints) {
      return r_.error(
          ErrorCode::JsonLimit, list, path,
          std::to_string(list.count()) + " joints (limit " + std::to_string(max_joints) + ")");
    }
    std::vector<JointIn> in;
    in.reserve(list.count());
    size_t i = 0;
    for (const JsonNode* n = doc_.first(list); n; n = doc_.next(*n), ++i) {
      const JsonPath jp = path.item(i);
      VOXRIG_TRY(
          r_.object(*n, jp, {"id", "parent", "name", "translation", "rotation", "scale"}, {"id"}));
      JointIn j;
      j.node = n;
      const JsonNode* id = doc_.member(*n, "id");
      VOXRIG_ASSIGN_OR_RETURN(const int64_t idv, r_.integer(*id, jp.child("id"), 0, kU16Max));
      if (index_of_id_[idv] != kNoJoint) {
        return r_.error(ErrorCode::JsonDuplicateId, *id, jp.child("id"),
                        "joint id " + std::to_string(idv) + " is used twice");
      }
      index_of_id_[idv] = static_cast<int32_t>(i);
      j.joint.id = static_cast<uint16_t>(idv);
      if (const JsonNode* p = doc_.member(*n, "parent")) {
        // D16: parent 0..32767 or absent (null is not "absent").
        VOXRIG_ASSIGN_OR_RETURN(const int64_t pv, r_.integer(*p, jp.child("parent"), 0, 32767));
        j.joint.parent = static_cast<int16_t>(pv);
        j.parent_node = p;
      }
      if (const JsonNode* nm = doc_.member(*n, "name")) {
        VOXRIG_ASSIGN_OR_RETURN(j.joint.name, r_.name(*nm, jp.child("name")));
      }
      VOXRIG_TRY(trs(*n, jp, j.joint.bind));
      in.push_back(std::move(j));
    }
    VOXRIG_TRY(hierarchy(in, path));
    default_id_ = in.front().joint.id;
    out_.skel.joints.reserve(in.size());
    for (JointIn& j : in) out_.skel.joints.push_back(std::move(j.joint));
    std::sort(out_.skel.joints.begin(), out_.skel.joints.end(),
              [](const SkelJoint& a, const SkelJoint& b) { return a.id < b.id; });
    return {};
  }

  // Parent existence in JSON order, then cycles (the first joint in JSON order whose parent
  // chain never reaches a root, a self-parent included): voxrig/validate.h's rules, the ones the
  // SKEL decoder applies in file order. Ids are unique by now (checked as each was read).
  Status hierarchy(const std::vector<JointIn>& in, const JsonPath& path) {
    std::vector<uint16_t> ids(in.size());
    std::vector<int16_t> parents(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
      ids[i] = in[i].joint.id;
      parents[i] = in[i].parent_node ? in[i].joint.parent : int16_t{-1};
    }
    const std::optional<JointRuleBreak> broken = check_joint_hierarchy(ids, parents);
    if (!broken) return {};
    const size_t i = broken->joint;
    const JointIn& j = in[i];
    if (broken->rule == JointRule::ParentCycle) {
      return r_.error(
          ErrorCode::JsonParentCycle, *j.parent_node, path.item(i).child("parent"),
          "joint " + std::to_string(j.joint.id) + "'s parent chain loops and never reaches a root");
    }
    return r_.error(ErrorCode::JsonParentMissing, *j.parent_node, path.item(i).child("parent"),
                    "no joint has id " + std::to_string(j.joint.parent));
  }

  // translation / rotation / scale of a joint or key; absent members keep `trs` as given.
  Status trs(const JsonNode& obj, const JsonPath& path, Trs& trs) {
    if (const JsonNode* t = doc_.member(obj, "translation")) {
      VOXRIG_ASSIGN_OR_RETURN(trs.t, r_.vec3(*t, path.child("translation")));
    }
    if (const JsonNode* q = doc_.member(obj, "rotation")) {
      VOXRIG_ASSIGN_OR_RETURN(trs.r, r_.quat(*q, path.child("rotation")));
      if (!finite(trs.r) || !is_unit_quaternion(trs.r)) {
        return r_.error(ErrorCode::JsonNonUnitRotation, *q, path.child("rotation"),
                        "rotation is not a unit quaternion (|norm - 1| > 1e-3)");
      }
    }
    if (const JsonNode* s = doc_.member(obj, "scale")) {
      VOXRIG_ASSIGN_OR_RETURN(trs.s, r_.vec3(*s, path.child("scale")));
    }
    return {};
  }

  Status joint_exists(int64_t id, const JsonNode& at, const JsonPath& path) {
    if (index_of_id_[id] != kNoJoint) return {};
    return r_.error(ErrorCode::JsonJointMissing, at, path, "no joint has id " + std::to_string(id));
  }

  Status default_joint(const JsonNode* n, const JsonPath& path) {
    if (n) {
      VOXRIG_ASSIGN_OR_RETURN(const int64_t id, r_.integer(*n, path, 0, kU16Max));
      VOXRIG_TRY(joint_exists(id, *n, path));
      default_id_ = static_cast<uint16_t>(id);
    }
    out_.vskn.default_joint = default_id_;
    return {};
  }

  Status bindings(const JsonNode& list, const JsonPath& path) {
    VOXRIG_TRY(r_.expect(list, JsonKind::Array, path));
    struct In {
      uint32_t offset;
      uint16_t joint;
      uint32_t index;
    };
    std::vector<In> in;
    in.reserve(list.count());
    std::vector<const JsonNode*> nodes;
    nodes.reserve(list.count());
    const int64_t size[3] = {vox0_.size_x, vox0_.size_y, vox0_.size_z};
    uint32_t i = 0;
    for (const JsonNode* n = doc_.first(list); n; n = doc_.next(*n), ++i) {
      const JsonPath bp = path.item(i);
      VOXRIG_TRY(r_.object(*n, bp, {"position", "joint"}, {"position", "joint"}));
      const JsonNode& pos = *doc_.member(*n, "position");
      const JsonPath pp = bp.child("position");
      VOXRIG_TRY(r_.expect_tuple(pos, 3, pp));
      int64_t xyz[3];
      size_t k = 0;
      for (const JsonNode* c = doc_.first(pos); c; c = doc_.next(*c), ++k) {
        VOXRIG_ASSIGN_OR_RETURN(
            xyz[k], r_.integer(*c, pp.item(k), 0, size[k] - 1, ErrorCode::JsonVoxelRange));
      }
      const JsonNode& jn = *doc_.member(*n, "joint");
      VOXRIG_ASSIGN_OR_RETURN(const int64_t joint, r_.integer(jn, bp.child("joint"), 0, kU16Max));
      const size_t offset =
          vox0_.index(static_cast<uint32_t>(xyz[0]), static_cast<uint32_t>(xyz[1]),
                      static_cast<uint32_t>(xyz[2]));
      if (vox0_.voxels[offset] == 0) {
        return r_.error(ErrorCode::JsonBindingEmptyVoxel, pos, pp,
                        "voxel " + std::to_string(offset) + " is empty");
      }
      VOXRIG_TRY(joint_exists(joint, jn, bp.child("joint")));
      in.push_back({static_cast<uint32_t>(offset), static_cast<uint16_t>(joint), i});
      nodes.push_back(n);
    }
    std::sort(in.begin(), in.end(), [](const In& a, const In& b) {
      return a.offset != b.offset ? a.offset < b.offset : a.index < b.index;
    });
    // Within a voxel's group (JSON order), the first entry that differs from the group's first
    // is the first one conflicting with an earlier binding; report the earliest over all groups.
    uint32_t conflict = UINT32_MAX;
    for (size_t g = 0; g < in.size();) {
      size_t e = g + 1;
      while (e < in.size() && in[e].offset == in[g].offset) ++e;
      for (size_t k = g + 1; k < e; ++k) {
        if (in[k].joint != in[g].joint) {
          conflict = std::min(conflict, in[k].index);
          break;
        }
      }
      g = e;
    }
    if (conflict != UINT32_MAX) {
      return r_.error(ErrorCode::JsonBindingConflict, *nodes[conflict], path.item(conflict),
                      "the voxel is bound to another joint by an earlier binding");
    }
    for (size_t k = 0; k < in.size(); ++k) {
      if (k > 0 && in[k].offset == in[k - 1].offset) continue;  // identical duplicate
      if (in[k].joint == default_id_) continue;                 // the default needs no record
      out_.vskn.bindings.push_back({in[k].offset, in[k].joint});
    }
    return {};
  }

  Status clips(const JsonNode& list, const JsonPath& path) {
    VOXRIG_TRY(r_.expect(list, JsonKind::Array, path));
    const uint64_t max_clips = std::min<uint64_t>(limits_.anim_clips, kU16Max);
    if (list.count() > max_clips) {
      return r_.error(
          ErrorCode::JsonLimit, list, path,
          std::to_string(list.count()) + " clips (limit " + std::to_string(max_clips) + ")");
    }
    std::vector<uint8_t> clip_ids(kU16Max + 1, 0);
    // track_clip[joint] = 1 + index of the last clip with a track for that joint.
    std::vector<uint32_t> track_clip(kU16Max + 1, 0);
    out_.anim.clips.reserve(list.count());
    uint64_t total_keys = 0;
    uint32_t c = 0;
    for (const JsonNode* n = doc_.first(list); n; n = doc_.next(*n), ++c) {
      const JsonPath cp = path.item(c);
      VOXRIG_TRY(r_.object(*n, cp, {"id", "name", "duration_ms", "tracks"}, {"id", "duration_ms"}));
      AnimClip clip;
      const JsonNode& idn = *doc_.member(*n, "id");
      VOXRIG_ASSIGN_OR_RETURN(const int64_t id, r_.integer(idn, cp.child("id"), 0, kU16Max));
      if (clip_ids[id]) {
        return r_.error(ErrorCode::JsonDuplicateId, idn, cp.child("id"),
                        "clip id " + std::to_string(id) + " is used twice");
      }
      clip_ids[id] = 1;
      clip.id = static_cast<uint16_t>(id);
      if (const JsonNode* nm = doc_.member(*n, "name")) {
        VOXRIG_ASSIGN_OR_RETURN(clip.name, r_.name(*nm, cp.child("name")));
      }
      VOXRIG_ASSIGN_OR_RETURN(
          const int64_t duration,
          r_.integer(*doc_.member(*n, "duration_ms"), cp.child("duration_ms"), 0, kU32Max));
      clip.duration_ms = static_cast<uint32_t>(duration);
      if (const JsonNode* tl = doc_.member(*n, "tracks")) {
        const JsonPath tp = cp.child("tracks");
        VOXRIG_TRY(r_.expect(*tl, JsonKind::Array, tp));
        if (tl->count() > kU16Max) {
          return r_.error(ErrorCode::JsonLimit, *tl, tp, "more than 65535 tracks in a clip");
        }
        clip.tracks.reserve(tl->count());
        uint32_t t = 0;
        for (const JsonNode* tn = doc_.first(*tl); tn; tn = doc_.next(*tn), ++t) {
          AnimTrack track;
          VOXRIG_TRY(
              track_of(*tn, tp.item(t), clip.duration_ms, c + 1, track_clip, total_keys, track));
          clip.tracks.push_back(std::move(track));
        }
        std::sort(clip.tracks.begin(), clip.tracks.end(),
                  [](const AnimTrack& a, const AnimTrack& b) { return a.joint < b.joint; });
      }
      out_.anim.clips.push_back(std::move(clip));
    }
    std::sort(out_.anim.clips.begin(), out_.anim.clips.end(),
              [](const AnimClip& a, const AnimClip& b) { return a.id < b.id; });
    return {};
  }

  Status track_of(const JsonNode& n, const JsonPath& path, uint32_t duration, uint32_t clip_tag,
                  std::vector<uint32_t>& track_clip, uint64_t& total_keys, AnimTrack& track) {
    VOXRIG_TRY(r_.object(n, path, {"joint", "keys"}, {"joint", "keys"}));
    const JsonNode& jn = *doc_.member(n, "joint");
    VOXRIG_ASSIGN_OR_RETURN(const int64_t joint, r_.integer(jn, path.child("joint"), 0, kU16Max));
    VOXRIG_TRY(joint_exists(joint, jn, path.child("joint")));
    if (track_clip[joint] == clip_tag) {
      return r_.error(ErrorCode::JsonDuplicateId, jn, path.child("joint"),
                      "joint " + std::to_string(joint) + " has two tracks in this clip");
    }
    track_clip[joint] = clip_tag;
    track.joint = static_cast<uint16_t>(joint);
    const Trs& bind = out_skel_bind(track.joint);

    const JsonNode& keys = *doc_.member(n, "keys");
    const JsonPath kp = path.child("keys");
    VOXRIG_TRY(r_.expect(keys, JsonKind::Array, kp));
    if (keys.count() == 0) return r_.error(ErrorCode::JsonNoKeys, keys, kp, "a track needs a key");
    if (keys.count() > limits_.anim_keys_per_track) {
      return r_.error(ErrorCode::JsonLimit, keys, kp,
                      std::to_string(keys.count()) + " keys (limit " +
                          std::to_string(limits_.anim_keys_per_track) + " per track)");
    }
    total_keys += keys.count();
    if (total_keys > limits_.anim_keys_total) {
      return r_.error(ErrorCode::JsonLimit, keys, kp,
                      "over " + std::to_string(limits_.anim_keys_total) + " keys in total");
    }
    track.keys.reserve(keys.count());
    uint32_t k = 0;
    for (const JsonNode* kn = doc_.first(keys); kn; kn = doc_.next(*kn), ++k) {
      const JsonPath p = kp.item(k);
      VOXRIG_TRY(r_.object(*kn, p, {"time_ms", "translation", "rotation", "scale"}, {"time_ms"}));
      AnimKey key;
      const JsonNode& tn = *doc_.member(*kn, "time_ms");
      VOXRIG_ASSIGN_OR_RETURN(const int64_t time, r_.integer(tn, p.child("time_ms"), 0, kU32Max));
      key.time_ms = static_cast<uint32_t>(time);
      if (k > 0 && key.time_ms <= track.keys.back().time_ms) {
        return r_.error(ErrorCode::JsonKeyTimeOrder, tn, p.child("time_ms"),
                        "key times must be strictly increasing");
      }
      if (key.time_ms > duration) {
        return r_.error(ErrorCode::JsonKeyTimeRange, tn, p.child("time_ms"),
                        "key time after the clip's duration_ms " + std::to_string(duration));
      }
      key.trs = bind;  // a key's missing T/R/S are the joint's bind values
      VOXRIG_TRY(trs(*kn, p, key.trs));
      track.keys.push_back(key);
    }
    return {};
  }

  const Trs& out_skel_bind(uint16_t id) const {
    // Joints are sorted by id by now.
    const auto it = std::lower_bound(out_.skel.joints.begin(), out_.skel.joints.end(), id,
                                     [](const SkelJoint& j, uint16_t v) { return j.id < v; });
    return it->bind;
  }

  const JsonSchemaReader& r_;
  const JsonDoc& doc_;
  const Vox0& vox0_;
  const Limits& limits_;
  std::vector<int32_t> index_of_id_;  // joint id -> JSON index, kNoJoint when absent
  uint16_t default_id_ = 0;
  CompiledRig out_;
};

}  // namespace

Result<CompiledRig> compile_rig(const JsonSchemaReader& r, const JsonNode& rig,
                                const JsonPath& path, const Vox0& vox0, const Limits& limits) {
  RigCompiler c(r, vox0, limits);
  return c.run(rig, path);
}

}  // namespace voxrig::detail
