// RVC framing, inflation, META / FRMS / TIME parse and the as-stored writer (docs/spec/rvc.md).
//
// File (docs/spec/rvc.md#file-framing), little-endian:
// | off | size | type   | field                                                     |
// |-----|------|--------|-----------------------------------------------------------|
// | 0   | 4    | bytes  | magic "RVCL"                                              |
// | 4   | 2    | u16    | version: 2, or 1 (legacy)                                 |
// | 6   | ...  | chunks | until EOF                                                 |
// Chunk v2: tag[4], flags u8, len u32, payload[len]. Chunk v1: tag[4], len u32, payload[len].
// flags bit 0 = deflated: payload = raw_len u32 + raw DEFLATE stream (len counts the 4 bytes).
//
// META (docs/spec/rvc.md#meta, 37 bytes; more is ignored):
// | 0 dims 3xu32 | 12 pivot 3xf32 | 24 voxel_world_size f32 | 28 loop_mode u8 |
// | 29 default_frame_ms u32 | 33 frame_count u32 |
// FRMS (docs/spec/rvc.md#frms): frame_count x { kind u8; Key(0): occupancy, color_offsets, colors, each
//   u32 count + u32s; Delta(1): changed u32, changed x { col u32, owpc u32 words, count u32,
//   count u32 colours } }. Bytes after the frames are ignored.
// TIME (docs/spec/rvc.md#time): frame_count u32 milliseconds; extra bytes ignored.
//
// Order of checks (the seed's): magic, version, chunk scan in file order (each chunk inflated as
// it is met, under the per-chunk cap and the file's budget), then missing META, missing FRMS,
// then the last META, the last FRMS (its frame table charged to the budget first), the last
// TIME (likewise); under rkc-strict, frame validation last (D8). The budget
// (Limits::rvc_inflated_total, detail::RvcBudget) is one per file: an RKCH's clips share it.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <new>
#include <optional>
#include <string>

#include "rkc/rvc_internal.h"
#include "voxrig/byte_reader.h"
#include "voxrig/byte_writer.h"
#include "voxrig/rvc.h"

namespace voxrig {

namespace {

constexpr std::array<char, 4> kTagMeta{'M', 'E', 'T', 'A'};
constexpr std::array<char, 4> kTagFrms{'F', 'R', 'M', 'S'};
constexpr std::array<char, 4> kTagTime{'T', 'I', 'M', 'E'};
constexpr size_t kMetaSize = 37;

std::string tag_text(const std::array<char, 4>& tag) {
  std::string s;
  for (char c : tag) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) {
      s += c;
    } else {
      static const char* kHex = "0123456789abcdef";
      s += "\\x";
      s += kHex[u >> 4];
      s += kHex[u & 15];
    }
  }
  return s;
}

// zlib's memory comes from operator new (z_stream.zalloc / zfree, zlib's official hook), so a
// replaced operator new sees it: the OOM sweep counts and fails it (testing/alloc_counter.h).
// A failure is Z_MEM_ERROR, which the callers turn into std::bad_alloc (never rvc.bad_deflate,
// and never a silently raw chunk).
voidpf zlib_alloc(voidpf, uInt items, uInt size) {
  return ::operator new (size_t{items} * size, std::nothrow);
}
void zlib_free(voidpf, voidpf p) { ::operator delete(p); }

z_stream new_z_stream() {
  z_stream z{};
  z.zalloc = zlib_alloc;
  z.zfree = zlib_free;
  return z;
}

// Inflates `stream` (raw DEFLATE) into exactly raw_len bytes. False when the stream is bad, ends
// early, would produce more than raw_len, or produces fewer. Bytes after the final block are
// accepted (the seed's miniz_oxide inflater stops at the end of the stream). std::bad_alloc when
// zlib runs out of memory.
bool inflate_exact(std::span<const uint8_t> stream, uint32_t raw_len, std::vector<uint8_t>& out) {
  out.assign(raw_len, 0);
  z_stream z = new_z_stream();
  const int init = inflateInit2(&z, -15);
  if (init == Z_MEM_ERROR) throw std::bad_alloc();
  if (init != Z_OK) return false;
  uint8_t dummy_in = 0, dummy_out = 0;
  z.next_in = stream.empty() ? &dummy_in : const_cast<Bytef*>(stream.data());
  z.avail_in = static_cast<uInt>(stream.size());
  z.next_out = raw_len == 0 ? &dummy_out : out.data();
  z.avail_out = raw_len;
  const int ret = inflate(&z, Z_FINISH);
  const uint64_t produced = z.total_out;
  inflateEnd(&z);
  if (ret == Z_MEM_ERROR) throw std::bad_alloc();
  return ret == Z_STREAM_END && produced == raw_len;
}

