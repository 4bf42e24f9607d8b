// voxrig/vfp.h — decode, encode, canonicalize and rebind VFP 1.3 + Voxel Rig v1.
//
// Decoding = framing -> section decode -> validation, in the check order of
// docs/spec/vfp.md#order-of-checks (FP-7, D11, D13); the first failure wins. Every function here is safe on untrusted input:
// declared sizes are checked against the bytes present and against Limits before anything is
// allocated, and all size arithmetic is 64-bit and overflow-checked.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/decode_options.h"
#include "voxrig/limits.h"
#include "voxrig/profile.h"
#include "voxrig/result.h"
#include "voxrig/text_stream.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// Decodes a whole VFP file. Under vfp-static, rig sections stay RawPayload; under vfp-rig they
/// are decoded and checked (hash bindings included). Any other profile is treated as vfp-rig.
/// Errors: every vfp.*, vox0.*, rig.*, skel.*, vskn.*, anim.* code; which one a file with
/// several broken rules gives is fixed step by step in docs/spec/vfp.md.
Result<VfpFile> decode_vfp(std::span<const uint8_t> bytes, const DecodeOptions& options);

/// Serializes the model: sections in model order, lengths and the header sourceHash computed
/// from content, stored baseSourceHash/skeletonHash written as stored (D2). For a model from
/// decode_vfp the output equals the input bytes. Errors (a hand-built model the format cannot
/// hold): no decoded VOX0 (vfp.vox0.missing), a name over 255 bytes or a count over its field
/// (the matching *.limit / bad code; the list is in docs/spec/vfp.md). Semantic rules are
/// not checked: a representable but invalid model is written as it is.
Result<std::vector<uint8_t>> encode_vfp(const VfpFile& file);

/// encode_vfp's bytes streamed to `sink` (voxrig/text_stream.h): the header, then per section its
/// header and payload; a VOX0 grid goes out from the model itself, so memory stays at the model
/// (plus one encoded rig section at a time) whatever the file's size. Same errors as encode_vfp;
/// an error about a later section comes after the earlier pieces were written.
Status write_vfp(const VfpFile& file, const OutputSink& sink);

/// The size of encode_vfp(file), from the model's payload sizes (nothing is encoded). For a
/// model encode_vfp refuses it is what the layout would take.
uint64_t vfp_encoded_size(const VfpFile& file);

/// Reorders sections by tag class (D1): VOX0; MSH0 PMSH RND0 PRVW ANM0 in input order; every
/// SKEL, every VSKN, every ANIM; then everything else in input order. Nothing else changes.
/// Purely syntactic and the same under every profile.
VfpFile canonicalized(VfpFile file);

/// Recomputes every stored baseSourceHash (from the VOX0 payload) and skeletonHash (from the
/// SKEL payload) so the rig is bound to this model. No-op for parts that are absent. Only decoded
/// bodies change (RawPayload rig sections stay as they are); the first decoded VOX0 / SKEL
/// count; baseSourceHash is set first because it is part of the SKEL payload.
void rebind(VfpFile& file);

// ---- per-section entry points (fuzz targets and tests call these directly) ----

/// The context a rig section is checked against (SKEL, VOX0 and the hashes).
struct RigContext {
  Sha256 source_hash{};        ///< the header's sourceHash
  Sha256 skeleton_hash{};      ///< SHA-256 of the SKEL payload
  const Skel* skel = nullptr;  ///< decoded SKEL (for joint existence)
  const Vox0* vox0 = nullptr;  ///< decoded VOX0 (for voxel offsets)
};

/// Decodes a VOX0 payload that starts at absolute file offset `base`.
Result<Vox0> decode_vox0(std::span<const uint8_t> payload, uint64_t base, const Limits& limits);
/// Encodes a VOX0 payload (exact inverse of decode_vox0 for valid input). Precondition (checked
/// by encode_vfp): voxels.size() == size_x * size_y * size_z and at most 65535 palette entries.
std::vector<uint8_t> encode_vox0(const Vox0& vox0);

/// Decodes and validates a SKEL payload (baseSourceHash against ctx.source_hash).
Result<Skel> decode_skel(std::span<const uint8_t> payload, uint64_t base, const RigContext& ctx,
                         const Limits& limits);
/// Encodes a SKEL payload; baseSourceHash as stored. Errors: skel.limit.joints (> 65535 joints),
/// skel.bad_utf8 (a name over 255 bytes).
Result<std::vector<uint8_t>> encode_skel(const Skel& skel);

/// Decodes and validates a VSKN payload against ctx (skel and vox0 required; a null one is
/// internal.bug).
Result<Vskn> decode_vskn(std::span<const uint8_t> payload, uint64_t base, const RigContext& ctx,
                         const Limits& limits);
/// Encodes a VSKN payload; hashes as stored. Never fails (encode_vfp checks the 4 GiB bound).
std::vector<uint8_t> encode_vskn(const Vskn& vskn);

/// Decodes and validates an ANIM payload against ctx (skel required; null is internal.bug).
Result<Anim> decode_anim(std::span<const uint8_t> payload, uint64_t base, const RigContext& ctx,
                         const Limits& limits);
/// Encodes an ANIM payload; hashes as stored. Errors: anim.limit.clips (> 65535 clips, or tracks
/// in a clip), anim.limit.keys_per_track (> 2^32-1 keys), anim.bad_utf8 (a name over 255
/// bytes), anim.limit.keys_total (a payload over 4 GiB).
Result<std::vector<uint8_t>> encode_anim(const Anim& anim);

/// True when | sqrt(((x*x + y*y) + z*z) + w*w) - 1 | <= 1e-3, computed in double without FMA
/// contraction (D15). The caller checks finiteness first.
bool is_unit_quaternion(const Quat& q);

}  // namespace voxrig
