// The canonical dump of an RVC clip (docs/spec/dump.md, "RVC").
//
// Object layout, keys in this order:
// | key          | value                                                                      |
// |--------------|----------------------------------------------------------------------------|
// | version      | u16 as stored                                                              |
// | chunks       | [{tag, flags, deflated, stored {count, sha256}, inflated {count, sha256}}] |
// | meta         | {dims [3], pivot [3 f32], voxel_world_size, loop_mode, default_frame_ms,   |
// |              |  frame_count} of the last META                                             |
// | frames       | the first kDumpInlineFrames frames: [{kind "key", occupancy,               |
// |              |  color_offsets, colors} | {kind "delta", columns, cols, occupancy,         |
// |              |  color_counts, colors}] (digests)                                          |
// | frames_rest  | digest of the remaining frames' FRMS bytes (count = frames folded)         |
// | durations    | the first kDumpInlineFrames TIME values inline, or null without TIME       |
// | durations_rest | digest of the remaining TIME values, or null without TIME                |
// Digests are {"count": n, "sha256": hex} over the array as little-endian u32 bytes (D17).
// Why the fold: a deflated FRMS of 2^20 empty deltas is ~7 KB, and one inline entry per frame
// would print ~600 MB; folding keeps every dump within 1 MiB + 64 x the input size.
#include <algorithm>
#include <string>

#include "dump/dump_internal.h"
#include "voxrig/json_out.h"
#include "voxrig/rvc.h"
#include "voxrig/sha256.h"
#include "voxrig/utf8.h"

namespace voxrig {

namespace {

void digest_u32s(JsonOut& out, std::string_view key, std::span<const uint32_t> v) {
  Sha256Stream h;
  uint8_t buf[4096];
  size_t n = 0;
  for (uint32_t x : v) {
    for (int b = 0; b < 4; ++b) buf[n++] = static_cast<uint8_t>(x >> (8 * b));
    if (n == sizeof buf) {
      h.update(buf);
      n = 0;
    }
  }
  h.update(std::span<const uint8_t>(buf, n));
  const Sha256 d = h.finish();
  out.key(key);
  out.begin_object();
  out.field_u64("count", v.size());
  out.field_string("sha256", to_hex(d));
  out.end_object();
}

/// Hashes little-endian u32s (and single bytes) through a 4 KiB buffer.
class LeHasher {
 public:
  void u8(uint8_t b) {
    buf_[n_++] = b;
    if (n_ == sizeof buf_) flush();
  }
  void u32(uint32_t x) {
    for (int b = 0; b < 4; ++b) u8(static_cast<uint8_t>(x >> (8 * b)));
  }
  void u32s(std::span<const uint32_t> v, size_t from, size_t n) {
    for (size_t i = from; i < from + n && i < v.size(); ++i) u32(v[i]);
  }
  Sha256 finish() {
    flush();
    return h_.finish();
  }

