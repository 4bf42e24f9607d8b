// JSON dumps compared as values (conformance.md "Comparison", formats.md D17).
//
// nlohmann's DOM loses two things the comparison needs: the text of each number (a binary32
// field must be rounded from its decimal text, not from a double) and duplicate keys (the DOM
// keeps the last). So the documents are parsed through nlohmann's SAX interface into a small
// tree of our own that keeps number texts, with bounded depth for hostile reader output.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

#include "voxrig/conform.h"
#include "voxrig/float_text.h"

namespace voxrig::conform {
namespace {

struct Value {
  enum class Kind : uint8_t { Null, Bool, Integer, Float, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::string text;          // Integer: canonical decimal; Float: the literal; String: the string
  std::vector<Value> items;  // Array elements, or Object values
  std::vector<std::string> keys;  // Object keys, in document order
  std::vector<uint32_t> sorted;   // Object: indices sorted by key

  const Value* member(std::string_view k) const {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), k,
                               [&](uint32_t i, std::string_view key) { return keys[i] < key; });
    return it != sorted.end() && keys[*it] == k ? &items[*it] : nullptr;
  }
};

// Builds a Value tree. Containers under construction live on `stack_`; a finished value is
// attached to the container below it (or becomes the root).
class TreeBuilder {
 public:
  using json = nlohmann::json;

  bool null() { return put(Value{}); }
  bool boolean(bool b) {
    Value v;
    v.kind = Value::Kind::Bool;
    v.boolean = b;
    return put(std::move(v));
  }
  bool number_integer(json::number_integer_t n) { return integer(std::to_string(n)); }
  bool number_unsigned(json::number_unsigned_t n) { return integer(std::to_string(n)); }
  bool number_float(json::number_float_t, const std::string& s) {
    // nlohmann reports integers too large for 64 bits here; they stay integers.
    if (s.find_first_of(".eE") == std::string::npos) return integer(s);
    Value v;
    v.kind = Value::Kind::Float;
    v.text = s;
    return put(std::move(v));
  }
  bool string(std::string& s) {
    Value v;
    v.kind = Value::Kind::String;
    v.text = std::move(s);
    return put(std::move(v));
  }
  bool binary(json::binary_t&) { return fail("binary value"); }
  bool start_object(size_t) { return open(Value::Kind::Object); }
  bool key(std::string& k) {
    pending_key_.back() = std::move(k);
    return true;
  }
  bool end_object() {
    Value v = std::move(stack_.back());
    stack_.pop_back();
    pending_key_.pop_back();
    v.sorted.resize(v.keys.size());
    for (uint32_t i = 0; i < v.sorted.size(); ++i) v.sorted[i] = i;
    std::sort(v.sorted.begin(), v.sorted.end(),
              [&](uint32_t a, uint32_t b) { return v.keys[a] < v.keys[b]; });
    for (size_t i = 1; i < v.sorted.size(); ++i)
      if (v.keys[v.sorted[i]] == v.keys[v.sorted[i - 1]])
        return fail("duplicate key \"" + v.keys[v.sorted[i]] + "\"");
    return put(std::move(v));
  }
  bool start_array(size_t) { return open(Value::Kind::Array); }
  bool end_array() {
    Value v = std::move(stack_.back());
    stack_.pop_back();
    pending_key_.pop_back();
    return put(std::move(v));
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception& e) {
    return fail(e.what());
  }

  Value root;
  std::string error;

 private:
  bool fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return false;
  }
  bool integer(std::string text) {
    Value v;
    v.kind = Value::Kind::Integer;
    v.text = std::move(text);
    return put(std::move(v));
  }
  bool open(Value::Kind kind) {
    if (stack_.size() >= kMaxJsonDepth) return fail("nesting deeper than 256 levels");
    Value v;
    v.kind = kind;
    stack_.push_back(std::move(v));
    pending_key_.emplace_back();
    return true;
  }
  bool put(Value v) {
    if (++values_ > kMaxJsonValues) return fail("more than 1048576 JSON values");
    if (stack_.empty()) {
      root = std::move(v);
      return true;
    }
    Value& top = stack_.back();
    if (top.kind == Value::Kind::Object) top.keys.push_back(std::move(pending_key_.back()));
    top.items.push_back(std::move(v));
    return true;
  }

  std::vector<Value> stack_;
  std::vector<std::string> pending_key_;
  size_t values_ = 0;
};

std::optional<Value> parse(std::string_view text, std::string& error) {
  TreeBuilder b;
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(text.begin(), text.end(), &b);
  } catch (const std::exception& e) {
    b.error = e.what();
  }
  if (!ok) {
    error = b.error.empty() ? "invalid JSON" : b.error;
    return std::nullopt;
  }
  return std::move(b.root);
}

std::string_view kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Bool:
      return "boolean";
    case Value::Kind::Integer:
      return "integer";
    case Value::Kind::Float:
      return "number";
    case Value::Kind::String:
      return "string";
    case Value::Kind::Array:
      return "array";
    case Value::Kind::Object:
      return "object";
  }
  return "?";
}

