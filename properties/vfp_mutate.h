// Byte-level and model-level editing of VFP files for the validation, hash-binding and dump
// properties. RawVfp is a typed view of a file this suite wrote (trusted): header fields and
// sections, written back with any field overridden. Framing, lengths and the default sourceHash
// come from the testing walker (voxrig/testing/layout.h), independently of the codec under test.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "voxrig/sha256.h"
#include "voxrig/vfp_model.h"

namespace voxrig::props {

using Bytes = std::vector<uint8_t>;

/// One section as bytes: every header field, the payload, and an optional length override.
struct RawSection {
  std::array<uint8_t, 4> tag{};
  int32_t chunk_id = -1;
  uint8_t codec = 0, flags = 0;
  uint16_t reserved = 0;
  Bytes payload;
  bool is(const char* t) const;
};

/// A whole file as bytes. count and hash default to the content (hash = SHA-256 of the first
/// VOX0-tagged payload); `trailing` is appended after the last section.
struct RawVfp {
  std::array<uint8_t, 4> magic{'V', 'F', 'P', 0};
  uint8_t major = 1, minor = 3;
  uint16_t flags = 0;
  std::optional<uint32_t> count;
  std::optional<Sha256> hash;
  std::vector<RawSection> sections;
  Bytes trailing;

  Bytes bytes() const;
  /// Index of the first section with this tag, or -1.
  int find(const char* tag) const;
};

/// Splits a well-formed file (precondition: written by encode_vfp or RawVfp::bytes with the
/// default count; throws std::bad_optional_access when it is not a VFP file at all).
RawVfp split_vfp(const Bytes& file);

/// One random change to a VOX0 that keeps it valid and makes it differ from the input
/// (a voxel, a palette entry, a new palette entry, or the grid size).
void mutate_vox0(Vox0& v);

/// One random change to a valid SKEL that keeps it valid, keeps every joint id (so bindings and
/// tracks stay valid) and changes its payload: a float, a name, a parent, a new leaf joint.
void mutate_skel(Skel& s);

/// A model that differs from a base model in exactly one field.
struct FieldVariant {
  std::string what;  ///< which field, e.g. "section[1] joint[0] float 7 sign"
  VfpFile model;
};

/// Every single-field change of `f`: the version, each section header field and the section
/// order, each payload byte, each VOX0 size / palette channel / voxel, each SKEL / VSKN / ANIM
/// field (every float twice: sign bit, giving -0.0 vs 0.0, and last mantissa bit), plus one
/// element added to each list. Arrays contribute at most `max_per_array` elements each.
std::vector<FieldVariant> field_variants(const VfpFile& f, size_t max_per_array = 64);

/// The same file spelled differently, still valid, as the writer would never produce it from the
/// decoded model's own header values: another versionMinor, other chunkIds and codecs on the
/// sections every profile keeps as bytes (caches and unknown optional sections), another section
/// order. Round trips must keep all of it.
Bytes respell_vfp(const Bytes& valid);

}  // namespace voxrig::props
