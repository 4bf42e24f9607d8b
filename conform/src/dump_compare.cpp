// JSON dumps compared as values (docs/spec/protocols.md#comparison, docs/spec/dump.md#D17).
//
// nlohmann's DOM loses two things the comparison needs: the text of each number (a binary32
// field must be rounded from its decimal text, not from a double) and duplicate keys (the DOM
// keeps the last). So the documents are parsed into the codec's strict JSON tree
// (voxrig/json_tree.h) with the judge's options: literal texts kept, duplicate keys reported when
// their object closes, bounded depth and value count for hostile reader output. What stays here
// is the comparison itself.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "voxrig/conform/conform.h"
#include "voxrig/enum_names.h"
#include "voxrig/float_text.h"
#include "voxrig/json_tree.h"

namespace voxrig::conform {
namespace {

// The judge's view of a JSON kind: every integer literal (any size) is one kind.
enum class Kind : uint8_t { Null, Bool, Integer, Float, String, Array, Object };

Kind kind_of(const JsonNode& n) {
  switch (n.kind) {
    case JsonKind::Null:
      return Kind::Null;
    case JsonKind::Bool:
      return Kind::Bool;
    case JsonKind::Integer:
    case JsonKind::BigInteger:
      return Kind::Integer;
    case JsonKind::Float:
      return Kind::Float;
    case JsonKind::String:
      return Kind::String;
    case JsonKind::Array:
      return Kind::Array;
    case JsonKind::Object:
      return Kind::Object;
  }
  return Kind::Null;
}

// One parsed document.
struct Doc {
  JsonDoc tree;

