// Shortest round-trip binary32 text (D17) via std::to_chars(float), which libstdc++ 12 provides.
#include "voxrig/float_text.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace voxrig {

std::string f32_json(float v) {
  if (!std::isfinite(v)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "\"f32:0x%08X\"", std::bit_cast<uint32_t>(v));
    return buf;
  }
  char buf[64];
  // Shortest form that reads back to the same float (no precision argument = shortest).
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

bool same_bits(float a, float b) {
  return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

}  // namespace voxrig
