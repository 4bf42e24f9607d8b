// voxrig/byte_reader.h — the bounded little-endian reader every decoder uses.
//
// Contract: every read is all-or-nothing (a failed read moves nothing); reads never go past the
// reader's bound; offsets reported in errors are absolute file offsets (base + position), so an
// error deep inside a sub-reader still points at the right byte of the file. Little-endian is
// decoded by shifts, never by host order. Safe on untrusted input; allocates only on error.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>

#include "voxrig/error.h"
#include "voxrig/path.h"
#include "voxrig/result.h"

namespace voxrig {

/// Reads little-endian values from a bounded byte span.
class ByteReader {
 public:
  /// `base_offset` is the absolute file offset of data[0]; `truncated` is the code reported
  /// when a read runs past the bound (each format has its own, e.g. skel.truncated).
  ByteReader(std::span<const uint8_t> data, uint64_t base_offset, ErrorCode truncated)
      : data_(data), base_(base_offset), truncated_(truncated) {}

  /// Absolute file offset of the next read.
  uint64_t offset() const { return base_ + pos_; }
  /// Position relative to the start of this reader's span.
  size_t pos() const { return pos_; }
  size_t size() const { return data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  /// The whole span this reader is bounded to.
  std::span<const uint8_t> data() const { return data_; }
  ErrorCode truncated_code() const { return truncated_; }

  // ---- raw, non-failing primitives: return false (and move nothing) when short ----
  bool try_u8(uint8_t& v) { return try_value(v); }
  bool try_u16(uint16_t& v) { return try_value(v); }
  bool try_u32(uint32_t& v) { return try_value(v); }
  bool try_i16(int16_t& v) { return try_value(v); }
  bool try_i32(int32_t& v) { return try_value(v); }
  /// Reads a binary32 bit-exactly (NaN payloads and -0.0 preserved).
  bool try_f32(float& v) { return try_value(v); }
  bool try_bytes(size_t n, std::span<const uint8_t>& out) {
    if (n > remaining()) return false;
    out = data_.subspan(pos_, n);
    pos_ += n;
    return true;
  }

  // ---- Result-returning reads: error = {truncated code, offset of this read, path} ----
  Result<uint8_t> u8(const Path& p) { return read_value<uint8_t>(p); }
  Result<uint16_t> u16(const Path& p) { return read_value<uint16_t>(p); }
  Result<uint32_t> u32(const Path& p) { return read_value<uint32_t>(p); }
  Result<int16_t> i16(const Path& p) { return read_value<int16_t>(p); }
  Result<int32_t> i32(const Path& p) { return read_value<int32_t>(p); }
  Result<float> f32(const Path& p) { return read_value<float>(p); }
  Result<std::span<const uint8_t>> bytes(size_t n, const Path& p) {
    std::span<const uint8_t> s;
    if (!try_bytes(n, s)) return short_read(n, p);
    return s;
  }
  /// Skips n bytes (all or nothing).
  Status skip(size_t n, const Path& p) {
    if (n > remaining()) return short_read(n, p);
    pos_ += n;
    return {};
  }

  /// A child reader bounded to exactly the next n bytes (one length-prefixed region); the parent
  /// moves past them. Same truncation code unless `child_truncated` is given.
  Result<ByteReader> sub(size_t n, const Path& p) { return sub(n, p, truncated_); }
  Result<ByteReader> sub(size_t n, const Path& p, ErrorCode child_truncated) {
    if (n > remaining()) return short_read(n, p);
    ByteReader child(data_.subspan(pos_, n), offset(), child_truncated);
    pos_ += n;
    return child;
  }

  /// Fails with `code` at the first unread byte when bytes remain.
  Status expect_end(ErrorCode code, const Path& p) const {
    if (at_end()) return {};
    return fail(code, p, std::to_string(remaining()) + " unexpected trailing byte(s)");
  }

  /// Checks a declared element count before anything is reserved: first against `limit`
  /// (error `limit_code`; docs/spec/vfp.md#D13 puts the limit first so small files can exercise it),
  /// then count * elem_size (64-bit, overflow-checked) against the bytes that remain
  /// (the truncation code). elem_size 0 skips the bytes check.
  Status checked_count(uint64_t count, uint64_t elem_size, uint64_t limit, ErrorCode limit_code,
                       const Path& p) const {
    if (count > limit)
      return fail(limit_code, p,
                  "count " + std::to_string(count) + " exceeds limit " + std::to_string(limit));
    if (elem_size != 0 && (count > remaining() / elem_size))
      return fail(truncated_, p,
                  "count " + std::to_string(count) + " needs more than the " +
                      std::to_string(remaining()) + " byte(s) remaining");
    return {};
  }

  /// An Error with `code` at the current offset (error_at at offset()).
  Error fail(ErrorCode code, const Path& p, std::string detail = {}) const {
    return error_at(code, offset(), p, std::move(detail));
  }

 private:
  template <class T>
  bool try_le(T& v) {
    if (sizeof(T) > remaining()) return false;
    const uint8_t* b = data_.data() + pos_;
    T x = 0;
    for (size_t i = 0; i < sizeof(T); ++i) x = static_cast<T>(x | (T(b[i]) << (8 * i)));
    v = x;
    pos_ += sizeof(T);
    return true;
  }
  // One value of T from its little-endian bytes: unsigned integers directly, signed integers as
  // the bits of their unsigned twin, float as the bits of a uint32 (so NaN payloads survive).
  template <class T>
  bool try_value(T& v) {
    if constexpr (std::is_unsigned_v<T>) {
      return try_le(v);
    } else {
      using Bits =
          typename std::conditional_t<std::is_floating_point_v<T>, std::type_identity<uint32_t>,
                                      std::make_unsigned<T>>::type;
      static_assert(sizeof(Bits) == sizeof(T));
      Bits u;
      if (!try_le(u)) return false;
      if constexpr (std::is_floating_point_v<T>)
        v = std::bit_cast<T>(u);
      else
        v = static_cast<T>(u);
      return true;
    }
  }
  // try_value as a Result: a short read is the truncation error at this read's offset.
  template <class T>
  Result<T> read_value(const Path& p) {
    T v;
    if (!try_value(v)) return short_read(sizeof(T), p);
    return v;
  }
  Error short_read(size_t need, const Path& p) const {
    return fail(
        truncated_, p,
        "need " + std::to_string(need) + " byte(s), " + std::to_string(remaining()) + " remain");
  }

  std::span<const uint8_t> data_;
  uint64_t base_ = 0;
  size_t pos_ = 0;
  ErrorCode truncated_;
};

/// Little-endian loads from a buffer already bounds-checked by the caller (hot loops that
/// checked a whole table with checked_count first).
inline uint16_t load_u16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
inline uint32_t load_u32(const uint8_t* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}
inline float load_f32(const uint8_t* p) { return std::bit_cast<float>(load_u32(p)); }

}  // namespace voxrig
