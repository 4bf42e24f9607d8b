// voxrig/vfp_json.h — the JSON compile input (docs/spec/compile.md: the seed's `rig` + the model).
#pragma once

#include <string_view>

#include "voxrig/limits.h"
#include "voxrig/result.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// Compiles the JSON text of docs/spec/compile.md (D16) into a model that encode_vfp writes as
/// a valid file, in the canonical section order (docs/spec/writers.md): VOX0, the cache
/// sections in JSON order, SKEL, VSKN, ANIM (ANIM only with at
/// least one clip; no rig sections without "rig"), then the unknown sections in JSON order, with
/// every hash bound. Safe on any input text: errors are json.* codes whose `path` is a JSON path
/// such as "$.rig.animations[0].tracks[1].keys[2].time_ms" and whose offset is the byte offset in
/// the JSON text where known (0 otherwise).
///
/// Errors (the first failure wins; order: the text, then each object's unknown keys in JSON
/// order, its missing keys, then its fields in schema order, see vfp_json_compile.cpp and
/// vfp_json_rig.cpp):
///   json.syntax         not RFC 8259 JSON (NaN/Infinity, comments, trailing commas, ill-formed
///                       UTF-8, trailing text, a NUL byte after the document); a leading UTF-8
///                       BOM is skipped
///   json.duplicate_key  a key twice in one object (path = the second)
///   json.unknown_key / json.missing_key / json.type (incl. a fixed-length array of the wrong
///                       length, `1.0`/`1e0`/true for an integer, null for parent)
///   json.range          an integer outside its field's range (also an integer literal beyond
///                       the double range, palette index 0 or >= paletteCount in voxels, a palette
///                       of 0 or > 256 entries, a rig without joints, a malformed tag, flags > 1)
///   json.float_overflow a float that rounds to infinity in binary32 (or beyond double)
///   json.bad_name       a name over 255 UTF-8 bytes, or a lone surrogate escape in any string
///   json.version / json.bad_hex / json.voxel_range / json.voxel_conflict / json.duplicate_id
///   json.parent_missing / json.parent_cycle / json.non_unit_rotation / json.binding_empty_voxel
///   json.binding_conflict / json.joint_missing / json.key_time_order / json.key_time_range
///   json.no_keys / json.reserved_tag / json.unknown_required
///   json.limit          over a Limits field (voxels, joints, clips, keys per track or in total,
///                       sections, JSON values: counted while parsing), nesting deeper than 64,
///                       a text of 4 GiB or more
///   limit.output        the grid alone makes a VFP over limits.output_bytes (checked before
///                       the grid is allocated)
///   internal.out_of_memory  an allocation failed
/// Allocates about 32 bytes per JSON value (at most limits.json_values of them) plus the model;
/// the voxel grid only after the size product passed limits.vox0_voxels and
/// limits.output_bytes. Never throws.
Result<VfpFile> compile_vfp_json(std::string_view json_text, const Limits& limits);

}  // namespace voxrig
