// bench/baseline/rkc_baseline.cpp — see rkc_baseline.h: decode_rkc and everything of
// reference/src/{rkc,core,eval} it ran, copied verbatim from git cd971d1 (before issue 15's
// RKCH work; `detail::` qualifiers dropped, the writers and validate_rkc left out). It always
// runs with the null WarningSink decode_rkc used. The helpers from eval/bone_xform.cpp,
// core/validate.cpp and core/utf8.cpp are copied too, so a later change there cannot speed the
// baseline up.
#include "baseline/rkc_baseline.h"

#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "voxrig/byte_reader.h"
#include "voxrig/error.h"
#include "voxrig/kv6.h"
#include "voxrig/path.h"
#include "voxrig/rvc.h"
#include "voxrig/utf8.h"

namespace voxrig::bench_baseline {
namespace {

// ---- rkc_detail.h ----
inline constexpr size_t kHingeSize = 64;
inline constexpr size_t kBoneXformSize = 40;
inline constexpr size_t kAttachmentSize = 54;
inline constexpr size_t kSeqSize = 8;

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

// ---- eval/bone_xform.cpp ----
std::array<float, 3> load3(const uint8_t* p) {
  return {load_f32(p), load_f32(p + 4), load_f32(p + 8)};
}
// BoneXform (40 B): t.x t.y t.z | r.x r.y r.z r.w | s.x s.y s.z.
BoneXform load_bone_xform(const uint8_t* p) {
  BoneXform x;
  x.t = load3(p);
  x.r = {load_f32(p + 12), load_f32(p + 16), load_f32(p + 20), load_f32(p + 24)};
  x.s = load3(p + 28);
  return x;
}

// Hinge (64 B): parent i32 | p[0] p[1] v[0] v[1] (4 x 3 f32) | vmin i16 | vmax i16 | htype u8 |
// filler 7 B.
Hinge load_hinge(const uint8_t* p) {
  Hinge h;
  h.parent = static_cast<int32_t>(load_u32(p));
  h.p[0] = load3(p + 4);
  h.p[1] = load3(p + 16);
  h.v[0] = load3(p + 28);
  h.v[1] = load3(p + 40);
  h.vmin = static_cast<int16_t>(load_u16(p + 52));
  h.vmax = static_cast<int16_t>(load_u16(p + 54));
  h.htype = p[56];
  for (size_t i = 0; i < 7; ++i) h.filler[i] = p[57 + i];
  return h;
}

// ---- core/validate.cpp ----
std::optional<size_t> first_parent_out_of_range(std::span<const int32_t> parents) {
  const uint64_t n = parents.size();
  for (size_t i = 0; i < parents.size(); ++i) {
    const int32_t parent = parents[i];
    if (parent != -1 && (parent < 0 || static_cast<uint64_t>(parent) >= n)) return i;
  }
  return std::nullopt;
}

std::optional<size_t> first_cycle_start(std::span<const int32_t> parents) {
  // stamp[i] = 1 + the start of the walk that first reached i. Every earlier walk ended at a
  // root (otherwise we returned), so meeting an older stamp means "reaches a root"; meeting the
  // current walk's stamp means the chain loops without ever reaching one.
  std::vector<size_t> stamp(parents.size(), 0);
  for (size_t start = 0; start < parents.size(); ++start) {
    if (stamp[start] != 0) continue;
    const size_t mark = start + 1;
    size_t cur = start;
    stamp[cur] = mark;
    while (parents[cur] >= 0) {
      cur = static_cast<size_t>(parents[cur]);
      if (stamp[cur] == mark) return start;
      if (stamp[cur] != 0) break;
      stamp[cur] = mark;
    }
  }
  return std::nullopt;
}

// ---- core/utf8.cpp ----
// Unicode Table 3-7 for the lead bytes C2..F4: the sequence length each starts and the range its
// second byte must lie in (later bytes are always 80..BF).
struct LeadRow {
  uint8_t first, last;  // lead byte range
  uint8_t len;          // bytes in the sequence
  uint8_t lo, hi;       // range of the second byte
};
constexpr LeadRow kLeadRows[] = {
    {0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF}, {0xE1, 0xEC, 3, 0x80, 0xBF},
    {0xED, 0xED, 3, 0x80, 0x9F}, {0xEE, 0xEF, 3, 0x80, 0xBF}, {0xF0, 0xF0, 4, 0x90, 0xBF},
    {0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F},
};

// Length of the well-formed sequence starting at s[i], or 0 if ill-formed. When ill-formed,
// `consumed` is the length of the maximal subpart to replace with one U+FFFD (at least 1).
size_t sequence_at(std::span<const uint8_t> s, size_t i, size_t& consumed) {
  const uint8_t b0 = s[i];
  const size_t n = s.size() - i;
  if (b0 < 0x80) return consumed = 1;
  const LeadRow* row = nullptr;
  for (const LeadRow& r : kLeadRows)
    if (b0 >= r.first && b0 <= r.last) row = &r;
  if (!row) {  // 80..C1, F5..FF: never a lead byte
    consumed = 1;
    return 0;
  }
  const size_t len = row->len;
  const uint8_t lo = row->lo, hi = row->hi;
  // Second byte has the lead-specific range; later bytes are 80..BF.
  for (size_t k = 1; k < len; ++k) {
    const uint8_t l = (k == 1) ? lo : 0x80, h = (k == 1) ? hi : 0xBF;
    if (k >= n || s[i + k] < l || s[i + k] > h) {
      consumed = k;  // the maximal subpart is the valid prefix seen so far
      return 0;
    }
  }
  return consumed = len;
}

bool is_valid_utf8(std::span<const uint8_t> bytes) {
  size_t i = 0;
  while (i < bytes.size()) {
    if (bytes[i] < 0x80) {
      ++i;
      continue;
    }
    size_t consumed = 0;
    if (sequence_at(bytes, i, consumed) == 0) return false;
    i += consumed;
  }
  return true;
}

// ---- rkc/kv6_codec.cpp ----
constexpr size_t kHeaderSize = 32;
constexpr size_t kVoxelSize = 8;
constexpr size_t kPaletteTrailer = 4 + 768;
constexpr uint8_t kMagic[4] = {'K', 'v', 'x', 'l'};
constexpr uint8_t kPalMagic[4] = {'S', 'P', 'a', 'l'};

// The part of D9 both run tables obey: the entries of `table` (named `name`, at file offset `at`)
// sum to numvoxs; otherwise Kv6RunTables at the table.
template <class T>
std::optional<Error> check_run_sum(const std::vector<T>& table, uint64_t numvoxs, const char* name,
                                   uint64_t at) {
  uint64_t sum = 0;
  for (T v : table) sum += v;
  if (sum == numvoxs) return std::nullopt;
  return error_at(ErrorCode::Kv6RunTables, at, Path().child(name),
                  std::string("sum of ") + name + " " + std::to_string(sum) + " != numvoxs " +
                      std::to_string(numvoxs));
}

// D9's run-table rule, first failure only. Offsets point at the table (or voxel) concerned.
std::optional<Error> check_run_tables(const Kv6& m, uint64_t voxels_at, uint64_t xlen_at,
                                      uint64_t ylen_at) {
  const uint64_t numvoxs = m.voxels.size();
  if (auto e = check_run_sum(m.xlen, numvoxs, "xlen", xlen_at)) return e;
  if (auto e = check_run_sum(m.ylen, numvoxs, "ylen", ylen_at)) return e;
  for (uint64_t x = 0; x < m.xsiz; ++x) {
    uint64_t row = 0;
    for (uint64_t y = 0; y < m.ysiz; ++y) row += m.ylen[x * m.ysiz + y];
    if (row != m.xlen[x])
      return error_at(ErrorCode::Kv6RunTables, ylen_at + 2 * x * m.ysiz,
                      Path().child("xlen", static_cast<int64_t>(x)),
                      "column runs of slice " + std::to_string(x) + " sum to " +
                          std::to_string(row) + ", xlen says " + std::to_string(m.xlen[x]));
  }
  for (size_t i = 0; i < m.voxels.size(); ++i) {
    if (m.voxels[i].z >= m.zsiz)
      return error_at(ErrorCode::Kv6RunTables, voxels_at + kVoxelSize * i + 4,
                      Path().child("voxel", static_cast<int64_t>(i)),
                      "z " + std::to_string(m.voxels[i].z) + " >= zsiz " + std::to_string(m.zsiz));
  }
  return std::nullopt;
}

Result<Kv6> decode_kv6_impl(std::span<const uint8_t> bytes, uint64_t base,
                            const DecodeOptions& options, WarningSink& sink) {
  const Path root;
  // §3.2 step 1: the size check comes before the magic, so a short file with a wrong magic
  // reports too_small (as the seed).
  if (bytes.size() < kHeaderSize)
    return error_at(ErrorCode::Kv6TooSmall, base, root,
                    std::to_string(bytes.size()) + " byte(s), need at least 32");
  if (std::memcmp(bytes.data(), kMagic, 4) != 0)
    return error_at(ErrorCode::Kv6BadMagic, base, root, "expected \"Kvxl\"");

  Kv6 m;
  const uint8_t* h = bytes.data();
  m.xsiz = load_u32(h + 0x04);
  m.ysiz = load_u32(h + 0x08);
  m.zsiz = load_u32(h + 0x0C);
  m.pivot = {load_f32(h + 0x10), load_f32(h + 0x14), load_f32(h + 0x18)};
  const uint32_t numvoxs = load_u32(h + 0x1C);

  const Limits& lim = options.limits;
  const uint64_t columns = uint64_t{m.xsiz} * m.ysiz;  // < 2^64: both factors < 2^32
  if (columns > lim.kv6_columns)
    return error_at(ErrorCode::Kv6LimitColumns, base + 0x04, root,
                    "xsiz*ysiz = " + std::to_string(columns) + " exceeds limit " +
                        std::to_string(lim.kv6_columns));
  if (numvoxs > lim.kv6_voxels)
    return error_at(
        ErrorCode::Kv6LimitVoxels, base + 0x1C, root,
        "numvoxs " + std::to_string(numvoxs) + " exceeds limit " + std::to_string(lim.kv6_voxels));

  ByteReader r(bytes, base, ErrorCode::Kv6Truncated);
  VOXRIG_TRY(r.skip(kHeaderSize, root));

  const uint64_t voxels_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto vox, read_table(r, numvoxs, kVoxelSize, root, "voxel"));
  m.voxels.resize(numvoxs);
  for (size_t i = 0; i < numvoxs; ++i) {
    const uint8_t* p = vox.data() + kVoxelSize * i;
    m.voxels[i] = Kv6Voxel{load_u32(p), load_u16(p + 4), p[6], p[7]};
  }