// Rewrites an error raised by a reader over an inflated payload (base 0) into file terms (D12).
Error inflated_error(Error e, uint64_t payload_offset, bool deflated) {
  if (deflated) {
    e.path += "@inflated+" + std::to_string(e.offset);
    e.offset = payload_offset;
  } else {
    e.offset += payload_offset;
  }
  return e;
}

struct ChunkRef {
  size_t index;
  uint64_t payload_offset;
};

Result<RvcMeta> parse_meta(ByteReader& r, const Limits& limits) {
  const Path p("META");
  RvcMeta m;
  for (int i = 0; i < 3; ++i) {
    const uint64_t at = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(m.dims[i], r.u32(p.child("dims", i)));
    // QE.6b: checked at parse, per axis as each is read (D9, D13 byte order).
    if (m.dims[i] == 0)
      return error_at(ErrorCode::RvcZeroDims, at, p.child("dims", i), "dimension is 0");
    if (m.dims[i] > limits.rvc_dim)
      return error_at(
          ErrorCode::RvcLimitDims, at, p.child("dims", i),
          std::to_string(m.dims[i]) + " exceeds limit " + std::to_string(limits.rvc_dim));
  }
  for (int i = 0; i < 3; ++i) {
    VOXRIG_ASSIGN_OR_RETURN(m.pivot[i], r.f32(p.child("pivot", i)));
  }
  VOXRIG_ASSIGN_OR_RETURN(m.voxel_world_size, r.f32(p.child("voxel_world_size")));
  const uint64_t mode_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t mode, r.u8(p.child("loop_mode")));
  if (mode > 2)
    return error_at(ErrorCode::RvcBadLoopMode, mode_at, p.child("loop_mode"),
                    "loop mode " + std::to_string(mode));
  m.loop_mode = static_cast<RvcLoopMode>(mode);
  VOXRIG_ASSIGN_OR_RETURN(m.default_frame_ms, r.u32(p.child("default_frame_ms")));
  const uint64_t count_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(m.frame_count, r.u32(p.child("frame_count")));
  if (m.frame_count > limits.rvc_frames)
    return error_at(
        ErrorCode::RvcLimitFrames, count_at, p.child("frame_count"),
        std::to_string(m.frame_count) + " exceeds limit " + std::to_string(limits.rvc_frames));
  return m;
}

// FRMS is the hot loop (a million 5-byte frames is a legal file), so it reads with the
// non-failing primitives and renders a Path only when an error is made. Each frame is scanned
// once for its lengths (every truncation found before anything is allocated for it), then its
// values are copied into RvcFrames' flat buffer.
struct FrmsReader {
  ByteReader& r;
  size_t frame = 0;
  int64_t column = -1;

  Error truncated(const char* field) const {
    Path p = Path("FRMS").child("frame", static_cast<int64_t>(frame));
    if (column >= 0) p = p.child("column", column);
    return r.fail(ErrorCode::RvcTruncated, p.child(field), "short read");
  }
  Status u32(uint32_t& v, const char* field) {
    if (!r.try_u32(v)) return truncated(field);
    return {};
  }
  // Skips `count` u32s (rvc.truncated when fewer remain, as in the seed).
  Status skip_u32s(uint64_t count, const char* field) {
    std::span<const uint8_t> bytes;
    if (count > r.remaining() / 4 || !r.try_bytes(static_cast<size_t>(count) * 4, bytes))
      return truncated(field);
    return {};
  }
  // A u32 count and that many u32s: returns the count and where the values start.
  Status counted(uint32_t& n, const uint8_t*& at, const char* field) {
    VOXRIG_TRY(u32(n, field));
    at = r.data().data() + r.pos();
    return skip_u32s(n, field);
  }
};

