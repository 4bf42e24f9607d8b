// Typed field access for the VFP compile input (see json_schema.h).
#include "json/json_schema.h"

#include <cmath>
#include <span>

#include "voxrig/utf8.h"

namespace voxrig::detail {

Error JsonSchemaReader::error(ErrorCode code, const JsonNode& at, const JsonPath& path,
                              std::string detail) const {
  return error_at(code, at.offset, path.str(), std::move(detail));
}

Status JsonSchemaReader::expect(const JsonNode& n, JsonKind kind, const JsonPath& path) const {
  if (n.kind == kind) return {};
  return error(
      ErrorCode::JsonType, n, path,
      "expected " + std::string(kind_name(kind)) + ", got " + std::string(kind_name(n.kind)));
}

Status JsonSchemaReader::expect_tuple(const JsonNode& n, uint32_t len, const JsonPath& path) const {
  if (n.kind == JsonKind::Array && n.count() == len) return {};
  std::string got = n.kind == JsonKind::Array ? "an array of " + std::to_string(n.count())
                                              : std::string(kind_name(n.kind));
  return error(ErrorCode::JsonType, n, path,
               "expected an array of " + std::to_string(len) + " elements, got " + got);
}

Status JsonSchemaReader::object(const JsonNode& n, const JsonPath& path,
                                std::initializer_list<std::string_view> allowed,
                                std::initializer_list<std::string_view> required) const {
  VOXRIG_TRY(expect(n, JsonKind::Object, path));
  for (const JsonNode* m = doc_.first(n); m; m = doc_.next(*m)) {
    const std::string_view k = doc_.key(*m);
    bool known = false;
    for (std::string_view a : allowed) known = known || a == k;
    if (!known) {
      return error_at(ErrorCode::JsonUnknownKey, m->key_offset, path.child(k).str(),
                      "unknown key \"" + std::string(k) + "\"");
    }
  }
  for (std::string_view r : required) {
    if (!doc_.member(n, r)) {
      return error(ErrorCode::JsonMissingKey, n, path.child(r),
                   "missing required key \"" + std::string(r) + "\"");
    }
  }
  return {};
}

Result<int64_t> JsonSchemaReader::integer(const JsonNode& n, const JsonPath& path, int64_t lo,
                                          int64_t hi, ErrorCode range_code) const {
  auto range = [&] {
    return "integer out of range " + std::to_string(lo) + ".." + std::to_string(hi);
  };
  if (n.kind == JsonKind::BigInteger) return error(range_code, n, path, range());
  if (n.kind != JsonKind::Integer) {
    return error(ErrorCode::JsonType, n, path,
                 "expected an integer literal, got " + std::string(kind_name(n.kind)));
  }
  // Every range used by the schema lies within int64; compare magnitudes to stay exact.
  bool in_range;
  int64_t value = 0;
  if (n.flag) {
    in_range = lo < 0 && n.magnitude() <= uint64_t{0} - static_cast<uint64_t>(lo);
    if (in_range) value = static_cast<int64_t>(uint64_t{0} - n.magnitude());
  } else {
    in_range = n.magnitude() <= static_cast<uint64_t>(INT64_MAX);
    if (in_range) value = static_cast<int64_t>(n.magnitude());
  }
  if (!in_range || value < lo || value > hi) return error(range_code, n, path, range());
  return value;
}

Result<float> JsonSchemaReader::f32(const JsonNode& n, const JsonPath& path) const {
  double d;
  switch (n.kind) {
    case JsonKind::Integer: {
      // uint64 -> double rounds to nearest: the same double the literal text denotes.
      const double m = static_cast<double>(n.magnitude());
      d = n.flag ? -m : m;
      break;
    }
    case JsonKind::BigInteger:
    case JsonKind::Float:
      d = n.number();
      break;
    default:
      return error(ErrorCode::JsonType, n, path,
                   "expected a number, got " + std::string(kind_name(n.kind)));
  }
  // Round-to-nearest-even overflows exactly from FLT_MAX + half an ulp (2^128 - 2^103) on;
  // check before converting so no out-of-range conversion happens.
  static const double kOverflow = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
  if (!(std::fabs(d) < kOverflow)) {
    return error(ErrorCode::JsonFloatOverflow, n, path, "overflows binary32");
  }
  return static_cast<float>(d);
}

Status JsonSchemaReader::f32_tuple(const JsonNode& n, const JsonPath& path,
                                   std::span<float> out) const {
  VOXRIG_TRY(expect_tuple(n, static_cast<uint32_t>(out.size()), path));
  size_t i = 0;
  for (const JsonNode* e = doc_.first(n); e; e = doc_.next(*e), ++i) {
    VOXRIG_ASSIGN_OR_RETURN(out[i], f32(*e, path.item(i)));
  }
  return {};
}

Result<Vec3> JsonSchemaReader::vec3(const JsonNode& n, const JsonPath& path) const {
  float v[3];
  VOXRIG_TRY(f32_tuple(n, path, v));
  return Vec3{v[0], v[1], v[2]};
}

Result<Quat> JsonSchemaReader::quat(const JsonNode& n, const JsonPath& path) const {
  float v[4];
  VOXRIG_TRY(f32_tuple(n, path, v));
  return Quat{v[0], v[1], v[2], v[3]};
}

Result<std::string> JsonSchemaReader::name(const JsonNode& n, const JsonPath& path) const {
  VOXRIG_TRY(expect(n, JsonKind::String, path));
  const std::string_view s = doc_.str(n);
  if (s.size() > 255) {
    return error(ErrorCode::JsonBadName, n, path,
                 "name of " + std::to_string(s.size()) + " UTF-8 bytes (at most 255)");
  }
  // The lexer already refuses ill-formed UTF-8 and lone surrogates; kept as a guard.
  if (!is_valid_utf8({reinterpret_cast<const uint8_t*>(s.data()), s.size()})) {
    return error(ErrorCode::JsonBadName, n, path, "name is not valid UTF-8");
  }
  return std::string(s);
}

}  // namespace voxrig::detail
