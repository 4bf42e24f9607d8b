// VSKN v1 payload: sparse rigid voxel binding (docs/spec/rig.md, "VSKN"). The byte
// layout is voxrig/wire/vskn.h's; this file holds the checks, in this order:
//
// | off | size | type  | field                                 | check, in this order         |
// |-----|------|-------|---------------------------------------|------------------------------|
// | 0   | 1    | u8    | version = 1                           | vskn.bad_version (unsupp.)   |
// | 1   | 1    | u8    | encoding = 1 (SPARSE_INDEX_U16)       | vskn.bad_encoding (unsupp.)  |
// | 2   | 2    | u16   | defaultJointId, a SKEL joint          | vskn.default_joint_missing   |
// | 4   | 2    | u16   | reserved = 0                          | vskn.reserved                |
// | 6   | 4    | u32   | bindingCount; payload = 74 + 6n       | vskn.length                  |
// | 10  | 32   | bytes | baseSourceHash = header sourceHash    | vskn.base_source_hash        |
// | 42  | 32   | bytes | skeletonHash = SHA-256(SKEL payload)  | vskn.skeleton_hash           |
// Record <IH>, 6 B, bindingCount times:
// | +0  | 4    | u32   | voxelOffset (x-fastest VOX0 index):   | vskn.offset_order,           |
// |     |      |       |   > previous, < voxel count,          | vskn.offset_range,           |
// |     |      |       |   on a non-empty voxel                | vskn.empty_voxel             |
// | +4  | 2    | u16   | jointId: a SKEL joint, != default     | vskn.joint_missing,          |
// |     |      |       |                                       | vskn.redundant_binding       |
// A read that runs out before offset 10 is vskn.truncated; after the exact-length rule nothing
// can run out.
#include <algorithm>
#include <cstring>

#include "vfp/vfp_internal.h"
#include "voxrig/vfp.h"

