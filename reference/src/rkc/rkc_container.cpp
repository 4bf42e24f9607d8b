// RKCH v3 container framing (docs/spec/rkch.md#header, docs/spec/rkch.md#canonical-writer): chunk scan, dispatch,
// last-known-wins, required-chunk checks, payload decode order, and the canonical writer. The
// magic, version and known tags are voxrig/wire/rkch.h's.
//
// | Offset | Size | Type   | Field                                            |
// |--------|------|--------|--------------------------------------------------|
// | 0      | 4    | bytes  | magic "RKCH" (52 4B 43 48)                       |
// | 4      | 2    | u16    | version, must be 3                               |
// | 6      | ...  | chunks | until EOF; no count, no terminator               |
// Chunk: tag[4] (exact bytes) | len u32 | payload[len]. No flags, checksum or alignment.
#include <array>
#include <cstring>
#include <string>

#include "rkc/rkc_detail.h"
#include "voxrig/rkc.h"

namespace voxrig {

namespace {

using detail::ChunkRef;

using wire::rkch::kMagic;
using wire::rkch::kVersion;
constexpr size_t kKnown = wire::rkch::kKnownChunks;
// Canonical order; index = rank. Unknown tags rank after all of them.
constexpr const auto& kKnownTags = wire::rkch::kChunkTags;

int known_rank(std::span<const uint8_t> tag) {
  for (size_t i = 0; i < kKnown; ++i)
    if (std::memcmp(tag.data(), kKnownTags[i], 4) == 0) return static_cast<int>(i);
  return static_cast<int>(kKnown);
}

// Warnings about the chunk list (D14): earlier copies of known chunks that are dropped, and the
// first kept chunk that breaks the canonical order META, MSHS, BONS, CLPS, VCLP, unknown...
struct ScanEntry {
  int rank;
  uint64_t header_at;
};
void warn_chunk_list(const std::vector<ScanEntry>& entries,
                     const std::array<std::optional<ChunkRef>, kKnown>& last,
                     detail::WarningSink& sink) {
  int high = 0;
  bool order_reported = false;
  for (size_t i = 0; i < entries.size(); ++i) {
    const ScanEntry& e = entries[i];
    const Path p = Path().child("chunk", static_cast<int64_t>(i));
    if (e.rank < static_cast<int>(kKnown) && last[e.rank]->header_at != e.header_at) {
      sink.add(WarningCode::RkcDuplicateChunk, e.header_at, p,
               std::string(kKnownTags[e.rank]) + " repeated; only the last copy is kept");
      continue;
    }
    if (e.rank < high && !order_reported) {
      sink.add(WarningCode::RkcNonCanonicalOrder, e.header_at, p,
               "chunks are rewritten as META, MSHS, BONS, CLPS, VCLP, then unknown chunks");
      order_reported = true;
    }
    if (e.rank > high) high = e.rank;
  }
}

Result<Character> decode_rkc_impl(std::span<const uint8_t> bytes, const DecodeOptions& options,
                                  detail::WarningSink& sink) {
  const Path root;
  ByteReader r(bytes, 0, ErrorCode::RkcTruncated);
  // docs/spec/rkch.md#decoding-order steps 1-2.
  VOXRIG_ASSIGN_OR_RETURN(auto magic, r.bytes(4, root));
  if (std::memcmp(magic.data(), kMagic.data(), kMagic.size()) != 0)
    return error_at(ErrorCode::RkcBadMagic, 0, root, "expected \"RKCH\"");
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t version, r.u16(root));
  if (version != kVersion)
    return error_at(ErrorCode::RkcUnsupportedVersion, wire::rkch::kVersionAt, root,
                    "version " + std::to_string(version) + ", this reader reads 3");

  // Step 3-4: scan every chunk; keep the last copy of each known tag (earlier ones are never
  // decoded) and every unknown chunk in file order.
  Character c;
  std::array<std::optional<ChunkRef>, kKnown> last;
  std::vector<ScanEntry> entries;  // only filled for validate (the decode path stays lean)
  for (int64_t index = 0; !r.at_end(); ++index) {
    const Path p = Path().child("chunk", index);
    const uint64_t header_at = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(auto tag, r.bytes(4, p));
    VOXRIG_ASSIGN_OR_RETURN(const uint32_t len, r.u32(p));
    const uint64_t payload_at = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(auto payload, r.bytes(len, p));
    const int rank = known_rank(tag);
    if (sink.enabled()) entries.push_back({rank, header_at});
    if (rank < static_cast<int>(kKnown)) {
      last[rank] = ChunkRef{header_at, payload_at, payload};
    } else {
      ExtraChunk extra;
      std::memcpy(extra.tag.data(), tag.data(), 4);
      extra.bytes.assign(payload.begin(), payload.end());
      c.extra_chunks.push_back(std::move(extra));
    }
  }
  if (sink.enabled()) warn_chunk_list(entries, last, sink);

