// voxrig/utf8.h — UTF-8 well-formedness and lossy repair (formats.md D6).
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace voxrig {

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
