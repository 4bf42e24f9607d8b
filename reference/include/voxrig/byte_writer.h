// voxrig/byte_writer.h — little-endian append-only writer with back-patched lengths.
//
// Writers compute every count and length from content (formats.md D2); a length field is
// reserved with begin_length() and filled by end_length() once the payload is written.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace voxrig {

/// Appends little-endian values to a byte vector it owns.
class ByteWriter {
 public:
  void u8(uint8_t v) { buf_.push_back(v); }
  void u16(uint16_t v) { le(v); }
  void u32(uint32_t v) { le(v); }
  void i16(int16_t v) { le(static_cast<uint16_t>(v)); }
  void i32(int32_t v) { le(static_cast<uint32_t>(v)); }
  /// Writes the binary32 bit pattern exactly.
  void f32(float v) { le(std::bit_cast<uint32_t>(v)); }
  void bytes(std::span<const uint8_t> b) { buf_.insert(buf_.end(), b.begin(), b.end()); }
  void bytes(std::string_view s) { buf_.insert(buf_.end(), s.begin(), s.end()); }
  void zeros(size_t n) { buf_.insert(buf_.end(), n, uint8_t{0}); }

  /// Reserves a u32 length slot; returns its position for end_length().
  size_t begin_length() {
    size_t at = buf_.size();
    u32(0);
    return at;
  }
  /// Fills the slot at `at` with the number of bytes written after it.
  void end_length(size_t at) {
    const uint64_t n = buf_.size() - (at + 4);
    patch_u32(at, static_cast<uint32_t>(n));
  }
  /// Overwrites 4 bytes at `at` with v.
  void patch_u32(size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) buf_[at + i] = uint8_t(v >> (8 * i));
  }

  size_t size() const { return buf_.size(); }
  const std::vector<uint8_t>& data() const { return buf_; }
  std::vector<uint8_t>& data() { return buf_; }
  std::vector<uint8_t> take() { return std::move(buf_); }
  void reserve(size_t n) { buf_.reserve(n); }

 private:
  template <class T>
  void le(T v) {
    for (size_t i = 0; i < sizeof(T); ++i) buf_.push_back(uint8_t(v >> (8 * i)));
  }
  std::vector<uint8_t> buf_;
};

}  // namespace voxrig