// A short rendering of a scalar for messages; containers are described by size.
std::string brief(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Bool:
      return v.boolean ? "true" : "false";
    case Value::Kind::Integer:
    case Value::Kind::Float:
      return v.text.size() > 60 ? v.text.substr(0, 60) + "..." : v.text;
    case Value::Kind::String: {
      std::string s = v.text.size() > 60 ? v.text.substr(0, 60) + "..." : v.text;
      return "\"" + s + "\"";
    }
    case Value::Kind::Array:
      return "array of " + std::to_string(v.items.size());
    case Value::Kind::Object:
      return "object of " + std::to_string(v.items.size()) + " keys";
  }
  return "?";
}

std::string bits_text(uint32_t bits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", bits);
  return buf;
}

bool is_identifier(std::string_view k) {
  if (k.empty() || (k[0] >= '0' && k[0] <= '9')) return false;
  for (char c : k)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

std::string child_path(const std::string& path, std::string_view key) {
  if (is_identifier(key)) return path + "." + std::string(key);
  std::string quoted = "\"";
  for (char c : key) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return path + "[" + quoted + "\"]";
}

// Depth is bounded by the parser (kMaxJsonDepth), so recursion is bounded too.
bool differ(const Value& e, const Value& a, const std::string& path, JsonDiff& out) {
  auto report = [&](std::string detail) {
    out.outcome = JsonCompare::Differ;
    out.path = path;
    out.detail = std::move(detail);
    return true;
  };
  if (e.kind == Value::Kind::Float) {
    if (a.kind != Value::Kind::Float && a.kind != Value::Kind::Integer)
      return report("expected number " + brief(e) + ", got " + std::string(kind_name(a.kind)) +
                    " " + brief(a));
    auto eb = json_number_f32_bits(e.text);
    auto ab = json_number_f32_bits(a.text);
    if (eb && ab && *eb == *ab) return false;
    return report("expected " + e.text + " (f32 " + (eb ? bits_text(*eb) : "?") + "), got " +
                  brief(a) + " (f32 " + (ab ? bits_text(*ab) : "?") + ")");
  }
  if (e.kind != a.kind)
    return report("expected " + std::string(kind_name(e.kind)) + " " + brief(e) + ", got " +
                  std::string(kind_name(a.kind)) + " " + brief(a));
  switch (e.kind) {
    case Value::Kind::Null:
      return false;
    case Value::Kind::Bool:
      return e.boolean == a.boolean ? false : report("expected " + brief(e) + ", got " + brief(a));
    case Value::Kind::Integer:
    case Value::Kind::String:
      return e.text == a.text ? false : report("expected " + brief(e) + ", got " + brief(a));
    case Value::Kind::Float:
      return false;  // handled above
    case Value::Kind::Array:
      if (e.items.size() != a.items.size())
        return report("expected " + std::to_string(e.items.size()) + " elements, got " +
                      std::to_string(a.items.size()));
      for (size_t i = 0; i < e.items.size(); ++i)
        if (differ(e.items[i], a.items[i], path + "[" + std::to_string(i) + "]", out)) return true;
      return false;
    case Value::Kind::Object:
      for (size_t i = 0; i < e.keys.size(); ++i) {
        const Value* av = a.member(e.keys[i]);
        const std::string p = child_path(path, e.keys[i]);
        if (!av) {
          out.outcome = JsonCompare::Differ;
          out.path = p;
          out.detail = "missing key (expected " + brief(e.items[i]) + ")";
          return true;
        }
        if (differ(e.items[i], *av, p, out)) return true;
      }
      for (size_t i = 0; i < a.keys.size(); ++i)
        if (!e.member(a.keys[i])) {
          out.outcome = JsonCompare::Differ;
          out.path = child_path(path, a.keys[i]);
          out.detail = "unexpected key (got " + brief(a.items[i]) + ")";
          return true;
        }
      return false;
  }
  return false;
}

}  // namespace

std::optional<uint32_t> json_number_f32_bits(std::string_view text) {
  // JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  size_t i = 0;
  const size_t n = text.size();
  auto digits = [&] {
    size_t start = i;
    while (i < n && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  if (i < n && text[i] == '-') ++i;
  if (i < n && text[i] == '0')
    ++i;
  else if (digits() == 0)
    return std::nullopt;
  if (i < n && text[i] == '.') {
    ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != n) return std::nullopt;
  float f = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + n, f);
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves `f` alone on overflow/underflow; strtof rounds to inf / 0 / subnormal
    // as IEEE asks. The text is plain ASCII digits, so the C locale is not an issue.
    std::string copy(text);
    f = std::strtof(copy.c_str(), nullptr);
  } else if (ec != std::errc() || ptr != text.data() + n) {
    return std::nullopt;
  }
  return std::bit_cast<uint32_t>(f);
}

JsonDiff compare_dump_json(std::string_view expected, std::string_view actual) {
  JsonDiff out;
  std::string error;
  auto e = parse(expected, error);
  if (!e) {
    out.outcome = JsonCompare::ExpectedInvalid;
    out.detail = error;
    return out;
  }
  auto a = parse(actual, error);
  if (!a) {
    out.outcome = JsonCompare::ActualInvalid;
    out.detail = error;
    return out;
  }
  differ(*e, *a, "$", out);
  return out;
}

std::optional<std::string> rejection_code(std::string_view text) {
  std::string error;
  auto v = parse(text, error);
  if (!v || v->kind != Value::Kind::Object) return std::nullopt;
  const Value* code = v->member("error");
  if (!code || code->kind != Value::Kind::String) return std::nullopt;
  return code->text;
}

}  // namespace voxrig::conform