  const uint64_t xlen_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto xl, read_table(r, m.xsiz, 4, root, "xlen"));
  m.xlen.resize(m.xsiz);
  for (size_t x = 0; x < m.xsiz; ++x) m.xlen[x] = load_u32(xl.data() + 4 * x);

  const uint64_t ylen_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto yl, read_table(r, columns, 2, root, "ylen"));
  m.ylen.resize(columns);
  for (size_t i = 0; i < columns; ++i) m.ylen[i] = load_u16(yl.data() + 2 * i);

  // D9: the run tables are the part of KV6 that consumers index with; under rkc-strict a file
  // whose tables disagree is rejected, under rkc-compat it loads as in the seed (warning).
  if (auto bad = check_run_tables(m, voxels_at, xlen_at, ylen_at)) {
    if (is_strict(options)) return *std::move(bad);
    sink.add_rendered(WarningCode::Kv6RunTables, bad->offset, bad->path, bad->detail);
  }

  // §3.2 step 4: a palette only when a whole trailer is there and starts with "SPal".
  if (r.remaining() >= kPaletteTrailer &&
      std::memcmp(r.data().data() + r.pos(), kPalMagic, 4) == 0) {
    VOXRIG_TRY(r.skip(4, root));
    VOXRIG_ASSIGN_OR_RETURN(auto pal, r.bytes(768, root));
    Kv6Palette palette;
    std::memcpy(palette.data(), pal.data(), 768);
    m.palette = palette;
  }
  // §3.2 step 5: anything else is ignored; the writer drops it.
  if (!r.at_end())
    sink.add(WarningCode::Kv6TrailingBytes, r.offset(), root,
             std::to_string(r.remaining()) + " byte(s) after the tables are dropped on write");
  return m;
}

