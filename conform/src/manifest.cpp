// golden/manifest.json (docs/manifest-schema.md, schema voxrig-manifest/1) into plain structs.
//
// The runner trusts nothing it has not checked: a manifest that names a file outside the golden
// directory, a profile that does not exist or a verdict without its operand is refused with a
// message that names the case and the key, before anything runs.
#include <nlohmann/json.hpp>
#include <set>

#include "voxrig/conform/conform.h"

namespace voxrig::conform {
namespace {

using json = nlohmann::json;

constexpr std::string_view kProfiles[] = {"vfp-static", "vfp-rig", "rkc-strict", "rkc-compat"};

struct Problem {
  std::string message;
};

// A relative path that stays inside the golden directory: no leading '/', no '..' component,
// no empty component, no backslash (manifests are written with '/').
bool safe_relative_path(std::string_view p) {
  if (p.empty() || p.front() == '/' || p.find('\\') != std::string_view::npos ||
      p.find('\0') != std::string_view::npos)
    return false;
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find('/', start);
    if (end == std::string_view::npos) end = p.size();
    std::string_view part = p.substr(start, end - start);
    if (part.empty() || part == "..") return false;
    start = end + 1;
  }
  return true;
}

std::string string_field(const json& obj, const char* key, const std::string& where,
                         bool required = true) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) throw Problem{where + ": missing \"" + key + "\""};
    return "";
  }
  if (!it->is_string()) throw Problem{where + ": \"" + key + "\" must be a string"};
  return it->get<std::string>();
}

std::string path_field(const json& obj, const char* key, const std::string& where) {
  std::string p = string_field(obj, key, where);
  if (!safe_relative_path(p))
    throw Problem{where + ": \"" + key + "\" must be a relative path inside the golden directory"};
  return p;
}

WriterSpec writer_spec(const json& e, const char* key, const std::string& where) {
  WriterSpec w;
  auto it = e.find(key);
  if (it == e.end()) return w;
  if (it->is_string()) {
    if (*it == "same") {
      w.kind = WriterSpec::Kind::Same;
    } else {
      w.kind = WriterSpec::Kind::Path;
      w.value = path_field(e, key, where);
    }
  } else if (it->is_object()) {
    w.kind = WriterSpec::Kind::Error;
    w.value = string_field(*it, "error", where + "." + key);
  } else {
    throw Problem{where + ": \"" + key + "\" must be \"same\", a path or {\"error\": code}"};
  }
  return w;
}

// A case id: non-empty, no whitespace or '#' (expected-failure lines are "ID PROFILE ...").
std::string case_id_field(const json& c, const std::string& where) {
  std::string id = string_field(c, "id", where);
  if (id.empty() || id.find_first_of(" \t\r\n#") != std::string::npos)
    throw Problem{"case " + id + ": \"id\" must be non-empty without spaces or '#'"};
  return id;
}

