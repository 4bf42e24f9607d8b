// Structure-aware mutators (voxrig/testing/mutate.h): byte mutations land inside one section /
// chunk / blob / inflated payload, and the framing around them is repaired afterwards — lengths,
// counts, the VFP sourceHash, every baseSourceHash and skeletonHash, RKCH blob lists and clip
// bodies, RVC deflate — so that mutated inputs get past the framing and hash checks and reach the
// semantic validators behind them. The framing is split and re-joined by the testing library's
// lenient walker (voxrig/testing/layout.h: a mutator has to cope with anything); what is valid is
// decided by the codec only.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <random>

#include "voxrig/rvc.h"
#include "voxrig/testing/layout.h"
#include "voxrig/testing/le_bytes.h"
#include "voxrig/testing/mutate.h"

namespace voxrig::testing {

namespace {

using Rng = std::minstd_rand;
using Bytes = std::vector<uint8_t>;
using View = std::span<const uint8_t>;

/// The byte mutator of the running mutate_* call (libFuzzer's LLVMFuzzerMutate in the fuzz
/// targets, mutate_plain_bytes in `voxrig fuzz-reader`). A per-thread pointer set by the entry
/// points instead of a parameter threaded through every helper below.
thread_local const ByteMutator* t_bytes = nullptr;

struct UseBytes {
  explicit UseBytes(const ByteMutator& m) : saved(t_bytes) { t_bytes = &m; }
  ~UseBytes() { t_bytes = saved; }
  const ByteMutator* saved;
};

size_t byte_mutate(uint8_t* data, size_t size, size_t max_size) {
  return (*t_bytes)(data, size, max_size);
}

uint32_t get_u32(View b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
         uint32_t(b[at + 3]) << 24;
}
void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

/// The RKCH-compat decode the RVC mutator parses clips with, under the fuzz targets' small RVC
/// budgets (one mutation must stay cheap).
DecodeOptions rvc_options() {
  DecodeOptions o{Profile::RkcCompat, Limits{}};
  o.limits.rvc_inflated_total = uint64_t{64} << 20;
  o.limits.rvc_working_set = uint64_t{32} << 20;
  return o;
}

/// An encoder result the mutator built from a model its decoder produced; empty if it failed.
Bytes encoded(Result<Bytes>&& r) { return r.ok() ? std::move(r).value() : Bytes{}; }

size_t pick(Rng& rng, size_t n) {
  return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

/// The byte mutator on `b`, allowing it to grow by up to `room` bytes.
void mutate_bytes(Bytes& b, size_t room) {
  const size_t size = b.size();
  b.resize(size + room + 1);  // never hand libFuzzer an empty buffer
  b.resize(byte_mutate(b.data(), size, b.size()));
}

/// The byte mutator on a fixed-size field (its size never changes).
void mutate_fixed(uint8_t* field, size_t n) {
  Bytes b(field, field + n);
  mutate_bytes(b, 0);
  b.resize(n);
  std::copy(b.begin(), b.end(), field);
}

/// Falls back to plain byte mutation of the whole input.
size_t plain(uint8_t* data, size_t size, size_t max_size) {
  return byte_mutate(data, size, max_size);
}

/// How many bytes a structural edit may add: what max_size leaves, at most 4 KiB per step.
size_t room_for(size_t size, size_t max_size) {
  return max_size > size ? std::min<size_t>(max_size - size, 4096) : 0;
}

size_t emit(const Bytes& out, uint8_t* data, size_t size, size_t max_size) {
  if (out.empty() || out.size() > max_size) return plain(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

// ---- VFP ------------------------------------------------------------------------------------

/// The container framing of `in` when it is a `c` (testing's lenient splitter).
std::optional<Split> split_as(View in, Container c) {
  auto s = split(in);
  if (!s || s->container != c) return std::nullopt;
  return s;
}

/// Cuts a payload to the complete records it holds and writes their number into its count field
/// (testing's recount_records), so a mutated payload does not stop at its count field.
std::optional<Records> recount(Part& p) {
  return recount_records(
      std::string_view(reinterpret_cast<const char*>(p.tag.data()), p.tag.size()), p.payload);
}

/// Recounts what the rig sections declare from what they hold (SKEL jointCount, VSKN
/// bindingCount, ANIM clipCount).
void fix_rig_counts(Part& p) {
  if (p.is("SKEL") || p.is("VSKN") || p.is("ANIM")) recount(p);
}

/// Re-joins with every length and the sectionCount recomputed, and (usually) every hash rebound
/// the way a writer binds them.
Bytes join_vfp(Split& s, bool fix_hashes) {
  if (fix_hashes) rebind_split(s, true);
  return join(s);
}

/// Section-list edits shared by both containers: duplicate, delete or move one part.
bool edit_list(std::vector<Part>& parts, Rng& rng) {
  if (parts.empty()) return false;
  const size_t i = pick(rng, parts.size());
  switch (pick(rng, 3)) {
    case 0:
      parts.insert(parts.begin() + pick(rng, parts.size() + 1), parts[i]);
      break;
    case 1:
      parts.erase(parts.begin() + i);
      break;
    default: {
      Part p = parts[i];
      parts.erase(parts.begin() + i);
      parts.insert(parts.begin() + pick(rng, parts.size() + 1), std::move(p));
    }
  }
  return true;
}

}  // namespace

size_t mutate_vfp(uint8_t* data, size_t size, size_t max_size, unsigned seed,
                  const ByteMutator& bytes, bool rebind_hashes) {
  UseBytes use(bytes);
  static constexpr const char* kTags[] = {"VOX0", "SKEL", "VSKN", "ANIM", "MSH0",
                                          "PMSH", "RND0", "PRVW", "ANM0", "XTRA"};
  Rng rng(seed);
  auto split = split_as({data, size}, Container::Vfp);
  if (!split || split->parts.empty() || pick(rng, 16) == 0) return plain(data, size, max_size);
  Split& s = *split;
  const size_t room = room_for(size, max_size);
  Part& p = s.parts[pick(rng, s.parts.size())];
  switch (pick(rng, 10)) {
    case 0:
      edit_list(s.parts, rng);
      break;
    case 1:
      mutate_fixed(p.head.data(), p.head.size());
      break;
    case 2:
      std::memcpy(p.tag.data(), kTags[pick(rng, std::size(kTags))], 4);
      break;
    case 3:
      fix_rig_counts(p);
      break;
    case 4:
      mutate_fixed(&s.header[4], 4);
      break;  // versionMajor, versionMinor, headerFlags
    default:
      mutate_bytes(p.payload, room);
      if (pick(rng, 2)) fix_rig_counts(p);
  }
  const bool rebind = pick(rng, 16) != 0 && rebind_hashes;
  return emit(join_vfp(s, rebind), data, size, max_size);
}

// ---- RVC --------------------------------------------------------------------------------------

namespace {

uint32_t random_colour(Rng& rng) { return 0x80000000u | (uint32_t(rng()) & 0xFFFFFF); }

/// Makes a key frame's colour runs match its occupancy again (keeping the colours it had).
void fix_key_frame(RvcVoxelFrame& f, uint64_t cols, uint32_t owpc, Rng& rng) {
  if (f.occupancy.size() != cols * owpc || f.color_offsets.size() != cols + 1) return;
  std::vector<uint32_t> colors, offsets{0};
  for (uint64_t c = 0; c < cols; ++c) {
    uint32_t n = 0;
    for (uint32_t w = 0; w < owpc; ++w) n += uint32_t(std::popcount(f.occupancy[c * owpc + w]));
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t old = uint64_t{f.color_offsets[c]} + i;
      colors.push_back(old < f.colors.size() && old < f.color_offsets[c + 1] ? f.colors[old]
                                                                             : random_colour(rng));
    }
    offsets.push_back(uint32_t(colors.size()));
  }
  f.colors = std::move(colors);
  f.color_offsets = std::move(offsets);
}

/// A valid clip built from scratch: 1-4 random frames of a small grid (sometimes with stray
/// occupancy bits above dims[2], H8), deltas per a random key-frame interval (D24's rule).
RvcClip random_clip(Rng& rng) {
  const std::array<uint32_t, 3> dims{uint32_t(1 + pick(rng, 4)), uint32_t(1 + pick(rng, 4)),
                                     uint32_t(1 + pick(rng, 40))};
  const uint64_t cols = uint64_t{dims[0]} * dims[1];
  const uint32_t owpc = rvc_owpc(dims[2]);
  std::vector<RvcVoxelFrame> frames(1 + pick(rng, 4));
  for (RvcVoxelFrame& f : frames) {
    f.occupancy.resize(cols * owpc);
    for (size_t w = 0; w < f.occupancy.size(); ++w) {
      const uint32_t bits = dims[2] - uint32_t(w % owpc) * 32;
      const uint32_t mask = bits >= 32 || pick(rng, 8) == 0 ? ~0u : (1u << bits) - 1;
      f.occupancy[w] = uint32_t(rng()) & uint32_t(rng()) & mask;
    }
    f.color_offsets.assign(cols + 1, 0);
    fix_key_frame(f, cols, owpc, rng);
  }
  std::vector<uint32_t> durations;
  if (pick(rng, 2)) durations.assign(frames.size(), uint32_t(pick(rng, 50)));
  return rvc_from_frames(dims, {0.5f, 0.5f, 0.5f}, 1.0f, RvcLoopMode(pick(rng, 3)), frames,
                         durations, uint32_t(pick(rng, 100)), uint32_t(pick(rng, 4)));
}

/// One structured edit of a parsed clip; false when it did not apply.
bool edit_clip(RvcClip& c, Rng& rng, size_t room) {
  const uint64_t cols = uint64_t{c.meta.dims[0]} * c.meta.dims[1];
  const uint32_t owpc = rvc_owpc(c.meta.dims[2]);
  switch (pick(rng, 8)) {
    case 0: {  // duplicate, delete or move a chunk as stored
      if (c.chunks.empty()) return false;
      const size_t i = pick(rng, c.chunks.size());
      if (pick(rng, 2))
        c.chunks.insert(c.chunks.begin() + pick(rng, c.chunks.size()), c.chunks[i]);
      else
        c.chunks.erase(c.chunks.begin() + i);
      return true;
    }
    case 1: {  // mutate one chunk's inflated payload, store it deflated (D4) or raw
      if (c.chunks.empty()) return false;
      RvcChunk& ch = c.chunks[pick(rng, c.chunks.size())];
      Bytes raw = ch.inflated;
      mutate_bytes(raw, room);
      if (pick(rng, 2)) {
        ch = rvc_make_chunk(ch.tag, std::move(raw));
      } else {
        ch.flags = 0;
        ch.stored = raw;
        ch.inflated = std::move(raw);
      }
      return true;
    }
    case 2:  // META fields
      c.meta.dims[pick(rng, 3)] = pick(rng, 8) == 0 ? uint32_t(rng()) : uint32_t(1 + pick(rng, 8));
      c.meta.loop_mode = RvcLoopMode(pick(rng, 4));
      c.meta.default_frame_ms = uint32_t(pick(rng, 100));
      return rvc_update_meta(c).ok();
    case 3: {  // flip an occupancy bit in one frame and repair its colour runs
      if (c.frames.empty()) return false;
      const size_t at = pick(rng, c.frames.size());
      RvcEncodedFrame ef = c.frames.get(at);
      if (auto* k = std::get_if<RvcVoxelFrame>(&ef)) {
        if (k->occupancy.empty()) return false;
        k->occupancy[pick(rng, k->occupancy.size())] ^= 1u << pick(rng, 32);
        if (pick(rng, 4)) fix_key_frame(*k, cols, owpc, rng);
      } else {
        auto& d = std::get<RvcDeltaFrame>(ef);
        d.cols.push_back(uint32_t(pick(rng, 8) == 0 ? rng() : pick(rng, size_t(cols) + 1)));
        for (uint32_t w = 0; w < owpc; ++w) d.occupancy.push_back(uint32_t(rng()) & 0x0F0F);
        uint32_t n = 0;
        for (uint32_t w = 0; w < owpc; ++w)
          n += uint32_t(std::popcount(d.occupancy[d.occupancy.size() - 1 - w]));
        d.color_counts.push_back(n);
        for (uint32_t i = 0; i < n; ++i) d.colors.push_back(random_colour(rng));
      }
      c.frames.set(at, ef);
      return rvc_update_frames(c).ok();
    }
    case 4:  // append a copy of a frame or an empty delta
      c.frames.push_back(c.frames.empty() || pick(rng, 2)
                             ? RvcEncodedFrame(RvcDeltaFrame{})
                             : c.frames.get(pick(rng, c.frames.size())));
      return rvc_update_frames(c).ok();
    case 5:  // TIME present with random durations, or absent
      c.has_time = pick(rng, 4) != 0;
      c.durations.clear();
      if (c.has_time)
        for (uint32_t i = 0; i < c.meta.frame_count; ++i)
          c.durations.push_back(uint32_t(pick(rng, 40)));
      return rvc_update_time(c).ok();
    case 6:
      c = random_clip(rng);
      return true;
    default:  // v1 <-> v2 (v1 cannot hold flags)
      if (std::any_of(c.chunks.begin(), c.chunks.end(),
                      [](const RvcChunk& ch) { return ch.flags; }))
        return false;
      c.version = c.version == 1 ? 2 : 1;
      return true;
  }
}

/// A structured mutation of an RVC blob, or empty when it does not parse (the caller then
/// mutates bytes).
Bytes mutate_rvc_blob(View in, Rng& rng, size_t room) {
  auto r = decode_rvc(in, 0, rvc_options());
  if (!r.ok()) return pick(rng, 4) == 0 ? encoded(encode_rvc(random_clip(rng))) : Bytes{};
  RvcClip c = std::move(r).value();
  for (int tries = 0; tries < 4 && !edit_clip(c, rng, room); ++tries) {
  }
  auto out = encode_rvc(c);
  return out.ok() ? std::move(out).value() : Bytes{};
}

}  // namespace

size_t mutate_rvc(uint8_t* data, size_t size, size_t max_size, unsigned seed,
                  const ByteMutator& bytes) {
  UseBytes use(bytes);
  Rng rng(seed);
  if (pick(rng, 8) == 0) return plain(data, size, max_size);
  const size_t room = room_for(size, max_size);
  return emit(mutate_rvc_blob({data, size}, rng, room), data, size, max_size);
}

// ---- RKCH -------------------------------------------------------------------------------------

namespace {

/// MSHS / VCLP: count u32, then {u32 len, blob} (testing's split_blobs / join_blobs); bytes after
/// the listed blobs are kept.
void edit_blob_list(Part& p, Rng& rng, size_t room) {
  Bytes& b = p.payload;
  if (b.size() < 4) b.assign(4, 0);
  BlobList list = split_blobs(b);
  std::vector<Bytes>& blobs = list.blobs;
  const size_t i = pick(rng, blobs.size());
  const uint8_t op = uint8_t(pick(rng, 6));
  if (blobs.empty() || op == 0) {
    blobs.push_back(p.is("VCLP") ? tiny_rvc() : unit_kv6());
  } else if (op == 1) {
    blobs.insert(blobs.begin() + pick(rng, blobs.size()), blobs[i]);
  } else if (op == 2) {
    blobs.erase(blobs.begin() + i);
  } else {
    Bytes edited = p.is("VCLP") && op != 3 ? mutate_rvc_blob(blobs[i], rng, room) : Bytes{};
    if (edited.empty())
      mutate_bytes(blobs[i], room);
    else
      blobs[i] = std::move(edited);
  }
  b = join_blobs(list);
}

/// BONS: recount the complete bones and give each a random parent in range (or -1), so
/// mutated skeletons get past the count and reach the attachment / parent / cycle checks.
void fix_bones(Part& p, Rng& rng) {
  const auto r = recount(p);
  if (!r) return;
  const size_t n = r->records.size();
  for (const Record& bone : r->records)  // the hinge is a bone's last 64 bytes
    if (pick(rng, 2)) put_u32(&p.payload[bone.end - 64], uint32_t(int32_t(pick(rng, n + 1)) - 1));
}

/// CLPS: count u32, then {u16 name_len, name, u16 kind, u32 payload_len, body}. Mutates one
/// record's body (for a skeletal body also repairing numhin / numfrm / seqcount against
/// `bones`), recomputing every length.
void edit_clips(Part& p, Rng& rng, size_t room, uint32_t bones) {
  using Rec = ClipRecord;
  std::vector<Rec> recs = split_clips(p.payload);
  if (recs.empty() || pick(rng, 8) == 0) recs.push_back(Rec{{'c'}, 0, Bytes(12, 0)});
  Rec& r = recs[pick(rng, recs.size())];
  if (pick(rng, 3) == 0) r.kind = uint16_t(pick(rng, 3));
  mutate_bytes(pick(rng, 8) == 0 ? r.name : r.body, room);
  if (r.kind == 0 && pick(rng, 4) != 0) {  // repair the skeletal body's counts
    Bytes& body = r.body;
    if (body.size() < 12) body.resize(12, 0);
    put_u32(&body[4], bones);
    const size_t cell = size_t{bones} * 40;
    const size_t frames = cell ? std::min<size_t>(get_u32(body, 0), (body.size() - 12) / cell)
                               : std::min<size_t>(get_u32(body, 0), 64);
    put_u32(&body[0], uint32_t(frames));
    const size_t at = 8 + frames * cell;
    const size_t seq = std::min<size_t>(get_u32(body, at), (body.size() - at - 4) / 8);
    put_u32(&body[at], uint32_t(seq));
    body.resize(at + 4 + seq * 8);
  }
  p.payload = join_clips(recs);
}

}  // namespace

size_t mutate_rkc(uint8_t* data, size_t size, size_t max_size, unsigned seed,
                  const ByteMutator& bytes) {
  UseBytes use(bytes);
  static constexpr const char* kTags[] = {"META", "MSHS", "BONS", "CLPS", "VCLP", "XTRA"};
  Rng rng(seed);
  auto split = split_as({data, size}, Container::Rkch);
  if (!split || split->parts.empty() || pick(rng, 16) == 0) return plain(data, size, max_size);
  Split& s = *split;
  const size_t room = room_for(size, max_size);
  uint32_t bones = 0;
  for (const Part& q : s.parts)
    if (q.is("BONS") && q.payload.size() >= 4) bones = get_u32(q.payload, 0);
  Part& p = s.parts[pick(rng, s.parts.size())];
  switch (pick(rng, 8)) {
    case 0:
      edit_list(s.parts, rng);
      break;
    case 1:
      std::memcpy(p.tag.data(), kTags[pick(rng, std::size(kTags))], 4);
      break;
    case 2:
    case 3:
    case 4:
      if (p.is("MSHS") || p.is("VCLP"))
        edit_blob_list(p, rng, room);
      else if (p.is("CLPS"))
        edit_clips(p, rng, room, bones);
      else if (p.is("BONS"))
        fix_bones(p, rng);
      else
        mutate_bytes(p.payload, room);
      break;
    default:
      mutate_bytes(p.payload, room);
      if (p.is("BONS") && pick(rng, 2)) fix_bones(p, rng);
  }
  return emit(join(s), data, size, max_size);
}

Bytes unit_kv6() {
  LeBytes k;
  k.str("Kvxl").u32(1).u32(1).u32(1).f32(0.5f).f32(0.5f).f32(0.5f);
  k.u32(1).u32(0x80FF4000).u16(0).u8(0x3f).u8(0).u32(1).u16(1);
  return k.bytes();
}

Bytes tiny_rvc() {
  LeBytes meta;
  meta.u32(1).u32(1).u32(1).f32(0.5f).f32(0.5f).f32(0.5f).f32(1.0f).u8(0).u32(33).u32(1);
  LeBytes frms;
  frms.u8(0).u32(1).u32(1).u32(2).u32(0).u32(1).u32(1).u32(0x80112233);
  LeBytes f;
  f.str("RVCL").u16(2);
  f.str("META").u8(0).u32(uint32_t(meta.bytes().size())).raw(meta.bytes());
  f.str("FRMS").u8(0).u32(uint32_t(frms.bytes().size())).raw(frms.bytes());
  return f.bytes();
}

}  // namespace voxrig::testing