// ---- rkc/rkc_chunks.cpp ----
constexpr uint64_t kU32Max = 0xFFFFFFFFu;
constexpr size_t kMinBone = 2 + 4 + kHingeSize;  // empty name, no attachments
constexpr size_t kMinClip = 2 + 2 + 4;           // empty name, empty body
constexpr size_t kMinKv6Blob = 4 + 32;           // blob_len + KV6 header
constexpr size_t kMinRvcBlob = 4 + 6;            // blob_len + RVC magic/version

Error over_limit(ErrorCode code, uint64_t at, const Path& p, uint64_t count, uint64_t limit) {
  return error_at(code, at, p,
                  "count " + std::to_string(count) + " exceeds limit " + std::to_string(limit));
}

// A u32 element count, rejected with `code` at the count's own offset when it exceeds `limit`
// (checked before any reserve, so a hostile count never sizes an allocation).
Result<uint32_t> read_count(ByteReader& r, const Path& p, uint64_t limit, ErrorCode code) {
  const uint64_t at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count, r.u32(p));
  if (count > limit) return over_limit(code, at, p, count, limit);
  return count;
}

// A length-prefixed name. rkc-strict rejects ill-formed UTF-8 (rkc.bad_utf8, at the name's
// first byte); rkc-compat repairs it like the seed's from_utf8_lossy (D6) and warns.
Result<std::string> read_name(ByteReader& r, const Path& p, const DecodeOptions& options,
                              WarningSink& sink) {
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t len, r.u16(p));
  const uint64_t at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto raw, r.bytes(len, p));
  if (is_valid_utf8(raw)) return std::string(raw.begin(), raw.end());
  if (is_strict(options)) return error_at(ErrorCode::RkcBadUtf8, at, p, "name is not valid UTF-8");
  std::string fixed = repair_utf8(raw);
  sink.add(WarningCode::RkcRepairedUtf8, at, p,
           std::to_string(raw.size()) + " byte(s) repaired to " + std::to_string(fixed.size()));
  return fixed;
}