uint32_t* load_u32s(uint32_t* out, const uint8_t* in, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = load_u32(in + 4 * i);
  return out + n;
}

// Over the file's RVC budget (detail::RvcBudget): the error of `what` at `offset` / `path`.
Error over_budget(uint64_t offset, const Path& path, const std::string& what, uint64_t bytes,
                  const Limits& limits) {
  return error_at(ErrorCode::RvcLimitInflatedTotal, offset, path,
                  what + ": " + std::to_string(bytes) + " more bytes would exceed the file's " +
                      std::to_string(limits.rvc_inflated_total) +
                      " bytes of inflated and decoded RVC data");
}

// The frame table parse_frms reserves for `frame_count` frames in `bytes` FRMS bytes (clamped,
// never an error of its own, D13): a frame takes at least 5 bytes, and RvcFrames holds a stored
// byte's u32 in 4 bytes plus at most 12 bytes of lengths per frame beyond the stored counts, so
// this is exactly enough and nothing grows.
struct FrameTable {
  uint64_t frames, words;
  uint64_t bytes() const { return 8 * frames + 4 * words; }  // index + buffer
};
FrameTable frame_table(uint32_t frame_count, uint64_t bytes) {
  const uint64_t frames = std::min<uint64_t>(frame_count, bytes / 5);
  return {frames, bytes / 4 + 3 * frames};
}

Status parse_frms(ByteReader& r, RvcClip& clip) {
  const uint32_t owpc = rvc_owpc(clip.meta.dims[2]);
  const uint32_t n = clip.meta.frame_count;
  const FrameTable table = frame_table(n, r.remaining());
  clip.frames.reserve(table.frames, table.words);
  FrmsReader fr{r};
  for (uint32_t i = 0; i < n; ++i) {
    fr.frame = i;
    fr.column = -1;
    uint8_t kind = 0;
    if (!r.try_u8(kind)) return fr.truncated("kind");
    if (kind == 0) {
      std::array<uint32_t, 3> len{};
      std::array<const uint8_t*, 3> at{};
      VOXRIG_TRY(fr.counted(len[0], at[0], "occupancy"));
      VOXRIG_TRY(fr.counted(len[1], at[1], "color_offsets"));
      VOXRIG_TRY(fr.counted(len[2], at[2], "colors"));
      uint32_t* out = clip.frames.add_key(len[0], len[1], len[2]);
      for (size_t k = 0; k < 3; ++k) out = load_u32s(out, at[k], len[k]);
    } else if (kind == 1) {
      uint32_t changed = 0;
      VOXRIG_TRY(fr.u32(changed, "changed_count"));
      const size_t start = r.pos();
      uint64_t colors = 0;
      for (uint32_t c = 0; c < changed; ++c) {
        fr.column = c;
        uint32_t col = 0, nc = 0;
        VOXRIG_TRY(fr.u32(col, "col"));
        VOXRIG_TRY(fr.skip_u32s(owpc, "occupancy"));
        VOXRIG_TRY(fr.u32(nc, "colors"));
        VOXRIG_TRY(fr.skip_u32s(nc, "colors"));
        colors += nc;
      }
      // Every listing took at least 8 + 4*owpc stored bytes, so these lengths fit u32.
      uint32_t* cols =
          clip.frames.add_delta(changed, changed * owpc, changed, static_cast<uint32_t>(colors));
      uint32_t* occ = cols + changed;
      uint32_t* counts = occ + uint64_t{changed} * owpc;
      uint32_t* col_out = counts + changed;
      const uint8_t* p = r.data().data() + start;
      for (uint32_t c = 0; c < changed; ++c) {
        cols[c] = load_u32(p);
        occ = load_u32s(occ, p + 4, owpc);
        p += 4 + 4 * size_t{owpc};
        counts[c] = load_u32(p);
        col_out = load_u32s(col_out, p + 4, counts[c]);
        p += 4 + 4 * size_t{counts[c]};
      }
    } else {
      return error_at(ErrorCode::RvcBadFrameKind, r.offset() - 1,
                      Path("FRMS").child("frame", i).child("kind"),
                      "frame kind " + std::to_string(kind));
    }
  }
  return {};
}

