// Shared generators (prop_gen_common.h).
#include "prop_gen_common.h"

#include <cstring>

namespace voxrig::props {

std::array<float, 4> unit_quat(bool near) {
  const int kind = uniform<int>(0, 4);
  if (kind == 0) {
    // Identity or a half-turn about an axis; components may be -0.0.
    std::array<float, 4> q{0, 0, 0, 0};
    q[3 - uniform<size_t>(0, 4)] = one_in(2) ? -1.0f : 1.0f;  // shrinks to the identity
    for (float& c : q)
      if (c == 0 && one_in(2)) c = -0.0f;
    return q;
  }
  // A random direction in 4D (components from a small lattice so shrinking stays readable).
  std::array<double, 4> v{};
  double n2 = 0;
  do {
    for (double& c : v) c = uniform<int>(-1000, 1001) / 1000.0;
    n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
  } while (n2 < 1e-6);
  // Off-unit by a factor in [1 - 5e-4, 1 + 5e-4] (the tolerance is 1e-3) for codec inputs.
  const double factor = (near && kind == 3) ? 1.0 + uniform<int>(-500, 501) * 1e-6 : 1.0;
  const double inv = factor / std::sqrt(n2);
  return {static_cast<float>(v[0] * inv), static_cast<float>(v[1] * inv),
          static_cast<float>(v[2] * inv), static_cast<float>(v[3] * inv)};
}

namespace {

void append_utf8(std::string& s, uint32_t cp) {
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

uint32_t code_point() {
  switch (uniform<int>(0, 6)) {
    case 0:
      return static_cast<uint32_t>(uniform<int>('a', 'z' + 1));
    case 1:
      return static_cast<uint32_t>(uniform<int>(0, 0x80));  // U+0000 and controls too
    case 2:
      return static_cast<uint32_t>(uniform<int>(0x80, 0x800));
    case 3: {
      uint32_t cp = static_cast<uint32_t>(uniform<int>(0x800, 0x10000));
      return (cp >= 0xD800 && cp <= 0xDFFF) ? cp - 0x800 : cp;  // never a surrogate
    }
    case 4:
      return *rc::gen::element(0xFFFEu, 0xFFFFu, 0xFDD0u, 0x10FFFFu, 0xFEFFu);
    default:
      return static_cast<uint32_t>(uniform<int>(0x10000, 0x110000));
  }
}

}  // namespace

std::string utf8_name(size_t max_bytes) {
  const size_t chars = pick<size_t>(0, 12);
  std::string s;
  for (size_t i = 0; i < chars; ++i) {
    std::string c;
    append_utf8(c, code_point());
    if (s.size() + c.size() > max_bytes) break;
    s += c;
  }
  // Now and then a name at the length limit (255 bytes for VFP names).
  if (max_bytes <= 255 && one_in(16)) s.assign(max_bytes, 'x');
  return s;
}

std::string bad_utf8_name(size_t max_bytes) {
  static const char* const kBad[] = {"\xFF", "\xC0\x80",         "\xED\xA0\x80", "\xE2\x82",
                                     "\x80", "\xF4\x90\x80\x80", "\xC1\xBF",     "\xF5"};
  std::string s = utf8_name(max_bytes > 8 ? max_bytes - 8 : 0);
  const std::string bad =
      *rc::gen::elementOf(std::vector<std::string>(std::begin(kBad), std::end(kBad)));
  // Insert at a character boundary, so the only ill-formed sequence is `bad`.
  size_t at = uniform<size_t>(0, s.size() + 1);
  while (at < s.size() && (static_cast<uint8_t>(s[at]) & 0xC0) == 0x80) ++at;
  s.insert(at, bad);
  return s;
}

std::array<char, 4> vfp_tag_except(std::initializer_list<const char*> known) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (;;) {
    std::array<char, 4> t{};
    for (char& c : t) c = kAlphabet[uniform<size_t>(0, 36)];
    bool clash = false;
    for (const char* k : known) clash = clash || std::memcmp(k, t.data(), 4) == 0;
    if (!clash) return t;
  }
}

std::array<uint8_t, 4> raw_tag_except(std::initializer_list<const char*> known) {
  for (;;) {
    std::array<uint8_t, 4> t{};
    for (uint8_t& c : t) c = static_cast<uint8_t>(uniform<int>(0, 256));
    if (one_in(2))  // readable tags most of the time
      for (uint8_t& c : t) c = static_cast<uint8_t>('A' + c % 26);
    bool clash = false;
    for (const char* k : known) clash = clash || std::memcmp(k, t.data(), 4) == 0;
    if (!clash) return t;
  }
}

}  // namespace voxrig::props
