// Internals shared by the VFP codec files (not installed; voxrig::detail only).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "voxrig/byte_reader.h"
#include "voxrig/byte_writer.h"
#include "voxrig/sha256.h"
#include "voxrig/utf8.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_model.h"
#include "voxrig/wire/vskn.h"

namespace voxrig::detail {

inline constexpr SectionTag kTagVox0 = make_tag("VOX0");
inline constexpr SectionTag kTagSkel = make_tag("SKEL");
inline constexpr SectionTag kTagVskn = wire::vskn::kTag;
inline constexpr SectionTag kTagAnim = make_tag("ANIM");

/// Largest name a u8 nameLen can describe.
inline constexpr size_t kMaxNameBytes = 255;

/// Finite test on the bit pattern: exponent all ones = Inf or NaN. Bit-exact and branch-cheap.
inline bool is_finite_bits(float f) {
  return (std::bit_cast<uint32_t>(f) & 0x7F800000u) != 0x7F800000u;
}

/// The set of SKEL joint ids as a 65536-bit table: O(1) "joint exists" in the VSKN and ANIM hot
/// loops (a binary search per record would cost more than the rest of the record's checks).
/// 8 KiB, built once per decode; lives on the caller's stack.
class JointSet {
 public:
  explicit JointSet(const Skel& skel) {
    for (const SkelJoint& j : skel.joints) bits_[j.id >> 6] |= uint64_t{1} << (j.id & 63);
  }
  bool contains(uint16_t id) const { return (bits_[id >> 6] >> (id & 63)) & 1u; }

 private:
  std::array<uint64_t, 1024> bits_{};
};

/// A count check with the limit error placed at the count field (`count_at`) and the
/// bytes-present error at the start of the table it sizes (the read that would fail).
inline Status check_count(const ByteReader& r, uint64_t count, uint64_t elem_size, uint64_t limit,
                          ErrorCode limit_code, const Path& p, uint64_t count_at) {
  Status s = r.checked_count(count, elem_size, limit, limit_code, p);
  if (s.ok() || s.error().code != limit_code) return s;
  Error e = std::move(s).error();
  e.offset = count_at;
  return e;
}

/// "0x7FC00000": a float's bit pattern for error details.
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

// ---- payload sizes and records from the wire layouts: the encoders and the dump (which reports
// each section's length and digests VOX0 and the VSKN records without encoding) share them ----

/// Bytes of the VOX0 header (version, reserved, paletteCount, sizes, reserved u16).
inline constexpr size_t kVox0HeaderBytes = 12;
/// The VOX0 header exactly as encode_vox0 writes it (vox0_codec.cpp).
std::array<uint8_t, kVox0HeaderBytes> vox0_header(const Vox0& vox0);
/// SHA-256 of encode_vox0(vox0), hashed from the model's header, palette and voxels in turn (no
/// copy of the grid).
Sha256 vox0_hash(const Vox0& vox0);
/// Payload length encode_vox0 / encode_skel / encode_vskn / encode_anim produce for the model
/// (64-bit: a hand-built model may exceed a section's u32; the encoders check that).
uint64_t vox0_payload_size(const Vox0& vox0);
uint64_t skel_payload_size(const Skel& skel);
uint64_t vskn_payload_size(const Vskn& vskn);
uint64_t anim_payload_size(const Anim& anim);
/// Bytes of one VSKN binding record <IH> (voxrig/wire/vskn.h).
inline constexpr size_t kVsknRecordBytes = wire::vskn::kRecordSize;
/// One VSKN binding record as encode_vskn writes it.
inline void put_vskn_record(uint8_t* at, const VsknBinding& b) {
  // Both fields are read into locals first: a byte store may alias `b`, so reading b's fields
  // between the stores would make GCC reload them after every byte; from locals the record is
  // one 4-byte and one 2-byte store.
  const uint32_t offset = b.voxel_offset;
  const uint16_t joint = b.joint;
  store_u32(at + wire::vskn::kRecordVoxelOffsetAt, offset);
  store_u16(at + wire::vskn::kRecordJointAt, joint);
}

/// "name 300 bytes, at most 255" and friends: details are for people, built only on error.
inline std::string num(uint64_t v) { return std::to_string(v); }

/// The encoders' error for a count their field cannot hold: VfpWriteTooLarge at offset 0 (no
/// file exists yet), detail "<count> <what>", e.g. what = "clips do not fit clipCount (u16)".
inline Error write_too_large(uint64_t count, const Path& p, const char* what) {
  return error_at(ErrorCode::VfpWriteTooLarge, 0, p, num(count) + " " + what);
}

/// The encoders' error for a name longer than a u8 nameLen (kMaxNameBytes): VfpWriteNameTooLong
/// at offset 0, detail "name is <len> bytes; nameLen holds at most 255".
inline Error write_name_too_long(uint64_t len, const Path& p) {
  return error_at(ErrorCode::VfpWriteNameTooLong, 0, p,
                  "name is " + num(len) + " bytes; nameLen holds at most 255");
}

/// Reads the u8 version a rig section opens with; `bad_version` at it unless it is 1.
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

}  // namespace voxrig::detail
