// Mutation engine of `voxrig golden regen`: field-addressed byte edits with recorded offsets,
// length fix-ups that follow inserts and deletes, and VFP hash re-binding.
#include "golden_mutate.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <span>

#include "voxrig/byte_reader.h"
#include "voxrig/byte_writer.h"
#include "voxrig/sha256.h"
#include "voxrig/testing/layout.h"

namespace voxrig::golden {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using testing::Field;
using testing::find_field;
using testing::Layout;
using testing::layout_of;
using testing::Region;

// A length field being kept in step with inserts/deletes until the next fix_lengths.
struct Tracked {
  std::string path;
  uint64_t len_off, start, end;
  std::vector<std::string> end_paths;
  int64_t delta = 0;
  bool dropped = false;
};

// The byte operand of set_bytes / insert / append: "bytes" (hex) or "ascii", optionally
// "repeat": n (the unit written n times; recorded the same way to keep the manifest small).
struct ByteOperand {
  std::vector<uint8_t> unit;
  uint64_t repeat = 1;
  std::vector<uint8_t> expanded() const {
    std::vector<uint8_t> r;
    r.reserve(unit.size() * repeat);
    for (uint64_t i = 0; i < repeat; ++i) r.insert(r.end(), unit.begin(), unit.end());
    return r;
  }
  void record(ordered_json& r) const {
    r["bytes"] = hex_of(unit);
    if (repeat != 1) r["repeat"] = repeat;
  }
};

bool byte_operand(const json& m, ByteOperand& b, std::string& err) {
  if (m.contains("ascii")) {
    const std::string s = m["ascii"].get<std::string>();
    b.unit.assign(s.begin(), s.end());
  } else if (!parse_hex(m.value("bytes", json()), b.unit, err)) {
    return false;
  }
  b.repeat = m.value("repeat", uint64_t{1});
  if (b.repeat > (uint64_t{1} << 24)) {
    err = "repeat too large";
    return false;
  }
  return true;
}

// The n (1, 2 or 4) low bytes of v, little-endian.
std::vector<uint8_t> le_bytes(uint64_t v, int n) {
  ByteWriter w;
  if (n == 1) w.u8(uint8_t(v));
  if (n == 2) w.u16(uint16_t(v));
  if (n == 4) w.u32(uint32_t(v));
  return w.take();
}

class Mutator {
 public:
  Mutator(std::vector<uint8_t>& b, ordered_json& rec) : b_(b), rec_(rec) {}

  bool apply(const json& m, std::string& err);

 private:
  struct Target {
    std::string field;  // empty when addressed by offset
    uint64_t offset = 0;
    uint64_t size = 0;
  };
  bool target(const json& m, const char* field_key, const char* offset_key, Target& t,
              std::string& err);
  void record_base(ordered_json& r, const Target& t) {
    if (!t.field.empty()) r["field"] = t.field;
    r["offset"] = t.offset;
  }
  bool set_int(const std::string& op, const json& m, std::string& err);
  bool insert(const Target& t, const std::vector<uint8_t>& bytes, std::string& err,
              const ByteOperand* operand = nullptr);
  bool erase(const Target& t, uint64_t n, std::string& err);
  void fix_lengths();
  bool fix_hashes(bool rig, std::string& err);
  bool set_count(int64_t add, std::string& err);
  void ensure_tracking();
  // n-byte (1, 2 or 4) little-endian access; the caller has checked the range fits.
  uint64_t get(uint64_t at, int n) const {
    const uint8_t* p = b_.data() + at;
    return n == 1 ? p[0] : n == 2 ? load_u16(p) : load_u32(p);
  }
  void put(uint64_t at, uint64_t v, int n) {
    const std::vector<uint8_t> x = le_bytes(v, n);
    std::copy(x.begin(), x.end(), b_.begin() + int64_t(at));
  }

