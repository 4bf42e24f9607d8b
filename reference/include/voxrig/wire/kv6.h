// voxrig/wire/kv6.h — the KV6 voxel sprite's wire layout, once: magic, header field offsets,
// record sizes and the optional palette trailer (docs/spec/kv6.md, "Layout").
//
// | Offset | Size          | Type     | Field                                              |
// |--------|---------------|----------|----------------------------------------------------|
// | 0x00   | 4             | bytes    | magic "Kvxl" (4B 76 78 6C)                         |
// | 0x04   | 4             | u32      | xsiz                                               |
// | 0x08   | 4             | u32      | ysiz                                               |
// | 0x0C   | 4             | u32      | zsiz (not used by parse)                           |
// | 0x10   | 12            | 3 x f32  | xpiv, ypiv, zpiv                                   |
// | 0x1C   | 4             | u32      | numvoxs                                            |
// | 0x20   | 8 * numvoxs   | Voxel[]  | col u32, z u16, vis u8, dir u8                     |
// | ...    | 4 * xsiz      | u32[]    | xlen[x]                                            |
// | ...    | 2*xsiz*ysiz   | u16[]    | ylen[x][y], x outer                                |
// | ...    | 0 or 772      | optional | "SPal" + 768 palette bytes (only if >= 772 remain) |
//
// The codec's decoders (the strict one and its success-path twin, kv6_codec.cpp), its writer
// and the lenient walker of voxrig::testing read the layout from here; which values are valid
// and in which order they are checked is the decoder's (voxrig/kv6.h). Constants only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace voxrig::wire::kv6 {

/// The file's first four bytes.
inline constexpr std::array<uint8_t, 4> kMagic = {'K', 'v', 'x', 'l'};

/// Offsets of the header fields after the magic (kPivotAt: three binary32, xpiv ypiv zpiv);
/// the header is kHeaderSize bytes.
inline constexpr size_t kXsizAt = 0x04, kYsizAt = 0x08, kZsizAt = 0x0C, kPivotAt = 0x10;
inline constexpr size_t kNumvoxsAt = 0x1C, kHeaderSize = 0x20;

/// One voxel record of kVoxelSize bytes: col u32, z u16, vis u8, dir u8.
inline constexpr size_t kVoxelColAt = 0, kVoxelZAt = 4, kVoxelVisAt = 6, kVoxelDirAt = 7;
inline constexpr size_t kVoxelSize = 8;

/// One xlen entry (u32, one per x slice) and one ylen entry (u16, one per column, x outer).
inline constexpr size_t kXlenEntrySize = 4, kYlenEntrySize = 2;

/// The optional palette trailer: its tag, then 256 RGB triples. Present only when at least
/// kPaletteTrailerSize bytes follow the tables and they start with the tag.
inline constexpr std::array<uint8_t, 4> kPaletteMagic = {'S', 'P', 'a', 'l'};
inline constexpr size_t kPaletteBytes = 768;
inline constexpr size_t kPaletteTrailerSize = 4 + kPaletteBytes;

}  // namespace voxrig::wire::kv6
