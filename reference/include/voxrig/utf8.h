// voxrig/utf8.h — UTF-8 well-formedness and lossy repair (docs/spec/conventions.md#D6).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace voxrig {

/// True when no byte of `bytes` has its high bit set (all ASCII, hence well-formed UTF-8): the
/// decoders' success paths ask this of every name and call is_valid_utf8 only when it fails.
/// Inline, eight bytes at a time and then byte by byte: names are short (a one-byte name costs
/// a few instructions; a plain byte loop is vectorised, and its set-up costs more than that).
inline bool is_ascii(std::span<const uint8_t> bytes) {
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    high |= word;
  }
  for (; i < bytes.size(); ++i) high |= bytes[i];
  return (high & 0x8080808080808080ull) == 0;
}

/// True when `bytes` is well-formed UTF-8 per Unicode Table 3-7 (no overlong forms, no
/// surrogates, nothing above U+10FFFF). U+0000 and noncharacters are allowed.
bool is_valid_utf8(std::span<const uint8_t> bytes);

/// Lossy repair: each maximal subpart of an ill-formed sequence becomes U+FFFD (EF BF BD),
/// exactly as Rust's from_utf8_lossy / the WHATWG decoder. Valid input is returned unchanged.
std::string repair_utf8(std::span<const uint8_t> bytes);

/// Each byte as one code point U+0000..U+00FF (Latin-1) in UTF-8: how dumps spell chunk tags,
/// so that any 4 bytes have exactly one spelling and ASCII tags read naturally ("META").
std::string latin1_to_utf8(std::span<const uint8_t> bytes);

}  // namespace voxrig