  // Step 5: required chunks before any payload is decoded, in the order META, MSHS, BONS.
  constexpr ErrorCode kMissing[3] = {ErrorCode::RkcMissingMeta, ErrorCode::RkcMissingMshs,
                                     ErrorCode::RkcMissingBons};
  for (size_t i = 0; i < 3; ++i)
    if (!last[i])
      return error_at(kMissing[i], bytes.size(), Path(kKnownTags[i]),
                      std::string("no ") + kKnownTags[i] + " chunk");

  // Step 6: payloads in the order META, MSHS, BONS, CLPS, VCLP; the first failure wins.
  detail::CrossRefOffsets refs;
  VOXRIG_TRY(detail::decode_meta(*last[0], options, sink, c));
  VOXRIG_TRY(detail::decode_mshs(*last[1], options, sink, c));
  VOXRIG_TRY(detail::decode_bons(*last[2], options, sink, c, refs));
  if (last[3]) VOXRIG_TRY(detail::decode_clps(*last[3], options, sink, c));
  if (last[4]) VOXRIG_TRY(detail::decode_vclp(*last[4], options, sink, c));

  // Step 7 (QE.6b).
  VOXRIG_TRY(detail::check_cross_references(c, refs));
  return c;
}

// tag | len (back-patched) | payload from `body`; a payload over u32 is an error.
template <class Body>
Status write_chunk(ByteWriter& w, const char* tag, Body&& body) {
  w.bytes(std::string_view(tag, 4));
  const size_t at = w.begin_length();
  VOXRIG_TRY(body());
  if (w.size() - at - 4 > 0xFFFFFFFFu)
    return error_at(ErrorCode::RkcWriteTooLarge, 0, Path(tag), "chunk payload over u32");
  w.end_length(at);
  return {};
}

}  // namespace

static Result<Character> decode_rkc_unguarded(std::span<const uint8_t> bytes,
                                              const DecodeOptions& options) {
  // The success path first (rkc_fast.cpp); anything it does not accept is decoded again here,
  // field by field, which reports the error (or repairs, under rkc-compat). One named result on
  // every path, built in place, so the compiler returns it without a move: a Character's move
  // and the destruction of the moved-from one cost a small file about as much as a chunk.
  Result<Character> out{std::in_place};
  if (!detail::decode_rkc_fast(bytes, options, out.value())) {
    // The fast path's partial model is freed before the second pass, so a rejected file never
    // holds two decodes at once (it costs what an accepted one does), and an out-of-memory
    // failure strikes where validate_rkc's single pass would.
    out.value() = Character{};
    detail::WarningSink none;
    out = decode_rkc_impl(bytes, options, none);
  }
  return out;
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<Character> decode_rkc(std::span<const uint8_t> bytes, const DecodeOptions& options) {
  return guard_out_of_memory([&] { return decode_rkc_unguarded(bytes, options); });
}

Result<Character> decode_rkc_field_by_field(std::span<const uint8_t> bytes,
                                            const DecodeOptions& options) {
  return guard_out_of_memory([&] {
    detail::WarningSink none;
    return decode_rkc_impl(bytes, options, none);
  });
}

Result<std::vector<Warning>> validate_rkc(std::span<const uint8_t> bytes,
                                          const DecodeOptions& options) {
  return detail::collect_warnings(
      [&](detail::WarningSink& sink) { return decode_rkc_impl(bytes, options, sink); });
}

static Result<std::vector<uint8_t>> encode_rkc_unguarded(const Character& c) {
  ByteWriter w;
  w.bytes(std::span<const uint8_t>(kMagic));
  w.u16(kVersion);
  VOXRIG_TRY(
      write_chunk(w, kKnownTags[wire::rkch::kMeta], [&] { return detail::write_meta(w, c); }));
  VOXRIG_TRY(
      write_chunk(w, kKnownTags[wire::rkch::kMshs], [&] { return detail::write_mshs(w, c); }));
  VOXRIG_TRY(
      write_chunk(w, kKnownTags[wire::rkch::kBons], [&] { return detail::write_bons(w, c); }));
  VOXRIG_TRY(
      write_chunk(w, kKnownTags[wire::rkch::kClps], [&] { return detail::write_clps(w, c); }));
  VOXRIG_TRY(
      write_chunk(w, kKnownTags[wire::rkch::kVclp], [&] { return detail::write_vclp(w, c); }));
  for (const ExtraChunk& e : c.extra_chunks) {
    const std::string tag(e.tag.begin(), e.tag.end());
    VOXRIG_TRY(write_chunk(w, tag.c_str(), [&] {
      w.bytes(e.bytes);
      return Status{};
    }));
  }
  return w.take();
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<std::vector<uint8_t>> encode_rkc(const Character& c) {
  return guard_out_of_memory([&] { return encode_rkc_unguarded(c); });
}

}  // namespace voxrig
