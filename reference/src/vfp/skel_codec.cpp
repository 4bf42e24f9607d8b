// SKEL v1 payload: skeleton hierarchy and bind pose (seed chapter 6B; docs/spec/rig.md#skel).
//
// Header, 36 B:
// | off | size | type  | field                               | check, in this order          |
// |-----|------|-------|-------------------------------------|-------------------------------|
// | 0   | 1    | u8    | version = 1                         | skel.bad_version (unsupported) |
// | 1   | 1    | u8    | reserved = 0                        | skel.reserved                 |
// | 2   | 2    | u16   | jointCount >= 1                     | skel.no_joints, skel.limit.joints |
// | 4   | 32   | bytes | baseSourceHash = header sourceHash  | skel.base_source_hash         |
// Joint, 48 B prefix <Hh3f4f3fB3x> + name, jointCount times:
// | +0  | 2    | u16   | jointId, strictly increasing        | skel.joint_order              |
// | +2  | 2    | i16   | parentId (-1 = root)                | after the payload, see below  |
// | +4  | 12   | 3f32  | translation xyz                     | skel.non_finite (each float)  |
// | +16 | 16   | 4f32  | rotation xyzw: finite, then unit    | skel.non_finite,              |
// |     |      |       |                                     | skel.non_unit_rotation        |
// | +32 | 12   | 3f32  | scale xyz (any finite value)        | skel.non_finite               |
// | +44 | 1    | u8    | nameLen                             |                               |
// | +45 | 3    | pad   | = 0 (one 3-byte field)              | skel.reserved                 |
// | +48 | n    | UTF-8 | name                                | skel.bad_utf8                 |
// After the last joint: no byte left (skel.trailing_bytes); then, in joint order, parent
// existence (skel.parent_missing); then cycles (skel.parent_cycle, reported on the first joint
// in file order whose parent chain never reaches a root; a self-parent is a cycle).
// A read that runs past the payload is skel.truncated; reads go field by field.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "vfp/vfp_internal.h"
#include "voxrig/byte_writer.h"
#include "voxrig/utf8.h"
#include "voxrig/validate.h"
#include "voxrig/vfp.h"

