// Generators of the RKCH family, valid by construction under rkc-strict: KV6 meshes with
// consistent run tables, RVC voxel clips (rvc_from_frames over valid frames) and stored-form
// variants of them, KFA files, and characters with meshes, bones (random parent forests),
// attachments, skeletal and unknown-kind clips, voxel clips and unknown chunks. Floats are any
// bit pattern (NaN payloads, infinities, -0.0): nothing in these formats validates them.
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <string>
#include <vector>

#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rkc_model.h"
#include "voxrig/rvc.h"

namespace voxrig::props {

/// A KV6 whose run tables agree with its voxels (Σxlen = Σylen = numvoxs, z < zsiz).
rc::Gen<Kv6> gen_kv6();

/// One valid dense-column frame for `dims` (popcounts match the colour runs, no stray bits).
rc::Gen<RvcVoxelFrame> gen_rvc_frame(std::array<uint32_t, 3> dims);

/// A clip built with rvc_from_frames from 0..4 valid frames (each a small edit of the previous
/// one, so deltas are short), with or without TIME, any loop mode and keyframe interval.
rc::Gen<RvcClip> gen_rvc_clip();

/// The bytes of a valid RVC file with the same content as `base` but stored differently: v1 or
/// v2, raw or deflated chunks (any zlib level and strategy, junk after the final block, extra
/// flag bits), earlier duplicates of META/FRMS/TIME, unknown chunks, trailing bytes inside
/// payloads, any chunk order that keeps the last copy of each known tag last.
rc::Gen<std::vector<uint8_t>> gen_rvc_stored_variant(const RvcClip& base);

/// A valid KFA (parent forest, rectangular frames, arbitrary seq).
rc::Gen<Kfa> gen_kfa();

/// Options for characters.
struct CharacterGenOptions {
  bool special_floats = true;  ///< any bit patterns (else finite floats only)
  int max_bones = 6;
};

/// A character that decode_rkc accepts under both profiles and that encode_rkc writes in
/// canonical form (valid UTF-8 names, numhin = bone count).
rc::Gen<Character> gen_character(CharacterGenOptions options = {});

/// Readable descriptions for counterexamples.
std::string describe(const Kv6& m);
std::string describe(const RvcClip& c);
std::string describe(const Character& c);
std::string describe(const Kfa& k);

}  // namespace voxrig::props

namespace voxrig {
inline void showValue(const Kv6& v, std::ostream& os) { os << props::describe(v); }
inline void showValue(const RvcClip& v, std::ostream& os) { os << props::describe(v); }
inline void showValue(const Character& v, std::ostream& os) { os << props::describe(v); }
inline void showValue(const Kfa& v, std::ostream& os) { os << props::describe(v); }
}  // namespace voxrig
