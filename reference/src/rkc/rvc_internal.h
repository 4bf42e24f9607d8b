// Internals shared by the RVC source files (not installed, not public API).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/result.h"
#include "voxrig/rvc.h"

namespace voxrig::detail {

/// Raw DEFLATE per docs/spec/rvc.md#D4: zlib, windowBits -15, memLevel 8, level 8,
/// Z_DEFAULT_STRATEGY, one deflate(Z_FINISH) call. False for a payload over u32 (or a zlib
/// failure other than memory); std::bad_alloc when zlib runs out of memory.
bool deflate_d4(std::span<const uint8_t> raw, std::vector<uint8_t>& out);

/// The 37-byte META payload of `meta`.
std::vector<uint8_t> encode_meta(const RvcMeta& meta);

/// The FRMS payload of clip.frames (owpc from clip.meta.dims; frame i starts at
/// clip.frames.stored_offset(i)). Error rvc.write.unrepresentable for delta arrays that disagree.
Result<std::vector<uint8_t>> encode_frms(const RvcClip& clip);

}  // namespace voxrig::detail
