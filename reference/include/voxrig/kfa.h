// voxrig/kfa.h — the voxlap KFA skeleton + animation (docs/spec/kfa.md): model, decode, encode,
// dump, and the seed's lossy export of a Character (character_to_kfa).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "voxrig/decode_options.h"
#include "voxrig/error.h"
#include "voxrig/result.h"
#include "voxrig/rkc_model.h"

namespace voxrig {

/// A KFA file. `frames` is frame-major and flat: frame f, hinge h is frames[f * hinges.size() +
/// h], a Q15 hinge angle (full turn = 65536); frames.size() must equal frame_count *
/// hinges.size() (the writer returns kfa.write.frames_not_rectangular otherwise).
struct Kfa {
  std::vector<uint8_t> kv6_name;  ///< raw bytes, no NUL, never decoded
  std::vector<Hinge> hinges;
  uint32_t frame_count = 0;
  std::vector<int16_t> frames;
  std::vector<Seq> seq;
  bool operator==(const Kfa& o) const = default;
};

/// Decodes a KFA file. Order (docs/spec/kfa.md): fewer than 4 bytes -> kfa.truncated, magic (kfa.bad_magic),
/// name, numhin (kfa.limit.hinges), hinges, numfrm (kfa.limit.frame_cells, counting
/// numfrm * max(numhin, 1) so a zero-width table cannot loop), frames, seqnum (kfa.limit.seq),
/// seq; any short read -> kfa.truncated. Then (QE.6b, as RKCH): each hinge's parent in order
/// (kfa.parent_range: neither -1 nor an index), then cycles (kfa.parent_cycle, reported at the
/// first hinge in order whose parent chain never reaches a root). Bytes after seq are ignored.
/// Same rules under every profile. Safe on untrusted input; allocates only the tables, after
/// checking them against the limits and (clamped) against the bytes present.
Result<Kfa> decode_kfa(std::span<const uint8_t> bytes, const DecodeOptions& options);

/// Serializes (docs/spec/kfa.md#writer-and-round-trip): every count from content, fields in order; trailing bytes of a decoded
/// file are not in the model and are dropped. Errors: kfa.write.frames_not_rectangular,
/// kfa.write.too_large (a count or name length above u32). Never panics.
Result<std::vector<uint8_t>> encode_kfa(const Kfa& kfa);

/// Decodes like decode_kfa and returns the warnings (D14): kfa.trailing_bytes.
Result<std::vector<Warning>> validate_kfa(std::span<const uint8_t> bytes,
                                          const DecodeOptions& options);

/// The canonical dump {"schema": "voxrig-dump/2", "format": "kfa", ...} (docs/spec/dump.md, "RKCH
/// family").
std::string dump_kfa(const Kfa& kfa);

/// The seed's lossy `to_kfa` export (docs/spec/kfa.md#the-lossy-export): hinges = the bones' hinges; when `clip` selects a
/// skeletal clip, every BoneXform collapses to hinge_angle(xform, bone.hinge.v[0]) and seq is
/// copied; no clip, an index out of range or an Unknown clip give an empty animation. Meshes,
/// attachments, other clips and voxel clips are dropped.
/// Errors (hand-built characters only): rkc.clip_bone_count when the clip's numhin differs from
/// the bone count, rkc.write.frames_not_rectangular when its frames are not rectangular.
Result<Kfa> character_to_kfa(const Character& character, std::optional<size_t> clip,
                             std::span<const uint8_t> kv6_name);

}  // namespace voxrig
