// voxrig/json_out.h — the streaming writer behind every canonical dump.
//
// Deterministic by construction: keys come out in the order the caller writes them (each dump
// writes them in its schema's order), floats use f32_json (D17), strings are escaped the same
// way every time (only ", \ and control characters; UTF-8 passes through). Objects are one key
// per line with two-space indentation; arrays opened with `inline_array = true` stay on one line.
// The compact layout (no whitespace at all) is for documents a program reads, such as glTF.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace voxrig {

/// Writes one JSON document. Misuse (a value where a key is due) is a programming error.
class JsonOut {
 public:
  enum class Layout { Canonical, Compact };
  /// Canonical: the dump layout above. Compact: the same tokens with no whitespace.
  explicit JsonOut(Layout layout = Layout::Canonical) : compact_(layout == Layout::Compact) {}

  void begin_object();
  void end_object();
  /// `inline_array`: elements on one line (use for short arrays of scalars).
  void begin_array(bool inline_array = false);
  void end_array();
  void key(std::string_view k);

  void value_u64(uint64_t v);
  void value_i64(int64_t v);
  void value_f32(float v);
  void value_bool(bool v);
  void value_null();
  void value_string(std::string_view s);
  /// A string of lower-case hex.
  void value_hex(std::span<const uint8_t> bytes);
  /// The digest object {"count": count, "sha256": "<hex of SHA-256(bytes)>"} (D17).
  void value_digest(uint64_t count, std::span<const uint8_t> bytes);

  // Shorthands: key + value.
  void field_u64(std::string_view k, uint64_t v) { field(k, &JsonOut::value_u64, v); }
  void field_i64(std::string_view k, int64_t v) { field(k, &JsonOut::value_i64, v); }
  void field_f32(std::string_view k, float v) { field(k, &JsonOut::value_f32, v); }
  void field_bool(std::string_view k, bool v) { field(k, &JsonOut::value_bool, v); }
  void field_string(std::string_view k, std::string_view v) { field(k, &JsonOut::value_string, v); }
  void field_hex(std::string_view k, std::span<const uint8_t> v) {
    field(k, &JsonOut::value_hex, v);
  }
  /// key + [a, b, c] of floats, inline.
  void field_f32s(std::string_view k, std::span<const float> v);

  /// The finished document; the canonical layout ends it with a newline.
  std::string take();

 private:
  // The one body of the shorthands: `k`, then `v` written by `value`.
  template <class V>
  void field(std::string_view k, void (JsonOut::*value)(V), V v) {
    key(k);
    (this->*value)(v);
  }
  void before_value();
  void newline();
  struct Level {
    bool is_array;
    bool inline_array;
    bool empty = true;
  };
  std::string out_;
  std::vector<Level> stack_;
  bool after_key_ = false;
  bool compact_;
};

/// JSON string escaping as JsonOut does it (quotes included).
std::string json_quote(std::string_view s);

}  // namespace voxrig
