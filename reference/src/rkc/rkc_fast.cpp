// RKCH decode, success path only: a file's decode cost is mostly per field, and a valid file
// needs no error bookkeeping. decode_rkc runs this first and falls back to decode_rkc_impl
// (rkc_container.cpp, rkc_chunks.cpp, rkc_validate.cpp: the one home of the error order, codes,
// offsets and paths) whenever this returns false.
//
// Why a second pass is correct: every rule of the field-by-field decoder that can reject (a
// short read, a limit, a bad mesh_kind, numhin != bones, ill-formed UTF-8, an embedded KV6 or RVC
// error, a cross reference) makes this return false, so an input is accepted here only if the
// field-by-field decoder accepts it, and then both build the same Character (the property
// RkcFastPath in properties/rkc_fast_props.cpp compares them on valid and damaged files). Inputs
// that need repairs (rkc-compat UTF-8, KV6 run tables) also go the long way: they are rare and the
// repair lives there.
//
// Why it is faster: no Result or Path per field, no per-chunk Path, no offset tables for the
// cross-reference errors (they are only needed on the way to an error), one bounds check per
// fixed-size record, and an allocation-free cycle check when bones come parents first.
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

#include "rkc/rkc_detail.h"
#include "rkc/rvc_internal.h"
#include "voxrig/rvc.h"
#include "voxrig/utf8.h"
#include "voxrig/validate.h"

