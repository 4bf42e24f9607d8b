// UTF-8 per Unicode Table 3-7, and maximal-subpart lossy repair (§3.9, as from_utf8_lossy).
#include "voxrig/utf8.h"

#include <cstring>

namespace voxrig {

namespace {

// Unicode Table 3-7 for the lead bytes C2..F4: the sequence length each starts and the range its
// second byte must lie in (later bytes are always 80..BF).
struct LeadRow {
  uint8_t first, last;  // lead byte range
  uint8_t len;          // bytes in the sequence
  uint8_t lo, hi;       // range of the second byte
};
constexpr LeadRow kLeadRows[] = {
    {0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF}, {0xE1, 0xEC, 3, 0x80, 0xBF},
    {0xED, 0xED, 3, 0x80, 0x9F}, {0xEE, 0xEF, 3, 0x80, 0xBF}, {0xF0, 0xF0, 4, 0x90, 0xBF},
    {0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F},
};

// Length of the well-formed sequence starting at s[i], or 0 if ill-formed. When ill-formed,
// `consumed` is the length of the maximal subpart to replace with one U+FFFD (at least 1).
size_t sequence_at(std::span<const uint8_t> s, size_t i, size_t& consumed) {
  const uint8_t b0 = s[i];
  const size_t n = s.size() - i;
  if (b0 < 0x80) return consumed = 1;
  const LeadRow* row = nullptr;
  for (const LeadRow& r : kLeadRows)
    if (b0 >= r.first && b0 <= r.last) row = &r;
  if (!row) {  // 80..C1, F5..FF: never a lead byte
    consumed = 1;
    return 0;
  }
  const size_t len = row->len;
  const uint8_t lo = row->lo, hi = row->hi;
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
    // ASCII fast path: eight bytes at a time while no high bit is set (names are mostly ASCII).
    if (bytes.size() - i >= 8) {
      uint64_t word;
      std::memcpy(&word, bytes.data() + i, 8);
      if ((word & 0x8080808080808080u) == 0) {
        i += 8;
        continue;
      }
    }
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
