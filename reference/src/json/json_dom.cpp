// Strict JSON -> flat tree, on top of nlohmann's SAX parser (see voxrig/json_tree.h for the
// contract).
//
// Byte offsets: nlohmann's SAX events carry no positions, so the input is fed through an
// iterator that publishes how far the lexer has read. At each event the lexer has consumed the
// token (plus, for numbers, one look-ahead character), and tokens are separated only by
// whitespace, ',' and ':'; so a token starts at the first such non-separator byte after the
// previous event's read position.
#include "json/json_dom.h"

#include <cstddef>
#include <iterator>
#include <new>
#include <optional>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "voxrig/enum_names.h"

namespace voxrig::detail {

// nlohmann's message without its exception id and position prefix ("[json.exception.parse_
// error.101] parse error at line 1, column 1: syntax error while parsing value - "): the error
// already carries the offset, and library exception text is not for users.
std::string json_problem_text(std::string_view what) {
  if (what.starts_with("[json.exception.")) {
    const size_t close = what.find("] ");
    if (close != std::string_view::npos) what.remove_prefix(close + 2);
  }
  if (what.starts_with("parse error")) {
    const size_t colon = what.find(": ");
    if (colon != std::string_view::npos) what.remove_prefix(colon + 2);
  }
  if (what.starts_with("syntax error while parsing ")) {
    const size_t dash = what.find(" - ");
    if (dash != std::string_view::npos) what.remove_prefix(dash + 3);
  }
  return what.empty() ? std::string("invalid JSON") : std::string(what);
}

namespace {

/// A `const char*` that publishes its position on every increment.
struct CountingIter {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  const char* p = nullptr;
  const char** frontier = nullptr;

  reference operator*() const { return *p; }
  CountingIter& operator++() {
    ++p;
    *frontier = p;
    return *this;
  }
  CountingIter operator++(int) {
    CountingIter old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIter& o) const { return p == o.p; }
  bool operator!=(const CountingIter& o) const { return p != o.p; }
};

bool is_identifier(std::string_view k) {
  if (k.empty()) return false;
  for (size_t i = 0; i < k.size(); ++i) {
    const char c = k[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!alpha && !(digit && i > 0)) return false;
  }
  return true;
}

}  // namespace

/// The SAX handler (nlohmann's SAX interface, 3.11).
class JsonDomBuilder {
 public:
  using json = nlohmann::json;

  JsonDomBuilder(std::string_view text, const JsonParseOptions& options)
      : text_(text), frontier_(text.data()), options_(options) {}

  const char** frontier() { return &frontier_; }
  JsonDoc take() { return std::move(doc_); }
  std::optional<Error>& error() { return error_; }

  bool null() { return count_value() && add(JsonKind::Null); }
  bool boolean(bool v) {
    if (!count_value()) return false;
    JsonNode& n = node(JsonKind::Bool);
    n.flag = v;
    return link();
  }
  bool number_integer(json::number_integer_t v) {
    if (!count_value()) return false;
    JsonNode& n = node(JsonKind::Integer);
    n.flag = v < 0;
    // Magnitude without overflow for INT64_MIN.
    n.set_payload(v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v));
    return link();
  }
  bool number_unsigned(json::number_unsigned_t v) {
    if (!count_value()) return false;
    JsonNode& n = node(JsonKind::Integer);
    n.set_payload(v);
    return link();
  }
  bool number_float(json::number_float_t v, const std::string& literal) {
    if (!count_value()) return false;
    // nlohmann falls back to a float token for integer literals beyond 64 bits.
    const bool integer_literal = literal.find_first_of(".eE") == std::string::npos;
    JsonNode& n = node(integer_literal ? JsonKind::BigInteger : JsonKind::Float);
    if (options_.keep_number_text) {
      n.a = static_cast<uint32_t>(doc_.pool_.size());
      n.b = static_cast<uint32_t>(literal.size());
      doc_.pool_ += literal;
    } else {
      n.set_payload(std::bit_cast<uint64_t>(v));
    }
    return link();
  }
  bool string(std::string& s) {
    if (!count_value()) return false;
    JsonNode& n = node(JsonKind::String);
    n.a = static_cast<uint32_t>(doc_.pool_.size());
    n.b = static_cast<uint32_t>(s.size());
    doc_.pool_ += s;
    return link();
  }
  bool binary(json::binary_t&) { return false; }  // never produced by the JSON lexer