  std::vector<uint8_t>& b_;
  ordered_json& rec_;
  std::optional<std::vector<Tracked>> tracked_;
};

bool Mutator::target(const json& m, const char* field_key, const char* offset_key, Target& t,
                     std::string& err) {
  if (m.contains(field_key)) {
    if (!m[field_key].is_string()) {
      err = std::string("'") + field_key + "' must be a string";
      return false;
    }
    t.field = m[field_key].get<std::string>();
    const Layout l = layout_of(b_);
    auto f = find_field(l, b_, t.field, err);
    if (!f) return false;
    t.offset = f->offset;
    t.size = f->size;
  } else if (m.contains(offset_key)) {
    if (!m[offset_key].is_number_unsigned()) {
      err = std::string("'") + offset_key + "' must be an unsigned integer";
      return false;
    }
    t.offset = m[offset_key].get<uint64_t>();
  } else {
    err = std::string("needs '") + field_key + "' or '" + offset_key + "'";
    return false;
  }
  if (m.contains("delta") && std::string(field_key) == "field") {
    t.offset = uint64_t(int64_t(t.offset) + m["delta"].get<int64_t>());
    t.field +=
        (m["delta"].get<int64_t>() >= 0 ? "+" : "") + std::to_string(m["delta"].get<int64_t>());
  }
  return true;
}

bool Mutator::set_int(const std::string& op, const json& m, std::string& err) {
  int n = 0;
  bool is_signed = false, is_float = op == "set_f32_bits";
  if (op == "set_u8")
    n = 1;
  else if (op == "set_u16")
    n = 2;
  else if (op == "set_i16")
    n = 2, is_signed = true;
  else if (op == "set_u32")
    n = 4;
  else if (op == "set_i32")
    n = 4, is_signed = true;
  else
    n = 4;
  Target t;
  if (!target(m, "field", "offset", t, err)) return false;
  if (t.offset + uint64_t(n) > b_.size()) {
    err = "field does not fit in the file";
    return false;
  }
  uint64_t v = 0;
  const uint64_t mask = n == 8 ? ~uint64_t{0} : ((uint64_t{1} << (8 * n)) - 1);
  if (m.contains("value") && m["value"].is_string()) {
    const std::string s = m["value"].get<std::string>();
    if (s.rfind("0x", 0) != 0 && s.rfind("0X", 0) != 0) {
      err = "string values must be hex (0x...)";
      return false;
    }
    v = std::stoull(s.substr(2), nullptr, 16);
  } else if (m.contains("value") && m["value"].is_number_integer()) {
    v = uint64_t(m["value"].get<int64_t>());
  } else if (m.contains("float") && is_float) {
    v = std::bit_cast<uint32_t>(static_cast<float>(m["float"].get<double>()));
  } else if (m.contains("add")) {
    uint64_t cur = get(t.offset, n);
    if (is_signed && n == 2) cur = uint64_t(int64_t(int16_t(cur)));
    if (is_signed && n == 4) cur = uint64_t(int64_t(int32_t(cur)));
    v = cur + uint64_t(m["add"].get<int64_t>());
  } else {
    err = "needs 'value' (integer or 0x hex), 'add'" + std::string(is_float ? " or 'float'" : "");
    return false;
  }
  v &= mask;
  put(t.offset, v, n);
  ordered_json r;
  r["op"] = op;
  record_base(r, t);
  if (is_float) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", unsigned(v));
    r["value"] = buf;
  } else if (is_signed) {
    r["value"] = n == 2 ? int64_t(int16_t(v)) : int64_t(int32_t(v));
  } else {
    r["value"] = v;
  }
  rec_.push_back(r);
  return true;
}

void Mutator::ensure_tracking() {
  if (tracked_) return;
  tracked_.emplace();
  for (const Region& r : layout_of(b_).regions)
    tracked_->push_back(
        {r.length_path, r.length_offset, r.content_start, r.content_end, r.end_paths});
}