namespace voxrig {

namespace {

using detail::num;
namespace wv = wire::vskn;

constexpr uint64_t kHeaderBytes = wv::kHeaderSize;
constexpr uint64_t kRecordBytes = wv::kRecordSize;

// The first failing rule of record i, in the documented order (cold: only after the fast loop
// saw something wrong with this record).
[[gnu::cold]] Error record_error(size_t i, uint32_t offset, uint16_t joint, int64_t previous,
                                 const Vox0& vox0, const detail::JointSet& joints,
                                 uint16_t default_joint, uint64_t record_at) {
  const Path p = Path("VSKN").child("record", static_cast<int64_t>(i));
  if (static_cast<int64_t>(offset) <= previous)
    return error_at(ErrorCode::VsknOffsetOrder, record_at + wv::kRecordVoxelOffsetAt, p,
                    "voxelOffset " + num(offset) + " after " + num(previous));
  if (offset >= vox0.voxels.size())
    return error_at(ErrorCode::VsknOffsetRange, record_at + wv::kRecordVoxelOffsetAt, p,
                    "voxelOffset " + num(offset) + " >= voxel count " + num(vox0.voxels.size()));
  if (vox0.voxels[offset] == 0)
    return error_at(ErrorCode::VsknEmptyVoxel, record_at + wv::kRecordVoxelOffsetAt, p,
                    "voxelOffset " + num(offset) + " is an empty voxel");
  if (!joints.contains(joint))
    return error_at(ErrorCode::VsknJointMissing, record_at + wv::kRecordJointAt, p,
                    "jointId " + num(joint) + " is not in SKEL");
  if (joint == default_joint)
    return error_at(ErrorCode::VsknRedundant, record_at + wv::kRecordJointAt, p,
                    "jointId equals defaultJointId " + num(default_joint));
  return error_at(ErrorCode::InternalBug, record_at, p, "record_error without error");
}

}  // namespace

Result<Vskn> decode_vskn(std::span<const uint8_t> payload, uint64_t base, const RigContext& ctx,
                         const Limits& limits) {
  (void)limits;  // no VSKN limit: the exact-length rule bounds bindingCount by the payload
  const Path root("VSKN");
  if (ctx.skel == nullptr || ctx.vox0 == nullptr)
    return error_at(ErrorCode::InternalBug, base, root, "decode_vskn needs SKEL and VOX0");
  ByteReader r(payload, base, ErrorCode::VsknTruncated);
  const detail::JointSet joints(*ctx.skel);

  VOXRIG_TRY(detail::read_version_1(r, root, ErrorCode::VsknBadVersion));
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t encoding, r.u8(root));
  if (encoding != wv::kEncodingSparseIndexU16)
    return error_at(ErrorCode::VsknBadEncoding, base + wv::kEncodingAt, root,
                    "encoding " + num(encoding));
  Vskn out;
  VOXRIG_ASSIGN_OR_RETURN(out.default_joint, r.u16(root));
  if (!joints.contains(out.default_joint))
    return error_at(ErrorCode::VsknDefaultJoint, base + wv::kDefaultJointAt, root,
                    "defaultJointId " + num(out.default_joint) + " is not in SKEL");
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t reserved, r.u16(root));
  if (reserved != 0)
    return error_at(ErrorCode::VsknReserved, base + wv::kReservedAt, root, "reserved u16 at 4");
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count, r.u32(root));
  const uint64_t expected = wv::payload_size(count);
  if (payload.size() != expected)
    return error_at(ErrorCode::VsknLength, base + wv::kBindingCountAt, root,
                    "payload is " + num(payload.size()) + " bytes, bindingCount " + num(count) +
                        " needs " + num(expected));
  // Every remaining byte is present now (exact length).
  const uint8_t* const p = payload.data();
  if (std::memcmp(p + wv::kBaseSourceHashAt, ctx.source_hash.data(), wv::kHashSize) != 0)
    return error_at(ErrorCode::VsknBaseSourceHash, base + wv::kBaseSourceHashAt, root,
                    "baseSourceHash differs from the header sourceHash");
  if (std::memcmp(p + wv::kSkeletonHashAt, ctx.skeleton_hash.data(), wv::kHashSize) != 0)
    return error_at(ErrorCode::VsknSkeletonHash, base + wv::kSkeletonHashAt, root,
                    "skeletonHash differs from SHA-256 of the SKEL payload");
  std::memcpy(out.base_source_hash.data(), p + wv::kBaseSourceHashAt, wv::kHashSize);
  std::memcpy(out.skeleton_hash.data(), p + wv::kSkeletonHashAt, wv::kHashSize);

  out.bindings.resize(count);
  const uint8_t* rec = p + kHeaderBytes;
  const uint8_t* const voxels = ctx.vox0->voxels.data();
  const uint64_t voxel_count = ctx.vox0->voxels.size();
  const uint16_t default_joint = out.default_joint;
  int64_t previous = -1;  // below every u32, so record 0 needs no special case
  for (uint32_t i = 0; i < count; ++i, rec += kRecordBytes) {
    const uint32_t offset = load_u32(rec + wv::kRecordVoxelOffsetAt);
    const uint16_t joint = load_u16(rec + wv::kRecordJointAt);
    // One predictable branch per rule; the cold path works out which rule failed first.
    if (static_cast<int64_t>(offset) <= previous || offset >= voxel_count || voxels[offset] == 0 ||
        !joints.contains(joint) || joint == default_joint)
      return record_error(i, offset, joint, previous, *ctx.vox0, joints, default_joint,
                          base + kHeaderBytes + kRecordBytes * uint64_t{i});
    out.bindings[i] = VsknBinding{offset, joint};
    previous = offset;
  }
  return out;
}

uint64_t detail::vskn_payload_size(const Vskn& vskn) {
  return wv::payload_size(vskn.bindings.size());
}

std::vector<uint8_t> encode_vskn(const Vskn& vskn) {
  std::vector<uint8_t> out(detail::vskn_payload_size(vskn));
  uint8_t* p = out.data();
  const auto put16 = [](uint8_t* at, uint16_t v) {
    at[0] = static_cast<uint8_t>(v);
    at[1] = static_cast<uint8_t>(v >> 8);
  };
  const auto put32 = [&](uint8_t* at, uint32_t v) {
    put16(at, static_cast<uint16_t>(v));
    put16(at + 2, static_cast<uint16_t>(v >> 16));
  };
  p[wv::kVersionAt] = wv::kVersion;
  p[wv::kEncodingAt] = wv::kEncodingSparseIndexU16;
  put16(p + wv::kDefaultJointAt, vskn.default_joint);
  put16(p + wv::kReservedAt, 0);
  put32(p + wv::kBindingCountAt, static_cast<uint32_t>(vskn.bindings.size()));
  std::memcpy(p + wv::kBaseSourceHashAt, vskn.base_source_hash.data(), wv::kHashSize);
  std::memcpy(p + wv::kSkeletonHashAt, vskn.skeleton_hash.data(), wv::kHashSize);
  uint8_t* rec = p + kHeaderBytes;
  for (const VsknBinding& b : vskn.bindings) {
    detail::put_vskn_record(rec, b);
    rec += kRecordBytes;
  }
  return out;
}

}  // namespace voxrig
