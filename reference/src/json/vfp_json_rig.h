// vfp_json_rig.h (internal) — the `rig` object of the VFP compile input.
#pragma once

#include "json/json_schema.h"
#include "voxrig/limits.h"
#include "voxrig/result.h"
#include "voxrig/vfp_model.h"

namespace voxrig::detail {

/// The rig sections compiled from JSON (hashes not yet bound).
struct CompiledRig {
  Skel skel;
  Vskn vskn;
  Anim anim;  ///< written only when it has at least one clip
};

/// Compiles `$.rig` against the already compiled VOX0 (bindings need to know which voxels are
/// empty). Errors: json.* codes with the JSON path of the offending value (see vfp_json.h).
Result<CompiledRig> compile_rig(const JsonSchemaReader& r, const JsonNode& rig,
                                const JsonPath& path, const Vox0& vox0, const Limits& limits);

}  // namespace voxrig::detail