  bool start_object(std::size_t) { return open(JsonKind::Object); }
  bool start_array(std::size_t) { return open(JsonKind::Array); }
  bool end_object() {
    // Deferred duplicate keys: reported when the object closes (see JsonParseOptions).
    if (const std::string* dup = stack_.back().duplicate) {
      error_ = error_at(ErrorCode::JsonDuplicateKey, token_start(), path_here(),
                        "duplicate key \"" + *dup + "\"");
      return false;
    }
    return close();
  }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    Open& o = stack_.back();
    const uint32_t at = token_start();
    const auto [it, fresh] = o.keys.insert(k);
    if (!fresh && options_.duplicate_keys_at_close) {
      if (o.duplicate == nullptr || *it < *o.duplicate) o.duplicate = &*it;
    } else if (!fresh) {
      std::string path = path_here();
      append_json_key(path, k);
      error_ =
          error_at(ErrorCode::JsonDuplicateKey, at, std::move(path), "duplicate key \"" + k + "\"");
      return false;
    }
    key_start_ = static_cast<uint32_t>(doc_.pool_.size());
    key_len_ = static_cast<uint32_t>(k.size());
    key_offset_ = at;
    key_pending_ = true;
    doc_.pool_ += k;
    mark();
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) {
    ErrorCode code = ErrorCode::JsonSyntax;
    const std::string_view what = ex.what();
    if (ex.id == 406) {  // a number literal beyond the double range
      code = last_token.find_first_of(".eE") == std::string::npos ? ErrorCode::JsonRange
                                                                  : ErrorCode::JsonFloatOverflow;
    } else if (what.find("surrogate") != std::string_view::npos) {
      code = ErrorCode::JsonBadName;  // D16: a lone surrogate escape
    }
    // `position` counts the characters read, the offending one included.
    uint64_t offset = position > 0 ? position - 1 : 0;
    if (offset > text_.size()) offset = text_.size();
    error_ = error_at(code, offset, path_here(), json_problem_text(what));
    return false;
  }

 private:
  struct Open {
    uint32_t node = 0;
    uint32_t last = kNoNode;
    std::unordered_set<std::string> keys;    // objects only
    const std::string* duplicate = nullptr;  // deferred mode: smallest duplicated key so far
  };

  // Counts one value against options_.max_values (a scalar when read, a container when it
  // closes).
  bool count_value() {
    if (++values_ <= options_.max_values) return true;
    error_ = error_at(ErrorCode::JsonLimit, token_start(), path_here(),
                      "more than " + std::to_string(options_.max_values) + " JSON values");
    return false;
  }

  // Position of the next token: skip separators from the previous event's read position.
  uint32_t token_start() {
    size_t pos = prev_;
    if (pos == 0 && text_.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;  // nlohmann skips a BOM
    while (pos < text_.size()) {
      const char c = text_[pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ':') break;
      ++pos;
    }
    return static_cast<uint32_t>(pos);
  }
  void mark() { prev_ = static_cast<size_t>(frontier_ - text_.data()); }

  JsonNode& node(JsonKind kind) {
    doc_.nodes_.emplace_back();
    JsonNode& n = doc_.nodes_.back();
    n.kind = kind;
    n.offset = token_start();
    return n;
  }
  bool add(JsonKind kind) {
    node(kind);
    return link();
  }
  // Links the node just created into its parent.
  bool link() {
    const uint32_t index = doc_.nodes_.size() - 1;
    if (!stack_.empty()) {
      Open& o = stack_.back();
      JsonNode& parent = doc_.nodes_[o.node];
      JsonNode& n = doc_.nodes_[index];
      if (parent.kind == JsonKind::Object) {
        n.key_start = key_start_;
        n.key_len = key_len_;
        n.key_offset = key_offset_;
      }
      if (o.last == kNoNode) {
        parent.a = index;
      } else {
        doc_.nodes_[o.last].next = index;
      }
      o.last = index;
      ++parent.b;
    }
    key_pending_ = false;
    mark();
    return true;
  }
  bool open(JsonKind kind) {
    if (stack_.size() >= options_.max_depth) {
      error_ = error_at(ErrorCode::JsonLimit, token_start(), path_here(),
                        "nesting deeper than " + std::to_string(options_.max_depth) + " levels");
      return false;
    }
    node(kind);
    link();
    stack_.emplace_back();
    stack_.back().node = doc_.nodes_.size() - 1;
    return true;
  }
  bool close() {
    if (!count_value()) return false;
    stack_.pop_back();
    mark();
    return true;
  }

  // The JSON path of the value being parsed (for errors raised while parsing).
  std::string path_here() const {
    std::string out = "$";
    for (size_t i = 1; i < stack_.size(); ++i) append_step(out, stack_[i - 1], stack_[i].node);
    if (!stack_.empty()) {
      const Open& o = stack_.back();
      const JsonNode& parent = doc_.nodes_[o.node];
      if (parent.kind == JsonKind::Array) {
        out += '[' + std::to_string(parent.count()) + ']';
      } else if (key_pending_) {
        append_json_key(out, std::string_view(doc_.pool_).substr(key_start_, key_len_));
      }
    }
    return out;
  }
  void append_step(std::string& out, const Open& parent_open, uint32_t child) const {
    const JsonNode& parent = doc_.nodes_[parent_open.node];
    const JsonNode& c = doc_.nodes_[child];
    if (parent.kind == JsonKind::Object) {
      append_json_key(out, std::string_view(doc_.pool_).substr(c.key_start, c.key_len));
    } else {
      out += '[' + std::to_string(parent.count() - 1) + ']';
    }
  }

  std::string_view text_;
  const char* frontier_;
  JsonParseOptions options_;
  size_t values_ = 0;
  size_t prev_ = 0;
  JsonDoc doc_;
  std::vector<Open> stack_;
  uint32_t key_start_ = 0, key_len_ = 0, key_offset_ = 0;
  bool key_pending_ = false;  // a key was read; its value is due
  std::optional<Error> error_;
};

}  // namespace voxrig::detail

