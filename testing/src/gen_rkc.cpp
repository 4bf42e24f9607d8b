// Seeded generators of the RKCH family (RKCH characters, standalone KV6, RVC, KFA) and their
// negative-mutation tables.
//
// Byte offsets the mutations use (docs/spec/rkch.md-docs/spec/kfa.md):
// | RKCH | 0 "RKCH" | 4 version u16 | 6 chunks: tag[4] len u32 payload                     |
// | META | name_len u16 | name | root                                                     |
// | BONS | count u32 | bones: name_len u16, name, attach_count u32, 54-byte attachments   |
// |      | (+0 mesh_kind u16, +2 index u32), 64-byte hinge (+0 parent i32)                 |
// | CLPS | count u32 | clips: name_len u16, name, kind u16, payload_len u32, body           |
// |      | (skeletal body: +0 numfrm u32, +4 numhin u32)                                    |
// | KV6  | 0 "Kvxl" | 4 xsiz | 8 ysiz | 12 zsiz | 16 pivot | 28 numvoxs | 32 voxels (8 B)  |
// |      | then xlen u32[xsiz], ylen u16[xsiz*ysiz], optional "SPal" + 768                  |
// | RVC  | 0 "RVCL" | 4 version u16 | 6 chunks (v2): tag[4] flags u8 len u32 payload        |
// | KFA  | 0 "Kwlk" | 4 name_len u32 | 8 name | numhin u32 | 64-byte hinges | ...           |
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include <optional>
#include <string_view>
#include <unordered_map>

#include "gen_internal.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/testing/layout.h"