// The regions an edit at `o` (named `field`) grows: the innermost one holding it, plus every
// region enclosing that one.
std::vector<size_t> grown_by(const std::vector<Tracked>& ts, uint64_t o, uint64_t n_del,
                             const std::string& field) {
  std::optional<size_t> inner;
  auto better = [&](size_t i) {
    return !inner || ts[i].end - ts[i].start < ts[*inner].end - ts[*inner].start;
  };
  if (n_del == 0)
    for (size_t i = 0; i < ts.size(); ++i)
      if (!ts[i].dropped &&
          std::find(ts[i].end_paths.begin(), ts[i].end_paths.end(), field) !=
              ts[i].end_paths.end() &&
          better(i))
        inner = i;
  if (!inner)
    for (size_t i = 0; i < ts.size(); ++i) {
      const Tracked& t = ts[i];
      const bool hit =
          n_del == 0 ? (t.start <= o && o < t.end) : (t.start <= o && o + n_del <= t.end);
      if (!t.dropped && hit && better(i)) inner = i;
    }
  std::vector<size_t> g;
  if (!inner) return g;
  const Tracked& r = ts[*inner];
  for (size_t i = 0; i < ts.size(); ++i)
    if (!ts[i].dropped && ts[i].start <= r.start && r.end <= ts[i].end) g.push_back(i);
  return g;
}

bool Mutator::insert(const Target& t, const std::vector<uint8_t>& bytes, std::string& err,
                     const ByteOperand* operand) {
  if (t.offset > b_.size()) {
    err = "insert offset past the end";
    return false;
  }
  ensure_tracking();
  auto& ts = *tracked_;
  const uint64_t n = bytes.size();
  auto g = grown_by(ts, t.offset, 0, t.field);
  for (size_t i = 0; i < ts.size(); ++i) {
    Tracked& r = ts[i];
    if (std::find(g.begin(), g.end(), i) != g.end()) {
      r.end += n;
      r.delta += int64_t(n);
    } else if (r.start >= t.offset) {
      r.start += n;
      r.end += n;
    }
    if (r.len_off >= t.offset && std::find(g.begin(), g.end(), i) == g.end()) r.len_off += n;
  }
  b_.insert(b_.begin() + int64_t(t.offset), bytes.begin(), bytes.end());
  ordered_json r;
  r["op"] = "insert";
  record_base(r, t);
  if (operand)
    operand->record(r);
  else
    r["bytes"] = hex_of(bytes);
  rec_.push_back(r);
  return true;
}

bool Mutator::erase(const Target& t, uint64_t n, std::string& err) {
  if (t.offset + n > b_.size()) {
    err = "delete range past the end";
    return false;
  }
  ensure_tracking();
  auto& ts = *tracked_;
  auto g = grown_by(ts, t.offset, n, t.field);
  for (size_t i = 0; i < ts.size(); ++i) {
    Tracked& r = ts[i];
    const bool grown = std::find(g.begin(), g.end(), i) != g.end();
    if (grown) {
      r.end -= n;
      r.delta -= int64_t(n);
    } else if (r.start >= t.offset + n) {
      r.start -= n;
      r.end -= n;
    } else if (r.end > t.offset && r.start < t.offset + n) {
      r.dropped = true;  // the edit cut into a region it does not contain
    }
    if (r.len_off >= t.offset + n)
      r.len_off -= n;
    else if (r.len_off + 4 > t.offset && r.len_off < t.offset + n)
      r.dropped = true;
  }
  b_.erase(b_.begin() + int64_t(t.offset), b_.begin() + int64_t(t.offset + n));
  ordered_json r;
  r["op"] = "delete";
  record_base(r, t);
  r["length"] = n;
  rec_.push_back(r);
  return true;
}

void Mutator::fix_lengths() {
  ordered_json r;
  r["op"] = "fix_lengths";
  ordered_json fields = ordered_json::array();
  if (tracked_) {
    for (const Tracked& t : *tracked_) {
      if (t.dropped || t.delta == 0 || t.len_off + 4 > b_.size()) continue;
      const uint64_t v = (get(t.len_off, 4) + uint64_t(t.delta)) & 0xFFFFFFFFu;
      put(t.len_off, v, 4);
      ordered_json f;
      f["field"] = t.path;
      f["offset"] = t.len_off;
      f["value"] = v;
      fields.push_back(f);
    }
  }
  r["fields"] = fields;
  rec_.push_back(r);
  tracked_.reset();
}