// A file's SHA-256: 64 lower-case hex digits (the runner compares it with the file's hash).
std::string sha256_field(const json& c, const std::string& where) {
  std::string h = string_field(c, "sha256", where);
  if (h.size() != 64 || h.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw Problem{where + ": \"sha256\" must be 64 lower-case hex digits"};
  return h;
}

// "rules": {"breaks": [ID...], "obeys": [ID...]}, resolved at regen (voxrig/conform/rules.h);
// absent in old manifests. Breaking rules first, as the manifest lists them.
std::vector<RuleRef> rules_field(const json& c, const std::string& where) {
  std::vector<RuleRef> out;
  auto r = c.find("rules");
  if (r == c.end()) return out;
  if (!r->is_object()) throw Problem{where + ": \"rules\" must be an object"};
  for (auto relation : {RuleRelation::Breaks, RuleRelation::Obeys}) {
    auto list = r->find(std::string(to_string(relation)));
    if (list == r->end()) continue;
    if (!list->is_array()) throw Problem{where + ": \"rules\" lists must be arrays"};
    for (const auto& id : *list)
      if (id.is_string()) out.push_back({id.get<std::string>(), relation});
  }
  return out;
}

// The fields reader and capability cases share (id, file, SHA-256, format, rules), read by one
// piece of code so both get the same checks; `where` becomes "case ID" for the messages after.
template <class Case>
void read_identity(const json& c, std::string& where, Case& k) {
  k.id = case_id_field(c, where);
  where = "case " + k.id;
  k.path = path_field(c, "path", where);
  k.sha256 = sha256_field(c, where);
  k.format = string_field(c, "format", where);
  k.rule = string_field(c, "rule", where, false);
  k.rules = rules_field(c, where);
}

ManifestCase parse_case(const json& c, size_t index) {
  std::string where = "cases[" + std::to_string(index) + "]";
  if (!c.is_object()) throw Problem{where + ": must be an object"};
  ManifestCase mc;
  read_identity(c, where, mc);
  if (auto m = c.find("mutations"); m != c.end() && m->is_array() && !m->empty()) {
    const json& first = m->front();
    if (first.is_object() && first.contains("offset") && first["offset"].is_number_unsigned())
      mc.mutation_offset = first["offset"].get<int64_t>();
  }
  const std::string level = string_field(c, "level", where);
  if (level == "required")
    mc.level = Level::Required;
  else if (level == "recommended")
    mc.level = Level::Recommended;
  else
    throw Problem{where + ": \"level\" must be \"required\" or \"recommended\""};
  if (auto t = c.find("tags"); t != c.end()) {
    if (!t->is_array()) throw Problem{where + ": \"tags\" must be an array"};
    for (const auto& tag : *t)
      if (tag.is_string()) mc.tags.push_back(tag.get<std::string>());
  }
  auto ex = c.find("expect");
  if (ex == c.end() || !ex->is_object() || ex->empty())
    throw Problem{where + ": \"expect\" must be a non-empty object"};
  for (const auto& [profile, e] : ex->items()) {
    bool known = false;
    for (auto p : kProfiles) known |= p == profile;
    if (!known) throw Problem{where + ": unknown profile \"" + profile + "\" in \"expect\""};
  }
  for (auto profile : kProfiles) {  // a fixed order, whatever the file's key order
    auto it = ex->find(std::string(profile));
    if (it == ex->end()) continue;
    const std::string w = where + " expect." + std::string(profile);
    if (!it->is_object()) throw Problem{w + ": must be an object"};
    ManifestExpect me;
    me.profile = std::string(profile);
    const std::string verdict = string_field(*it, "verdict", w);
    if (verdict == "accept") {
      me.accept = true;
      me.dump = path_field(*it, "dump", w);
      me.roundtrip = writer_spec(*it, "roundtrip", w);
      me.canonicalize = writer_spec(*it, "canonicalize", w);
    } else if (verdict == "reject") {
      me.accept = false;
      me.error = string_field(*it, "error", w);
      if (me.error.empty()) throw Problem{w + ": \"error\" must not be empty"};
      if (auto off = it->find("offset"); off != it->end() && off->is_number_unsigned())
        me.offset = off->get<int64_t>();
    } else {
      throw Problem{w + ": \"verdict\" must be \"accept\" or \"reject\""};
    }
    mc.expect.push_back(std::move(me));
  }
  return mc;
}

// compile_cases / pose_cases / mesh_cases entries (docs/manifest-schema.md).
CapabilityCase parse_capability(const json& c, Check check, size_t index, const char* list) {
  std::string where = std::string(list) + "[" + std::to_string(index) + "]";
  if (!c.is_object()) throw Problem{where + ": must be an object"};
  CapabilityCase k;
  k.check = check;
  read_identity(c, where, k);
  const std::string level = string_field(c, "level", where);
  if (level != "required" && level != "recommended")
    throw Problem{where + ": \"level\" must be \"required\" or \"recommended\""};
  k.level = level == "required" ? Level::Required : Level::Recommended;
  if (auto t = c.find("tags"); t != c.end() && t->is_array())
    for (const auto& tag : *t)
      if (tag.is_string()) k.tags.push_back(tag.get<std::string>());
  k.profile = check == Check::Compile ? "vfp-json" : string_field(c, "profile", where);
  if (check != Check::Compile) {
    bool known = false;
    for (auto p : kProfiles) known |= p == k.profile;
    if (!known) throw Problem{where + ": unknown profile \"" + k.profile + "\""};
  }
  auto ex = c.find("expect");
  if (ex == c.end() || !ex->is_object()) throw Problem{where + ": \"expect\" must be an object"};
  const std::string verdict = string_field(*ex, "verdict", where + " expect");
  if (verdict != "accept" && verdict != "reject")
    throw Problem{where + ": \"verdict\" must be \"accept\" or \"reject\""};
  k.accept = verdict == "accept";
  if (!k.accept) {
    k.error = string_field(*ex, "error", where + " expect");
    k.json_path = string_field(*ex, "path", where + " expect", false);
  }
  if (check == Check::Compile && k.accept) k.output = path_field(*ex, "output", where + " expect");
  if (check == Check::Pose) {
    k.clip = string_field(c, "clip", where);
    k.t = string_field(c, "t", where);
    k.policy = string_field(c, "policy", where, false);
    k.mode = string_field(c, "mode", where, false);
    if (k.accept) {
      auto m = ex->find("model");
      if (m == ex->end() || !m->is_array()) throw Problem{where + ": \"model\" must be an array"};
      for (const auto& row : *m) {
        if (!row.is_array() || row.size() != 16)
          throw Problem{where + ": every model matrix has 16 numbers"};
        Matrix16 mat{};
        for (size_t e = 0; e < 16; ++e) {
          if (!row[e].is_number()) throw Problem{where + ": a model element is not a number"};
          mat[e] = row[e].get<double>();
        }
        k.model.push_back(mat);
      }
    }
  }
  if (check == Check::Mesh && k.accept) {
    auto n = ex->find("reference_quads");
    if (n == ex->end() || !n->is_number_unsigned())
      throw Problem{where + ": \"reference_quads\" must be a count"};
    k.reference_quads = n->get<size_t>();
    k.output = path_field(*ex, "mesh", where + " expect");
  }
  return k;
}

}  // namespace