  // Integer: canonical decimal (a 64-bit value) or the literal (beyond 64 bits); Float: the
  // literal; String: the string.
  std::string text(const JsonNode& n) const {
    switch (n.kind) {
      case JsonKind::Integer:
        return (n.flag ? "-" : "") + std::to_string(n.magnitude());
      case JsonKind::BigInteger:
      case JsonKind::Float:
        return std::string(tree.number_text(n));
      case JsonKind::String:
        return std::string(tree.str(n));
      default:
        return {};
    }
  }
  // An object's members sorted by key (keys are unique: the parser rejects duplicates).
  std::vector<const JsonNode*> sorted_members(const JsonNode& obj) const {
    std::vector<const JsonNode*> out;
    out.reserve(obj.count());
    for (const JsonNode* c = tree.first(obj); c; c = tree.next(*c)) out.push_back(c);
    std::sort(out.begin(), out.end(),
              [&](const JsonNode* a, const JsonNode* b) { return tree.key(*a) < tree.key(*b); });
    return out;
  }
  const JsonNode* find(const std::vector<const JsonNode*>& sorted, std::string_view k) const {
    auto it = std::lower_bound(
        sorted.begin(), sorted.end(), k,
        [&](const JsonNode* m, std::string_view key) { return tree.key(*m) < key; });
    return it != sorted.end() && tree.key(**it) == k ? *it : nullptr;
  }
};

std::optional<Doc> parse(std::string_view text, std::string& error) {
  JsonParseOptions options;
  options.max_depth = kMaxJsonDepth;
  options.max_values = kMaxJsonValues;
  options.duplicate_keys_at_close = true;
  options.keep_number_text = true;
  Result<JsonDoc> tree = JsonDoc::parse(text, options);
  if (!tree.ok()) {
    error = tree.error().detail.empty() ? "invalid JSON" : tree.error().detail;
    return std::nullopt;
  }
  return Doc{std::move(tree).value()};
}

std::string_view kind_name(Kind k) {
  static constexpr EnumName<Kind> kNames[] = {{Kind::Null, "null"},       {Kind::Bool, "boolean"},
                                              {Kind::Integer, "integer"}, {Kind::Float, "number"},
                                              {Kind::String, "string"},   {Kind::Array, "array"},
                                              {Kind::Object, "object"}};
  return name_of(kNames, k, "?");
}

// A short rendering of a scalar for messages; containers are described by size.
std::string brief(const Doc& d, const JsonNode& v) {
  switch (kind_of(v)) {
    case Kind::Null:
      return "null";
    case Kind::Bool:
      return v.flag ? "true" : "false";
    case Kind::Integer:
    case Kind::Float: {
      const std::string t = d.text(v);
      return t.size() > 60 ? t.substr(0, 60) + "..." : t;
    }
    case Kind::String: {
      const std::string t = d.text(v);
      std::string s = t.size() > 60 ? t.substr(0, 60) + "..." : t;
      return "\"" + s + "\"";
    }
    case Kind::Array:
      return "array of " + std::to_string(v.count());
    case Kind::Object:
      return "object of " + std::to_string(v.count()) + " keys";
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
bool differ(const Doc& ed, const JsonNode& e, const Doc& ad, const JsonNode& a,
            const std::string& path, JsonDiff& out) {
  auto report = [&](std::string detail) {
    out.outcome = JsonCompare::Differ;
    out.path = path;
    out.detail = std::move(detail);
    return true;
  };
  const Kind ek = kind_of(e), ak = kind_of(a);
  if (ek == Kind::Float) {
    if (ak != Kind::Float && ak != Kind::Integer)
      return report("expected number " + brief(ed, e) + ", got " + std::string(kind_name(ak)) +
                    " " + brief(ad, a));
    const std::string et = ed.text(e), at = ad.text(a);
    auto eb = json_number_f32_bits(et);
    auto ab = json_number_f32_bits(at);
    if (eb && ab && *eb == *ab) return false;
    return report("expected " + et + " (f32 " + (eb ? bits_text(*eb) : "?") + "), got " +
                  brief(ad, a) + " (f32 " + (ab ? bits_text(*ab) : "?") + ")");
  }
  if (ek != ak)
    return report("expected " + std::string(kind_name(ek)) + " " + brief(ed, e) + ", got " +
                  std::string(kind_name(ak)) + " " + brief(ad, a));
  switch (ek) {
    case Kind::Null:
      return false;
    case Kind::Bool:
      return e.flag == a.flag ? false
                              : report("expected " + brief(ed, e) + ", got " + brief(ad, a));
    case Kind::Integer:
    case Kind::String:
      return ed.text(e) == ad.text(a)
                 ? false
                 : report("expected " + brief(ed, e) + ", got " + brief(ad, a));
    case Kind::Float:
      return false;  // handled above
    case Kind::Array: {
      if (e.count() != a.count())
        return report("expected " + std::to_string(e.count()) + " elements, got " +
                      std::to_string(a.count()));
      size_t i = 0;
      for (const JsonNode *x = ed.tree.first(e), *y = ad.tree.first(a); x && y;
           x = ed.tree.next(*x), y = ad.tree.next(*y), ++i)
        if (differ(ed, *x, ad, *y, path + "[" + std::to_string(i) + "]", out)) return true;
      return false;
    }
    case Kind::Object: {
      const std::vector<const JsonNode*> es = ed.sorted_members(e), as = ad.sorted_members(a);
      for (const JsonNode* m = ed.tree.first(e); m; m = ed.tree.next(*m)) {
        const std::string_view k = ed.tree.key(*m);
        const JsonNode* av = ad.find(as, k);
        const std::string p = child_path(path, k);
        if (!av) {
          out.outcome = JsonCompare::Differ;
          out.path = p;
          out.detail = "missing key (expected " + brief(ed, *m) + ")";
          return true;
        }
        if (differ(ed, *m, ad, *av, p, out)) return true;
      }
      for (const JsonNode* m = ad.tree.first(a); m; m = ad.tree.next(*m))
        if (!ed.find(es, ad.tree.key(*m))) {
          out.outcome = JsonCompare::Differ;
          out.path = child_path(path, ad.tree.key(*m));
          out.detail = "unexpected key (got " + brief(ad, *m) + ")";
          return true;
        }
      return false;
    }
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
  differ(*e, e->tree.root(), *a, a->tree.root(), "$", out);
  return out;
}

std::optional<std::string> rejection_code(std::string_view text) {
  std::string error;
  auto d = parse(text, error);
  if (!d || d->tree.root().kind != JsonKind::Object) return std::nullopt;
  const JsonNode* code = d->tree.member(d->tree.root(), "error");
  if (!code || code->kind != JsonKind::String) return std::nullopt;
  return std::string(d->tree.str(*code));
}

}  // namespace voxrig::conform
