// voxrig/kv6.h — the KV6 voxel sprite (docs/spec/kv6.md): model, decode, encode, dump.
//
// KV6 is embedded in RKCH's MSHS chunk and also read standalone (docs/spec/vfp.md#D7: under the rkc-*
// profiles, with the same rules). The decoder follows the seed implementation's parse order
// (docs/spec/kv6.md#parse-rules: TooSmall before the magic, then header, voxels, xlen, ylen, optional SPal palette,
// everything after it ignored) plus the reference's additions: limits on the declared sizes
// (checked before anything is reserved) and the run-table rule of D9 (an error under
// rkc-strict, a warning under rkc-compat).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "voxrig/decode_options.h"
#include "voxrig/error.h"
#include "voxrig/json_out.h"
#include "voxrig/result.h"

namespace voxrig {

/// One KV6 voxel record (8 bytes on disk).
struct Kv6Voxel {
  uint32_t col = 0x80000000;  ///< voxlap-packed 0x80RRGGBB (high byte = brightness, not alpha)
  uint16_t z = 0;             ///< z-down: 0 is the top
  uint8_t vis = 0;  ///< exposed faces: 0x01 -x, 0x02 +x, 0x04 -y, 0x08 +y, 0x10 -z, 0x20 +z
  uint8_t dir = 0;  ///< index into voxlap's 256-entry normal table
  bool operator==(const Kv6Voxel& o) const = default;
};

/// The KV6 palette trailer body: 256 x (r, g, b), meant to be 0..63 per channel (not checked).
using Kv6Palette = std::array<uint8_t, 768>;

/// A KV6 sprite as stored. Voxels are x-major, then y, then ascending z inside a column; a voxel
/// belongs to a column only through the ylen run table. Nothing here is normalised: a decoded
/// model keeps exactly what the file said (run tables that disagree are kept under rkc-compat).
/// Equality compares the pivot floats by bit pattern (D5).
struct Kv6 {
  /// An empty sprite (all sizes 0, no palette). User-provided on purpose: value-initialisation
  /// (`meshes.emplace_back()`, `resize`) then runs this instead of first zeroing the whole
  /// object, whose disengaged 768-byte palette storage would otherwise be written on every decode.
  Kv6() noexcept {}

  uint32_t xsiz = 0, ysiz = 0, zsiz = 0;
  std::array<float, 3> pivot{0, 0, 0};  ///< xpiv, ypiv, zpiv (voxel units from the min corner)
  std::vector<Kv6Voxel> voxels;         ///< numvoxs = voxels.size()
  std::vector<uint32_t> xlen;           ///< xsiz entries: voxels in slice x
  std::vector<uint16_t> ylen;           ///< xsiz * ysiz entries, x outer: ylen[x * ysiz + y]
  std::optional<Kv6Palette> palette;    ///< present iff the file carried an SPal trailer

  bool operator==(const Kv6& o) const;
};

/// Decodes a KV6 file (or an MSHS blob) whose first byte sits at absolute file offset
/// `base_offset`; error offsets are absolute, paths are relative to the blob ("", "voxels",
/// "xlen", "ylen"); a container prefixes its own ("MSHS/mesh[1]").
/// Check order: size < 32 (kv6.too_small, before the magic), magic (kv6.bad_magic), the column
/// limit xsiz*ysiz (kv6.limit.columns) and the voxel limit (kv6.limit.voxels) as the header is
/// read, then the tables in file order (kv6.truncated), then under rkc-strict the run tables
/// (kv6.run_tables; Σxlen = Σylen = numvoxs, Σ_y ylen[x][y] = xlen[x], every z < zsiz).
/// Any profile other than rkc-compat applies the strict rules.
/// Safe on untrusted input; allocates only the tables, after checking them against the bytes
/// present and the limits.
Result<Kv6> decode_kv6(std::span<const uint8_t> bytes, uint64_t base_offset,
                       const DecodeOptions& options);

/// Serializes a KV6 (docs/spec/kv6.md#writer): header with numvoxs = voxels.size(), voxels, xlen, ylen as stored,
/// then "SPal" + 768 bytes when a palette is present. Bytes a decoded file carried after its
/// tables are not part of the model and are therefore dropped.
/// Error kv6.write.table_size when xlen.size() != xsiz, ylen.size() != xsiz*ysiz or the voxel
/// count does not fit in u32 (a hand-built model the format cannot hold). Never panics.
Result<std::vector<uint8_t>> encode_kv6(const Kv6& kv6);

/// Decodes like decode_kv6 and returns the validator's warnings (D14): kv6.run_tables under
/// rkc-compat, kv6.trailing_bytes for bytes after the tables/palette that the writer drops.
/// Returns the decode error when decoding fails.
Result<std::vector<Warning>> validate_kv6(std::span<const uint8_t> bytes,
                                          const DecodeOptions& options);

/// Writes the KV6 members (docs/spec/dump.md, "RKCH family", "kv6 object") as keys into the JSON
/// object the caller has open. Never fails; allocates digest buffers.
void dump_kv6_into(JsonOut& out, const Kv6& kv6);

/// The canonical dump of a standalone KV6: {"schema": "voxrig-dump/2", "format": "kv6", ...}.
std::string dump_kv6(const Kv6& kv6);

}  // namespace voxrig
