// UTF-8 per Unicode Table 3-7, and maximal-subpart lossy repair (§3.9, as from_utf8_lossy).
#include "voxrig/utf8.h"

namespace voxrig {

namespace {

// Length of the well-formed sequence starting at s[i], or 0 if ill-formed. When ill-formed,
// `consumed` is the length of the maximal subpart to replace with one U+FFFD (at least 1).
size_t sequence_at(std::span<const uint8_t> s, size_t i, size_t& consumed) {
  const uint8_t b0 = s[i];
  const size_t n = s.size() - i;
  if (b0 < 0x80) return consumed = 1;
  uint8_t lo = 0x80, hi = 0xBF;
  size_t len = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF)
    len = 2;
  else if (b0 == 0xE0) {
    len = 3;
    lo = 0xA0;
  } else if (b0 >= 0xE1 && b0 <= 0xEC)
    len = 3;
  else if (b0 == 0xED) {
    len = 3;
    hi = 0x9F;
  } else if (b0 >= 0xEE && b0 <= 0xEF)
    len = 3;
  else if (b0 == 0xF0) {
    len = 4;
    lo = 0x90;
  } else if (b0 >= 0xF1 && b0 <= 0xF3)
    len = 4;
  else if (b0 == 0xF4) {
    len = 4;
    hi = 0x8F;
  } else {
    consumed = 1;
    return 0;
  }  // 80..C1, F5..FF: never a lead byte
  // Second byte has the lead-specific range; later bytes are 80..BF.
  for (size_t k = 1; k < len; ++k) {
    const uint8_t l = (k == 1) ? lo : 0x80, h = (k == 1) ? hi : 0xBF;
    if (k >= n || s[i + k] < l || s[i + k] > h) {
      consumed = k;  // the maximal subpart is the valid prefix seen so far
      return 0;
    }
  }
  return consumed = len;
}

}  // namespace

bool is_valid_utf8(std::span<const uint8_t> bytes) {
  size_t i = 0;
  while (i < bytes.size()) {
    if (bytes[i] < 0x80) {
      ++i;
      continue;
    }
    size_t consumed = 0;
    if (sequence_at(bytes, i, consumed) == 0) return false;
    i += consumed;
  }
  return true;
}

std::string repair_utf8(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve(bytes.size());
  size_t i = 0;
  while (i < bytes.size()) {
    size_t consumed = 0;
    if (sequence_at(bytes, i, consumed) == 0) {
      out += "\xEF\xBF\xBD";
    } else {
      out.append(reinterpret_cast<const char*>(bytes.data() + i), consumed);
    }
    i += consumed;
  }
  return out;
}

std::string latin1_to_utf8(std::span<const uint8_t> bytes) {
  std::string s;
  s.reserve(2 * bytes.size());
  for (uint8_t b : bytes) {
    if (b < 0x80) {
      s += static_cast<char>(b);
    } else {
      s += static_cast<char>(0xC0 | (b >> 6));
      s += static_cast<char>(0x80 | (b & 0x3F));
    }
  }
  return s;
}

}  // namespace voxrig
