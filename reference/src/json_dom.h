// json_dom.h (internal) — strict JSON text -> compact read-only tree with byte offsets.
//
// nlohmann/json does the lexing (RFC 8259, UTF-8 checked, NaN/Infinity/comments/trailing commas
// rejected); this layer adds what the compile input needs on top (formats.md fine print 8, D16):
// duplicate keys are an error, integer literals stay distinguishable from float literals (so
// `1.0` and `1e0` can be refused where an integer is due), every value knows the byte offset of
// its first character, and nesting is capped so no walk over the tree can recurse deeply.
//
// The tree is one flat vector of nodes linked first-child / next-sibling: no recursion in
// building or destroying it, about 56 bytes per JSON value, nothing allocated from numbers found
// in the text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/result.h"

namespace voxrig::detail {

/// What a JSON value is. Integer = a literal without fraction or exponent that fits 64 bits
/// (sign + magnitude); BigInteger = such a literal beyond that (its nearest double is kept).
enum class JsonKind : uint8_t { Null, Bool, Integer, BigInteger, Float, String, Array, Object };

inline constexpr uint32_t kNoNode = 0xFFFFFFFFu;

/// One JSON value. Containers link their children; object members carry their key.
struct JsonNode {
  JsonKind kind = JsonKind::Null;
  bool flag = false;            ///< Bool: the value; Integer: negative
  uint32_t offset = 0;          ///< byte offset of the value's first character
  uint32_t key_offset = 0;      ///< object member: byte offset of its key's opening quote
  uint32_t key_start = 0, key_len = 0;  ///< object member: key bytes in the string pool
  uint32_t str_start = 0, str_len = 0;  ///< String: decoded bytes in the string pool
  uint32_t first = kNoNode;     ///< first child (containers)
  uint32_t next = kNoNode;      ///< next sibling
  uint32_t count = 0;           ///< number of children (containers)
  uint64_t magnitude = 0;       ///< Integer: absolute value
  double number = 0;            ///< Float / BigInteger: nearest double
};

/// Deepest nesting of arrays/objects accepted (the compile schema needs 9; the cap keeps every
/// walk shallow). Deeper input is json.limit.
inline constexpr size_t kMaxJsonDepth = 64;

/// A parsed document. Immutable after parse().
class JsonDoc {
 public:
  /// Parses `text` strictly. Errors: json.syntax (not JSON, incl. NaN/Infinity literals,
  /// comments, ill-formed UTF-8), json.duplicate_key, json.bad_name (a lone surrogate escape in
  /// any string), json.float_overflow (a float literal beyond the double range), json.range (an
  /// integer literal beyond the double range), json.limit (nesting over kMaxJsonDepth, text of
  /// 4 GiB or more, out of memory). The error path is the JSON path where parsing stopped.
  /// Never throws; memory is proportional to the text.
  static Result<JsonDoc> parse(std::string_view text);

  const JsonNode& root() const { return nodes_[0]; }
  const JsonNode& at(uint32_t index) const { return nodes_[index]; }
  std::string_view str(const JsonNode& n) const { return {pool_.data() + n.str_start, n.str_len}; }
  std::string_view key(const JsonNode& n) const { return {pool_.data() + n.key_start, n.key_len}; }
  /// The child after `n`, or nullptr.
  const JsonNode* next(const JsonNode& n) const {
    return n.next == kNoNode ? nullptr : &nodes_[n.next];
  }
  /// The first child of a container, or nullptr.
  const JsonNode* first(const JsonNode& n) const {
    return n.first == kNoNode ? nullptr : &nodes_[n.first];
  }
  /// The member of object `obj` named `name`, or nullptr (keys are unique after parse).
  const JsonNode* member(const JsonNode& obj, std::string_view name) const;

 private:
  friend class JsonDomBuilder;
  std::vector<JsonNode> nodes_;
  std::string pool_;
};

/// "integer", "float", "string", ... for messages.
std::string_view kind_name(JsonKind kind);

/// A JSON path built on the stack while walking ("$.rig.joints[1].parent"); rendered only when
/// an error is made. Keys that are not identifiers are written as ["..."].
struct JsonPath {
  const JsonPath* up = nullptr;
  std::string_view key;  ///< member name, or empty for an index step / the root
  int64_t index = -1;    ///< >= 0: array step

  JsonPath child(std::string_view k) const { return {this, k, -1}; }
  JsonPath item(size_t i) const { return {this, {}, static_cast<int64_t>(i)}; }
  std::string str() const;
};

/// Appends one path step to `out` ("." + key, or ["key"] when not an identifier).
void append_json_key(std::string& out, std::string_view key);

}  // namespace voxrig::detail
