// bench/baseline/rkc_baseline.h — a frozen copy of decode_rkc (with the KV6 decode, chunk
// decoders, cross-reference checks and UTF-8 check it runs) as it was before issue 15's RKCH
// work (git cd971d1): the in-run baseline of RKCH/decode (docs/performance.md). Same contract as
// voxrig::decode_rkc (rkc.h); not part of the library. VCLP blobs go through the library's
// decode_rvc, which issue 15 does not change.
#pragma once

#include <cstdint>
#include <span>

#include "voxrig/decode_options.h"
#include "voxrig/result.h"
#include "voxrig/rkc_model.h"

namespace voxrig::bench_baseline {

/// decode_rkc before issue 15 (see voxrig/rkc.h for the contract).
Result<Character> decode_rkc_baseline(std::span<const uint8_t> bytes, const DecodeOptions& options);

}  // namespace voxrig::bench_baseline
