// voxrig/dump.h — the canonical JSON dump: the oracle for golden files and third-party readers.
//
// Deterministic (same model, same bytes), complete (different content, different dump) and
// language-neutral; the schema is docs/dump-schema.md. Every dump starts with
// {"schema": "voxrig-dump/1", "format": "<vfp|rkc|kv6|rvc|kfa>", ...}.
#pragma once

#include <string>

#include "voxrig/profile.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// The dump of a decoded VFP file. Under vfp-static rig sections are opaque (as decoded).
std::string dump_vfp(const VfpFile& file);

}  // namespace voxrig