void warn_trailing(const ByteReader& r, const Path& p, WarningSink& sink) {
  if (!r.at_end())
    sink.add(WarningCode::RkcTrailingPayload, r.offset(), p,
             std::to_string(r.remaining()) + " byte(s) after the last field are dropped on write");
}

Result<SkeletalClip> decode_skeletal(ByteReader& body, size_t bone_count, const Path& p,
                                     const DecodeOptions& options, WarningSink& sink) {
  const Limits& lim = options.limits;
  SkeletalClip s;
  const uint64_t numfrm_at = body.offset();
  VOXRIG_ASSIGN_OR_RETURN(s.frame_count, body.u32(p));
  const uint64_t numhin_at = body.offset();
  VOXRIG_ASSIGN_OR_RETURN(s.numhin, body.u32(p));
  // The seed checks this right after numhin, before any frame, so it fires for 0 frames too.
  if (s.numhin != bone_count)
    return error_at(
        ErrorCode::RkcClipBoneCount, numhin_at, p,
        "numhin " + std::to_string(s.numhin) + " != " + std::to_string(bone_count) + " bone(s)");
  // Hazard H2: with 0 bones, 4 billion empty rows read nothing; each row counts as one cell.
  const uint64_t cells = uint64_t{s.frame_count} * s.numhin;
  const uint64_t charged = uint64_t{s.frame_count} * (s.numhin == 0 ? 1 : s.numhin);
  if (charged > lim.rkc_frame_cells)
    return error_at(ErrorCode::RkcLimitFrameCells, numfrm_at, p,
                    std::to_string(s.frame_count) + " frame(s) x " + std::to_string(s.numhin) +
                        " bone(s) exceeds limit " + std::to_string(lim.rkc_frame_cells));
  VOXRIG_ASSIGN_OR_RETURN(auto tab, read_table(body, cells, kBoneXformSize, p, "frmval"));
  s.frames.resize(cells);
  for (size_t i = 0; i < cells; ++i) s.frames[i] = load_bone_xform(tab.data() + kBoneXformSize * i);

  VOXRIG_ASSIGN_OR_RETURN(const uint32_t seqcount,
                          read_count(body, p, lim.rkc_seq, ErrorCode::RkcLimitSeq));
  VOXRIG_ASSIGN_OR_RETURN(auto sq, read_table(body, seqcount, kSeqSize, p, "seq"));
  s.seq.resize(seqcount);
  for (size_t i = 0; i < seqcount; ++i) {
    const uint8_t* q = sq.data() + kSeqSize * i;
    s.seq[i] = Seq{static_cast<int32_t>(load_u32(q)), static_cast<int32_t>(load_u32(q + 4))};
  }
  warn_trailing(body, p, sink);
  return s;
}