Status parse_time(ByteReader& r, RvcClip& clip) {
  clip.has_time = true;
  clip.durations.clear();
  const uint64_t n = clip.meta.frame_count;
  if (n > r.remaining() / 4)
    return r.fail(ErrorCode::RvcTruncated, Path("TIME").child("durations"),
                  std::to_string(n) + " durations need more than " + std::to_string(r.remaining()) +
                      " bytes");
  clip.durations.resize(static_cast<size_t>(n));
  for (auto& d : clip.durations) (void)r.try_u32(d);
  return {};
}

}  // namespace

bool detail::deflate_d4(std::span<const uint8_t> raw, std::vector<uint8_t>& out) {
  if (raw.size() > UINT32_MAX) return false;
  z_stream z = new_z_stream();
  const int init = deflateInit2(&z, 8, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  if (init == Z_MEM_ERROR) throw std::bad_alloc();
  if (init != Z_OK) return false;
  struct End {  // the resize below may throw: the stream is ended on every path
    z_stream& z;
    ~End() { deflateEnd(&z); }
  } end{z};
  out.resize(deflateBound(&z, static_cast<uLong>(raw.size())));
  uint8_t dummy = 0;
  z.next_in = raw.empty() ? &dummy : const_cast<Bytef*>(raw.data());
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const int ret = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  return ret == Z_STREAM_END;
}

uint32_t rvc_owpc(uint32_t dim_z) {
  return std::max<uint32_t>(1, (dim_z >> 5) + ((dim_z & 31) ? 1 : 0));
}

bool RvcChunk::operator==(const RvcChunk& o) const {
  return tag == o.tag && flags == o.flags && stored == o.stored;
}

bool RvcMeta::operator==(const RvcMeta& o) const {
  auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
  for (int i = 0; i < 3; ++i)
    if (dims[i] != o.dims[i] || bits(pivot[i]) != bits(o.pivot[i])) return false;
  return bits(voxel_world_size) == bits(o.voxel_world_size) && loop_mode == o.loop_mode &&
         default_frame_ms == o.default_frame_ms && frame_count == o.frame_count;
}

bool RvcClip::operator==(const RvcClip& o) const {
  return version == o.version && chunks == o.chunks;
}

static Result<RvcClip> decode_rvc_unguarded(std::span<const uint8_t> bytes, uint64_t base_offset,
                                            const DecodeOptions& options,
                                            detail::RvcBudget& budget);

// The public entry point: allocation failure becomes internal.out_of_memory (result.h). A
// standalone clip is a file of its own: it gets the whole budget.
Result<RvcClip> decode_rvc(std::span<const uint8_t> bytes, uint64_t base_offset,
                           const DecodeOptions& options) {
  detail::RvcBudget budget(options.limits.rvc_inflated_total);
  return detail::decode_rvc_budgeted(bytes, base_offset, options, budget);
}

Result<RvcClip> detail::decode_rvc_budgeted(std::span<const uint8_t> bytes, uint64_t base_offset,
                                            const DecodeOptions& options, RvcBudget& budget) {
  return guard_out_of_memory(
      [&] { return decode_rvc_unguarded(bytes, base_offset, options, budget); });
}

static Result<RvcClip> decode_rvc_unguarded(std::span<const uint8_t> bytes, uint64_t base_offset,
                                            const DecodeOptions& options,
                                            detail::RvcBudget& budget) {
  const Limits& limits = options.limits;
  ByteReader r(bytes, base_offset, ErrorCode::RvcTruncated);
  const Path hp("header");
  VOXRIG_ASSIGN_OR_RETURN(auto magic, r.bytes(4, hp.child("magic")));
  if (std::memcmp(magic.data(), "RVCL", 4) != 0)
    return error_at(ErrorCode::RvcBadMagic, base_offset, hp.child("magic"));
  const uint64_t version_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t version, r.u16(hp.child("version")));
  if (version != 1 && version != 2)
    return error_at(ErrorCode::RvcUnsupportedVersion, version_at, hp.child("version"),
                    "version " + std::to_string(version));

  RvcClip clip;
  clip.version = version;
  std::optional<ChunkRef> meta, frms, time;
  while (!r.at_end()) {
    const size_t index = clip.chunks.size();
    const Path cp = Path().child("chunk", static_cast<int64_t>(index));
    RvcChunk chunk;
    VOXRIG_ASSIGN_OR_RETURN(auto tag, r.bytes(4, cp.child("tag")));
    std::memcpy(chunk.tag.data(), tag.data(), 4);
    if (version == 2) {
      VOXRIG_ASSIGN_OR_RETURN(chunk.flags, r.u8(cp.child("flags")));
    }
    VOXRIG_ASSIGN_OR_RETURN(const uint32_t len, r.u32(cp.child("len")));
    const uint64_t payload_offset = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(auto payload, r.bytes(len, cp.child("payload")));
    chunk.stored.assign(payload.begin(), payload.end());
    if (chunk.deflated()) {
      const std::string what = tag_text(chunk.tag);
      if (payload.size() < 4)
        return error_at(ErrorCode::RvcBadDeflate, payload_offset, cp,
                        what + ": deflated payload shorter than raw_len");
      const uint32_t raw_len = load_u32(payload.data());
      if (raw_len > limits.rvc_inflated_per_chunk)
        return error_at(ErrorCode::RvcBadDeflate, payload_offset, cp,
                        what + ": raw_len " + std::to_string(raw_len) + " over the per-chunk cap");
      if (!budget.take(raw_len)) return over_budget(payload_offset, cp, what, raw_len, limits);
      if (!inflate_exact(payload.subspan(4), raw_len, chunk.inflated))
        return error_at(ErrorCode::RvcBadDeflate, payload_offset, cp,
                        what + ": bad deflate stream");
    } else {
      chunk.inflated = chunk.stored;
    }
    if (chunk.tag == kTagMeta)
      meta = ChunkRef{index, payload_offset};
    else if (chunk.tag == kTagFrms)
      frms = ChunkRef{index, payload_offset};
    else if (chunk.tag == kTagTime)
      time = ChunkRef{index, payload_offset};
    clip.chunks.push_back(std::move(chunk));
  }
  const uint64_t end = r.offset();
  if (!meta) return error_at(ErrorCode::RvcMissingMeta, end, Path("META"), "no META chunk");
  if (!frms) return error_at(ErrorCode::RvcMissingFrms, end, Path("FRMS"), "no FRMS chunk");

  {
    const RvcChunk& c = clip.chunks[meta->index];
    ByteReader mr(c.inflated, 0, ErrorCode::RvcTruncated);
    auto m = parse_meta(mr, limits);
    if (!m.ok()) return inflated_error(std::move(m).error(), meta->payload_offset, c.deflated());
    clip.meta = m.value();
    clip.source.meta_offset = meta->payload_offset;
    clip.source.meta_deflated = c.deflated();
  }
  {
    const RvcChunk& c = clip.chunks[frms->index];
    // The frame table is charged to the file's budget first: a file of many clips of 2^20
    // empty frames each would otherwise hold 24 bytes per frame for every clip.
    const FrameTable table = frame_table(clip.meta.frame_count, c.inflated.size());
    if (!budget.take(table.bytes()))
      return over_budget(frms->payload_offset, Path("FRMS"), "frame table", table.bytes(), limits);
    ByteReader fr(c.inflated, 0, ErrorCode::RvcTruncated);
    Status s = parse_frms(fr, clip);
    if (!s.ok()) return inflated_error(std::move(s).error(), frms->payload_offset, c.deflated());
    clip.source.frms_offset = frms->payload_offset;
    clip.source.frms_deflated = c.deflated();
  }
  if (time) {
    const RvcChunk& c = clip.chunks[time->index];
    // The durations, likewise (only when TIME holds them all: else parse_time reports it).
    const uint64_t durations = 4 * uint64_t{clip.meta.frame_count};
    if (durations <= c.inflated.size() && !budget.take(durations))
      return over_budget(time->payload_offset, Path("TIME"), "durations", durations, limits);
    ByteReader tr(c.inflated, 0, ErrorCode::RvcTruncated);
    Status s = parse_time(tr, clip);
    if (!s.ok()) return inflated_error(std::move(s).error(), time->payload_offset, c.deflated());
  }
  if (options.profile == Profile::RkcStrict) VOXRIG_TRY(validate_rvc_frames(clip, limits));
  return clip;
}

