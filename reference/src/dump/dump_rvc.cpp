// The canonical dump of an RVC clip (docs/dump-schema.md, "RVC").
//
// Object layout, keys in this order:
// | key          | value                                                                      |
// |--------------|----------------------------------------------------------------------------|
// | version      | u16 as stored                                                              |
// | chunks       | [{tag, flags, deflated, stored {count, sha256}, inflated {count, sha256}}] |
// | meta         | {dims [3], pivot [3 f32], voxel_world_size, loop_mode, default_frame_ms,   |
// |              |  frame_count} of the last META                                             |
// | frames       | [{kind "key", occupancy, color_offsets, colors} |                          |
// |              |  {kind "delta", columns, cols, occupancy, color_counts, colors}] (digests) |
// | durations    | TIME values inline, or null when there is no TIME chunk                    |
// Digests are {"count": n, "sha256": hex} over the array as little-endian u32 bytes (D17).
#include <string>

#include "dump/dump_internal.h"
#include "voxrig/json_out.h"
#include "voxrig/rvc.h"
#include "voxrig/sha256.h"
#include "voxrig/utf8.h"

namespace voxrig {

namespace {

void digest_u32s(JsonOut& out, std::string_view key, const std::vector<uint32_t>& v) {
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

  out.key("frames");
  out.begin_array();
  for (const RvcEncodedFrame& f : clip.frames) {
    out.begin_object();
    if (const auto* key = std::get_if<RvcVoxelFrame>(&f)) {
      out.field_string("kind", "key");
      digest_u32s(out, "occupancy", key->occupancy);
      digest_u32s(out, "color_offsets", key->color_offsets);
      digest_u32s(out, "colors", key->colors);
    } else {
      const auto& d = std::get<RvcDeltaFrame>(f);
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

  out.key("durations");
  if (!clip.has_time) {
    out.value_null();
  } else {
    out.begin_array(true);
    for (uint32_t d : clip.durations) out.value_u64(d);
    out.end_array();
  }
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
