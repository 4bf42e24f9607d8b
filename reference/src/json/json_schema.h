// json_schema.h (internal) — typed, range-checked field access over a JsonDoc for the VFP
// compile input (docs/spec/compile.md#top-level, D16). Every failure is a json.* Error whose path is
// the JSON path of the offending value and whose offset is that value's first byte.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "json/json_dom.h"
#include "voxrig/result.h"
#include "voxrig/vfp_model.h"

namespace voxrig::detail {

/// Reads schema fields out of a parsed document.
class JsonSchemaReader {
 public:
  explicit JsonSchemaReader(const JsonDoc& doc) : doc_(doc) {}
  const JsonDoc& doc() const { return doc_; }

  /// An error at value `at` (offset = its first byte).
  Error error(ErrorCode code, const JsonNode& at, const JsonPath& path, std::string detail) const;

  /// json.type unless `n` is of kind `kind`.
  Status expect(const JsonNode& n, JsonKind kind, const JsonPath& path) const;
  /// json.type unless `n` is an array of exactly `len` elements.
  Status expect_tuple(const JsonNode& n, uint32_t len, const JsonPath& path) const;
  /// `n` must be an object whose keys are all in `allowed` (first unknown key in JSON order:
  /// json.unknown_key at that key) and which has every key of `required` (json.missing_key at
  /// the missing member's path, offset of the object).
  Status object(const JsonNode& n, const JsonPath& path,
                std::initializer_list<std::string_view> allowed,
                std::initializer_list<std::string_view> required) const;

  /// A JSON integer literal in lo..hi (D16): json.type for anything that is not an integer
  /// literal (`1.0`, `1e0`, true, "1"), json.range outside lo..hi (or beyond 64 bits).
  /// `range_code` replaces json.range (e.g. json.voxel_range).
  Result<int64_t> integer(const JsonNode& n, const JsonPath& path, int64_t lo, int64_t hi,
                          ErrorCode range_code = ErrorCode::JsonRange) const;
  /// A JSON number (integer or float literal) as binary32: the nearest double, then rounded to
  /// nearest binary32. json.type for non-numbers, json.float_overflow when the rounding
  /// overflows to infinity.
  Result<float> f32(const JsonNode& n, const JsonPath& path) const;
  /// [x, y, z] of three such numbers (json.type unless an array of exactly three).
  Result<Vec3> vec3(const JsonNode& n, const JsonPath& path) const;
  /// [x, y, z, w]; finiteness only (the unit check is the caller's, with its own code).
  Result<Quat> quat(const JsonNode& n, const JsonPath& path) const;
  /// A name: a string of at most 255 UTF-8 bytes after unescaping (json.bad_name otherwise).
  Result<std::string> name(const JsonNode& n, const JsonPath& path) const;

 private:
  // `n` must be an array of exactly out.size() numbers; each becomes binary32 as f32 reads it
  // (errors at the element's path item(i)). The shared body of vec3 and quat.
  Status f32_tuple(const JsonNode& n, const JsonPath& path, std::span<float> out) const;

  const JsonDoc& doc_;
};

}  // namespace voxrig::detail
