// golden_mutate.h — applies the recorded mutations of a golden case source to base bytes.
//
// A source mutation names its target by field path (voxrig/testing/layout.h, the testing walker) or
// by raw offset; the result records the resolved offset next to the field, so the manifest says
// exactly which bytes changed. Convenience operators (insert_section, delete_section,
// duplicate_section, move, copy, insert_chunk) are expanded into the primitive operators of
// docs/manifest-schema.md before they are recorded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace voxrig::golden {

/// Applies `mutations` (a JSON array from a case source) to `bytes` in order. Appends one
/// manifest MUTATION object per primitive step to `recorded`. Returns false and sets `error`
/// (naming the mutation index) on an unknown operator, an unresolvable field or a range that
/// does not fit.
bool apply_mutations(std::vector<uint8_t>& bytes, const nlohmann::json& mutations,
                     nlohmann::ordered_json& recorded, std::string& error);

/// Parses lower/upper-case hex with optional whitespace; a JSON array of strings is joined.
bool parse_hex(const nlohmann::json& value, std::vector<uint8_t>& out, std::string& error);

/// Lower-case hex of `bytes`, no separators.
std::string hex_of(const std::vector<uint8_t>& bytes);

}  // namespace voxrig::golden