namespace voxrig {

namespace {

using detail::num;

constexpr uint64_t kHeaderBytes = 36;
constexpr uint64_t kJointPrefixBytes = 48;

// The file offset of joint i's parentId, recomputed from the decoded joints (errors only: the
// success path keeps no per-joint offsets).
uint64_t parent_offset(const Skel& skel, size_t i, uint64_t base) {
  uint64_t at = base + kHeaderBytes;
  for (size_t k = 0; k < i; ++k) at += kJointPrefixBytes + skel.joints[k].name.size();
  return at + 2;
}

// Parent existence, then cycles (the rules are voxrig/validate.h's; the error points at the
// joint's parentId). Ids are unique by now (strictly increasing as read).
Status check_parents(const Skel& skel, uint64_t base) {
  const size_t n = skel.joints.size();
  std::vector<uint16_t> ids(n);
  std::vector<int16_t> parents(n);
  for (size_t i = 0; i < n; ++i) {
    ids[i] = skel.joints[i].id;
    parents[i] = skel.joints[i].parent;
  }
  const std::optional<JointRuleBreak> broken = check_joint_hierarchy(ids, parents);
  if (!broken) return {};
  const size_t i = broken->joint;
  const Path jp = Path("SKEL").child("joint", static_cast<int64_t>(i));
  if (broken->rule == JointRule::ParentCycle)
    return error_at(ErrorCode::SkelParentCycle, parent_offset(skel, i, base), jp,
                    "parent chain of joint id " + num(skel.joints[i].id) + " never reaches a root");
  // ParentMissing (DuplicateId cannot happen: the decoder read the ids strictly increasing).
  return error_at(ErrorCode::SkelParentMissing, parent_offset(skel, i, base), jp,
                  "parentId " + std::to_string(skel.joints[i].parent) + " names no joint");
}

// The common case of one joint record in one bounds check: a record whose every check passes
// is decoded straight from the bytes (no per-field Result, no Path) and the reader moves past
// it. Anything unusual (short, out of order, non-finite, non-unit, pad, bad or non-ASCII name
// bytes) returns false with the reader untouched, and the caller decodes that record field by
// field, which produces the error (or accepts a valid non-ASCII name) exactly as before.
bool decode_joint_fast(ByteReader& r, std::vector<SkelJoint>& joints) {
  const size_t rem = r.remaining();
  if (rem < kJointPrefixBytes) return false;
  const uint8_t* p = r.data().data() + r.pos();
  const uint16_t id = load_u16(p);
  if (!joints.empty() && id <= joints.back().id) return false;
  float f[10];
  uint32_t non_finite = 0;
  for (int k = 0; k < 10; ++k) {
    const uint32_t bits = load_u32(p + 4 + 4 * k);
    non_finite |= static_cast<uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
    f[k] = std::bit_cast<float>(bits);
  }
  if (non_finite) return false;
  const Quat q{f[3], f[4], f[5], f[6]};
  if (!is_unit_quaternion(q)) return false;
  const size_t name_len = p[44];
  if ((p[45] | p[46] | p[47]) != 0 || rem - kJointPrefixBytes < name_len) return false;
  const uint8_t* name = p + kJointPrefixBytes;
  if (!is_ascii({name, name_len})) return false;  // the careful path runs the UTF-8 check
  SkelJoint& j = joints.emplace_back();
  j.id = id;
  j.parent = static_cast<int16_t>(load_u16(p + 2));
  j.bind = Trs{{f[0], f[1], f[2]}, q, {f[7], f[8], f[9]}};
  j.name.assign(reinterpret_cast<const char*>(name), name_len);
  std::span<const uint8_t> skipped;
  r.try_bytes(kJointPrefixBytes + name_len, skipped);  // cannot fail: checked above
  return true;
}

}  // namespace

bool is_unit_quaternion(const Quat& q) {
  // D15: double, this exact association, no FMA (the build uses -ffp-contract=off).
  const double x = q.x, y = q.y, z = q.z, w = q.w;
  const double norm = std::sqrt(((x * x + y * y) + z * z) + w * w);
  return std::fabs(norm - 1.0) <= 1e-3;
}

Result<Skel> decode_skel(std::span<const uint8_t> payload, uint64_t base, const RigContext& ctx,
                         const Limits& limits) {
  ByteReader r(payload, base, ErrorCode::SkelTruncated);
  const Path root("SKEL");

  VOXRIG_TRY(detail::read_version_1(r, root, ErrorCode::SkelBadVersion));
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t reserved, r.u8(root));
  if (reserved != 0) return error_at(ErrorCode::SkelReserved, base + 1, root, "reserved byte at 1");
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t joint_count, r.u16(root));
  if (joint_count == 0) return error_at(ErrorCode::SkelNoJoints, base + 2, root, "jointCount 0");
  VOXRIG_TRY(detail::check_count(r, joint_count, 0, limits.skel_joints, ErrorCode::SkelLimitJoints,
                                 root, base + 2));
  VOXRIG_ASSIGN_OR_RETURN(const auto hash, r.bytes(32, root));
  if (!std::equal(hash.begin(), hash.end(), ctx.source_hash.begin()))
    return error_at(ErrorCode::SkelBaseSourceHash, base + 4, root,
                    "baseSourceHash differs from the header sourceHash");

  Skel out;
  std::memcpy(out.base_source_hash.data(), hash.data(), 32);
  // Clamped by the bytes present: a lying count cannot make us reserve more than the payload.
  out.joints.reserve(std::min<uint64_t>(joint_count, r.remaining() / kJointPrefixBytes));
  for (uint32_t i = 0; i < joint_count; ++i) {
    if (decode_joint_fast(r, out.joints)) continue;
    const Path jp = root.child("joint", i);
    SkelJoint j;
    VOXRIG_ASSIGN_OR_RETURN(
        j.id, detail::read_increasing_id(r, jp, i == 0, i == 0 ? 0 : out.joints.back().id,
                                         ErrorCode::SkelJointOrder, "jointId"));
    VOXRIG_ASSIGN_OR_RETURN(j.parent, r.i16(jp));
    VOXRIG_ASSIGN_OR_RETURN(
        j.bind, detail::read_trs(r, jp, ErrorCode::SkelNonFinite, ErrorCode::SkelNonUnitRotation));
    VOXRIG_ASSIGN_OR_RETURN(
        j.name, detail::read_padded_name(r, jp, ErrorCode::SkelReserved, ErrorCode::SkelBadUtf8));
    out.joints.push_back(std::move(j));
  }
  VOXRIG_TRY(r.expect_end(ErrorCode::SkelTrailingBytes, root));
  VOXRIG_TRY(check_parents(out, base));
  return out;
}

uint64_t detail::skel_payload_size(const Skel& skel) {
  uint64_t total = kHeaderBytes;
  for (const SkelJoint& j : skel.joints) total += kJointPrefixBytes + j.name.size();
  return total;
}

Result<std::vector<uint8_t>> encode_skel(const Skel& skel) {
  const Path root("SKEL");
  if (skel.joints.size() > 0xFFFF)
    return detail::write_too_large(skel.joints.size(), root, "joints do not fit jointCount (u16)");
  for (size_t i = 0; i < skel.joints.size(); ++i) {
    const size_t len = skel.joints[i].name.size();
    if (len > detail::kMaxNameBytes)
      return detail::write_name_too_long(len, root.child("joint", static_cast<int64_t>(i)));
  }
  ByteWriter w;
  w.reserve(static_cast<size_t>(detail::skel_payload_size(skel)));
  w.u8(1);
  w.u8(0);
  w.u16(static_cast<uint16_t>(skel.joints.size()));
  w.bytes(skel.base_source_hash);
  for (const SkelJoint& j : skel.joints) {
    // One record through a local pointer, the fields read into locals first (a byte store may
    // alias the model: GCC would reload them after every store otherwise).
    const uint16_t id = j.id;
    const int16_t parent = j.parent;
    const float f[10] = {j.bind.t.x, j.bind.t.y, j.bind.t.z, j.bind.r.x, j.bind.r.y,
                         j.bind.r.z, j.bind.r.w, j.bind.s.x, j.bind.s.y, j.bind.s.z};
    const size_t name_len = j.name.size();
    uint8_t* p = w.extend(kJointPrefixBytes + name_len);
    store_u16(p, id);
    store_u16(p + 2, static_cast<uint16_t>(parent));
    for (int k = 0; k < 10; ++k) store_f32(p + 4 + 4 * k, f[k]);
    store_u32(p + 44, static_cast<uint32_t>(name_len));  // nameLen, then the 3 zero pad bytes
    if (name_len != 0) std::memcpy(p + kJointPrefixBytes, j.name.data(), name_len);
  }
  return w.take();
}

}  // namespace voxrig
