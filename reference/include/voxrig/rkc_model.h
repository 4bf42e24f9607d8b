// voxrig/rkc_model.h — plain, editable model of an RKCH v3 rigged character (docs/spec/rkch.md)
// and the records it shares with KFA (Hinge, Seq) plus the seed's BoneXform.
//
// A decoded Character holds exactly what the canonical writer needs (docs/spec/writers.md#D1): the last
// copy of each known chunk, unknown chunks in file order, every float bit pattern, hinge htype
// and filler, unknown clip kinds verbatim, embedded RVC clips as stored. What the writer drops
// (earlier duplicates, trailing payload bytes, bytes after a KV6's tables) is not in the model.
// Equality compares floats by bit pattern (D5): NaN payloads and -0.0 are distinguished.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "voxrig/kv6.h"
#include "voxrig/rvc.h"

namespace voxrig {

/// A bone's local transform (40 bytes on disk, ten binary32): translation, rotation quaternion
/// stored x, y, z, w (w last), scale. Identity: t = 0, r = (0,0,0,1), s = 1.
struct BoneXform {
  /// The identity. User-provided on purpose: value-initialisation (`frames.resize`,
  /// `emplace_back()`) then writes the ten floats once instead of zeroing the record first (GCC
  /// emitted that zeroing as a `rep stosl` per record, ~30 cycles each, in the RKCH decode).
  BoneXform() noexcept {}

  std::array<float, 3> t{0, 0, 0};
  std::array<float, 4> r{0, 0, 0, 1};  ///< x, y, z, w
  std::array<float, 3> s{1, 1, 1};
  /// Bit-pattern equality of all ten floats.
  bool operator==(const BoneXform& o) const;
};

/// The 64-byte hinge record shared by RKCH BONS and KFA. Nothing in it is validated except
/// `parent` (range and cycles, QE.6b); htype and filler are kept verbatim.
struct Hinge {
  int32_t parent = -1;                      ///< -1 = root, else an index into the bones / hinges
  std::array<std::array<float, 3>, 2> p{};  ///< p[0], p[1] anchor points
  std::array<std::array<float, 3>, 2> v{};  ///< v[0], v[1] axes
  int16_t vmin = 0, vmax = 0;
  uint8_t htype = 0;  ///< the renderer uses only 0; other values are kept, not checked
  std::array<uint8_t, 7> filler{};  ///< kept verbatim (may be non-zero)
  /// Bit-pattern equality of the floats, plain equality of the rest.
  bool operator==(const Hinge& o) const;
};

/// One seq entry: time in ms and a frame index (frm >= 0) or a jump marker (frm < 0 jumps to
/// seq index ~frm). Not validated at parse (D21: evaluation jobs check it).
struct Seq {
  int32_t tim = 0;
  int32_t frm = 0;
  bool operator==(const Seq& o) const = default;
};

/// Attachment mesh_kind: what `index` points into.
enum class AttachmentKind : uint16_t {
  Static = 0,  ///< Character::meshes
  Clip = 1,    ///< Character::voxel_clips
};

/// One thing a bone draws (54 bytes on disk).
struct Attachment {
  AttachmentKind kind = AttachmentKind::Static;
  uint32_t index = 0;
  BoneXform local_offset;  ///< applied on top of the bone's world transform
  int32_t speed_q8 = 256;  ///< Q8 playback speed (not range-checked)
  uint32_t start_phase_ms = 0;
  bool operator==(const Attachment& o) const = default;
};

/// One bone: name (UTF-8), attachments, hinge. Bone index = frame column = hinge parent target.
struct Bone {
  std::string name;
  std::vector<Attachment> attachments;
  Hinge hinge;
  bool operator==(const Bone& o) const = default;
};

/// A skeletal clip (kind 0). `frames` is frame-major and flat: frame f, bone b is
/// frames[f * numhin + b]; frames.size() must equal frame_count * numhin (the writer returns
/// rkc.write.frames_not_rectangular otherwise). numhin is recorded explicitly so a clip with
/// zero frames keeps it; the decoder guarantees numhin == bone count.
struct SkeletalClip {
  uint32_t frame_count = 0;
  uint32_t numhin = 0;
  std::vector<BoneXform> frames;
  std::vector<Seq> seq;
  /// The bones of frame f (frames must be rectangular and f < frame_count).
  std::span<const BoneXform> frame(size_t f) const {
    return std::span<const BoneXform>(frames).subspan(f * numhin, numhin);
  }
  bool operator==(const SkeletalClip& o) const = default;
};

/// A clip kind this reader does not model: kept verbatim (kind and body).
struct UnknownClip {
  uint16_t kind = 0;
  std::vector<uint8_t> bytes;
  bool operator==(const UnknownClip& o) const = default;
};

/// One named clip of CLPS.
struct Clip {
  std::string name;
  std::variant<SkeletalClip, UnknownClip> data;
  bool operator==(const Clip& o) const = default;
};

/// A top-level chunk with a tag the reader does not know, kept verbatim.
struct ExtraChunk {
  std::array<uint8_t, 4> tag{};
  std::vector<uint8_t> bytes;
  bool operator==(const ExtraChunk& o) const = default;
};

/// A whole RKCH v3 character.
struct Character {
  std::string name;                      ///< META; UTF-8 (repaired under rkc-compat)
  std::array<float, 3> root{0, 0, 0};    ///< META world placement
  std::vector<Kv6> meshes;               ///< MSHS, indexed by Static attachments
  std::vector<Bone> bones;               ///< BONS
  std::vector<Clip> clips;               ///< CLPS (may be empty)
  std::vector<RvcClip> voxel_clips;      ///< VCLP, indexed by Clip attachments; kept as stored
  std::vector<ExtraChunk> extra_chunks;  ///< unknown top-level chunks, file order
  bool operator==(const Character& o) const;
};

/// Rotation by `rad` radians about `axis` (right-handed), in binary32 exactly as the seed:
/// len = sqrt(ax²+ay²+az²); identity when len < 1e-12; k = sin(rad*0.5)/len;
/// q = (ax*k, ay*k, az*k, cos(rad*0.5)). Returns x, y, z, w.
std::array<float, 4> quat_from_axis_angle(const std::array<float, 3>& axis, float rad);

/// The legacy Q15 hinge pose (docs/spec/rkc-evaluation.md#interpolation, D18): rad = val * (2π/65536) in binary32, rotation
/// quat_from_axis_angle(axis, -rad), t = 0, s = 1.
BoneXform from_hinge_angle(const std::array<float, 3>& axis, int16_t val);

/// Inverse of from_hinge_angle (docs/spec/rkc-evaluation.md#interpolation, D18): projects the rotation's vector part on the unit axis
/// (s), φ = 2·atan2(s, w), val = -φ·65536/2π, rounded half away from zero, saturated to i32
/// (NaN -> 0), wrapped to i16. Returns 0 for a near-zero axis (|axis| < 1e-12).
int16_t hinge_angle(const BoneXform& x, const std::array<float, 3>& axis);

}  // namespace voxrig