namespace voxrig {

Result<JsonDoc> JsonDoc::parse(std::string_view text, const JsonParseOptions& options) {
  // Offsets and pool positions are 32-bit.
  if (text.size() >= 0xFFFFFFFFu) {
    return error_at(ErrorCode::JsonLimit, 0, "$", "JSON text of 4 GiB or more");
  }
  try {
    detail::JsonDomBuilder builder(text, options);
    detail::CountingIter first{text.data(), builder.frontier()};
    detail::CountingIter last{text.data() + text.size(), builder.frontier()};
    const bool ok = nlohmann::json::sax_parse(first, last, &builder);
    if (!ok || builder.error()) {
      if (builder.error()) return std::move(*builder.error());
      return error_at(ErrorCode::JsonSyntax, 0, "$", "not a JSON document");
    }
    JsonDoc doc = builder.take();
    if (doc.nodes_.empty()) return error_at(ErrorCode::JsonSyntax, 0, "$", "empty document");
    // nlohmann's lexer takes a NUL byte for the end of the input, so "{}\0garbage" parses. A
    // NUL anywhere inside the document is already a syntax error (strings must escape it), so
    // one found now follows the document: nothing may.
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
      return error_at(ErrorCode::JsonSyntax, nul, "$",
                      "a NUL byte follows the JSON document (nothing may follow it)");
    return doc;
  } catch (const std::bad_alloc&) {
    return Error{ErrorCode::InternalOutOfMemory, 0, {}, {}};  // no strings: cannot fail again
  } catch (const std::exception& e) {
    return error_at(ErrorCode::JsonSyntax, 0, "$", detail::json_problem_text(e.what()));
  }
}

const JsonNode* JsonDoc::member(const JsonNode& obj, std::string_view name) const {
  for (const JsonNode* c = first(obj); c; c = next(*c)) {
    if (key(*c) == name) return c;
  }
  return nullptr;
}

}  // namespace voxrig

namespace voxrig::detail {

std::string_view kind_name(JsonKind kind) {
  static constexpr EnumName<JsonKind> kNames[] = {
      {JsonKind::Null, "null"},
      {JsonKind::Bool, "boolean"},
      {JsonKind::Integer, "integer"},
      {JsonKind::BigInteger, "integer"},
      {JsonKind::Float, "number with fraction or exponent"},
      {JsonKind::String, "string"},
      {JsonKind::Array, "array"},
      {JsonKind::Object, "object"}};
  return name_of(kNames, kind, "value");
}

void append_json_key(std::string& out, std::string_view key) {
  if (is_identifier(key)) {
    out += '.';
    out += key;
    return;
  }
  out += "[\"";
  for (char c : key) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  out += "\"]";
}

std::string JsonPath::str() const {
  // Collect the chain root-first without recursion depth concerns (paths are short).
  std::vector<const JsonPath*> chain;
  for (const JsonPath* p = this; p; p = p->up) chain.push_back(p);
  std::string out = "$";
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const JsonPath* p = *it;
    if (!p->up) continue;  // the root
    if (p->index >= 0) {
      out += '[' + std::to_string(p->index) + ']';
    } else {
      append_json_key(out, p->key);
    }
  }
  return out;
}

}  // namespace voxrig::detail
