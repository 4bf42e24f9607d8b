// Internals shared by the RVC source files (not installed, not public API).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/result.h"
#include "voxrig/rvc.h"

namespace voxrig::detail {

/// The RVC decoding budget of one file, Limits::rvc_inflated_total bytes: every inflated payload
/// and every parsed frame table (RvcFrames' reservation) and TIME table of every RVC clip the
/// file holds — a standalone RVC, or all the VCLP clips of an RKCH — are charged to it, so a
/// file's decoded RVC bytes stay within the limit however many clips share it.
class RvcBudget {
 public:
  explicit RvcBudget(uint64_t limit) : left_(limit) {}
  /// Charges `n` bytes; false, with nothing charged, when fewer than `n` are left.
  bool take(uint64_t n) {
    if (n > left_) return false;
    left_ -= n;
    return true;
  }
  uint64_t left() const { return left_; }

 private:
  uint64_t left_;
};

/// decode_rvc charging `budget` (shared by the clips of one file) instead of a budget of its
/// own. Same errors (rvc.limit.inflated_total when the budget runs out), same guard: allocation
/// failure is internal.out_of_memory.
Result<RvcClip> decode_rvc_budgeted(std::span<const uint8_t> bytes, uint64_t base_offset,
                                    const DecodeOptions& options, RvcBudget& budget);

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
