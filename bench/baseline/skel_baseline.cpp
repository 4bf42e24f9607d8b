// bench/baseline/skel_baseline.cpp — see skel_baseline.h: decode_skel and the vfp_internal.h
// helpers it uses, copied from reference/src/vfp at commit 0d3ba6a (before issue 15).
#include "baseline/skel_baseline.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "voxrig/byte_reader.h"
#include "voxrig/utf8.h"
#include "voxrig/validate.h"

namespace voxrig::bench_baseline {
namespace {

// check_joint_hierarchy and first_cycle_start (reference/src/core/validate.cpp at 0d3ba6a).
std::optional<size_t> first_cycle_start_baseline(std::span<const int32_t> parents) {
  // stamp[i] = 1 + the start of the walk that first reached i. Every earlier walk ended at a
  // root (otherwise we returned), so meeting an older stamp means "reaches a root"; meeting the
  // current walk's stamp means the chain loops without ever reaching one.
  std::vector<size_t> stamp(parents.size(), 0);
  for (size_t start = 0; start < parents.size(); ++start) {
    if (stamp[start] != 0) continue;
    const size_t mark = start + 1;
    size_t cur = start;
    stamp[cur] = mark;
    while (parents[cur] >= 0) {
      cur = static_cast<size_t>(parents[cur]);
      if (stamp[cur] == mark) return start;
      if (stamp[cur] != 0) break;
      stamp[cur] = mark;
    }
  }
  return std::nullopt;
}

std::optional<JointRuleBreak> check_joint_hierarchy_baseline(std::span<const uint16_t> ids,
                                                             std::span<const int16_t> parent_ids,
                                                             std::vector<int32_t>* parent_index) {
  const size_t n = std::min(ids.size(), parent_ids.size());
  // (id, index) sorted: duplicates are adjacent, and a parent id resolves by binary search.
  std::vector<std::pair<uint16_t, uint32_t>> by_id(n);
  for (size_t i = 0; i < n; ++i) by_id[i] = {ids[i], static_cast<uint32_t>(i)};
  // Decoded skeletons arrive sorted (SKEL ids increase): skip the sort then.
  if (!std::is_sorted(by_id.begin(), by_id.end())) std::sort(by_id.begin(), by_id.end());
  for (size_t i = 1; i < n; ++i)
    if (by_id[i].first == by_id[i - 1].first)
      return JointRuleBreak{JointRule::DuplicateId, by_id[i].second};

  std::vector<int32_t> parents(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const int16_t p = parent_ids[i];
    if (p == -1) continue;
    const auto it = p < 0 ? by_id.end()
                          : std::lower_bound(by_id.begin(), by_id.end(),
                                             std::pair<uint16_t, uint32_t>{uint16_t(p), 0});
    if (it == by_id.end() || it->first != static_cast<uint16_t>(p))
      return JointRuleBreak{JointRule::ParentMissing, i};
    parents[i] = static_cast<int32_t>(it->second);
  }
  if (auto start = first_cycle_start_baseline(parents))
    return JointRuleBreak{JointRule::ParentCycle, *start};
  if (parent_index) *parent_index = std::move(parents);
  return std::nullopt;
}

inline bool is_finite_bits(float f) {
  return (std::bit_cast<uint32_t>(f) & 0x7F800000u) != 0x7F800000u;
}

inline Status check_count(const ByteReader& r, uint64_t count, uint64_t elem_size, uint64_t limit,
                          ErrorCode limit_code, const Path& p, uint64_t count_at) {
  Status s = r.checked_count(count, elem_size, limit, limit_code, p);
  if (s.ok() || s.error().code != limit_code) return s;
  Error e = std::move(s).error();
  e.offset = count_at;
  return e;
}

inline std::string hex32(float f) {
  static const char kDigits[] = "0123456789ABCDEF";
  const uint32_t u = std::bit_cast<uint32_t>(f);
  std::string out = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) out += kDigits[(u >> shift) & 15];
  return out;
}

/// Reads one binary32 and rejects Inf/NaN where it sits (D13: a field's checks as it is read).
inline Result<float> finite_f32(ByteReader& r, const Path& p, ErrorCode code) {
  const uint64_t at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const float v, r.f32(p));
  if (!is_finite_bits(v)) return error_at(code, at, p, "non-finite float " + hex32(v));
  return v;
}

/// Reads a TRS (t xyz, r xyzw, s xyz: ten binary32) with the checks in the order SKEL and ANIM
/// share (D13): each float finite as it is read (`non_finite` at that float), and right after
/// r.w the rotation a unit quaternion (D15; `non_unit` at r.x).
inline Result<Trs> read_trs(ByteReader& r, const Path& p, ErrorCode non_finite,
                            ErrorCode non_unit) {
  Trs trs;
  VOXRIG_ASSIGN_OR_RETURN(trs.t.x, finite_f32(r, p, non_finite));
  VOXRIG_ASSIGN_OR_RETURN(trs.t.y, finite_f32(r, p, non_finite));
  VOXRIG_ASSIGN_OR_RETURN(trs.t.z, finite_f32(r, p, non_finite));
  const uint64_t rot_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(trs.r.x, finite_f32(r, p, non_finite));
  VOXRIG_ASSIGN_OR_RETURN(trs.r.y, finite_f32(r, p, non_finite));
  VOXRIG_ASSIGN_OR_RETURN(trs.r.z, finite_f32(r, p, non_finite));
  VOXRIG_ASSIGN_OR_RETURN(trs.r.w, finite_f32(r, p, non_finite));
  if (!is_unit_quaternion(trs.r))
    return error_at(non_unit, rot_at, p, "rotation is not a unit quaternion");
  VOXRIG_ASSIGN_OR_RETURN(trs.s.x, finite_f32(r, p, non_finite));
  VOXRIG_ASSIGN_OR_RETURN(trs.s.y, finite_f32(r, p, non_finite));
  VOXRIG_ASSIGN_OR_RETURN(trs.s.z, finite_f32(r, p, non_finite));
  return trs;
}