const ManifestExpect* ManifestCase::find(std::string_view profile) const {
  for (const auto& e : expect)
    if (e.profile == profile) return &e;
  return nullptr;
}

std::optional<Manifest> parse_manifest(std::string_view text, std::string* problem) {
  try {
    const json doc = json::parse(text.begin(), text.end());
    if (!doc.is_object()) throw Problem{"the manifest must be a JSON object"};
    const std::string schema = string_field(doc, "schema", "manifest");
    if (schema != "voxrig-manifest/1")
      throw Problem{"unsupported manifest schema \"" + schema + "\" (expected voxrig-manifest/1)"};
    Manifest m;
    m.suite = string_field(doc, "suite", "manifest");
    m.suite_version = string_field(doc, "suite_version", "manifest");
    // Optional: a generated corpus or an older manifest names no spec or corpus version.
    for (auto [key, field] : {std::pair{"spec_version", &m.spec_version},
                              std::pair{"corpus_version", &m.corpus_version}})
      if (doc.contains(key)) *field = string_field(doc, key, "manifest");
    auto cases = doc.find("cases");
    if (cases == doc.end() || !cases->is_array())
      throw Problem{"manifest: \"cases\" must be an array"};
    std::set<std::string> ids;
    for (size_t i = 0; i < cases->size(); ++i) {
      ManifestCase c = parse_case((*cases)[i], i);
      if (!ids.insert(c.id).second) throw Problem{"case " + c.id + ": duplicate id"};
      m.cases.push_back(std::move(c));
    }
    const std::pair<const char*, Check> lists[] = {{"compile_cases", Check::Compile},
                                                   {"pose_cases", Check::Pose},
                                                   {"mesh_cases", Check::Mesh}};
    for (const auto& [list, check] : lists) {
      auto l = doc.find(list);
      if (l == doc.end()) continue;
      if (!l->is_array()) throw Problem{std::string("manifest: \"") + list + "\" must be an array"};
      for (size_t i = 0; i < l->size(); ++i) {
        CapabilityCase c = parse_capability((*l)[i], check, i, list);
        if (!ids.insert(c.id).second) throw Problem{"case " + c.id + ": duplicate id"};
        m.capability_cases.push_back(std::move(c));
      }
    }
    return m;
  } catch (const Problem& p) {
    if (problem) *problem = p.message;
  } catch (const std::exception& e) {
    if (problem) *problem = std::string("manifest is not valid JSON: ") + e.what();
  }
  return std::nullopt;
}

}  // namespace voxrig::conform