static Result<std::vector<uint8_t>> encode_rvc_unguarded(const RvcClip& clip) {
  if (clip.version != 1 && clip.version != 2)
    return error_at(ErrorCode::RvcUnsupportedVersion, 4, Path("header").child("version"),
                    "cannot write version " + std::to_string(clip.version));
  uint64_t total = 6;
  for (size_t i = 0; i < clip.chunks.size(); ++i) {
    const RvcChunk& c = clip.chunks[i];
    if (c.stored.size() > UINT32_MAX)
      return error_at(ErrorCode::RvcWriteUnrepresentable, 0, Path().child("chunk", int64_t(i)),
                      "payload longer than u32");
    if (clip.version == 1 && c.flags != 0)
      return error_at(ErrorCode::RvcWriteUnrepresentable, 0, Path().child("chunk", int64_t(i)),
                      "a version 1 chunk has no flags byte");
    total += (clip.version == 2 ? 9 : 8) + c.stored.size();
  }
  ByteWriter w;
  w.u32(0x4C435652);  // "RVCL"
  w.u16(clip.version);
  w.reserve(total);
  for (const RvcChunk& c : clip.chunks) {
    w.bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(c.tag.data()), 4));
    if (clip.version == 2) w.u8(c.flags);
    w.u32(static_cast<uint32_t>(c.stored.size()));
    w.bytes(c.stored);
  }
  return w.take();
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<std::vector<uint8_t>> encode_rvc(const RvcClip& clip) {
  return guard_out_of_memory([&] { return encode_rvc_unguarded(clip); });
}

