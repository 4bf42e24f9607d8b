// bench/baseline/skel_baseline.h — a frozen copy of decode_skel as it was before issue 15's fast
// path (field-by-field Result reads), the in-run baseline of SKEL/decode (docs/performance.md).
// Same contract as voxrig::decode_skel (vfp.h); not part of the library.
#pragma once

#include <cstdint>
#include <span>

#include "voxrig/limits.h"
#include "voxrig/result.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_model.h"

namespace voxrig::bench_baseline {

/// decode_skel before issue 15 (see voxrig/vfp.h for the contract).
Result<Skel> decode_skel_baseline(std::span<const uint8_t> payload, uint64_t base,
                                  const RigContext& ctx, const Limits& limits);

}  // namespace voxrig::bench_baseline