inline std::string num(uint64_t v) { return std::to_string(v); }

inline Status read_version_1(ByteReader& r, const Path& p, ErrorCode bad_version) {
  const uint64_t at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t version, r.u8(p));
  if (version != 1) return error_at(bad_version, at, p, "version " + num(version));
  return {};
}

/// Reads a u16 id that must be strictly greater than `previous` (when there is one: `first` is
/// false), the rule of SKEL joints, ANIM clips and ANIM tracks; `order` at the id otherwise,
/// detail "<label> 7 after 9".
inline Result<uint16_t> read_increasing_id(ByteReader& r, const Path& p, bool first,
                                           uint16_t previous, ErrorCode order, const char* label) {
  const uint64_t at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t id, r.u16(p));
  if (!first && id <= previous)
    return error_at(order, at, p, std::string(label) + " " + num(id) + " after " + num(previous));
  return id;
}

/// Reads the name tail SKEL joints and ANIM clips share: nameLen u8, 3 pad bytes (= 0, else
/// `reserved` at the pad), then nameLen bytes of UTF-8 (else `bad_utf8` at the name).
inline Result<std::string> read_padded_name(ByteReader& r, const Path& p, ErrorCode reserved,
                                            ErrorCode bad_utf8) {
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t name_len, r.u8(p));
  const uint64_t pad_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const auto pad, r.bytes(3, p));
  if (pad[0] | pad[1] | pad[2]) return error_at(reserved, pad_at, p, "pad bytes are not 0");
  const uint64_t name_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const auto name, r.bytes(name_len, p));
  if (!is_valid_utf8(name)) return error_at(bad_utf8, name_at, p, "name is not valid UTF-8");
  return std::string(name.begin(), name.end());
}

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
  const std::optional<JointRuleBreak> broken =
      check_joint_hierarchy_baseline(ids, parents, nullptr);
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

}  // namespace

Result<Skel> decode_skel_baseline(std::span<const uint8_t> payload, uint64_t base,
                                  const RigContext& ctx, const Limits& limits) {
  ByteReader r(payload, base, ErrorCode::SkelTruncated);
  const Path root("SKEL");

  VOXRIG_TRY(read_version_1(r, root, ErrorCode::SkelBadVersion));
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t reserved, r.u8(root));
  if (reserved != 0) return error_at(ErrorCode::SkelReserved, base + 1, root, "reserved byte at 1");
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t joint_count, r.u16(root));
  if (joint_count == 0) return error_at(ErrorCode::SkelNoJoints, base + 2, root, "jointCount 0");
  VOXRIG_TRY(check_count(r, joint_count, 0, limits.skel_joints, ErrorCode::SkelLimitJoints, root,
                         base + 2));
  VOXRIG_ASSIGN_OR_RETURN(const auto hash, r.bytes(32, root));
  if (!std::equal(hash.begin(), hash.end(), ctx.source_hash.begin()))
    return error_at(ErrorCode::SkelBaseSourceHash, base + 4, root,
                    "baseSourceHash differs from the header sourceHash");

  Skel out;
  std::memcpy(out.base_source_hash.data(), hash.data(), 32);
  // Clamped by the bytes present: a lying count cannot make us reserve more than the payload.
  out.joints.reserve(std::min<uint64_t>(joint_count, r.remaining() / kJointPrefixBytes));
  for (uint32_t i = 0; i < joint_count; ++i) {
    const Path jp = root.child("joint", i);
    SkelJoint j;
    VOXRIG_ASSIGN_OR_RETURN(j.id,
                            read_increasing_id(r, jp, i == 0, i == 0 ? 0 : out.joints.back().id,
                                               ErrorCode::SkelJointOrder, "jointId"));
    VOXRIG_ASSIGN_OR_RETURN(j.parent, r.i16(jp));
    VOXRIG_ASSIGN_OR_RETURN(
        j.bind, read_trs(r, jp, ErrorCode::SkelNonFinite, ErrorCode::SkelNonUnitRotation));
    VOXRIG_ASSIGN_OR_RETURN(
        j.name, read_padded_name(r, jp, ErrorCode::SkelReserved, ErrorCode::SkelBadUtf8));
    out.joints.push_back(std::move(j));
  }
  VOXRIG_TRY(r.expect_end(ErrorCode::SkelTrailingBytes, root));
  VOXRIG_TRY(check_parents(out, base));
  return out;
}

}  // namespace voxrig::bench_baseline