// ---- building chunks in memory (D3/D4) -----------------------------------------------------

RvcChunk rvc_make_chunk(std::array<char, 4> tag, std::vector<uint8_t> raw) {
  RvcChunk c;
  c.tag = tag;
  std::vector<uint8_t> deflated;
  if (detail::deflate_d4(raw, deflated) && deflated.size() + 4 < raw.size()) {
    ByteWriter w;
    w.reserve(deflated.size() + 4);
    w.u32(static_cast<uint32_t>(raw.size()));
    w.bytes(deflated);
    c.flags = 0x01;
    c.stored = w.take();
    c.inflated = std::move(raw);
  } else {
    c.flags = 0;
    c.stored = raw;
    c.inflated = std::move(raw);
  }
  return c;
}

void rvc_put_chunk(RvcClip& clip, RvcChunk chunk) {
  auto& cs = clip.chunks;
  const std::array<char, 4> tag = chunk.tag;
  auto last = std::find_if(cs.rbegin(), cs.rend(), [&](const RvcChunk& c) { return c.tag == tag; });
  if (last != cs.rend()) {
    *last = std::move(chunk);
    const size_t keep = static_cast<size_t>(cs.rend() - last) - 1;  // index of the replaced one
    size_t out = 0;
    for (size_t i = 0; i < cs.size(); ++i) {
      if (i != keep && cs[i].tag == tag) continue;
      if (out != i) cs[out] = std::move(cs[i]);  // never self-move: that empties a vector
      ++out;
    }
    cs.resize(out);
    return;
  }
  // Absent: insert where the canonical order puts it (META, FRMS, TIME, then the rest).
  auto rank = [](const std::array<char, 4>& t) {
    return t == kTagMeta ? 0 : t == kTagFrms ? 1 : t == kTagTime ? 2 : 3;
  };
  const int r = rank(tag);
  if (r == 3) {
    cs.push_back(std::move(chunk));
    return;
  }
  size_t at = 0;
  for (size_t i = 0; i < cs.size(); ++i)
    if (rank(cs[i].tag) < r) at = i + 1;
  cs.insert(cs.begin() + static_cast<std::ptrdiff_t>(at), std::move(chunk));
}