namespace voxrig::detail {

namespace {

namespace wr = wire::rkch;

// A bounded forward cursor over one chunk payload (or the whole file). Every take checks first.
struct Cursor {
  const uint8_t* p;
  const uint8_t* end;
  size_t left() const { return static_cast<size_t>(end - p); }
  bool u16(uint16_t& v) {
    if (left() < 2) return false;
    v = load_u16(p);
    p += 2;
    return true;
  }
  bool u32(uint32_t& v) {
    if (left() < 4) return false;
    v = load_u32(p);
    p += 4;
    return true;
  }
  // n bytes as a span (p moves past them).
  bool take(size_t n, std::span<const uint8_t>& out) {
    if (left() < n) return false;
    out = {p, n};
    p += n;
    return true;
  }
  // A u32 count no greater than `limit` (read_count's rule).
  bool count(uint32_t& v, uint64_t limit) { return u32(v) && v <= limit; }
  // read_name without the repair branch: a name that is not valid UTF-8 goes the long way.
  // Names are short and mostly ASCII: only a name with a high bit asks is_valid_utf8.
  bool name(std::string& out) {
    uint16_t len;
    std::span<const uint8_t> raw;
    if (!u16(len) || !take(len, raw)) return false;
    if (!is_ascii(raw) && !is_valid_utf8(raw)) return false;
    // Built and moved in (inline in libstdc++; short names stay in the string's own buffer)
    // rather than assign(), whose out-of-line general path costs more than a short name.
    out = std::string(reinterpret_cast<const char*>(raw.data()), raw.size());
    return true;
  }
};

// Records are loaded field by field into their element already in place (emplace_back, then
// rkc_detail.h's load_*_into, inlined): the fixed-size records of a character are mostly frames,
// and a call or a struct copy per record would cost about as much as the record's own loads.

// On a little-endian host a BoneXform (ten binary32, no padding) has exactly its wire layout, so
// a frame table is a copy of its bytes (same bit patterns as load_bone_xform_into's loads).
constexpr bool kFramesAsBytes = std::endian::native == std::endian::little &&
                                std::is_trivially_copyable_v<BoneXform> &&
                                sizeof(BoneXform) == wr::xform::kSize;
static_assert(offsetof(BoneXform, r) == wr::xform::kRAt &&
              offsetof(BoneXform, s) == wr::xform::kSAt);

Cursor cursor(std::span<const uint8_t> payload) {
  return Cursor{payload.data(), payload.data() + payload.size()};
}

// The known chunks' tags as little-endian u32 (index = rank).
constexpr std::array<uint32_t, wr::kKnownChunks> kTags = [] {
  std::array<uint32_t, wr::kKnownChunks> tags{};
  for (size_t i = 0; i < tags.size(); ++i) tags[i] = wr::tag_u32(wr::kChunkTags[i]);
  return tags;
}();

bool meta(std::span<const uint8_t> payload, Character& c) {
  Cursor r = cursor(payload);
  if (!r.name(c.name) || r.left() < wr::kRootSize) return false;
  for (size_t i = 0; i < 3; ++i) c.root[i] = load_f32(r.p + 4 * i);
  return true;  // trailing bytes: a validate_rkc warning only
}

bool mshs(std::span<const uint8_t> payload, const DecodeOptions& options, Character& c) {
  Cursor r = cursor(payload);
  uint32_t count;
  if (!r.count(count, options.limits.rkc_meshes)) return false;
  c.meshes.reserve(clamp_reserve(count, wr::kMinKv6Blob, r.left()));
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t len;
    std::span<const uint8_t> blob;
    if (!r.u32(len) || !r.take(len, blob)) return false;
    if (!decode_kv6_fast(blob, options, c.meshes.emplace_back())) return false;
  }
  return true;
}

bool bons(std::span<const uint8_t> payload, const Limits& lim, Character& c) {
  Cursor r = cursor(payload);
  uint32_t count;
  if (!r.count(count, lim.rkc_bones)) return false;
  c.bones.reserve(clamp_reserve(count, wr::kMinBone, r.left()));
  for (uint32_t i = 0; i < count; ++i) {
    Bone& bone = c.bones.emplace_back();
    uint32_t attach_count;
    if (!r.name(bone.name) || !r.count(attach_count, lim.rkc_attachments_per_bone)) return false;
    // The whole attachment table in one check (attach_count <= the limit).
    namespace at = wr::attachment;
    if (attach_count > r.left() / at::kSize) return false;
    bone.attachments.reserve(attach_count);
    for (uint32_t j = 0; j < attach_count; ++j, r.p += at::kSize) {
      const uint16_t kind = load_u16(r.p + at::kMeshKindAt);
      if (kind > 1) return false;
      Attachment& a = bone.attachments.emplace_back();
      a.kind = static_cast<AttachmentKind>(kind);
      a.index = load_u32(r.p + at::kIndexAt);
      load_bone_xform_into(a.local_offset, r.p + at::kLocalOffsetAt);
      a.speed_q8 = static_cast<int32_t>(load_u32(r.p + at::kSpeedQ8At));
      a.start_phase_ms = load_u32(r.p + at::kStartPhaseAt);
    }
    if (r.left() < wr::hinge::kSize) return false;
    load_hinge_into(bone.hinge, r.p);
    r.p += wr::hinge::kSize;
  }
  return true;
}

bool skeletal(Cursor body, size_t bone_count, const Limits& lim, SkeletalClip& s) {
  if (!body.u32(s.frame_count) || !body.u32(s.numhin) || s.numhin != bone_count) return false;
  const uint64_t cells = uint64_t{s.frame_count} * s.numhin;
  const uint64_t charged = uint64_t{s.frame_count} * (s.numhin == 0 ? 1 : s.numhin);
  if (charged > lim.rkc_frame_cells || cells > body.left() / wr::xform::kSize) return false;
  if constexpr (kFramesAsBytes) {
    // One copy of the whole table (cells was checked against the bytes left): the resize writes
    // the identity (BoneXform's constructor, no zeroing), the memcpy the records, where a struct
    // copy or a zeroing per record may each become a `rep` instruction with its start-up cost.
    s.frames.resize(static_cast<size_t>(cells));
    if (cells != 0)
      std::memcpy(static_cast<void*>(s.frames.data()), body.p, cells * wr::xform::kSize);
    body.p += cells * wr::xform::kSize;
  } else {
    s.frames.reserve(static_cast<size_t>(cells));
    for (uint64_t i = 0; i < cells; ++i, body.p += wr::xform::kSize)
      load_bone_xform_into(s.frames.emplace_back(), body.p);
  }
  uint32_t seqcount;
  if (!body.count(seqcount, lim.rkc_seq) || seqcount > body.left() / wr::seq::kSize) return false;
  s.seq.reserve(seqcount);
  for (uint32_t i = 0; i < seqcount; ++i, body.p += wr::seq::kSize)
    s.seq.push_back(Seq{static_cast<int32_t>(load_u32(body.p + wr::seq::kTimAt)),
                        static_cast<int32_t>(load_u32(body.p + wr::seq::kFrmAt))});
  return true;  // trailing bytes in the body: a warning only
}

bool clps(std::span<const uint8_t> payload, const Limits& lim, Character& c) {
  Cursor r = cursor(payload);
  uint32_t count;
  if (!r.count(count, lim.rkc_clips)) return false;
  c.clips.reserve(clamp_reserve(count, wr::kMinClip, r.left()));
  for (uint32_t i = 0; i < count; ++i) {
    Clip& clip = c.clips.emplace_back();
    uint16_t kind;
    uint32_t len;
    std::span<const uint8_t> body;
    if (!r.name(clip.name) || !r.u16(kind) || !r.u32(len) || !r.take(len, body)) return false;
    if (kind == 0) {
      if (!skeletal(cursor(body), c.bones.size(), lim, clip.data.emplace<SkeletalClip>()))
        return false;
    } else {
      clip.data = UnknownClip{kind, std::vector<uint8_t>(body.begin(), body.end())};
    }
  }
  return true;
}

bool vclp(std::span<const uint8_t> payload, uint64_t payload_at, const DecodeOptions& options,
          Character& c) {
  Cursor r = cursor(payload);
  uint32_t count;
  if (!r.count(count, options.limits.rkc_voxel_clips)) return false;
  c.voxel_clips.reserve(clamp_reserve(count, wr::kMinRvcBlob, r.left()));
  RvcBudget budget(options.limits.rvc_inflated_total);  // the file's, as in decode_vclp
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t len;
    std::span<const uint8_t> blob;
    if (!r.u32(len) || !r.take(len, blob)) return false;
    const uint64_t at = payload_at + static_cast<uint64_t>(blob.data() - payload.data());
    auto clip = decode_rvc_budgeted(blob, at, options, budget);
    if (!clip.ok()) return false;
    c.voxel_clips.push_back(std::move(clip).value());
  }
  return true;
}

