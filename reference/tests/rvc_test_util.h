// Hand-written RVC byte builder for tests: independent of the code under test (it shares no
// code with reference/src), deflate made with zlib directly.
#pragma once

#include <zlib.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "voxrig/rvc.h"
#include "voxrig/testing/deflate.h"

namespace rvctest {

using Bytes = std::vector<uint8_t>;

inline void put_u8(Bytes& b, uint8_t v) { b.push_back(v); }
inline void put_u16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v));
  b.push_back(uint8_t(v >> 8));
}
inline void put_u32(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
inline void put_f32(Bytes& b, float f) { put_u32(b, std::bit_cast<uint32_t>(f)); }
inline void put_bytes(Bytes& b, const Bytes& x) { b.insert(b.end(), x.begin(), x.end()); }
inline void put_tag(Bytes& b, const char* t) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(t[i]));
}

/// META payload (37 bytes) + optional trailing bytes.
inline Bytes meta(std::array<uint32_t, 3> dims, uint32_t frame_count, uint8_t loop_mode = 0,
                  uint32_t default_ms = 33, std::array<float, 3> pivot = {0.5f, 0.5f, 2.0f},
                  float size = 1.0f) {
  Bytes b;
  for (uint32_t d : dims) put_u32(b, d);
  for (float f : pivot) put_f32(b, f);
  put_f32(b, size);
  put_u8(b, loop_mode);
  put_u32(b, default_ms);
  put_u32(b, frame_count);
  return b;
}

inline void put_array(Bytes& b, const std::vector<uint32_t>& v) {
  put_u32(b, uint32_t(v.size()));
  for (uint32_t x : v) put_u32(b, x);
}

/// A Key frame: kind 0, then occupancy, color_offsets, colors (on-disk order).
inline Bytes key(const std::vector<uint32_t>& occ, const std::vector<uint32_t>& offs,
                 const std::vector<uint32_t>& colors) {
  Bytes b{0};
  put_array(b, occ);
  put_array(b, offs);
  put_array(b, colors);
  return b;
}

struct Col {
  uint32_t col;
  std::vector<uint32_t> words;  // exactly owpc
  std::vector<uint32_t> colors;
};
/// A Delta frame: kind 1, changed_count, per column col, words (no count), colours (counted).
inline Bytes delta(const std::vector<Col>& cols) {
  Bytes b{1};
  put_u32(b, uint32_t(cols.size()));
  for (const Col& c : cols) {
    put_u32(b, c.col);
    for (uint32_t w : c.words) put_u32(b, w);
    put_array(b, c.colors);
  }
  return b;
}

inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes b;
  for (const Bytes& p : parts) put_bytes(b, p);
  return b;
}

inline Bytes u32s(std::initializer_list<uint32_t> v) {
  Bytes b;
  for (uint32_t x : v) put_u32(b, x);
  return b;
}

/// Raw DEFLATE made with zlib directly (voxrig/testing/deflate.h; Z_RLE etc. from <zlib.h>).
using voxrig::testing::raw_deflate;

/// A deflated chunk payload: raw_len u32 (declared; defaults to raw.size()) + stream + junk.
inline Bytes deflated(const Bytes& raw, int level = 8, const Bytes& junk = {}) {
  Bytes b;
  put_u32(b, uint32_t(raw.size()));
  put_bytes(b, raw_deflate(raw, level));
  put_bytes(b, junk);
  return b;
}

/// A v2 chunk: tag, flags, len, payload.
inline Bytes chunk(const char* tag, const Bytes& payload, uint8_t flags = 0) {
  Bytes b;
  put_tag(b, tag);
  put_u8(b, flags);
  put_u32(b, uint32_t(payload.size()));
  put_bytes(b, payload);
  return b;
}
/// A v1 chunk: tag, len, payload.
inline Bytes chunk_v1(const char* tag, const Bytes& payload) {
  Bytes b;
  put_tag(b, tag);
  put_u32(b, uint32_t(payload.size()));
  put_bytes(b, payload);
  return b;
}

/// "RVCL" + version + chunks.
inline Bytes file(std::initializer_list<Bytes> chunks, uint16_t version = 2) {
  Bytes b;
  put_tag(b, "RVCL");
  put_u16(b, version);
  for (const Bytes& c : chunks) put_bytes(b, c);
  return b;
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
