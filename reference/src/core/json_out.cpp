// Canonical dump writer: fixed layout so equal content gives equal bytes.
#include "voxrig/json_out.h"

#include <cstdio>

#include "voxrig/float_text.h"
#include "voxrig/sha256.h"

namespace voxrig {

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

void JsonOut::newline() {
  if (compact_) return;
  out_ += '\n';
  out_.append(2 * stack_.size(), ' ');
}

void JsonOut::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Level& l = stack_.back();
  if (!l.empty) out_ += l.inline_array && !compact_ ? ", " : ",";
  if (!l.inline_array) newline();
  l.empty = false;
}

void JsonOut::begin_object() {
  before_value();
  out_ += '{';
  stack_.push_back({false, false});
}

void JsonOut::end_object() {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  out_ += '}';
}

void JsonOut::begin_array(bool inline_array) {
  before_value();
  out_ += '[';
  stack_.push_back({true, inline_array});
}

void JsonOut::end_array() {
  const Level l = stack_.back();
  stack_.pop_back();
  if (!l.empty && !l.inline_array) newline();
  out_ += ']';
}

void JsonOut::key(std::string_view k) {
  Level& l = stack_.back();
  if (!l.empty) out_ += ',';
  newline();
  l.empty = false;
  out_ += json_quote(k);
  out_ += compact_ ? ":" : ": ";
  after_key_ = true;
}

void JsonOut::value_u64(uint64_t v) {
  before_value();
  out_ += std::to_string(v);
}
void JsonOut::value_i64(int64_t v) {
  before_value();
  out_ += std::to_string(v);
}
void JsonOut::value_f32(float v) {
  before_value();
  out_ += f32_json(v);
}
void JsonOut::value_bool(bool v) {
  before_value();
  out_ += v ? "true" : "false";
}
void JsonOut::value_null() {
  before_value();
  out_ += "null";
}
void JsonOut::value_string(std::string_view s) {
  before_value();
  out_ += json_quote(s);
}
void JsonOut::value_hex(std::span<const uint8_t> bytes) {
  before_value();
  out_ += '"';
  out_ += to_hex(bytes);
  out_ += '"';
}

void JsonOut::value_digest(uint64_t count, std::span<const uint8_t> bytes) {
  begin_object();
  field_u64("count", count);
  key("sha256");
  value_hex(sha256(bytes));
  end_object();
}

void JsonOut::field_f32s(std::string_view k, std::span<const float> v) {
  key(k);
  begin_array(true);
  for (float f : v) value_f32(f);
  end_array();
}

std::string JsonOut::take() {
  if (!compact_) out_ += '\n';
  return std::move(out_);
}

}  // namespace voxrig
