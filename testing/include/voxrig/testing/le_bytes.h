// voxrig/testing/le_bytes.h — the chainable little-endian builder the hand-written test files
// are assembled with (unit tests, properties, fuzz contexts, benchmarks). It is a thin layer on
// the codec's public voxrig::ByteWriter, so the LE encoding has one home; what it adds is
// chaining (b.u16(1).u32(n).str("META")) and the few framings the tests write by hand; le_u32
// reads a length back through the codec's ByteReader.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "voxrig/byte_reader.h"
#include "voxrig/byte_writer.h"
#include "voxrig/error.h"

namespace voxrig::testing {

/// Appends little-endian fields to a byte vector it owns; every call returns *this. Header-only,
/// allocates as the vector grows. Nothing is checked: tests build broken files on purpose.
class LeBytes {
 public:
  LeBytes& u8(uint8_t v) {
    w_.u8(v);
    return *this;
  }
  LeBytes& u16(uint16_t v) {
    w_.u16(v);
    return *this;
  }
  LeBytes& u32(uint32_t v) {
    w_.u32(v);
    return *this;
  }
  LeBytes& i16(int16_t v) {
    w_.i16(v);
    return *this;
  }
  LeBytes& i32(int32_t v) {
    w_.i32(v);
    return *this;
  }
  /// The binary32 bit pattern of v.
  LeBytes& f32(float v) {
    w_.f32(v);
    return *this;
  }
  /// A binary32 given as its bit pattern (NaN payloads, signalling NaNs).
  LeBytes& f32bits(uint32_t v) {
    w_.u32(v);
    return *this;
  }
  LeBytes& str(std::string_view s) {
    w_.bytes(s);
    return *this;
  }
  LeBytes& raw(std::span<const uint8_t> v) {
    w_.bytes(v);
    return *this;
  }
  LeBytes& raw(std::initializer_list<uint8_t> v) {
    w_.bytes(std::span<const uint8_t>(v.begin(), v.size()));
    return *this;
  }
  LeBytes& raw(const LeBytes& v) { return raw(v.bytes()); }
  LeBytes& zeros(size_t n) {
    w_.zeros(n);
    return *this;
  }
  /// n copies of v.
  LeBytes& fill(size_t n, uint8_t v) {
    for (size_t i = 0; i < n; ++i) w_.u8(v);
    return *this;
  }
  /// An RKCH-style chunk: 4-byte tag, u32 payload length, payload.
  LeBytes& chunk(std::string_view tag, std::span<const uint8_t> payload) {
    return str(tag).u32(static_cast<uint32_t>(payload.size())).raw(payload);
  }
  LeBytes& chunk(std::string_view tag, const LeBytes& payload) {
    return chunk(tag, payload.bytes());
  }
  /// A u16-length-prefixed string (RKCH names).
  LeBytes& name(std::string_view s) { return u16(static_cast<uint16_t>(s.size())).str(s); }

  size_t size() const { return w_.size(); }
  const std::vector<uint8_t>& bytes() const { return w_.data(); }
  std::vector<uint8_t>& bytes() { return w_.data(); }

 private:
  ByteWriter w_;
};

/// The u32 stored little-endian at b[at, at + 4), read with the codec's ByteReader; 0 when fewer
/// than 4 bytes are left there. For bytes a test wrote or checked itself.
inline uint32_t le_u32(std::span<const uint8_t> b, size_t at) {
  if (at > b.size()) return 0;
  // try_u32 never reports: the truncation code is not used.
  ByteReader r(b.subspan(at), 0, ErrorCode{});
  uint32_t v = 0;
  return r.try_u32(v) ? v : 0;
}

}  // namespace voxrig::testing
