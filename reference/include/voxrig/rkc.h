// voxrig/rkc.h — decode, encode, validate and dump the RKCH v3 rigged-character container
// (docs/spec/rkch.md; the differences from the seed implementation are
// docs/spec/rkch.md#where-the-reference-differs-from-the-seed-implementation).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "voxrig/decode_options.h"
#include "voxrig/error.h"
#include "voxrig/result.h"
#include "voxrig/rkc_model.h"

namespace voxrig {

/// Decodes a whole .rkc file in the seed's order (docs/spec/rkch.md#decoding-order), first failure wins:
///  1. size < 4 -> rkc.truncated; magic -> rkc.bad_magic;
///  2. version short -> rkc.truncated; version != 3 -> rkc.unsupported_version;
///  3. chunk scan to EOF: a partial tag / len / payload -> rkc.truncated;
///  4. META/MSHS/BONS/CLPS/VCLP: the last copy wins, earlier ones are never decoded; any other
///     tag is kept in extra_chunks;
///  5. missing META, then MSHS, then BONS -> rkc.missing_chunk.{meta,mshs,bons};
///  6. payloads in the order META, MSHS, BONS, CLPS, VCLP. Codes: rkc.truncated,
///     rkc.unsupported_mesh_kind (right after the attachment's index is read),
///     rkc.clip_bone_count (right after numhin), rkc.bad_utf8 (rkc-strict; rkc-compat repairs),
///     rkc.limit.* (when a count is read, before anything is reserved), and the innermost code of
///     an embedded KV6 / RVC blob with the path "MSHS/mesh[i]/..." / "VCLP/clip[i]/...";
///  7. cross references (QE.6b): for each bone in order, its attachment indices
///     (rkc.attachment_index) then its parent (rkc.parent_range); then cycles (rkc.parent_cycle
///     at the first bone in order whose parent chain never reaches a root).
/// Offsets are absolute file offsets (the seed reports payload-relative ones). Any profile
/// other than rkc-compat applies the rkc-strict rules. Safe on untrusted input: every count is
/// checked against the limits when read and reservations are clamped by the bytes present.
Result<Character> decode_rkc(std::span<const uint8_t> bytes, const DecodeOptions& options);

/// decode_rkc without its success path: the field-by-field decoder that decode_rkc falls back to
/// whenever that path does not accept a file, and the one home of the error order, codes,
/// offsets and paths. Same contract and, on every input, the same result (value or error) as
/// decode_rkc, only slower. It exists so that a test can check that sameness (the property
/// RkcFastPath); a decoder user calls decode_rkc.
Result<Character> decode_rkc_field_by_field(std::span<const uint8_t> bytes,
                                            const DecodeOptions& options);

/// The canonical writer (docs/spec/rkch.md#canonical-writer with the reference's fixes): "RKCH", version 3, exactly META,
/// MSHS, BONS, CLPS, VCLP (empty CLPS/VCLP included), then extra_chunks verbatim in order; every
/// count and length from content; skeletal numhin written as recorded; embedded RVC clips via
/// encode_rvc (byte-for-byte what was parsed). Never panics. Errors:
/// rkc.write.name_too_long (a name over 65535 bytes; path META/name, BONS/bone[i]/name,
/// CLPS/clip[i]/name), rkc.write.frames_not_rectangular (frames.size() != frame_count*numhin),
/// rkc.write.too_large (a count or length above u32), and the KV6 / RVC writer errors with the
/// path of their blob.
Result<std::vector<uint8_t>> encode_rkc(const Character& character);

/// Decodes like decode_rkc and returns the validator's warnings (D14), in file order of
/// discovery: rkc.duplicate_chunk (each dropped earlier copy of a known chunk),
/// rkc.non_canonical_order (once, at the first kept chunk out of canonical order),
/// rkc.trailing_payload (bytes after the last field of META / MSHS / BONS / CLPS / VCLP or of a
/// skeletal body), rkc.repaired_utf8 (rkc-compat), kv6.run_tables (rkc-compat) and
/// kv6.trailing_bytes inside MSHS blobs. Returns the decode error when decoding fails.
Result<std::vector<Warning>> validate_rkc(std::span<const uint8_t> bytes,
                                          const DecodeOptions& options);

/// The canonical dump {"schema": "voxrig-dump/2", "format": "rkc", ...}
/// (docs/spec/dump.md, "RKCH family"). Deterministic and complete. Never fails.
std::string dump_rkc(const Character& character);

}  // namespace voxrig