// MSHS and VCLP: count u32 | count x { blob_len u32 | blob }, each blob decoded by
// decode(blob, absolute offset, path) whose errors are named "<tag>/<elem>[i]/..." (D12).
template <class T, class Decode>
Status decode_blob_list(const ChunkRef& chunk, const char* tag, const char* elem, uint64_t limit,
                        ErrorCode limit_code, size_t min_blob, WarningSink& sink,
                        std::vector<T>& out, Decode&& decode) {
  const Path p(tag);
  ByteReader r(chunk.payload, chunk.payload_at, ErrorCode::RkcTruncated);
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count, read_count(r, p, limit, limit_code));
  out.reserve(clamp_reserve(count, min_blob, r.remaining()));
  for (uint32_t i = 0; i < count; ++i) {
    const Path ep = p.child(elem, i);
    VOXRIG_ASSIGN_OR_RETURN(const uint32_t len, r.u32(ep));
    const uint64_t at = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(auto blob, r.bytes(len, ep));
    auto item = decode(blob, at, ep);
    if (!item.ok()) return item.error().prefixed(ep.str());
    out.push_back(std::move(item).value());
  }
  warn_trailing(r, p, sink);
  return {};
}

Status decode_meta(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out) {
  const Path p("META");
  ByteReader r(chunk.payload, chunk.payload_at, ErrorCode::RkcTruncated);
  VOXRIG_ASSIGN_OR_RETURN(out.name, read_name(r, p.child("name"), options, sink));
  for (float& f : out.root) {
    VOXRIG_ASSIGN_OR_RETURN(f, r.f32(p.child("root")));
  }
  warn_trailing(r, p, sink);
  return {};
}

Status decode_mshs(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out) {
  return decode_blob_list(
      chunk, "MSHS", "mesh", options.limits.rkc_meshes, ErrorCode::RkcLimitMeshes, kMinKv6Blob,
      sink, out.meshes, [&](std::span<const uint8_t> blob, uint64_t at, const Path& mp) {
        WarningSink inner = sink.enabled() ? sink.nested(mp.str()) : WarningSink();
        return decode_kv6_impl(blob, at, options, inner);
      });
}

