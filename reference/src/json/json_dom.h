// json_dom.h (internal) — strict JSON text -> compact read-only tree with byte offsets.
//
// nlohmann/json does the lexing (RFC 8259, UTF-8 checked, NaN/Infinity/comments/trailing commas
// rejected); this layer adds what the compile input needs on top (formats.md fine print 8, D16):
// duplicate keys are an error, integer literals stay distinguishable from float literals (so
// `1.0` and `1e0` can be refused where an integer is due), every value knows the byte offset of
// its first character, and nesting is capped so no walk over the tree can recurse deeply.
//
// The tree is one flat vector of nodes linked first-child / next-sibling: no recursion in
// building or destroying it, 32 bytes per JSON value, nothing allocated from numbers found
// in the text.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/result.h"

namespace voxrig::detail {

/// What a JSON value is. Integer = a literal without fraction or exponent that fits 64 bits
/// (sign + magnitude); BigInteger = such a literal beyond that (its nearest double is kept).
enum class JsonKind : uint8_t { Null, Bool, Integer, BigInteger, Float, String, Array, Object };

inline constexpr uint32_t kNoNode = 0xFFFFFFFFu;

/// One JSON value (32 bytes). Containers link their children; object members carry their key.
struct JsonNode {
  JsonKind kind = JsonKind::Null;
  bool flag = false;                    ///< Bool: the value; Integer: negative
  uint32_t offset = 0;                  ///< byte offset of the value's first character
  uint32_t next = kNoNode;              ///< next sibling
  uint32_t key_offset = 0;              ///< object member: byte offset of its key's opening quote
  uint32_t key_start = 0, key_len = 0;  ///< object member: key bytes in the string pool
  /// Containers: first child, child count. String: pool start, length. Integer: magnitude
  /// (lo, hi). Float / BigInteger: the bits of the nearest double (lo, hi).
  uint32_t a = 0, b = 0;

  uint32_t count() const { return kind == JsonKind::Array || kind == JsonKind::Object ? b : 0; }
  uint32_t first_child() const {
    return (kind == JsonKind::Array || kind == JsonKind::Object) && b ? a : kNoNode;
  }
  uint64_t magnitude() const { return a | uint64_t{b} << 32; }
  double number() const { return std::bit_cast<double>(magnitude()); }
  void set_payload(uint64_t v) {
    a = static_cast<uint32_t>(v);
    b = static_cast<uint32_t>(v >> 32);
  }
};

/// Deepest nesting of arrays/objects accepted (the compile schema needs 9; the cap keeps every
/// walk shallow). Deeper input is json.limit.
inline constexpr size_t kMaxJsonDepth = 64;

/// Append-only node storage in fixed blocks: growing never copies or doubles, so memory stays
/// at the node count (plus one partial block) and references stay valid.
class JsonNodeStore {
 public:
  static constexpr uint32_t kBlockBits = 14;  // 16384 nodes = 512 KiB per block
  JsonNode& operator[](uint32_t i) { return blocks_[i >> kBlockBits][i & kMask]; }
  const JsonNode& operator[](uint32_t i) const { return blocks_[i >> kBlockBits][i & kMask]; }
  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  JsonNode& back() { return (*this)[size_ - 1]; }
  void emplace_back() {
    if ((size_ & kMask) == 0) blocks_.push_back(std::make_unique<JsonNode[]>(kMask + 1));
    (*this)[size_++] = JsonNode{};
  }

 private:
  static constexpr uint32_t kMask = (1u << kBlockBits) - 1;
  std::vector<std::unique_ptr<JsonNode[]>> blocks_;
  uint32_t size_ = 0;
};

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
  std::string_view str(const JsonNode& n) const { return {pool_.data() + n.a, n.b}; }
  std::string_view key(const JsonNode& n) const { return {pool_.data() + n.key_start, n.key_len}; }
  /// The child after `n`, or nullptr.
  const JsonNode* next(const JsonNode& n) const {
    return n.next == kNoNode ? nullptr : &nodes_[n.next];
  }
  /// The first child of a container, or nullptr.
  const JsonNode* first(const JsonNode& n) const {
    const uint32_t f = n.first_child();
    return f == kNoNode ? nullptr : &nodes_[f];
  }
  /// The member of object `obj` named `name`, or nullptr (keys are unique after parse).
  const JsonNode* member(const JsonNode& obj, std::string_view name) const;

 private:
  friend class JsonDomBuilder;
  JsonNodeStore nodes_;
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