 private:
  void flush() {
    h_.update(std::span<const uint8_t>(buf_, n_));
    n_ = 0;
  }
  Sha256Stream h_;
  uint8_t buf_[4096];
  size_t n_ = 0;
};

void field_digest(JsonOut& out, std::string_view key, uint64_t count, const Sha256& d) {
  out.key(key);
  out.begin_object();
  out.field_u64("count", count);
  out.field_string("sha256", to_hex(d));
  out.end_object();
}

/// frames[from..] in their FRMS byte form (docs/spec/rvc.md#frms; the bytes a parsed clip stored).
void digest_frames_rest(JsonOut& out, const RvcClip& clip, size_t from) {
  LeHasher h;
  const uint32_t owpc = rvc_owpc(clip.meta.dims[2]);
  for (size_t i = from; i < clip.frames.size(); ++i) {
    if (clip.frames.is_key(i)) {
      const RvcKeyView key = clip.frames.key(i);
      h.u8(0);
      for (std::span<const uint32_t> v : {key.occupancy, key.color_offsets, key.colors}) {
        h.u32(static_cast<uint32_t>(v.size()));
        h.u32s(v, 0, v.size());
      }
    } else {
      const RvcDeltaView d = clip.frames.delta(i);
      h.u8(1);
      h.u32(static_cast<uint32_t>(d.cols.size()));
      size_t ci = 0;
      for (size_t c = 0; c < d.cols.size(); ++c) {
        const uint32_t n = c < d.color_counts.size() ? d.color_counts[c] : 0;
        h.u32(d.cols[c]);
        h.u32s(d.occupancy, c * owpc, owpc);
        h.u32(n);
        h.u32s(d.colors, ci, n);
        ci += n;
      }
    }
  }
  const size_t folded = clip.frames.size() > from ? clip.frames.size() - from : 0;
  field_digest(out, "frames_rest", folded, h.finish());
}

void digest_bytes(JsonOut& out, std::string_view key, const std::vector<uint8_t>& v) {
  out.key(key);
  out.value_digest(v.size(), v);
}

void dump_fields(JsonOut& out, const RvcClip& clip) {
  out.field_u64("version", clip.version);
  out.key("chunks");
  out.begin_array();
  for (const RvcChunk& c : clip.chunks) {
    out.begin_object();
    out.field_string("tag", latin1_to_utf8(std::span<const uint8_t>(
                                reinterpret_cast<const uint8_t*>(c.tag.data()), c.tag.size())));
    out.field_u64("flags", c.flags);
    out.field_bool("deflated", c.deflated());
    digest_bytes(out, "stored", c.stored);
    digest_bytes(out, "inflated", c.inflated);
    out.end_object();
  }
  out.end_array();

  const RvcMeta& m = clip.meta;
  out.key("meta");
  out.begin_object();
  out.key("dims");
  out.begin_array(true);
  for (uint32_t d : m.dims) out.value_u64(d);
  out.end_array();
  out.field_f32s("pivot", m.pivot);
  out.field_f32("voxel_world_size", m.voxel_world_size);
  out.field_u64("loop_mode", static_cast<uint8_t>(m.loop_mode));
  out.field_u64("default_frame_ms", m.default_frame_ms);
  out.field_u64("frame_count", m.frame_count);
  out.end_object();

  const size_t inline_frames = std::min<size_t>(clip.frames.size(), detail::kDumpInlineFrames);
  out.key("frames");
  out.begin_array();
  for (size_t i = 0; i < inline_frames; ++i) {
    out.begin_object();
    if (clip.frames.is_key(i)) {
      const RvcKeyView key = clip.frames.key(i);
      out.field_string("kind", "key");
      digest_u32s(out, "occupancy", key.occupancy);
      digest_u32s(out, "color_offsets", key.color_offsets);
      digest_u32s(out, "colors", key.colors);
    } else {
      const RvcDeltaView d = clip.frames.delta(i);
      out.field_string("kind", "delta");
      out.field_u64("columns", d.cols.size());
      digest_u32s(out, "cols", d.cols);
      digest_u32s(out, "occupancy", d.occupancy);
      digest_u32s(out, "color_counts", d.color_counts);
      digest_u32s(out, "colors", d.colors);
    }
    out.end_object();
  }
  out.end_array();
  digest_frames_rest(out, clip, inline_frames);

  out.key("durations");
  if (!clip.has_time) {
    out.value_null();
    out.key("durations_rest");
    out.value_null();
    return;
  }
  const size_t inline_durations =
      std::min<size_t>(clip.durations.size(), detail::kDumpInlineFrames);
  out.begin_array(true);
  for (size_t i = 0; i < inline_durations; ++i) out.value_u64(clip.durations[i]);
  out.end_array();
  LeHasher h;
  h.u32s(clip.durations, inline_durations, clip.durations.size() - inline_durations);
  field_digest(out, "durations_rest", clip.durations.size() - inline_durations, h.finish());
}

}  // namespace

void dump_rvc_into(JsonOut& out, const RvcClip& clip) {
  out.begin_object();
  dump_fields(out, clip);
  out.end_object();
}

std::string dump_rvc(const RvcClip& clip) {
  JsonOut out;
  detail::begin_dump(out, "rvc");
  dump_fields(out, clip);
  out.end_object();
  return out.take();
}

}  // namespace voxrig
