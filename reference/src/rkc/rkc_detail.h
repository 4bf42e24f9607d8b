// Internals shared by the RKCH-family codecs (RKCH, KV6, KFA): fixed-size records, bounded
// table reads, the warning sink and dump helpers. Not installed.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "voxrig/byte_reader.h"
#include "voxrig/byte_writer.h"
#include "voxrig/decode_options.h"
#include "voxrig/error.h"
#include "voxrig/json_out.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/path.h"
#include "voxrig/result.h"
#include "voxrig/rkc_model.h"
#include "voxrig/wire/rkch.h"

namespace voxrig::detail {

// The record sizes of voxrig/wire/rkch.h under the names the RKCH-family codecs use.
inline constexpr size_t kHingeSize = wire::rkch::hinge::kSize;
inline constexpr size_t kBoneXformSize = wire::rkch::xform::kSize;
inline constexpr size_t kAttachmentSize = wire::rkch::attachment::kSize;
inline constexpr size_t kSeqSize = wire::rkch::seq::kSize;

/// Everything but rkc-compat gets the strict rules (D7: the rkc-* profiles are the real choice;
/// a VFP profile passed by mistake must not weaken anything).
inline bool is_strict(const DecodeOptions& o) { return o.profile != Profile::RkcCompat; }

/// Where a decoder puts warnings; a null sink (decode_*) drops them without allocating.
/// A sink may carry a path prefix naming the blob being decoded ("MSHS/mesh[1]", D12).
class WarningSink {
 public:
  WarningSink() = default;
  explicit WarningSink(std::vector<Warning>* out, std::string prefix = {})
      : out_(out), prefix_(std::move(prefix)) {}
  bool enabled() const { return out_ != nullptr; }
  /// A sink writing to the same list with `prefix` prepended to every path (only call when
  /// enabled(), so the decode path never builds the string).
  WarningSink nested(const std::string& prefix) const {
    return WarningSink(out_, prefix_.empty() ? prefix : prefix_ + "/" + prefix);
  }
  void add(WarningCode code, uint64_t offset, const Path& path, std::string detail) {
    if (out_) add_rendered(code, offset, path.str(), std::move(detail));
  }
  void add_rendered(WarningCode code, uint64_t offset, const std::string& path,
                    std::string detail) {
    if (!out_) return;
    std::string full = prefix_;
    if (!path.empty()) full = full.empty() ? path : full + "/" + path;
    out_->push_back(Warning{code, offset, std::move(full), std::move(detail)});
  }