// check_cross_references' verdict without its offsets: attachment indices in range, then the
// hierarchy rules of voxrig/validate.h. Bones whose parents all come first (the common order)
// cannot form a cycle (parent_precedes), which needs no memory to see; any other order asks
// first_cycle_start.
bool cross_references_ok(const Character& c) {
  bool parents_first = true;
  for (size_t i = 0; i < c.bones.size(); ++i) {
    const Bone& b = c.bones[i];
    for (const Attachment& a : b.attachments) {
      const uint64_t table =
          a.kind == AttachmentKind::Static ? c.meshes.size() : c.voxel_clips.size();
      if (a.index >= table) return false;
    }
    const int32_t parent = b.hinge.parent;
    if (!parent_in_range(parent, c.bones.size())) return false;
    parents_first &= parent_precedes(parent, i);
  }
  if (parents_first) return true;
  std::vector<int32_t> parents(c.bones.size());
  for (size_t i = 0; i < c.bones.size(); ++i) parents[i] = c.bones[i].hinge.parent;
  return !first_cycle_start(parents).has_value();
}

}  // namespace

bool decode_rkc_fast(std::span<const uint8_t> bytes, const DecodeOptions& options, Character& c) {
  // Header: magic and version.
  if (bytes.size() < wr::kHeaderSize ||
      std::memcmp(bytes.data(), wr::kMagic.data(), wr::kMagic.size()) != 0 ||
      load_u16(bytes.data() + wr::kVersionAt) != wr::kVersion)
    return false;
  // Chunk scan: the last copy of each known tag, unknown chunks in file order.
  std::array<std::span<const uint8_t>, wr::kKnownChunks> last{};
  std::array<bool, wr::kKnownChunks> seen{};
  Cursor r{bytes.data() + wr::kHeaderSize, bytes.data() + bytes.size()};
  while (r.left() != 0) {
    uint32_t tag, len;
    std::span<const uint8_t> payload;
    const uint8_t* tag_at = r.p;
    if (!r.u32(tag) || !r.u32(len) || !r.take(len, payload)) return false;
    size_t rank = 0;
    while (rank < kTags.size() && kTags[rank] != tag) ++rank;
    if (rank < kTags.size()) {
      last[rank] = payload;
      seen[rank] = true;
    } else {
      ExtraChunk& extra = c.extra_chunks.emplace_back();
      std::memcpy(extra.tag.data(), tag_at, 4);
      extra.bytes.assign(payload.begin(), payload.end());
    }
  }
  if (!seen[wr::kMeta] || !seen[wr::kMshs] || !seen[wr::kBons]) return false;
  // Payloads in decode_rkc_impl's order: META, MSHS, BONS, CLPS, VCLP; then cross references.
  return meta(last[wr::kMeta], c) && mshs(last[wr::kMshs], options, c) &&
         bons(last[wr::kBons], options.limits, c) &&
         (!seen[wr::kClps] || clps(last[wr::kClps], options.limits, c)) &&
         (!seen[wr::kVclp] ||
          vclp(last[wr::kVclp], static_cast<uint64_t>(last[wr::kVclp].data() - bytes.data()),
               options, c)) &&
         cross_references_ok(c);
}

}  // namespace voxrig::detail
