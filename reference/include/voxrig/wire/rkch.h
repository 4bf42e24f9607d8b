// voxrig/wire/rkch.h — the RKCH v3 container's wire layout, once: magic, version, the known
// chunk tags in canonical order and the byte layout of the fixed-size records of BONS, CLPS and
// KFA (docs/spec/rkch.md, "File framing" and "Chunk payloads").
//
// File:  magic "RKCH" | version u16 (= 3) | chunks until EOF (no count, no terminator)
// Chunk: tag[4] | len u32 | payload[len]             (no flags, checksum or alignment)
// META:  name_len u16 | name | root 3 x f32
// MSHS:  count u32 | count x { blob_len u32 | KV6 blob }
// BONS:  count u32 | count x { name_len u16 | name | attach_count u32 | attach_count x
//        Attachment (54 B) | Hinge (64 B) }
// CLPS:  count u32 | count x { name_len u16 | name | kind u16 | payload_len u32 | body }
//        kind 0 (skeletal) body: numfrm u32 | numhin u32 | numfrm x numhin BoneXform (40 B) |
//        seqcount u32 | seqcount x Seq (8 B)
// VCLP:  count u32 | count x { blob_len u32 | RVC blob }
//
// The codec's strict decoder (rkc_container.cpp, rkc_chunks.cpp), its success-path twin
// (rkc_fast.cpp), the writer, the KFA codec (whose hinges are the same record) and the lenient
// walker of voxrig::testing read the layout from here; which values are valid and in which order
// they are checked is the decoder's (voxrig/rkc.h). Constants only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "voxrig/wire/kv6.h"

namespace voxrig::wire::rkch {

/// The file's first four bytes.
inline constexpr std::array<uint8_t, 4> kMagic = {'R', 'K', 'C', 'H'};
/// The only version this reader reads: a u16 at kVersionAt. The first chunk starts at
/// kHeaderSize; a chunk header is tag[4], then the payload length u32 at kChunkLengthAt.
inline constexpr uint16_t kVersion = 3;
inline constexpr size_t kVersionAt = 4, kHeaderSize = 6, kChunkLengthAt = 4, kChunkHeaderSize = 8;

/// The known chunks by rank: their canonical (written) order and the index into kChunkTags.
/// Unknown tags rank after all of them.
enum ChunkRank : size_t { kMeta, kMshs, kBons, kClps, kVclp, kKnownChunks };
/// The known chunks' tags (four characters each) in rank order.
inline constexpr std::array<const char*, kKnownChunks> kChunkTags = {"META", "MSHS", "BONS", "CLPS",
                                                                     "VCLP"};
/// A tag's four bytes as the little-endian u32 a loader reads at the chunk's start.
constexpr uint32_t tag_u32(const char* tag) {
  return uint32_t(uint8_t(tag[0])) | uint32_t(uint8_t(tag[1])) << 8 |
         uint32_t(uint8_t(tag[2])) << 16 | uint32_t(uint8_t(tag[3])) << 24;
}

/// Widths of the fields every payload uses: the u16 before every name, the u32 list counts and
/// blob and body lengths, and META's root (three binary32 after the name).
inline constexpr size_t kNameLenSize = 2, kCountSize = 4, kRootSize = 12;

/// BoneXform (40 B): t xyz | r xyzw | s xyz, binary32 each.
namespace xform {
inline constexpr size_t kTAt = 0, kRAt = 12, kSAt = 28, kSize = 40;
}  // namespace xform

/// Hinge (64 B): parent i32 | p[0] p[1] v[0] v[1] (3 x f32 each) | vmin i16 | vmax i16 |
/// htype u8 | filler 7 B. The same record in BONS and in KFA.
namespace hinge {
inline constexpr size_t kParentAt = 0, kP0At = 4, kP1At = 16, kV0At = 28, kV1At = 40;
inline constexpr size_t kVminAt = 52, kVmaxAt = 54, kHtypeAt = 56, kFillerAt = 57;
inline constexpr size_t kFillerSize = 7, kSize = 64;
static_assert(kFillerAt + kFillerSize == kSize);
}  // namespace hinge

/// Attachment (54 B): mesh_kind u16 | index u32 | local_offset BoneXform | speed_q8 i32 |
/// start_phase_ms u32.
namespace attachment {
inline constexpr size_t kMeshKindAt = 0, kIndexAt = 2, kLocalOffsetAt = 6;
inline constexpr size_t kSpeedQ8At = kLocalOffsetAt + xform::kSize, kStartPhaseAt = kSpeedQ8At + 4;
inline constexpr size_t kSize = kStartPhaseAt + 4;
static_assert(kSize == 54);
}  // namespace attachment

/// Seq (8 B): tim i32 | frm i32.
namespace seq {
inline constexpr size_t kTimAt = 0, kFrmAt = 4, kSize = 8;
}  // namespace seq

/// The smallest record each list can hold, for clamping reservations by the bytes present:
/// a bone with an empty name and no attachments, a clip with an empty name and body, and the
/// blob length plus the smallest blob header (KV6's header; RVC's magic and version).
inline constexpr size_t kMinBone = kNameLenSize + kCountSize + hinge::kSize,
                        kMinClip = kNameLenSize + 2 + kCountSize;
inline constexpr size_t kMinKv6Blob = kCountSize + kv6::kHeaderSize, kMinRvcBlob = kCountSize + 6;

}  // namespace voxrig::wire::rkch
