// voxrig/vfp_model.h — plain, editable model of a VFP 1.3 file with the Voxel Rig v1 sections.
//
// The model keeps every section in file order, so parse -> serialize is byte-exact (docs/spec/
// D1). A section is either decoded (VOX0 always; SKEL/VSKN/ANIM under profile vfp-rig) or kept
// as opaque payload bytes (caches, unknown sections, and rig sections under vfp-static).
// Equality compares floats by bit pattern (D5): NaN payloads and -0.0 are distinguished.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "voxrig/sha256.h"

namespace voxrig {

/// Three binary32 values, compared bit for bit.
struct Vec3 {
  float x = 0, y = 0, z = 0;
  bool operator==(const Vec3& o) const;
};
/// A quaternion stored x, y, z, w (w last), compared bit for bit.
struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
  bool operator==(const Quat& o) const;
};
/// Translation, rotation, scale: a joint's local transform (local = T * R * S).
struct Trs {
  Vec3 t{0, 0, 0};
  Quat r{0, 0, 0, 1};
  Vec3 s{1, 1, 1};
  bool operator==(const Trs& o) const = default;
};

/// An RGBA8 palette entry.
struct Rgba {
  uint8_t r = 0, g = 0, b = 0, a = 0;
  bool operator==(const Rgba& o) const = default;
};

/// VOX0: the authoritative voxel grid. voxels.size() == size_x * size_y * size_z, x-fastest:
/// index = x + size_x * (y + size_y * z); 0 = empty, otherwise an index < palette.size().
struct Vox0 {
  uint16_t size_x = 1, size_y = 1, size_z = 1;
  std::vector<Rgba> palette;    ///< 1..256 entries; entry 0 is the empty slot
  std::vector<uint8_t> voxels;  ///< one palette index per cell
  /// Linear index of (x, y, z); the caller keeps coordinates in range.
  size_t index(uint32_t x, uint32_t y, uint32_t z) const {
    return x + size_t{size_x} * (y + size_t{size_y} * z);
  }
  bool operator==(const Vox0& o) const = default;
};

/// One SKEL joint: id, parent (-1 = root), bind-pose TRS, UTF-8 name (<= 255 bytes).
struct SkelJoint {
  uint16_t id = 0;
  int16_t parent = -1;
  Trs bind;
  std::string name;
  bool operator==(const SkelJoint& o) const = default;
};
/// SKEL v1: the skeleton. Joints in file order (ids strictly increasing).
struct Skel {
  Sha256 base_source_hash{};
  std::vector<SkelJoint> joints;
  bool operator==(const Skel& o) const = default;
};

/// One VSKN record: the voxel at x-fastest offset `voxel_offset` is bound to `joint`.
struct VsknBinding {
  uint32_t voxel_offset = 0;
  uint16_t joint = 0;
  bool operator==(const VsknBinding& o) const = default;
};
/// VSKN v1 (encoding SPARSE_INDEX_U16): every non-empty voxel is bound to default_joint unless a
/// record says otherwise.
struct Vskn {
  uint16_t default_joint = 0;
  Sha256 base_source_hash{};
  Sha256 skeleton_hash{};
  std::vector<VsknBinding> bindings;
  bool operator==(const Vskn& o) const = default;
};

/// One key: time and the joint's absolute local TRS at that time.
struct AnimKey {
  uint32_t time_ms = 0;
  Trs trs;
  bool operator==(const AnimKey& o) const = default;
};
/// One track: the keys of one joint.
struct AnimTrack {
  uint16_t joint = 0;
  std::vector<AnimKey> keys;
  bool operator==(const AnimTrack& o) const = default;
};
/// One clip: stable id, name, duration and tracks (joint ids strictly increasing).
struct AnimClip {
  uint16_t id = 0;
  uint32_t duration_ms = 0;
  std::string name;
  std::vector<AnimTrack> tracks;
  bool operator==(const AnimClip& o) const = default;
};
/// ANIM v1: skeletal clips.
struct Anim {
  Sha256 base_source_hash{};
  Sha256 skeleton_hash{};
  std::vector<AnimClip> clips;
  bool operator==(const Anim& o) const = default;
};

/// A section tag: four ASCII characters from A-Z0-9.
using SectionTag = std::array<char, 4>;
/// Builds a tag from a 4-character literal ("VOX0").
constexpr SectionTag make_tag(const char (&s)[5]) { return {s[0], s[1], s[2], s[3]}; }

/// Section flag bit 0: a reader that does not understand the section must reject the file.
inline constexpr uint8_t kSectionRequired = 0x01;

/// The 16-byte section header, minus the length (always computed from the payload).
struct SectionHeader {
  SectionTag tag{};
  int32_t chunk_id = -1;
  uint8_t codec = 0;
  uint8_t flags = 0;
  bool operator==(const SectionHeader& o) const = default;
};

/// Opaque payload bytes: caches, unknown sections, and rig sections the profile does not decode.
struct RawPayload {
  std::vector<uint8_t> bytes;
  bool operator==(const RawPayload& o) const = default;
};

/// One section: its header and either raw bytes or a decoded body.
struct Section {
  SectionHeader header;
  std::variant<RawPayload, Vox0, Skel, Vskn, Anim> body;
  bool operator==(const Section& o) const = default;
};

/// A whole VFP 1.3 file. The header's sourceHash is not stored: the writer computes it from the
/// VOX0 section (D2), and the decoder rejects a file whose stored hash disagrees.
struct VfpFile {
  uint8_t version_minor = 3;
  std::vector<Section> sections;  ///< in file order

  /// The decoded VOX0 body, or nullptr when absent.
  const Vox0* vox0() const;
  Vox0* vox0();
  /// The first decoded SKEL / VSKN / ANIM body, or nullptr (none decoded, e.g. vfp-static).
  const Skel* skel() const;
  Skel* skel();
  const Vskn* vskn() const;
  Vskn* vskn();
  const Anim* anim() const;
  Anim* anim();

  bool operator==(const VfpFile& o) const = default;
};

}  // namespace voxrig