namespace voxrig::gen {

namespace {

using detail::eighths;
using detail::Kind;
constexpr std::optional<ErrorCode> kAccept = std::nullopt;

GenCase rkc_family_case(GenFormat f, std::string rule, std::string desc) {
  GenCase c;
  c.format = f;
  c.kind = "valid";
  c.rule = std::move(rule);
  c.description = std::move(desc);
  c.expect = {{Profile::RkcStrict, true, ErrorCode::InternalBug},
              {Profile::RkcCompat, true, ErrorCode::InternalBug}};
  return c;
}

BoneXform random_xform(GenRng& rng) {
  BoneXform x;
  x.t = {eighths(rng, -64, 64), eighths(rng, -64, 64), eighths(rng, -64, 64)};
  x.r = detail::unit_quat(rng);
  if (rng.chance(1, 2)) x.s = {eighths(rng, -16, 16), eighths(rng, -16, 16), eighths(rng, -16, 16)};
  return x;
}

Hinge random_hinge(GenRng& rng, int32_t parent) {
  Hinge h;
  h.parent = parent;
  for (auto& p : h.p) p = {eighths(rng, -32, 32), eighths(rng, -32, 32), eighths(rng, -32, 32)};
  for (auto& v : h.v) v = {eighths(rng, -8, 8), eighths(rng, -8, 8), eighths(rng, -8, 8)};
  h.vmin = static_cast<int16_t>(rng.range(-32768, 32767));
  h.vmax = static_cast<int16_t>(rng.range(-32768, 32767));
  h.htype = rng.chance(1, 4) ? static_cast<uint8_t>(rng.below(256)) : uint8_t{0};
  for (auto& b : h.filler) b = rng.chance(1, 2) ? 0 : static_cast<uint8_t>(rng.below(256));
  return h;
}

std::vector<Seq> random_seq(GenRng& rng, uint32_t frames) {
  std::vector<Seq> s(rng.below(4));
  for (auto& e : s) e = {rng.range(-100, 5000), rng.range(-3, static_cast<int32_t>(frames) + 2)};
  return s;
}

Kv6 random_kv6(GenRng& rng, GenSize size) {
  const bool small = size == GenSize::Small;
  Kv6 k;
  k.xsiz = 1 + rng.below(small ? 4 : 10);
  k.ysiz = 1 + rng.below(small ? 4 : 10);
  k.zsiz = 1 + rng.below(small ? 8 : 32);
  k.pivot = {eighths(rng, 0, 64), eighths(rng, 0, 64), eighths(rng, 0, 64)};
  k.xlen.assign(k.xsiz, 0);
  k.ylen.assign(size_t{k.xsiz} * k.ysiz, 0);
  for (uint32_t x = 0; x < k.xsiz; ++x)
    for (uint32_t y = 0; y < k.ysiz; ++y)
      for (uint32_t z = 0; z < k.zsiz; ++z) {
        if (!rng.chance(1, 3)) continue;
        k.voxels.push_back({0x80000000u | rng.below(1u << 24), static_cast<uint16_t>(z),
                            static_cast<uint8_t>(rng.below(64)),
                            static_cast<uint8_t>(rng.below(256))});
        ++k.xlen[x];
        ++k.ylen[size_t{x} * k.ysiz + y];
      }
  if (rng.chance(1, 3)) {
    Kv6Palette p{};
    for (auto& b : p) b = static_cast<uint8_t>(rng.below(64));
    k.palette = p;
  }
  return k;
}

// A full frame from per-column occupancy words and colour runs (popcount colours per column).
RvcVoxelFrame make_frame(const std::vector<std::vector<uint32_t>>& occ,
                         const std::vector<std::vector<uint32_t>>& colors) {
  RvcVoxelFrame f;
  f.color_offsets.push_back(0);
  for (size_t c = 0; c < occ.size(); ++c) {
    f.occupancy.insert(f.occupancy.end(), occ[c].begin(), occ[c].end());
    f.colors.insert(f.colors.end(), colors[c].begin(), colors[c].end());
    f.color_offsets.push_back(static_cast<uint32_t>(f.colors.size()));
  }
  return f;
}

void random_column(GenRng& rng, uint32_t dz, std::vector<uint32_t>& occ,
                   std::vector<uint32_t>& col) {
  col.clear();
  for (size_t w = 0; w < occ.size(); ++w) {
    uint32_t word = 0;
    for (uint32_t b = 0; b < 32 && w * 32 + b < dz; ++b)
      if (rng.chance(1, 3)) word |= 1u << b;
    occ[w] = word;
    for (int i = 0; i < std::popcount(word); ++i) col.push_back(0x80000000u | rng.below(1u << 24));
  }
}

RvcClip random_rvc(GenRng& rng, GenSize size) {
  const bool small = size == GenSize::Small;
  const std::array<uint32_t, 3> dims = {1 + rng.below(small ? 3 : 6), 1 + rng.below(small ? 3 : 6),
                                        1 + rng.below(small ? 8 : 40)};
  const uint32_t cols = dims[0] * dims[1], owpc = rvc_owpc(dims[2]);
  std::vector<std::vector<uint32_t>> occ(cols, std::vector<uint32_t>(owpc)), colors(cols);
  for (uint32_t c = 0; c < cols; ++c) random_column(rng, dims[2], occ[c], colors[c]);
  std::vector<RvcVoxelFrame> frames;
  const uint32_t n = 1 + rng.below(small ? 3 : 6);
  for (uint32_t i = 0; i < n; ++i) {
    if (i > 0)  // a few changed columns, so later frames are small deltas
      for (uint32_t k = rng.below(3); k > 0; --k) {
        const uint32_t c = rng.below(cols);
        random_column(rng, dims[2], occ[c], colors[c]);
      }
    frames.push_back(make_frame(occ, colors));
  }
  std::vector<uint32_t> durations;
  if (rng.chance(1, 2))
    for (uint32_t i = 0; i < n; ++i) durations.push_back(1 + rng.below(200));
  const std::array<float, 3> pivot = {eighths(rng, 0, 32), eighths(rng, 0, 32),
                                      eighths(rng, 0, 64)};
  const float vws = eighths(rng, 1, 16);
  const auto mode = static_cast<RvcLoopMode>(rng.below(3));
  const uint32_t default_ms = 1 + rng.below(100), interval = rng.below(4);
  return rvc_from_frames(dims, pivot, vws, mode, frames, durations, default_ms, interval);
}

uint32_t u32_at(const std::vector<uint8_t>& b, uint64_t at) {
  return static_cast<uint32_t>(detail::get_le(b, at, 4));
}

// One RKCH / RVC chunk as the mutations address it.
struct Chunk {
  uint64_t at;  // the tag's offset
  std::array<char, 4> tag;
  uint32_t len;  // as declared
};

// The chunks of an RKCH file or RVC clip, framed by the testing walker.
std::vector<Chunk> chunks_of(const std::vector<uint8_t>& b) {
  std::vector<Chunk> r;
  if (const auto f = testing::framing_of(b))
    for (const testing::Frame& fr : f->frames) {
      Chunk c{fr.offset, {}, fr.declared};
      std::memcpy(c.tag.data(), fr.tag.data(), 4);
      r.push_back(c);
    }
  return r;
}

// ---- RKCH ---------------------------------------------------------------------------------------

struct RkcBone {
  uint64_t name_len_at;
  std::vector<uint64_t> attachments;  // record offsets
  uint64_t hinge_at;
};
struct RkcCtx {
  std::vector<Chunk> chunks;
  uint64_t meta_at = 0;
  std::vector<RkcBone> bones;
  std::vector<uint64_t> skeletal_bodies;  // body offsets of kind-0 clips
  size_t meshes = 0, voxel_clips = 0;
};

// The chunk list and the offsets the mutations need, from the testing walker
// (voxrig/testing/layout.h): its framing and its named fields ("BONS/bone[i]/hinge",
// "CLPS/clip[i]/body", ...).
RkcCtx rkc_layout(const std::vector<uint8_t>& b, const Character& ch) {
  RkcCtx ctx;
  ctx.meshes = ch.meshes.size();
  ctx.voxel_clips = ch.voxel_clips.size();
  ctx.chunks = chunks_of(b);
  const testing::Layout layout = testing::layout_of(b);
  std::unordered_map<std::string_view, uint64_t> at;  // first field of each name
  for (const testing::Field& f : layout.fields) at.emplace(f.path, f.offset);
  auto find = [&](const std::string& path) -> std::optional<uint64_t> {
    const auto it = at.find(path);
    return it == at.end() ? std::nullopt : std::optional<uint64_t>(it->second);
  };
  ctx.meta_at = find("META/name_len").value_or(0);
  for (size_t i = 0;; ++i) {
    const std::string bone = "BONS/bone[" + std::to_string(i) + "]";
    const auto name_len = find(bone + "/name_len"), hinge = find(bone + "/hinge");
    if (!name_len || !hinge) break;
    RkcBone r{*name_len, {}, *hinge};
    for (size_t a = 0;; ++a) {
      const auto rec = find(bone + "/attachment[" + std::to_string(a) + "]");
      if (!rec) break;
      r.attachments.push_back(*rec);
    }
    ctx.bones.push_back(std::move(r));
  }
  for (size_t i = 0;; ++i) {
    const std::string clip = "CLPS/clip[" + std::to_string(i) + "]";
    const auto kind = find(clip + "/kind"), body = find(clip + "/body");
    if (!kind) break;
    if (body && detail::get_le(b, *kind, 2) == 0) ctx.skeletal_bodies.push_back(*body);
  }
  return ctx;
}

std::string bone_path(const RkcCtx& ctx, const RkcBone& b) {
  return "BONS/bone[" + std::to_string(&b - ctx.bones.data()) + "]";
}

const std::array<Kind<RkcCtx>, 10> kRkcKinds = {{
    {"rkc.header_truncated", "docs/spec/rkch.md#decoding-order: a file shorter than magic + version",
     ErrorCode::RkcTruncated, ErrorCode::RkcTruncated,
     [](GenCase& c, GenRng& rng, const RkcCtx&) {
       detail::truncate_to(c, 4 + rng.below(2), "header/version");
       return true;
     }},
    {"rkc.unsupported_version", "docs/spec/rkch.md#decoding-order: version must be 3",
     ErrorCode::RkcUnsupportedVersion, ErrorCode::RkcUnsupportedVersion,
     [](GenCase& c, GenRng& rng, const RkcCtx&) {
       const int32_t v = rng.range(0, 65534);
       detail::set_le(c, 4, 2, v >= 3 ? v + 1 : v, "header/version");
       return true;
     }},
    {"rkc.chunk_truncated", "docs/spec/rkch.md#decoding-order: a partial chunk tag, length or payload at EOF",
     ErrorCode::RkcTruncated, ErrorCode::RkcTruncated,
     [](GenCase& c, GenRng& rng, const RkcCtx& ctx) {
       const auto& ch = ctx.chunks[rng.below(static_cast<uint32_t>(ctx.chunks.size()))];
       const uint64_t cut = ch.at + 1 + rng.below(8 + ch.len - 1);  // strictly inside the chunk
       detail::truncate_to(c, cut, "chunk[" + std::to_string(&ch - ctx.chunks.data()) + "]");
       return true;
     }},
    {"rkc.missing_bons", "docs/spec/rkch.md#decoding-order: BONS is required (a renamed one is an unknown chunk)",
     ErrorCode::RkcMissingBons, ErrorCode::RkcMissingBons,
     [](GenCase& c, GenRng& rng, const RkcCtx& ctx) {
       for (const auto& ch : ctx.chunks)
         if (std::memcmp(ch.tag.data(), "BONS", 4) == 0) {
           detail::set_le(c, ch.at + 3, 1, 'a' + rng.below(26), "chunk[BONS]/tag+3");
           return true;
         }
       return false;
     }},
    {"rkc.attachment_index", "docs/spec/rkch.md#DIFF-1: an attachment index past its table",
     ErrorCode::RkcAttachmentIndex, ErrorCode::RkcAttachmentIndex,
     [](GenCase& c, GenRng& rng, const RkcCtx& ctx) {
       std::vector<std::pair<size_t, size_t>> all;  // (bone, attachment)
       for (size_t b = 0; b < ctx.bones.size(); ++b)
         for (size_t a = 0; a < ctx.bones[b].attachments.size(); ++a) all.emplace_back(b, a);
       if (all.empty()) return false;
       const auto [b, a] = all[rng.below(static_cast<uint32_t>(all.size()))];
       const uint64_t at = ctx.bones[b].attachments[a];
       const size_t table = detail::get_le(c.bytes, at, 2) == 0 ? ctx.meshes : ctx.voxel_clips;
       detail::set_le(
           c, at + 2, 4, static_cast<int64_t>(table + rng.below(1000)),
           bone_path(ctx, ctx.bones[b]) + "/attachment[" + std::to_string(a) + "]/index");
       return true;
     }},
    {"rkc.unsupported_mesh_kind", "docs/spec/rkch.md#chunk-payloads: mesh_kind 0 or 1, checked right after index",
     ErrorCode::RkcUnsupportedMeshKind, ErrorCode::RkcUnsupportedMeshKind,
     [](GenCase& c, GenRng& rng, const RkcCtx& ctx) {
       for (const auto& b : ctx.bones)
         if (!b.attachments.empty()) {
           detail::set_le(c, b.attachments[0], 2, rng.range(2, 65535),
                          bone_path(ctx, b) + "/attachment[0]/mesh_kind");
           return true;
         }
       return false;
     }},
    {"rkc.parent_range", "docs/spec/rkch.md#DIFF-1: a parent neither -1 nor a bone index",
     ErrorCode::RkcParentRange, ErrorCode::RkcParentRange,
     [](GenCase& c, GenRng& rng, const RkcCtx& ctx) {
       const RkcBone& b = ctx.bones[rng.below(static_cast<uint32_t>(ctx.bones.size()))];
       const int32_t v = rng.chance(1, 2) ? static_cast<int32_t>(ctx.bones.size() + rng.below(100))
                                          : rng.range(-1000, -2);
       detail::set_signed(c, b.hinge_at, 4, v, bone_path(ctx, b) + "/hinge/parent");
       return true;
     }},
    {"rkc.parent_cycle", "docs/spec/rkch.md#DIFF-1: a parent cycle (here a self-parent)",
     ErrorCode::RkcParentCycle, ErrorCode::RkcParentCycle,
     [](GenCase& c, GenRng& rng, const RkcCtx& ctx) {
       const uint32_t i = rng.below(static_cast<uint32_t>(ctx.bones.size()));
       detail::set_signed(c, ctx.bones[i].hinge_at, 4, i,
                          bone_path(ctx, ctx.bones[i]) + "/hinge/parent");
       return true;
     }},
    {"rkc.bad_utf8_name",
     "docs/spec/rkch.md#DIFF-2: rkc-strict rejects an ill-formed name, "
     "rkc-compat repairs it (D6)",
     ErrorCode::RkcBadUtf8, kAccept,
     [](GenCase& c, GenRng& rng, const RkcCtx& ctx) {
       const uint64_t len = detail::get_le(c.bytes, ctx.meta_at, 2);
       if (len == 0) return false;
       const uint64_t i = rng.below(static_cast<uint32_t>(len));
       detail::set_le(c, ctx.meta_at + 2 + i, 1, rng.range(0xF5, 0xFF),
                      "META/name+" + std::to_string(i));
       return true;
     }},
    {"rkc.clip_bone_count",
     "docs/spec/rkch.md#chunk-payloads: a skeletal clip's numhin must equal the bone count",
     ErrorCode::RkcClipBoneCount, ErrorCode::RkcClipBoneCount,
     [](GenCase& c, GenRng& rng, const RkcCtx& ctx) {
       if (ctx.skeletal_bodies.empty()) return false;
       const uint64_t at =
           ctx.skeletal_bodies[rng.below(static_cast<uint32_t>(ctx.skeletal_bodies.size()))];
       detail::set_le(c, at + 4, 4, static_cast<int64_t>(ctx.bones.size() + 1 + rng.below(5)),
                      "CLPS/clip/body/numhin");
       return true;
     }},
}};

// ---- KV6 / RVC / KFA ----------------------------------------------------------------------------

struct Kv6Ctx {
  uint64_t tables_end;  // end of ylen
  uint32_t xsiz;
};
const std::array<Kind<Kv6Ctx>, 3> kKv6Kinds = {{
    {"kv6.too_small", "docs/spec/kv6.md#parse-rules: fewer than 32 bytes (checked before the magic)",
     ErrorCode::Kv6TooSmall, ErrorCode::Kv6TooSmall,
     [](GenCase& c, GenRng& rng, const Kv6Ctx&) {
       detail::truncate_to(c, 4 + rng.below(28), "header");
       return true;
     }},
    {"kv6.truncated", "docs/spec/kv6.md#parse-rules: the voxel, xlen or ylen table cut short",
     ErrorCode::Kv6Truncated, ErrorCode::Kv6Truncated,
     [](GenCase& c, GenRng& rng, const Kv6Ctx& k) {
       detail::truncate_to(c, 32 + rng.below(static_cast<uint32_t>(k.tables_end - 32)), "tables");
       return true;
     }},
    {"kv6.run_tables",
     "docs/spec/kv6.md#D9: xlen must sum to numvoxs: an error in rkc-strict, a "
     "warning in rkc-compat",
     ErrorCode::Kv6RunTables, kAccept,
     [](GenCase& c, GenRng& rng, const Kv6Ctx& k) {
       const uint32_t x = rng.below(k.xsiz);
       const uint64_t at = 32 + 8 * uint64_t{u32_at(c.bytes, 28)} + 4 * uint64_t{x};
       detail::set_le(c, at, 4, u32_at(c.bytes, at) + 1 + rng.below(5),
                      "xlen[" + std::to_string(x) + "]");
       return true;
     }},
}};

struct RvcCtx {
  std::vector<Chunk> chunks;
};
bool rename_rvc_chunk(GenCase& c, GenRng& rng, const RvcCtx& ctx, const char* tag) {
  for (const auto& ch : ctx.chunks)
    if (std::memcmp(ch.tag.data(), tag, 4) == 0) {
      detail::set_le(c, ch.at + 3, 1, 'a' + rng.below(26), std::string("chunk[") + tag + "]/tag+3");
      return true;
    }
  return false;
}
const std::array<Kind<RvcCtx>, 5> kRvcKinds = {{
    {"rvc.header_truncated", "docs/spec/rvc.md#file-framing: magic then a u16 version",
     ErrorCode::RvcTruncated, ErrorCode::RvcTruncated,
     [](GenCase& c, GenRng& rng, const RvcCtx&) {
       detail::truncate_to(c, 4 + rng.below(2), "header/version");
       return true;
     }},
    {"rvc.unsupported_version", "docs/spec/rvc.md#file-framing: version 1 or 2",
     ErrorCode::RvcUnsupportedVersion, ErrorCode::RvcUnsupportedVersion,
     [](GenCase& c, GenRng& rng, const RvcCtx&) {
       detail::set_unsupported(c, rng, 4, 2, 3, 65535, "header/version");
       return true;
     }},
    {"rvc.chunk_truncated", "docs/spec/rvc.md#file-framing: a partial chunk header or payload at EOF",
     ErrorCode::RvcTruncated, ErrorCode::RvcTruncated,
     [](GenCase& c, GenRng& rng, const RvcCtx& ctx) {
       const auto& ch = ctx.chunks[rng.below(static_cast<uint32_t>(ctx.chunks.size()))];
       detail::truncate_to(c, ch.at + 1 + rng.below(9 + ch.len - 1),
                           "chunk[" + std::to_string(&ch - ctx.chunks.data()) + "]");
       return true;
     }},
    {"rvc.missing_meta", "docs/spec/rvc.md#decoding-order: META is required (a renamed one is unknown)",
     ErrorCode::RvcMissingMeta, ErrorCode::RvcMissingMeta,
     [](GenCase& c, GenRng& rng, const RvcCtx& ctx) {
       return rename_rvc_chunk(c, rng, ctx, "META");
     }},
    {"rvc.missing_frms", "docs/spec/rvc.md#decoding-order: FRMS is required (a renamed one is unknown)",
     ErrorCode::RvcMissingFrms, ErrorCode::RvcMissingFrms,
     [](GenCase& c, GenRng& rng, const RvcCtx& ctx) {
       return rename_rvc_chunk(c, rng, ctx, "FRMS");
     }},
}};

struct KfaCtx {
  uint64_t hinges_at;
  uint32_t numhin;
};
const std::array<Kind<KfaCtx>, 3> kKfaKinds = {{
    {"kfa.truncated", "docs/spec/kfa.md: any field cut short (nothing follows seq)",
     ErrorCode::KfaTruncated, ErrorCode::KfaTruncated,
     [](GenCase& c, GenRng& rng, const KfaCtx&) {
       detail::truncate_to(c, 4 + rng.below(static_cast<uint32_t>(c.bytes.size() - 4)), "body");
       return true;
     }},
    {"kfa.parent_range", "docs/spec/kv6.md#D9 / QE.6b: a hinge parent neither -1 nor a hinge index",
     ErrorCode::KfaParentRange, ErrorCode::KfaParentRange,
     [](GenCase& c, GenRng& rng, const KfaCtx& k) {
       if (k.numhin == 0) return false;
       const uint32_t i = rng.below(k.numhin);
       const int32_t v = rng.chance(1, 2) ? static_cast<int32_t>(k.numhin + rng.below(100))
                                          : rng.range(-1000, -2);
       detail::set_signed(c, k.hinges_at + 64 * uint64_t{i}, 4, v,
                          "hinge[" + std::to_string(i) + "]/parent");
       return true;
     }},
    {"kfa.parent_cycle", "docs/spec/kv6.md#D9 / QE.6b: a hinge parent cycle (here a self-parent)",
     ErrorCode::KfaParentCycle, ErrorCode::KfaParentCycle,
     [](GenCase& c, GenRng& rng, const KfaCtx& k) {
       if (k.numhin == 0) return false;
       const uint32_t i = rng.below(k.numhin);
       detail::set_signed(c, k.hinges_at + 64 * uint64_t{i}, 4, i,
                          "hinge[" + std::to_string(i) + "]/parent");
       return true;
     }},
}};

constexpr std::array<const char*, 5> kRkcTags = {"META", "MSHS", "BONS", "CLPS", "VCLP"};

}  // namespace

namespace detail {
std::vector<GenMutationKind> rkc_family_kinds() {
  std::vector<GenMutationKind> v;
  list_kinds(GenFormat::Rkc, kRkcKinds, v);
  list_kinds(GenFormat::Kv6, kKv6Kinds, v);
  list_kinds(GenFormat::Rvc, kRvcKinds, v);
  list_kinds(GenFormat::Kfa, kKfaKinds, v);
  return v;
}
}  // namespace detail

GenCase generate_rkc(GenRng& rng, GenSize size, bool negative) {
  const bool small = size == GenSize::Small;
  Character ch;
  ch.name = detail::random_name(rng, 1, 12);
  ch.root = {eighths(rng, -64, 64), eighths(rng, -64, 64), eighths(rng, -64, 64)};
  for (uint32_t i = rng.below(small ? 3 : 4); i > 0; --i)
    ch.meshes.push_back(random_kv6(rng, GenSize::Small));
  for (uint32_t i = rng.below(small ? 2 : 3); i > 0; --i)
    ch.voxel_clips.push_back(random_rvc(rng, GenSize::Small));
  const uint32_t nb = 1 + rng.below(small ? 4 : 10);
  const auto parents = detail::random_forest(rng, nb);
  for (uint32_t i = 0; i < nb; ++i) {
    Bone b;
    b.name = detail::random_name(rng, 0, 8);
    for (uint32_t a = rng.below(3); a > 0; --a) {
      const bool can_static = !ch.meshes.empty(), can_clip = !ch.voxel_clips.empty();
      if (!can_static && !can_clip) break;
      Attachment at;
      at.kind = can_static && (!can_clip || rng.chance(1, 2)) ? AttachmentKind::Static
                                                              : AttachmentKind::Clip;
      at.index = rng.below(static_cast<uint32_t>(
          at.kind == AttachmentKind::Static ? ch.meshes.size() : ch.voxel_clips.size()));
      at.local_offset = random_xform(rng);
      at.speed_q8 = rng.range(-512, 1024);
      at.start_phase_ms = rng.below(5000);
      b.attachments.push_back(at);
    }
    b.hinge = random_hinge(rng, parents[i]);
    ch.bones.push_back(std::move(b));
  }
  for (uint32_t i = rng.below(small ? 3 : 5); i > 0; --i) {
    Clip clip;
    clip.name = detail::random_name(rng, 0, 8);
    if (rng.chance(3, 4)) {
      SkeletalClip s;
      s.frame_count = rng.below(small ? 3 : 6);
      s.numhin = nb;
      for (uint32_t k = s.frame_count * nb; k > 0; --k) s.frames.push_back(random_xform(rng));
      s.seq = random_seq(rng, s.frame_count);
      clip.data = std::move(s);
    } else {
      clip.data =
          UnknownClip{static_cast<uint16_t>(rng.range(1, 65535)), detail::random_bytes(rng, 24)};
    }
    ch.clips.push_back(std::move(clip));
  }
  for (uint32_t i = rng.below(3); i > 0; --i) {
    ExtraChunk e;
    do {
      for (auto& t : e.tag) t = static_cast<uint8_t>('A' + rng.below(26));
    } while (std::any_of(kRkcTags.begin(), kRkcTags.end(),
                         [&](const char* k) { return std::memcmp(k, e.tag.data(), 4) == 0; }));
    e.bytes = detail::random_bytes(rng, 16);
    ch.extra_chunks.push_back(std::move(e));
  }
  GenCase c = rkc_family_case(
      GenFormat::Rkc, "docs/spec/rkch.md / docs/spec/writers.md#D1: a valid character in canonical form",
      std::to_string(ch.meshes.size()) + " meshes, " + std::to_string(nb) + " bones, " +
          std::to_string(ch.clips.size()) + " clips, " + std::to_string(ch.voxel_clips.size()) +
          " voxel clips, " + std::to_string(ch.extra_chunks.size()) + " unknown chunks");
  if (auto bytes = encode_rkc(ch); bytes.ok()) c.bytes = std::move(*bytes);
  if (negative) detail::apply_one(c, rng, rkc_layout(c.bytes, ch), kRkcKinds);
  return c;
}

GenCase generate_kv6(GenRng& rng, GenSize size, bool negative) {
  const Kv6 k = random_kv6(rng, size);
  GenCase c = rkc_family_case(
      GenFormat::Kv6, "docs/spec/kv6.md: a valid KV6 sprite (D7: standalone)",
      std::to_string(k.xsiz) + "x" + std::to_string(k.ysiz) + "x" + std::to_string(k.zsiz) + ", " +
          std::to_string(k.voxels.size()) + " voxels" + (k.palette ? ", palette" : ""));
  if (auto bytes = encode_kv6(k); bytes.ok()) c.bytes = std::move(*bytes);
  const uint64_t tables_end = 32 + 8 * k.voxels.size() + 4 * uint64_t{k.xsiz} + 2 * k.ylen.size();
  if (negative) detail::apply_one(c, rng, Kv6Ctx{tables_end, k.xsiz}, kKv6Kinds);
  return c;
}

GenCase generate_rvc(GenRng& rng, GenSize size, bool negative) {
  const RvcClip clip = random_rvc(rng, size);
  GenCase c =
      rkc_family_case(GenFormat::Rvc, "docs/spec/rvc.md: a valid voxel clip (rvc_from_frames)",
                      std::to_string(clip.meta.dims[0]) + "x" + std::to_string(clip.meta.dims[1]) +
                          "x" + std::to_string(clip.meta.dims[2]) + ", " +
                          std::to_string(clip.meta.frame_count) + " frames");
  if (auto bytes = encode_rvc(clip); bytes.ok()) c.bytes = std::move(*bytes);
  if (!negative) return c;
  detail::apply_one(c, rng, RvcCtx{chunks_of(c.bytes)}, kRvcKinds);
  return c;
}

GenCase generate_kfa(GenRng& rng, GenSize size, bool negative) {
  Kfa k;
  for (uint32_t i = rng.below(12); i > 0; --i)
    k.kv6_name.push_back(static_cast<uint8_t>(1 + rng.below(255)));
  const uint32_t n = rng.below(size == GenSize::Small ? 5 : 10);
  const auto parents = detail::random_forest(rng, n);
  for (uint32_t i = 0; i < n; ++i) k.hinges.push_back(random_hinge(rng, parents[i]));
  k.frame_count = rng.below(4);
  for (uint32_t i = k.frame_count * n; i > 0; --i)
    k.frames.push_back(static_cast<int16_t>(rng.range(-32768, 32767)));
  k.seq = random_seq(rng, k.frame_count);
  GenCase c =
      rkc_family_case(GenFormat::Kfa, "docs/spec/kfa.md: a valid KFA (hinge forest)",
                      std::to_string(n) + " hinges, " + std::to_string(k.frame_count) + " frames");
  if (auto bytes = encode_kfa(k); bytes.ok()) c.bytes = std::move(*bytes);
  if (negative) detail::apply_one(c, rng, KfaCtx{12 + k.kv6_name.size(), n}, kKfaKinds);
  return c;
}

}  // namespace voxrig::gen