Status decode_bons(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out, CrossRefOffsets& refs) {
  const Path p("BONS");
  const Limits& lim = options.limits;
  ByteReader r(chunk.payload, chunk.payload_at, ErrorCode::RkcTruncated);
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count,
                          read_count(r, p, lim.rkc_bones, ErrorCode::RkcLimitBones));
  const size_t reserve = clamp_reserve(count, kMinBone, r.remaining());
  out.bones.reserve(reserve);
  refs.hinge_at.reserve(reserve);
  for (uint32_t i = 0; i < count; ++i) {
    const Path bp = p.child("bone", i);
    Bone bone;
    VOXRIG_ASSIGN_OR_RETURN(bone.name, read_name(r, bp.child("name"), options, sink));
    VOXRIG_ASSIGN_OR_RETURN(
        const uint32_t attach_count,
        read_count(r, bp, lim.rkc_attachments_per_bone, ErrorCode::RkcLimitAttachments));
    bone.attachments.reserve(clamp_reserve(attach_count, kAttachmentSize, r.remaining()));
    for (uint32_t j = 0; j < attach_count; ++j) {
      const Path ap = bp.child("attachment", j);
      const uint64_t kind_at = r.offset();
      VOXRIG_ASSIGN_OR_RETURN(const uint16_t kind, r.u16(ap));
      const uint64_t index_at = r.offset();
      Attachment a;
      VOXRIG_ASSIGN_OR_RETURN(a.index, r.u32(ap));
      // The seed checks mesh_kind right after index, before the rest of the record is read.
      if (kind > 1)
        return error_at(ErrorCode::RkcUnsupportedMeshKind, kind_at, ap,
                        "mesh_kind " + std::to_string(kind));
      a.kind = static_cast<AttachmentKind>(kind);
      VOXRIG_ASSIGN_OR_RETURN(auto xf, r.bytes(kBoneXformSize, ap));
      a.local_offset = load_bone_xform(xf.data());
      VOXRIG_ASSIGN_OR_RETURN(a.speed_q8, r.i32(ap));
      VOXRIG_ASSIGN_OR_RETURN(a.start_phase_ms, r.u32(ap));
      bone.attachments.push_back(a);
      refs.attachment_index_at.push_back(index_at);
    }
    const uint64_t hinge_at = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(auto hb, r.bytes(kHingeSize, bp.child("hinge")));
    bone.hinge = load_hinge(hb.data());
    refs.hinge_at.push_back(hinge_at);
    out.bones.push_back(std::move(bone));
  }
  warn_trailing(r, p, sink);
  return {};
}

Status decode_clps(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out) {
  const Path p("CLPS");
  ByteReader r(chunk.payload, chunk.payload_at, ErrorCode::RkcTruncated);
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count,
                          read_count(r, p, options.limits.rkc_clips, ErrorCode::RkcLimitClips));
  out.clips.reserve(clamp_reserve(count, kMinClip, r.remaining()));
  for (uint32_t i = 0; i < count; ++i) {
    const Path cp = p.child("clip", i);
    Clip clip;
    VOXRIG_ASSIGN_OR_RETURN(clip.name, read_name(r, cp.child("name"), options, sink));
    VOXRIG_ASSIGN_OR_RETURN(const uint16_t kind, r.u16(cp));
    VOXRIG_ASSIGN_OR_RETURN(const uint32_t len, r.u32(cp));
    VOXRIG_ASSIGN_OR_RETURN(ByteReader body, r.sub(len, cp));
    if (kind == 0) {
      VOXRIG_ASSIGN_OR_RETURN(clip.data,
                              decode_skeletal(body, out.bones.size(), cp, options, sink));
    } else {
      clip.data = UnknownClip{kind, std::vector<uint8_t>(body.data().begin(), body.data().end())};
    }
    out.clips.push_back(std::move(clip));
  }
  warn_trailing(r, p, sink);
  return {};
}

Status decode_vclp(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out) {
  return decode_blob_list(chunk, "VCLP", "clip", options.limits.rkc_voxel_clips,
                          ErrorCode::RkcLimitVoxelClips, kMinRvcBlob, sink, out.voxel_clips,
                          [&](std::span<const uint8_t> blob, uint64_t at, const Path&) {
                            return decode_rvc(blob, at, options);
                          });
}

