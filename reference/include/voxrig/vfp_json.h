// voxrig/vfp_json.h — the JSON compile input (the seed's `rig` object + formats.md's model fields).
#pragma once

#include <string_view>

#include "voxrig/limits.h"
#include "voxrig/result.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// Compiles the JSON text of formats.md "JSON compile input" (fine print 8, 9 and D16) into a
/// model that encode_vfp writes as a valid file: sections VOX0, the extra sections in JSON order,
/// then SKEL, VSKN, ANIM (ANIM only with at least one clip; no rig sections without "rig"), with
/// every hash bound. Safe on any input text: errors are json.* codes whose `path` is a JSON path
/// such as "$.rig.animations[0].tracks[1].keys[2].time_ms" and whose offset is the byte offset in
/// the JSON text where known (0 otherwise).
Result<VfpFile> compile_vfp_json(std::string_view json_text, const Limits& limits);

}  // namespace voxrig
