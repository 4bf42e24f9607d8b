// voxrig/float_text.h — the dump's float spelling (docs/spec/dump.md#D17).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace voxrig {

/// Shortest text that reads back (as binary32) to the same float, always with a '.' or an
/// exponent: 1.0, -0.0, 0.7071, 1e+38. Non-finite values are the quoted string
/// "f32:0x7FC00000" (upper-case hex of the bits), quotes included, ready to paste into JSON.
std::string f32_json(float v);

/// True when a and b have the same bit pattern (NaN payloads and -0.0 distinguished; D5).
bool same_bits(float a, float b);

/// Element-wise same_bits over equally sized float arrays.
template <size_t N>
bool same_bits(const std::array<float, N>& a, const std::array<float, N>& b) {
  for (size_t i = 0; i < N; ++i)
    if (!same_bits(a[i], b[i])) return false;
  return true;
}

}  // namespace voxrig
