// voxrig/byte_writer.h — little-endian append-only writer with back-patched lengths.
//
// Writers compute every count and length from content (docs/spec/writers.md#D2); a length field is
// reserved with begin_length() and filled by end_length() once the payload is written.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace voxrig {

/// Stores v at p little-endian (the wire order of every format here): one store on a
/// little-endian host. For hot loops that write through ByteWriter::extend()'s pointer.
inline void store_u16(uint8_t* p, uint16_t v) {
  const uint8_t b[2] = {uint8_t(v), uint8_t(v >> 8)};
  std::memcpy(p, b, 2);
}
/// As store_u16, four bytes.
inline void store_u32(uint8_t* p, uint32_t v) {
  const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  std::memcpy(p, b, 4);
}
/// The binary32 bit pattern of v, as store_u32.
inline void store_f32(uint8_t* p, float v) { store_u32(p, std::bit_cast<uint32_t>(v)); }

/// Appends little-endian values to a byte vector it owns.
///
/// Why not push_back per byte: a byte store may alias the vector's own pointers, so GCC reloads
/// them and tests the capacity again after every byte (SKEL encode spent most of its time
/// there). Each value is instead one capacity test (room) and one store of its bytes. The
/// vector runs ahead of what was written, zero-filled up to kAhead bytes at a time (a step that
/// stays in the L1 cache until the values overwrite it); data() and take() trim it to the bytes
/// written. Spans of kBulk bytes or more are appended by the vector itself, in one pass, with no
/// zero fill first (RVC encode is mostly such copies). Hot loops write through extend().
class ByteWriter {
 public:
  void u8(uint8_t v) { *room(1) = v; }
  void u16(uint16_t v) { store_u16(room(2), v); }
  void u32(uint32_t v) { store_u32(room(4), v); }
  void i16(int16_t v) { u16(static_cast<uint16_t>(v)); }
  void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
  /// Writes the binary32 bit pattern exactly.
  void f32(float v) { store_f32(room(4), v); }
  void bytes(std::span<const uint8_t> b) { copy_in(b.data(), b.size()); }
  void bytes(std::string_view s) { copy_in(s.data(), s.size()); }
  void zeros(size_t n) {
    if (n != 0) std::memset(room(n), 0, n);
  }

  /// Reserves a u32 length slot; returns its position for end_length().
  size_t begin_length() {
    size_t at = size_;
    u32(0);
    return at;
  }
  /// Fills the slot at `at` with the number of bytes written after it.
  void end_length(size_t at) {
    const uint64_t n = size_ - (at + 4);
    patch_u32(at, static_cast<uint32_t>(n));
  }
  /// Overwrites 4 bytes at `at` (at + 4 <= size()) with v.
  void patch_u32(size_t at, uint32_t v) { store_u32(buf_.data() + at, v); }

  /// Bytes written so far.
  size_t size() const { return size_; }
  /// The bytes written so far (the vector trimmed to them; writing may go on after).
  const std::vector<uint8_t>& data() const {
    buf_.resize(size_);
    return buf_;
  }
  /// The same, to change written bytes in place (a test damaging a file on purpose); the
  /// length must not change through it: the writer keeps its own count.
  std::vector<uint8_t>& data() {
    buf_.resize(size_);
    return buf_;
  }
  /// The bytes written, moved out; the writer is empty afterwards.
  std::vector<uint8_t> take() {
    buf_.resize(size_);
    size_ = 0;
    return std::move(buf_);
  }
  /// Makes room for n bytes in all, so that writing up to n allocates once.
  void reserve(size_t n) { buf_.reserve(n); }
  /// The next n bytes, counted as written, for the caller to fill with store_u16 / store_u32 /
  /// store_f32 (their content is unspecified until then). A hot loop that writes through this
  /// local pointer keeps it in a register; through u16() and friends the writer's own fields
  /// are reloaded after every value, since a byte store may alias them.
  uint8_t* extend(size_t n) { return room(n); }

 private:
  /// The next n bytes of the buffer, counted as written (the caller fills them).
  uint8_t* room(size_t n) {
    if (buf_.size() - size_ < n) [[unlikely]]
      grow(n);
    uint8_t* p = buf_.data() + size_;
    size_ += n;
    return p;
  }
  static constexpr size_t kAhead = 4096, kBulk = 256;
  /// Lengthens buf_ to hold n more bytes and some ahead (as many as it holds, from 64 up to
  /// kAhead: a small output zero-fills little): within the capacity when the n bytes fit in it
  /// (what reserve() set aside is never reallocated), else past it (the vector then
  /// reallocates geometrically). Not inlined: it is the rare path, and inlined into callers
  /// GCC 12 warns (-Wstringop-overflow, a false positive) about the vector's zero fill.
  [[gnu::noinline]] void grow(size_t n) {
    const size_t step = std::clamp(buf_.size(), size_t{64}, kAhead);
    const size_t need = size_ + n, ahead = size_ + std::max(n, step);
    const size_t cap = buf_.capacity();
    buf_.resize(need <= cap ? std::min(ahead, cap) : ahead);
  }
  void copy_in(const void* p, size_t n) {
    if (n >= kBulk) {
      const auto* b = static_cast<const uint8_t*>(p);
      buf_.resize(size_);  // drop the zeroed slack: the copy is the only pass over these bytes
      buf_.insert(buf_.end(), b, b + n);
      size_ += n;
    } else if (n != 0) {
      std::memcpy(room(n), p, n);
    }
  }
  // [0, size_) written; the rest zero, not yet written. Mutable: data() const trims that rest,
  // which changes no byte written.
  mutable std::vector<uint8_t> buf_;
  size_t size_ = 0;
};

}  // namespace voxrig