// The testing walker's byte-level rebind: unlike voxrig::rebind it needs no decodable file (case
// sources fix the hashes of files that are broken elsewhere) and it also sets header/sourceHash.
bool Mutator::fix_hashes(bool rig, std::string& err) {
  const auto written = testing::rebind_bytes(b_, rig, err);
  if (!written) return false;
  ordered_json names = ordered_json::array();
  for (const Field& f : *written) names.push_back(f.path);
  ordered_json r;
  r["op"] = "fix_hashes";
  r["fields"] = names;
  rec_.push_back(r);
  return true;
}

// Adjusts the VFP header sectionCount by `add` and records it as set_u32.
bool Mutator::set_count(int64_t add, std::string& err) {
  json m = {{"field", "header/sectionCount"}, {"add", add}};
  return set_int("set_u32", m, err);
}

bool Mutator::apply(const json& m, std::string& err) {
  if (!m.is_object() || !m.contains("op") || !m["op"].is_string()) {
    err = "a mutation is an object with a string 'op'";
    return false;
  }
  const std::string op = m["op"].get<std::string>();
  if (op.rfind("set_", 0) == 0 && op != "set_bytes") return set_int(op, m, err);
  if (op == "set_bytes") {
    Target t;
    ByteOperand op_bytes;
    if (!target(m, "field", "offset", t, err) || !byte_operand(m, op_bytes, err)) return false;
    const std::vector<uint8_t> bytes = op_bytes.expanded();
    if (t.offset + bytes.size() > b_.size()) {
      err = "set_bytes past the end";
      return false;
    }
    std::copy(bytes.begin(), bytes.end(), b_.begin() + int64_t(t.offset));
    ordered_json r;
    r["op"] = op;
    record_base(r, t);
    op_bytes.record(r);
    rec_.push_back(r);
    return true;
  }
  if (op == "truncate") {
    uint64_t keep = 0;
    ordered_json r;
    r["op"] = op;
    if (m.contains("length")) {
      keep = m["length"].get<uint64_t>();
    } else if (m.contains("drop")) {
      keep = b_.size() - std::min<uint64_t>(b_.size(), m["drop"].get<uint64_t>());
    } else {
      Target t;
      if (!target(m, "field", "offset", t, err)) return false;
      keep = t.offset;
      r["field"] = t.field;
    }
    if (keep > b_.size()) {
      err = "truncate length past the end";
      return false;
    }
    b_.resize(keep);
    r["length"] = keep;
    rec_.push_back(r);
    tracked_.reset();
    return true;
  }
  if (op == "append") {
    ByteOperand op_bytes;
    if (!byte_operand(m, op_bytes, err)) return false;
    const std::vector<uint8_t> bytes = op_bytes.expanded();
    b_.insert(b_.end(), bytes.begin(), bytes.end());
    ordered_json r;
    r["op"] = op;
    op_bytes.record(r);
    rec_.push_back(r);
    return true;
  }
  if (op == "insert") {
    Target t;
    ByteOperand op_bytes;
    if (!target(m, "field", "offset", t, err) || !byte_operand(m, op_bytes, err)) return false;
    return insert(t, op_bytes.expanded(), err, &op_bytes);
  }
  if (op == "delete") {
    Target t;
    if (!target(m, "field", "offset", t, err)) return false;
    uint64_t n = m.contains("length") ? m["length"].get<uint64_t>() : t.size;
    if (m.contains("until")) {  // delete [field, until): e.g. everything up to "SKEL/end"
      Target u;
      json uj = {{"field", m["until"]}};
      if (!target(uj, "field", "offset", u, err)) return false;
      if (u.offset < t.offset) {
        err = "'until' lies before 'field'";
        return false;
      }
      n = u.offset - t.offset;
    }
    return erase(t, n, err);
  }
  if (op == "fix_lengths") {
    fix_lengths();
    return true;
  }
  if (op == "fix_hashes") return fix_hashes(m.value("rig", false), err);
  if (op == "insert_section" || op == "insert_chunk") {
    const bool vfp = op == "insert_section";
    json at = {{"field", m.value("at", std::string("end"))}};
    Target t;
    if (!target(at, "field", "offset", t, err)) return false;
    std::vector<uint8_t> payload;
    if (!parse_hex(m.value("payload", json("")), payload, err)) return false;
    const std::string tag = m.value("tag", std::string());
    if (tag.size() != 4) {
      err = "tag must be 4 characters";
      return false;
    }
    std::vector<uint8_t> bytes(tag.begin(), tag.end());
    if (vfp) {
      auto add = [&](uint64_t v, int n) {
        auto x = le_bytes(v, n);
        bytes.insert(bytes.end(), x.begin(), x.end());
      };
      add(uint64_t(m.value("chunk_id", int64_t{-1})), 4);
      add(m.value("codec", 0u), 1);
      add(m.value("flags", 0u), 1);
      add(m.value("reserved", 0u), 2);
    }
    auto len = le_bytes(m.value("length", uint64_t(payload.size())), 4);
    bytes.insert(bytes.end(), len.begin(), len.end());
    bytes.insert(bytes.end(), payload.begin(), payload.end());
    if (!insert(t, bytes, err)) return false;
    return !vfp || !m.value("count", true) || set_count(1, err);
  }
  if (op == "delete_section") {
    Target t;
    if (!target(m, "field", "offset", t, err)) return false;
    return erase(t, t.size, err) && set_count(-1, err);
  }
  if (op == "move" || op == "copy" || op == "duplicate_section") {
    Target from, to;
    if (!target(m, "field", "offset", from, err)) return false;
    json tj =
        m.contains("to") ? json{{"field", m["to"]}} : json{{"offset", m.value("to_offset", 0u)}};
    if (!target(tj, "field", "offset", to, err)) return false;
    if (from.offset + from.size > b_.size()) {
      err = "source range past the end";
      return false;
    }
    std::vector<uint8_t> bytes(b_.begin() + int64_t(from.offset),
                               b_.begin() + int64_t(from.offset + from.size));
    if (op == "move") {
      if (to.offset > from.offset && to.offset < from.offset + from.size) {
        err = "cannot move a range into itself";
        return false;
      }
      if (!erase(from, from.size, err)) return false;
      if (to.offset >= from.offset + from.size) to.offset -= from.size;
      return insert(to, bytes, err);
    }
    if (!insert(to, bytes, err)) return false;
    return op != "duplicate_section" || set_count(1, err);
  }
  err = "unknown op '" + op + "'";
  return false;
}

}  // namespace