// ---- rkc/rkc_validate.cpp ----
Status check_cross_references(const Character& c, const CrossRefOffsets& refs) {
  const uint64_t n = c.bones.size();
  std::vector<int32_t> parents(c.bones.size());
  for (size_t i = 0; i < c.bones.size(); ++i) parents[i] = c.bones[i].hinge.parent;
  // The first bone with a bad parent, reported when the loop reaches it (after its
  // attachments, the order above).
  const std::optional<size_t> bad_parent = first_parent_out_of_range(parents);
  size_t flat = 0;
  for (size_t i = 0; i < c.bones.size(); ++i) {
    const Bone& b = c.bones[i];
    const Path bp = Path("BONS").child("bone", static_cast<int64_t>(i));
    for (size_t j = 0; j < b.attachments.size(); ++j, ++flat) {
      const Attachment& a = b.attachments[j];
      const bool is_static = a.kind == AttachmentKind::Static;
      const uint64_t table = is_static ? c.meshes.size() : c.voxel_clips.size();
      if (a.index >= table)
        return error_at(ErrorCode::RkcAttachmentIndex, refs.attachment_index_at[flat],
                        bp.child("attachment", static_cast<int64_t>(j)),
                        std::string(is_static ? "mesh" : "voxel clip") + " index " +
                            std::to_string(a.index) + " >= " + std::to_string(table));
    }
    if (bad_parent == i)
      return error_at(
          ErrorCode::RkcParentRange, refs.hinge_at[i], bp.child("hinge"),
          "parent " + std::to_string(b.hinge.parent) + " of " + std::to_string(n) + " bone(s)");
  }
  if (auto start = first_cycle_start(parents)) {
    const Path bp = Path("BONS").child("bone", static_cast<int64_t>(*start));
    return error_at(ErrorCode::RkcParentCycle, refs.hinge_at[*start], bp.child("hinge"),
                    "the parent chain never reaches a root");
  }
  return {};
}

// ---- rkc/rkc_container.cpp ----
constexpr uint8_t kRkcMagic[4] = {'R', 'K', 'C', 'H'};
constexpr uint16_t kRkcVersion = 3;
constexpr size_t kKnown = 5;
// Canonical order; index = rank. Unknown tags rank after all of them.
constexpr std::array<const char*, kKnown> kKnownTags = {"META", "MSHS", "BONS", "CLPS", "VCLP"};

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
                     const std::array<std::optional<ChunkRef>, kKnown>& last, WarningSink& sink) {
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
                                  WarningSink& sink) {
  const Path root;
  ByteReader r(bytes, 0, ErrorCode::RkcTruncated);
  // §2.2 steps 1-2.
  VOXRIG_ASSIGN_OR_RETURN(auto magic, r.bytes(4, root));
  if (std::memcmp(magic.data(), kRkcMagic, 4) != 0)
    return error_at(ErrorCode::RkcBadMagic, 0, root, "expected \"RKCH\"");
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t version, r.u16(root));
  if (version != kRkcVersion)
    return error_at(ErrorCode::RkcUnsupportedVersion, 4, root,
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
  CrossRefOffsets refs;
  VOXRIG_TRY(decode_meta(*last[0], options, sink, c));
  VOXRIG_TRY(decode_mshs(*last[1], options, sink, c));
  VOXRIG_TRY(decode_bons(*last[2], options, sink, c, refs));
  if (last[3]) VOXRIG_TRY(decode_clps(*last[3], options, sink, c));
  if (last[4]) VOXRIG_TRY(decode_vclp(*last[4], options, sink, c));

  // Step 7 (QE.6b).
  VOXRIG_TRY(check_cross_references(c, refs));
  return c;
}

}  // namespace

Result<Character> decode_rkc_baseline(std::span<const uint8_t> bytes,
                                      const DecodeOptions& options) {
  return guard_out_of_memory([&] {
    WarningSink none;
    return decode_rkc_impl(bytes, options, none);
  });
}

}  // namespace voxrig::bench_baseline
