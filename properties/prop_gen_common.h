// Generators shared by every format: picks, bytes, floats (with the special bit patterns the
// codecs must keep), unit quaternions, UTF-8 names, tags.
//
// RapidCheck's inRange scales its range with the case size (size 0 always gives the minimum), so
// every generator here is small at small sizes and shrinks toward its minimum; `uniform` opts
// out of that where a choice must not be biased (positions in a file, table rows).
#pragma once

#include <rapidcheck.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace voxrig::props {

/// An integer in [lo, hi) whose range grows with the case size (shrinks toward lo).
template <class T>
T pick(T lo, T hi) {
  return *rc::gen::inRange<T>(lo, hi);
}

/// An integer in [lo, hi), uniform whatever the case size (still shrinks toward lo).
template <class T>
T uniform(T lo, T hi) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

/// True with probability 1/n at every size (shrinks toward false).
inline bool one_in(int n) { return uniform<int>(0, n) == n - 1; }

/// `n` arbitrary bytes.
inline std::vector<uint8_t> bytes_of(size_t n) {
  return *rc::gen::container<std::vector<uint8_t>>(n, rc::gen::arbitrary<uint8_t>());
}

/// 0 .. max_len arbitrary bytes (length grows with size).
inline std::vector<uint8_t> some_bytes(size_t max_len) {
  return bytes_of(pick<size_t>(0, max_len + 1));
}

/// An integer in [-max, max] as a float, shrinking toward 0.
inline float signed_pick(int max) {
  const float v = static_cast<float>(pick<int>(0, max + 1));
  return one_in(2) ? -v : v;
}

/// A finite binary32: small integers and fractions, -0.0, denormals, extremes, random bits.
inline float finite_float() {
  switch (uniform<int>(0, 7)) {
    case 0:
      return signed_pick(8);
    case 1:
      return signed_pick(4096) / 64.0f;
    case 2:
      return -0.0f;
    case 3:
      return std::bit_cast<float>(uniform<uint32_t>(1, 0x00800000u) |
                                  (one_in(2) ? 0x80000000u : 0u));  // denormal
    case 4:
      return *rc::gen::element(3.4028235e38f, -3.4028235e38f, 1.17549435e-38f, 1e-30f);
    default: {
      uint32_t bits = uniform<uint32_t>(0, 0xFFFFFFFFu);
      if ((bits & 0x7F800000u) == 0x7F800000u) bits &= 0xBF7FFFFFu;  // clear one exponent bit
      return std::bit_cast<float>(bits);
    }
  }
}

/// Any binary32 bit pattern, weighted toward the ones a codec could lose: NaNs with payloads
/// (quiet and signalling, both signs), infinities, -0.0, denormals.
inline float any_float() {
  switch (uniform<int>(0, 6)) {
    case 4: {
      const uint32_t payload = uniform<uint32_t>(1, 0x00800000u);
      return std::bit_cast<float>(0x7F800000u | payload | (one_in(2) ? 0x80000000u : 0u));
    }
    case 5:
      return one_in(2) ? INFINITY : -INFINITY;
    default:
      return finite_float();
  }
}

/// A float with |x| <= bound (evaluation inputs: D20 promises finite results there).
inline float bounded_float(float bound) {
  const float u = signed_pick(1000000) / 1000000.0f;
  return one_in(8) ? -0.0f : u * bound;
}

/// A quaternion (x, y, z, w) that passes the unit check (D15): random directions normalised in
/// binary32, axis-aligned ones with -0.0 components, and (when `near` is set) ones off by up to
/// 5e-4 in norm (still unit for the codec, not for a renormalising consumer).
std::array<float, 4> unit_quat(bool near = true);

/// Valid UTF-8 of at most max_bytes bytes: ASCII, 2-, 3- and 4-byte sequences, U+0000 and
/// noncharacters included (D6 allows them).
std::string utf8_name(size_t max_bytes);

/// A byte string that is NOT valid UTF-8 (one ill-formed sequence inside valid text).
std::string bad_utf8_name(size_t max_bytes);

/// Four characters from A-Z0-9 other than the given tags.
std::array<char, 4> vfp_tag_except(std::initializer_list<const char*> known);

/// Four arbitrary bytes other than the given tags.
std::array<uint8_t, 4> raw_tag_except(std::initializer_list<const char*> known);

}  // namespace voxrig::props
