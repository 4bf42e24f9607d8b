// voxrig/testing/deflate.h — raw DEFLATE made with zlib directly, for tests and generators that
// build compressed RVC chunks by hand (independent of the codec's own rvc deflate path).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace voxrig::testing {

/// zlib's Z_DEFAULT_STRATEGY (callers pass Z_RLE, Z_FIXED, ... from <zlib.h> for the others).
inline constexpr int kDefaultDeflateStrategy = 0;

/// Raw DEFLATE (no zlib/gzip wrapper, windowBits -15, memLevel 8) of `raw` at `level`
/// (0 = stored blocks, 1-9, -1 = zlib's default) with `strategy`. Returns the whole stream;
/// allocates it. The bytes are zlib's for these parameters, so a test must not pin them.
std::vector<uint8_t> raw_deflate(std::span<const uint8_t> raw, int level = 8,
                                 int strategy = kDefaultDeflateStrategy);

}  // namespace voxrig::testing
