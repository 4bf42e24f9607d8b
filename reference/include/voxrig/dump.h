// voxrig/dump.h — the canonical JSON dump: the oracle for golden files and third-party readers.
//
// Deterministic (same model, same bytes), complete (different content, different dump) and
// language-neutral; the schema is docs/spec/dump.md. Every dump starts with
// {"schema": "voxrig-dump/2", "format": "<vfp|rkc|kv6|rvc|kfa>", ...}.
#pragma once

#include <cstdint>
#include <string>

#include "voxrig/profile.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// The output bound every canonical dump keeps (docs/spec/dump.md "Size bound"): for any input
/// within the default Limits, dump bytes <= kDumpBoundBase + kDumpBoundPerByte * input bytes,
/// whatever counts the input declares. Checked by the dump_bound property and every fuzz target.
inline constexpr uint64_t kDumpBoundBase = uint64_t{1} << 20;
inline constexpr uint64_t kDumpBoundPerByte = 64;

/// kDumpBoundBase + kDumpBoundPerByte * input_size (saturating). Never fails, no allocation.
constexpr uint64_t dump_bound(uint64_t input_size) {
  return input_size > (UINT64_MAX - kDumpBoundBase) / kDumpBoundPerByte
             ? UINT64_MAX
             : kDumpBoundBase + kDumpBoundPerByte * input_size;
}

/// The dump of a decoded VFP file. Under vfp-static rig sections are opaque (as decoded).
std::string dump_vfp(const VfpFile& file);

}  // namespace voxrig