std::vector<uint8_t> detail::encode_meta(const RvcMeta& m) {
  ByteWriter w;
  w.reserve(kMetaSize);
  for (uint32_t d : m.dims) w.u32(d);
  for (float f : m.pivot) w.f32(f);
  w.f32(m.voxel_world_size);
  w.u8(static_cast<uint8_t>(m.loop_mode));
  w.u32(m.default_frame_ms);
  w.u32(m.frame_count);
  return w.take();
}

Result<std::vector<uint8_t>> detail::encode_frms(const RvcClip& clip) {
  const uint32_t owpc = rvc_owpc(clip.meta.dims[2]);
  ByteWriter w;
  for (size_t i = 0; i < clip.frames.size(); ++i) {
    const Path fp = Path("FRMS").child("frame", static_cast<int64_t>(i));
    if (w.size() > UINT32_MAX)
      return error_at(ErrorCode::RvcWriteUnrepresentable, 0, fp, "FRMS over u32");
    // Array lengths fit u32: RvcFrames holds no longer array.
    auto put = [&](std::span<const uint32_t> v) {
      w.u32(static_cast<uint32_t>(v.size()));
      for (uint32_t x : v) w.u32(x);
    };
    if (clip.frames.is_key(i)) {
      const RvcKeyView key = clip.frames.key(i);
      w.u8(0);
      put(key.occupancy);
      put(key.color_offsets);
      put(key.colors);
    } else {
      const RvcDeltaView d = clip.frames.delta(i);
      uint64_t sum = 0;
      for (uint32_t n : d.color_counts) sum += n;
      if (d.color_counts.size() != d.cols.size() ||
          d.occupancy.size() != d.cols.size() * uint64_t{owpc} || sum != d.colors.size())
        return error_at(ErrorCode::RvcWriteUnrepresentable, 0, fp,
                        "delta arrays disagree with owpc or colour counts");
      w.u8(1);
      w.u32(static_cast<uint32_t>(d.cols.size()));
      size_t ci = 0;
      for (size_t c = 0; c < d.cols.size(); ++c) {
        w.u32(d.cols[c]);
        for (uint32_t k = 0; k < owpc; ++k) w.u32(d.occupancy[c * owpc + k]);
        w.u32(d.color_counts[c]);
        for (uint32_t k = 0; k < d.color_counts[c]; ++k) w.u32(d.colors[ci++]);
      }
    }
  }
  if (w.size() > UINT32_MAX)
    return error_at(ErrorCode::RvcWriteUnrepresentable, 0, Path("FRMS"), "FRMS over u32");
  return w.take();
}

Status rvc_update_meta(RvcClip& clip) {
  RvcChunk c = rvc_make_chunk(kTagMeta, detail::encode_meta(clip.meta));
  clip.source.meta_offset = 0;
  clip.source.meta_deflated = c.deflated();
  rvc_put_chunk(clip, std::move(c));
  return {};
}

Status rvc_update_frames(RvcClip& clip) {
  if (clip.frames.size() > UINT32_MAX)
    return error_at(ErrorCode::RvcWriteUnrepresentable, 0, Path("FRMS"), "more than u32 frames");
  VOXRIG_ASSIGN_OR_RETURN(auto raw, detail::encode_frms(clip));
  RvcChunk c = rvc_make_chunk(kTagFrms, std::move(raw));
  clip.source.frms_offset = 0;
  clip.source.frms_deflated = c.deflated();
  rvc_put_chunk(clip, std::move(c));
  const auto n = static_cast<uint32_t>(clip.frames.size());
  if (clip.meta.frame_count != n) {
    clip.meta.frame_count = n;
    VOXRIG_TRY(rvc_update_meta(clip));
  }
  return {};
}

Status rvc_update_time(RvcClip& clip) {
  if (!clip.has_time && clip.durations.empty()) {
    std::erase_if(clip.chunks, [](const RvcChunk& c) { return c.tag == kTagTime; });
    return {};
  }
  ByteWriter w;
  w.reserve(clip.durations.size() * 4);
  for (uint32_t d : clip.durations) w.u32(d);
  clip.has_time = true;
  rvc_put_chunk(clip, rvc_make_chunk(kTagTime, w.take()));
  return {};
}

}  // namespace voxrig