bool parse_hex(const json& value, std::vector<uint8_t>& out, std::string& error) {
  std::string text;
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_array()) {
    for (const auto& s : value) {
      if (!s.is_string()) {
        error = "hex arrays hold strings";
        return false;
      }
      text += s.get<std::string>();
      text += ' ';
    }
  } else {
    error = "hex must be a string or an array of strings";
    return false;
  }
  out.clear();
  int hi = -1;
  for (char c : text) {
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else if (c == ' ' || c == '\n' || c == '\t' || c == '|') {
      if (hi >= 0) {
        error = "hex: a byte was split by whitespace";
        return false;
      }
      continue;
    } else {
      error = std::string("hex: unexpected character '") + c + "'";
      return false;
    }
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(uint8_t(hi * 16 + v));
      hi = -1;
    }
  }
  if (hi >= 0) {
    error = "hex: odd number of digits";
    return false;
  }
  return true;
}

std::string hex_of(const std::vector<uint8_t>& bytes) { return to_hex(bytes); }

bool apply_mutations(std::vector<uint8_t>& bytes, const json& mutations, ordered_json& recorded,
                     std::string& error) {
  if (!mutations.is_array()) {
    error = "'mutations' must be an array";
    return false;
  }
  Mutator mut(bytes, recorded);
  for (size_t i = 0; i < mutations.size(); ++i) {
    std::string err;
    bool ok = false;
    try {
      ok = mut.apply(mutations[i], err);
    } catch (const std::exception& e) {
      err = e.what();
    }
    if (!ok) {
      error = "mutation " + std::to_string(i) + ": " + err;
      return false;
    }
  }
  return true;
}

}  // namespace voxrig::golden
