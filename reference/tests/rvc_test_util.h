// Hand-written RVC byte builder for tests: independent of the code under test (it shares no
// code with reference/src), deflate made with zlib directly.
#pragma once

#include <zlib.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "voxrig/rvc.h"
#include "voxrig/testing/deflate.h"
#include "voxrig/testing/le_bytes.h"

namespace rvctest {

using Bytes = std::vector<uint8_t>;

using voxrig::testing::LeBytes;

inline void put_bytes(Bytes& b, const Bytes& x) { b.insert(b.end(), x.begin(), x.end()); }
inline void put_tag(Bytes& b, const char* t) { b.insert(b.end(), t, t + 4); }

/// META payload (37 bytes) + optional trailing bytes.
inline Bytes meta(std::array<uint32_t, 3> dims, uint32_t frame_count, uint8_t loop_mode = 0,
                  uint32_t default_ms = 33, std::array<float, 3> pivot = {0.5f, 0.5f, 2.0f},
                  float size = 1.0f) {
  LeBytes b;
  for (uint32_t d : dims) b.u32(d);
  for (float f : pivot) b.f32(f);
  b.f32(size).u8(loop_mode).u32(default_ms).u32(frame_count);
  return b.bytes();
}

inline void put_array(LeBytes& b, const std::vector<uint32_t>& v) {
  b.u32(uint32_t(v.size()));
  for (uint32_t x : v) b.u32(x);
}

/// A Key frame: kind 0, then occupancy, color_offsets, colors (on-disk order).
inline Bytes key(const std::vector<uint32_t>& occ, const std::vector<uint32_t>& offs,
                 const std::vector<uint32_t>& colors) {
  LeBytes b;
  b.u8(0);
  put_array(b, occ);
  put_array(b, offs);
  put_array(b, colors);
  return b.bytes();
}

struct Col {
  uint32_t col;
  std::vector<uint32_t> words;  // exactly owpc
  std::vector<uint32_t> colors;
};
/// A Delta frame: kind 1, changed_count, per column col, words (no count), colours (counted).
inline Bytes delta(const std::vector<Col>& cols) {
  LeBytes b;
  b.u8(1).u32(uint32_t(cols.size()));
  for (const Col& c : cols) {
    b.u32(c.col);
    for (uint32_t w : c.words) b.u32(w);
    put_array(b, c.colors);
  }
  return b.bytes();
}

inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes b;
  for (const Bytes& p : parts) put_bytes(b, p);
  return b;
}

inline Bytes u32s(std::initializer_list<uint32_t> v) {
  LeBytes b;
  for (uint32_t x : v) b.u32(x);
  return b.bytes();
}

/// Raw DEFLATE made with zlib directly (voxrig/testing/deflate.h; Z_RLE etc. from <zlib.h>).
using voxrig::testing::raw_deflate;

/// A deflated chunk payload: raw_len u32 (declared; defaults to raw.size()) + stream + junk.
inline Bytes deflated(const Bytes& raw, int level = 8, const Bytes& junk = {}) {
  return LeBytes().u32(uint32_t(raw.size())).raw(raw_deflate(raw, level)).raw(junk).bytes();
}

/// A v2 chunk: tag, flags, len, payload.
inline Bytes chunk(const char* tag, const Bytes& payload, uint8_t flags = 0) {
  return LeBytes().str({tag, 4}).u8(flags).u32(uint32_t(payload.size())).raw(payload).bytes();
}
/// A v1 chunk: tag, len, payload.
inline Bytes chunk_v1(const char* tag, const Bytes& payload) {
  return LeBytes().chunk({tag, 4}, payload).bytes();
}

/// "RVCL" + version + chunks.
inline Bytes file(std::initializer_list<Bytes> chunks, uint16_t version = 2) {
  LeBytes b;
  b.str("RVCL").u16(version);
  for (const Bytes& c : chunks) b.raw(c);
  return b.bytes();
}

/// The D24 seed frame: dims [1,1,4], one voxel at z=0.
inline Bytes seed_key() { return key({1}, {0, 1}, {0x80112233}); }

/// A small valid clip: dims [1,1,4], key + delta.
inline Bytes small_clip() {
  return file({chunk("META", meta({1, 1, 4}, 2)),
               chunk("FRMS", cat({seed_key(), delta({{0, {3}, {0x80010203, 0x80040506}}})})),
               chunk("TIME", u32s({10, 20}))});
}

inline voxrig::DecodeOptions strict() {
  voxrig::DecodeOptions o;
  o.profile = voxrig::Profile::RkcStrict;
  return o;
}
inline voxrig::DecodeOptions compat() {
  voxrig::DecodeOptions o;
  o.profile = voxrig::Profile::RkcCompat;
  return o;
}

inline std::string code_of(const voxrig::Result<voxrig::RvcClip>& r) {
  return r.ok() ? std::string("ok") : std::string(voxrig::to_string(r.error().code));
}
template <class T>
std::string code_of_any(const voxrig::Result<T>& r) {
  return r.ok() ? std::string("ok") : std::string(voxrig::to_string(r.error().code));
}
inline std::string code_of_status(const voxrig::Status& s) {
  return s.ok() ? std::string("ok") : std::string(voxrig::to_string(s.error().code));
}

}  // namespace rvctest