 private:
  std::vector<Warning>* out_ = nullptr;
  std::string prefix_;
};

/// The validate_* entry points: runs `decode(sink)` with a sink collecting the warnings and
/// returns them, or decode's error.
template <class Decode>
Result<std::vector<Warning>> collect_warnings(Decode&& decode) {
  std::vector<Warning> warnings;
  WarningSink sink(&warnings);
  VOXRIG_TRY(decode(sink));
  return warnings;
}

/// How many elements to reserve for a declared count whose records take at least `min_elem`
/// bytes each: never more than the bytes that remain could hold (QE.6b's clamp), and never a
/// division by zero (hazard H5). Reserving is an optimisation only; it never reports an error.
inline size_t clamp_reserve(uint64_t count, size_t min_elem, size_t remaining) {
  if (min_elem == 0) return 0;
  const uint64_t fit = remaining / min_elem;
  return static_cast<size_t>(count < fit ? count : fit);
}

/// Reads a table of `count` records of `elem` bytes in one bounds check. When it is short, the
/// error is the reader's truncation code at the first incomplete record — the same code and
/// record the seed's element-by-element loop stops at — with path `p/<elem_name>[i]`.
/// `elem` 0 or `count` 0 gives an empty span (no loop, hazards H2/H3).
inline Result<std::span<const uint8_t>> read_table(ByteReader& r, uint64_t count, size_t elem,
                                                   const Path& p, const char* elem_name) {
  if (count == 0 || elem == 0) return std::span<const uint8_t>{};
  const uint64_t whole = r.remaining() / elem;
  if (count > whole) {
    return error_at(r.truncated_code(), r.offset() + whole * elem,
                    p.child(elem_name, static_cast<int64_t>(whole)),
                    "table of " + std::to_string(count) + " x " + std::to_string(elem) +
                        " byte(s) needs more than the " + std::to_string(r.remaining()) +
                        " remaining");
  }
  return r.bytes(static_cast<size_t>(count * elem), p);
}

// ---- fixed-size records (little-endian, pre-checked pointers) ----
/// `n` binary32 from p into out.
inline void load_floats(const uint8_t* p, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = load_f32(p + 4 * i);
}
/// The BoneXform record at p (wire/rkch.h xform) into x, field by field in place: both decoders
/// inline it, and writing into an element already in place spares a 40-byte struct copy per
/// record, which GCC may emit as a `rep movs` with a start-up cost larger than the record's.
inline void load_bone_xform_into(BoneXform& x, const uint8_t* p) {
  namespace f = wire::rkch::xform;
  load_floats(p + f::kTAt, x.t.data(), 3);
  load_floats(p + f::kRAt, x.r.data(), 4);
  load_floats(p + f::kSAt, x.s.data(), 3);
}
/// The Hinge record at p (wire/rkch.h hinge) into h, in place (as load_bone_xform_into).
inline void load_hinge_into(Hinge& h, const uint8_t* p) {
  namespace f = wire::rkch::hinge;
  h.parent = static_cast<int32_t>(load_u32(p + f::kParentAt));
  load_floats(p + f::kP0At, h.p[0].data(), 3);
  load_floats(p + f::kP1At, h.p[1].data(), 3);
  load_floats(p + f::kV0At, h.v[0].data(), 3);
  load_floats(p + f::kV1At, h.v[1].data(), 3);
  h.vmin = static_cast<int16_t>(load_u16(p + f::kVminAt));
  h.vmax = static_cast<int16_t>(load_u16(p + f::kVmaxAt));
  h.htype = p[f::kHtypeAt];
  std::memcpy(h.filler.data(), p + f::kFillerAt, f::kFillerSize);
}
BoneXform load_bone_xform(const uint8_t* p);
Hinge load_hinge(const uint8_t* p);
void write_bone_xform(ByteWriter& w, const BoneXform& x);
void write_hinge(ByteWriter& w, const Hinge& h);

/// KV6 decode with a warning sink (decode_kv6 passes a null sink; validate_* a real one).
Result<Kv6> decode_kv6_impl(std::span<const uint8_t> bytes, uint64_t base,
                            const DecodeOptions& options, WarningSink& sink);

/// The success path of decode_kv6_impl with a null sink, without Results or Paths: true and
/// `out` set exactly as decode_kv6_impl would set it, or false whenever decode_kv6_impl would
/// fail or warn about the run tables (the caller then runs decode_kv6_impl, which reports).
/// Safe on untrusted input (every table is checked against the bytes before it is sized).
bool decode_kv6_fast(std::span<const uint8_t> bytes, const DecodeOptions& options, Kv6& out);

// ---- RKCH internals (rkc_container.cpp, rkc_chunks.cpp, rkc_validate.cpp) ----

/// One chunk as found by the scan: where its header and payload sit in the file.
struct ChunkRef {
  uint64_t header_at = 0;
  uint64_t payload_at = 0;
  std::span<const uint8_t> payload;
};

/// File offsets remembered while decoding BONS, for the QE.6b errors raised after all payloads
/// are decoded: one entry per attachment (its index field, flat in file order) and per bone
/// (its hinge).
struct CrossRefOffsets {
  std::vector<uint64_t> attachment_index_at;
  std::vector<uint64_t> hinge_at;
};

Status decode_meta(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out);
Status decode_mshs(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out);
Status decode_bons(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out, CrossRefOffsets& refs);
Status decode_clps(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out);
Status decode_vclp(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out);
/// decode_rkc's success path (rkc_fast.cpp): one pass over the bytes without Results, Paths or
/// offset bookkeeping. Returns true with `out` equal to what decode_rkc_impl (null sink) returns,
/// or false — `out` then holds partial data to discard — whenever decode_rkc_impl would fail or
/// would take a path the fast one does not (ill-formed UTF-8 names, rkc-compat run-table
/// repairs); the caller then runs decode_rkc_impl, which produces the error (code, offset,
/// path) or the repaired character. Safe on untrusted input: the same limits, and every count
/// is checked against the bytes left before anything is reserved.
bool decode_rkc_fast(std::span<const uint8_t> bytes, const DecodeOptions& options, Character& out);

/// QE.6b (docs/spec/rkch.md#what-is-not-validated): per bone in order its attachment indices then its parent range; then cycles.
Status check_cross_references(const Character& c, const CrossRefOffsets& refs);

/// Payload writers of the canonical writer (rkc_chunks.cpp).
Status write_meta(ByteWriter& w, const Character& c);
Status write_mshs(ByteWriter& w, const Character& c);
Status write_bons(ByteWriter& w, const Character& c);
Status write_clps(ByteWriter& w, const Character& c);
Status write_vclp(ByteWriter& w, const Character& c);

// ---- dump pieces shared by the RKCH, KV6 and KFA dumps (docs/spec/dump.md, "RKCH family") ----
void dump_kv6_fields(JsonOut& out, const Kv6& kv6);
void dump_hinge(JsonOut& out, const Hinge& h);
void dump_bone_xform(JsonOut& out, const BoneXform& x);
void dump_seq(JsonOut& out, std::span<const Seq> seq);

}  // namespace voxrig::detail
