// The RVC breakers (voxrig/testing/rule_breakers.h): one edit per rule of docs/spec/rvc.md (and
// the RVC limits of limits.md) at a chosen frame, on a standalone clip and on the 6th clip of an
// RKCH VCLP chunk.
//
// Why both: a reader may parse a standalone .rvc and the clips nested in an .rkc through different
// paths (the nested one adds VCLP/clip[i] to every error path, D12). Edits go through the clip
// model where it can hold the broken value (META fields, a frame), re-encoding the chunk as a
// writer would (deflated when that pays, D4), and through the chunk bytes where it cannot (a
// frame kind, a broken deflate stream, the magic, a cut); the RKCH variant re-frames the VCLP blob
// and the chunk around the edited clip (layout.h).
#include "rule_breakers_internal.h"
#include "voxrig/limits.h"
#include "voxrig/rvc.h"
#include "voxrig/testing/layout.h"

namespace voxrig::testing::detail {
namespace {

constexpr size_t kDeepFrame = 6, kDeepVclp = 5, kDeepColumn = 17;
constexpr std::array<char, 4> kFrms = {'F', 'R', 'M', 'S'};

size_t frame_index(const RvcClip& c, BreakAt p) {
  return break_index(p, c.frames.size(), kDeepFrame);
}

// The last FRMS chunk (the one the views come from), or nullptr.
RvcChunk* frms(RvcClip& c) {
  for (auto it = c.chunks.rbegin(); it != c.chunks.rend(); ++it)
    if (it->tag == kFrms) return &*it;
  return nullptr;
}

// The clip's first key frame, the base of the frame edits (a key frame is valid anywhere).
std::optional<RvcVoxelFrame> first_key(const RvcClip& c) {
  for (size_t i = 0; i < c.frames.size(); ++i)
    if (c.frames.is_key(i)) return c.frames.key(i).to_frame();
  return std::nullopt;
}

// Frame i becomes `f`, FRMS re-encoded.
bool set_frame(RvcClip& c, size_t i, const RvcEncodedFrame& f) {
  c.frames.set(i, f);
  return rvc_update_frames(c).ok();
}

bool edit_meta(RvcClip& c, void (*edit)(RvcMeta&)) {
  edit(c.meta);
  return rvc_update_meta(c).ok();
}

using ClipEdit = bool (*)(RvcClip&, BreakAt);
using BytesEdit = bool (*)(Bytes&, BreakAt);

struct RvcBreaker {
  const char* rule;
  const char* variant;
  ClipEdit edit = nullptr;   // on the decoded clip, then encode_rvc
  BytesEdit after = nullptr; // on the clip's bytes
  bool positional = false;   // true: at every frame position; false: once
  bool strict_only = false;  // a frame-decode rule: rkc-compat gives the parse-only verdict (D8)
  Where where = Where::Both;
};

const RvcBreaker kRvcBreakers[] = {
    // A standalone file with another magic is no RVC file (file.unknown_format, D7).
    {"RVC-1", "", nullptr, [](Bytes& b, BreakAt) { return b[0] = 'X', true; }, false, false,
     Where::Nested},
    {"RVC-2", "", nullptr, [](Bytes& b, BreakAt) { return b[4] = 3, b[5] = 0, true; }},
    {"RVC-3", "", nullptr,
     [](Bytes& b, BreakAt) { return b.size() > 8 && (b.resize(b.size() - 2), true); }},
    {"RVC-4", "",
     [](RvcClip& c, BreakAt) {  // BFINAL 1, BTYPE 3: a block type RFC 1951 reserves
       RvcChunk* f = frms(c);
       return f && f->deflated() && f->stored.size() > 4 && (f->stored[4] = 0xFF, true);
     }},
    {"RVC-8", "",
     [](RvcClip& c, BreakAt) {  // every META chunk renamed: an unknown chunk, kept
       bool any = false;
       for (RvcChunk& ch : c.chunks)
         if (ch.tag == std::array<char, 4>{'M', 'E', 'T', 'A'}) ch.tag[0] = 'X', any = true;
       return any;
     }},
    {"RVC-9", "",
     [](RvcClip& c, BreakAt) {
       return edit_meta(c, [](RvcMeta& m) { m.loop_mode = RvcLoopMode(3); });
     }},
    {"RVC-10", "",
     [](RvcClip& c, BreakAt) { return edit_meta(c, [](RvcMeta& m) { m.dims[1] = 0; }); }},
    {"LIM-11", "",  // one frame over the META frame_count limit
     [](RvcClip& c, BreakAt) {
       return edit_meta(c, [](RvcMeta& m) { m.frame_count = uint32_t(Limits{}.rvc_frames + 1); });
     }},
    {"RVC-11", "",
     [](RvcClip& c, BreakAt p) {  // the frame's kind byte becomes 2 (neither key nor delta)
       RvcChunk* f = frms(c);
       if (!f || c.frames.empty()) return false;
       std::vector<uint8_t> raw = f->inflated;
       const uint64_t at = c.frames.stored_offset(frame_index(c, p));
       if (at >= raw.size()) return false;
       raw[at] = 2;
       rvc_put_chunk(c, rvc_make_chunk(kFrms, std::move(raw)));
       return true;
     },
     nullptr, true},
    {"RVC-13", "occupancy",
     [](RvcClip& c, BreakAt p) {  // one occupancy word short
       auto k = first_key(c);
       return k && !k->occupancy.empty() &&
              (k->occupancy.pop_back(), set_frame(c, frame_index(c, p), *k));
     },
     nullptr, true, true},
    {"RVC-13", "mismatch",
     [](RvcClip& c, BreakAt p) {  // a deep column gains or loses a voxel, not a colour
       auto k = first_key(c);
       if (!k || k->color_offsets.size() < 2) return false;
       const size_t cols = k->color_offsets.size() - 1, owpc = k->occupancy.size() / cols;
       const size_t col = break_index(p, cols, kDeepColumn);
       return owpc && (k->occupancy[col * owpc] ^= 1, set_frame(c, frame_index(c, p), *k));
     },
     nullptr, true, true},
    {"RVC-14", "before-key",
     [](RvcClip& c, BreakAt) { return !c.frames.empty() && set_frame(c, 0, RvcDeltaFrame{}); },
     nullptr, false, true},
    {"RVC-14", "column",
     [](RvcClip& c, BreakAt p) {  // a delta listing the column one past the last (frame >= 1)
       if (c.frames.size() < 2) return false;
       const uint32_t cols = c.meta.dims[0] * c.meta.dims[1];
       RvcDeltaFrame d;
       d.cols = {cols};
       d.occupancy.assign(rvc_owpc(c.meta.dims[2]), 0);
       d.color_counts = {0};
       return set_frame(c, std::max<size_t>(1, frame_index(c, p)), d);
     },
     nullptr, true, true},
    {"RVC-15", "",  // 4096^3: every axis within rvc.limit.dims, the state 8 GiB
     [](RvcClip& c, BreakAt) {
       // Key frames only: a delta's listings hold owpc words, so new dims would cut them short.
       auto k = first_key(c);
       if (!k) return false;
       const size_t n = c.frames.size();
       c.frames.clear();
       for (size_t i = 0; i < n; ++i) c.frames.push_back(*k);
       return rvc_update_frames(c).ok() &&
              edit_meta(c, [](RvcMeta& m) { m.dims = {4096, 4096, 4096}; });
     },
     nullptr, false, true},
};

Bytes break_clip(const RvcBreaker& b, BreakAt pos, std::span<const uint8_t> in) {
  auto decoded = decode_rvc(in, 0, DecodeOptions{Profile::RkcCompat, Limits{}});
  if (!decoded.ok()) return {};
  Bytes out(in.begin(), in.end());
  if (b.edit) {
    RvcClip c = std::move(decoded).value();
    if (!b.edit(c, pos)) return {};
    auto bytes = encode_rvc(c);
    if (!bytes.ok()) return {};
    out = std::move(bytes).value();
  }
  if (b.after && !b.after(out, pos)) return {};
  return out;
}

std::vector<NestedBreakerSpec> specs() {
  std::vector<NestedBreakerSpec> out;
  for (const RvcBreaker& b : kRvcBreakers)
    out.push_back({b.rule, b.variant, b.positional, b.strict_only, b.where});
  return out;
}

}  // namespace

std::vector<std::string> rvc_breakable(Profile profile) {
  return nested_breakable(specs(), profile);
}

std::vector<conform::FuzzMutator> rvc_breakers(Profile profile) {
  return nested_breakers(specs(), profile, "VCLP", kDeepVclp,
                         [](size_t i, BreakAt pos, std::span<const uint8_t> in) {
                           return break_clip(kRvcBreakers[i], pos, in);
                         });
}

}  // namespace voxrig::testing::detail
