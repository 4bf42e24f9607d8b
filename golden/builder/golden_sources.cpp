// Loading and building golden case sources (see golden_sources.h and golden/README.md).
#include "golden_sources.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "golden_build.h"
#include "golden_mutate.h"
#include "voxrig/error.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig::golden {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::set<std::string> kCaseKeys = {"id",   "rule",      "level",     "tags",         "expect",
                                         "note", "format",    "roundtrip", "canonicalize", "model",
                                         "base", "mutations", "hex",       "character",    "kv6",
                                         "kfa",  "rvc",       "rules"};
const std::vector<std::string> kBuilders = {"model", "base", "hex", "character",
                                            "kv6",   "kfa",  "rvc"};
const std::set<std::string> kCompileKeys = {
    "id",         "rule",  "level",       "tags",  "expect",    "note",    "json",
    "json_lines", "model", "output_case", "rules", "json_path", "json_hex"};
const std::set<std::string> kFormats = {"vfp", "rkc", "kv6", "rvc", "kfa", "unknown"};

bool valid_id(const std::string& id) {
  if (id.empty() || id.front() == '/' || id.back() == '/' || id.find("//") != std::string::npos)
    return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '/' ||
           c == '.';
  });
}

// The start every case object shares: only `keys` may appear, and "id" must be valid_id. Sets id
// (even when invalid); false with err set otherwise (`bad_id` is the invalid-id message).
bool parse_keys_and_id(const json& c, const std::set<std::string>& keys, const char* bad_id,
                       std::string& id, std::string& err) {
  for (auto it = c.begin(); it != c.end(); ++it)
    if (!keys.count(it.key())) {
      err = "unknown key '" + it.key() + "'";
      return false;
    }
  id = c.value("id", std::string());
  if (!valid_id(id)) {
    err = bad_id;
    return false;
  }
  return true;
}

bool known_code(const std::string& code) { return error_code_from_string(code).has_value(); }

// A verdict is "accept" or a known error code (then accept = false, error = the code); false,
// leaving both as they were, for anything else.
bool parse_verdict(const std::string& verdict, bool& accept, std::string& error) {
  if (verdict == "accept") {
    accept = true;
  } else if (known_code(verdict)) {
    accept = false;
    error = verdict;
  } else {
    return false;
  }
  return true;
}

// Parses a writer expectation: "same" | "differs" | {"case": id} | {"hex": ...} | {"error": code}.
bool parse_writer(const json& j, WriterExpect& w, std::string& err) {
  if (j.is_string() && j == "same")
    w.kind = WriterExpect::Kind::Same;
  else if (j.is_string() && j == "differs")
    w.kind = WriterExpect::Kind::Differs;
  else if (j.is_object() && j.size() == 1 && j.contains("case")) {
    w.kind = WriterExpect::Kind::Case;
    w.case_id = j["case"].get<std::string>();
  } else if (j.is_object() && j.size() == 1 && j.contains("hex")) {
    w.kind = WriterExpect::Kind::Bytes;
    if (!parse_hex(j["hex"], w.bytes, err)) return false;
  } else if (j.is_object() && j.size() == 1 && j.contains("error")) {
    w.kind = WriterExpect::Kind::Error;
    w.error = j["error"].get<std::string>();
    if (!known_code(w.error)) {
      err = "unknown writer error code '" + w.error + "'";
      return false;
    }
  } else {
    err =
        "a writer expectation is \"same\", \"differs\", {\"case\": id}, {\"hex\": ...} or "
        "{\"error\": code}";
    return false;
  }
  return true;
}

// "rules": {"obeys": [ID...], "breaks": [ID...]} (both optional): the rule IDs of
// golden/rules.json the case exercises beyond those its error codes give. The IDs are checked
// against the catalogue when the manifest is written (voxrig golden regen).
bool parse_rule_lists(const json& c, RuleLists& out, std::string& err) {
  auto it = c.find("rules");
  if (it == c.end()) return true;
  if (!it->is_object()) {
    err = "'rules' must be {\"obeys\": [...], \"breaks\": [...]}";
    return false;
  }
  for (auto kv = it->begin(); kv != it->end(); ++kv) {
    if (kv.key() != "obeys" && kv.key() != "breaks") {
      err = "'rules' takes only \"obeys\" and \"breaks\", not '" + kv.key() + "'";
      return false;
    }
    if (!kv->is_array()) {
      err = "'rules." + kv.key() + "' must be an array of rule IDs";
      return false;
    }
    for (const auto& id : *kv) {
      if (!id.is_string() || id.get<std::string>().empty()) {
        err = "'rules." + kv.key() + "' holds rule ID strings only";
        return false;
      }
      (kv.key() == "obeys" ? out.obeys : out.breaks).push_back(id.get<std::string>());
    }
  }
  return true;
}

bool parse_common(const json& c, std::string& rule, std::string& level,
                  std::vector<std::string>& tags, std::string& note, std::string& err) {
  if (!c.contains("rule") || !c["rule"].is_string() || c["rule"].get<std::string>().empty()) {
    err = "missing 'rule'";
    return false;
  }
  rule = c["rule"];
  level = c.value("level", std::string());
  if (level != "required" && level != "recommended") {
    err = "'level' must be \"required\" or \"recommended\"";
    return false;
  }
  if (!c.contains("tags") || !c["tags"].is_array() || c["tags"].empty()) {
    err = "missing 'tags' (a non-empty array)";
    return false;
  }
  for (const auto& t : c["tags"]) tags.push_back(t.get<std::string>());
  std::sort(tags.begin(), tags.end());
  tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
  note = c.value("note", std::string());
  return true;
}

bool parse_case(const json& c, const std::string& file_format, const std::string& source,
                CaseDef& d, std::string& err) {
  if (!parse_keys_and_id(c, kCaseKeys, "missing or invalid 'id' (lower-case a-z0-9_-./)", d.id,
                         err))
    return false;
  d.format = c.value("format", file_format);
  if (!kFormats.count(d.format)) {
    err = "unknown format '" + d.format + "'";
    return false;
  }
  d.source = source;
  if (!parse_common(c, d.rule, d.level, d.tags, d.note, err) || !parse_rule_lists(c, d.rules, err))
    return false;
  int builders = 0;
  for (const auto& b : kBuilders) builders += c.contains(b);
  if (builders != 1) {
    err = "needs exactly one of model, base, hex, character, kv6, kfa, rvc";
    return false;
  }
  if (c.contains("mutations") != c.contains("base")) {
    err = "'mutations' goes with 'base' (and 'base' needs 'mutations')";
    return false;
  }
  d.spec = c;
  // Writer expectations: case-level defaults, per-profile overrides. D1: VFP and RVC round trips
  // are byte-identical; other formats' canonicalize is their roundtrip; VFP canonical order is
  // declared per case.
  WriterExpect rt, canon;
  if (c.contains("roundtrip") && !parse_writer(c["roundtrip"], rt, err)) return false;
  canon = rt;
  if (d.format == "vfp") canon = WriterExpect{};
  if (c.contains("canonicalize") && !parse_writer(c["canonicalize"], canon, err)) return false;
  if (!c.contains("expect") || !c["expect"].is_object()) {
    err = "missing 'expect'";
    return false;
  }
  const json& e = c["expect"];
  std::set<std::string> used;
  for (const auto& p : profiles_of(d.format)) {
    const json* v = nullptr;
    if (e.contains(p))
      v = &e[p], used.insert(p);
    else if (e.contains("*"))
      v = &e["*"], used.insert("*");
    if (!v) {
      err = "'expect' has no verdict for profile " + p;
      return false;
    }
    ProfileExpect pe;
    pe.profile = p;
    pe.roundtrip = rt;
    pe.canonicalize = canon;
    std::string verdict;
    if (v->is_string()) {
      verdict = v->get<std::string>();
    } else if (v->is_object()) {
      verdict = v->value("verdict", std::string());
      if (v->contains("error")) verdict = (*v)["error"].get<std::string>();
      if (v->contains("roundtrip") && !parse_writer((*v)["roundtrip"], pe.roundtrip, err))
        return false;
      // D1: outside VFP, canonicalize is the roundtrip, so a per-profile roundtrip carries over.
      if (v->contains("roundtrip") && d.format != "vfp") pe.canonicalize = pe.roundtrip;
      if (v->contains("canonicalize") && !parse_writer((*v)["canonicalize"], pe.canonicalize, err))
        return false;
    }
    if (!parse_verdict(verdict, pe.accept, pe.error)) {
      err = "profile " + p + ": verdict must be \"accept\" or a known error code, got '" + verdict +
            "'";
      return false;
    }
    d.expect.push_back(pe);
  }
  for (auto it = e.begin(); it != e.end(); ++it)
    if (!used.count(it.key())) {
      err = "'expect' key '" + it.key() + "' is not a profile of format " + d.format;
      return false;
    }
  return true;
}

bool parse_compile_case(const json& c, const std::string& golden, const std::string& source,
                        CompileCase& d, std::string& err) {
  if (!parse_keys_and_id(c, kCompileKeys, "missing or invalid 'id'", d.id, err)) return false;
  d.source = source;
  if (!parse_common(c, d.rule, d.level, d.tags, d.note, err) || !parse_rule_lists(c, d.rules, err))
    return false;
  const int n = int(c.contains("json")) + int(c.contains("json_lines")) +
                int(c.contains("json_hex")) + int(c.contains("model"));
  if (n != 1) {
    err = "needs exactly one of json (text), json_lines (array of text lines), json_hex, model";
    return false;
  }
  if (c.contains("json_hex")) {  // input bytes that are not UTF-8 text (ill-formed UTF-8 cases)
    std::vector<uint8_t> bytes;
    if (!parse_hex(c["json_hex"], bytes, err)) return false;
    d.text.assign(bytes.begin(), bytes.end());
  } else if (c.contains("json")) {
    d.text = c["json"].get<std::string>();
  } else if (c.contains("json_lines")) {
    for (const auto& l : c["json_lines"]) d.text += l.get<std::string>() + "\n";
  } else {
    d.from_model = "sources/vfp/models/" + c["model"].get<std::string>() + ".json";
    auto bytes = slurp(golden + "/" + d.from_model);
    if (!bytes) {
      err = "cannot read " + d.from_model;
      return false;
    }
    d.text.assign(bytes->begin(), bytes->end());
  }
  const std::string verdict = c.value("expect", std::string());
  if (!parse_verdict(verdict, d.accept, d.error)) {
    err = "'expect' must be \"accept\" or a known error code";
    return false;
  }
  d.output_case = c.value("output_case", std::string());
  d.json_path = c.value("json_path", std::string());
  return true;
}

}  // namespace

std::vector<std::string> profiles_of(const std::string& format) {
  if (format == "vfp") return {"vfp-static", "vfp-rig"};
  if (format == "unknown") return {"vfp-static", "vfp-rig", "rkc-strict", "rkc-compat"};
  return {"rkc-strict", "rkc-compat"};
}

std::string extension_of(const std::string& format) { return format == "unknown" ? "bin" : format; }

std::optional<std::vector<uint8_t>> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

Sources load_sources(const std::string& golden_dir, std::vector<std::string>& errors) {
  Sources s;
  s.root = golden_dir;
  const fs::path root = fs::path(golden_dir) / "sources";
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path rel = fs::relative(it->path(), root);
    // Case lists sit directly in sources/<dir>/; deeper directories hold models and descriptions.
    if (it->is_regular_file() && it->path().extension() == ".json" &&
        std::distance(rel.begin(), rel.end()) == 2)
      files.push_back(it->path());
  }
  if (ec) errors.push_back("cannot list " + root.string() + ": " + ec.message());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::string source = "sources/" + fs::relative(f, root).generic_string();
    auto bytes = slurp(f.string());
    json doc;
    try {
      doc = json::parse(bytes->begin(), bytes->end());
    } catch (const std::exception& e) {
      errors.push_back(source + ": not valid JSON: " + e.what());
      continue;
    }
    if (!doc.is_object() || !doc.contains("format") || !doc.contains("cases") ||
        !doc["cases"].is_array()) {
      errors.push_back(source + ": expected {\"format\": ..., \"cases\": [...]}");
      continue;
    }
    const std::string format = doc["format"].get<std::string>();
    for (size_t i = 0; i < doc["cases"].size(); ++i) {
      const json& c = doc["cases"][i];
      std::string err;
      const std::string where = source + " case " + std::to_string(i) + " (" +
                                (c.is_object() ? c.value("id", std::string("?")) : "?") + ")";
      try {
        if (format == "pose" || format == "mesh") {
          RuleLists rules;
          if (!c.is_object() || !c.contains("id"))
            errors.push_back(where + ": a plan needs an id");
          else if (!parse_rule_lists(c, rules, err))
            errors.push_back(where + ": " + err);
          else
            s.capability_plans.push_back({format, source, c, rules});
        } else if (format == "vfp-json") {
          CompileCase d;
          if (!parse_compile_case(c, golden_dir, source, d, err))
            errors.push_back(where + ": " + err);
          else if (!s.compile_cases.emplace(d.id, d).second || s.cases.count(d.id))
            errors.push_back(where + ": duplicate id");
        } else {
          CaseDef d;
          if (!parse_case(c, format, source, d, err))
            errors.push_back(where + ": " + err);
          else if (!s.cases.emplace(d.id, d).second || s.compile_cases.count(d.id))
            errors.push_back(where + ": duplicate id");
        }
      } catch (const std::exception& e) {
        errors.push_back(where + ": " + e.what());
      }
    }
  }
  return s;
}

bool build_case(Sources& s, const std::string& id, std::vector<std::string>& errors) {
  auto it = s.cases.find(id);
  if (it == s.cases.end()) {
    errors.push_back("no case with id '" + id + "'");
    return false;
  }
  CaseDef& d = it->second;
  if (d.built) return true;
  if (d.building) {
    errors.push_back(id + ": base cycle");
    return false;
  }
  d.building = true;
  const json& c = d.spec;
  std::string err;
  bool ok = false;
  try {
    if (c.contains("model")) {
      d.compile_input = "sources/vfp/models/" + c["model"].get<std::string>() + ".json";
      auto text = slurp(s.root + "/" + d.compile_input);
      if (!text) {
        err = "cannot read " + d.compile_input;
      } else {
        auto model = compile_vfp_json(
            std::string_view(reinterpret_cast<const char*>(text->data()), text->size()), Limits{});
        if (!model.ok()) {
          err = d.compile_input + " does not compile: " + model.error().to_text();
        } else if (auto bytes = encode_vfp(*model); !bytes.ok()) {
          err = "encode_vfp failed: " + bytes.error().to_text();
        } else {
          d.bytes = std::move(*bytes);
          ok = true;
        }
      }
    } else if (c.contains("base")) {
      d.derived_from = c["base"].get<std::string>();
      if (build_case(s, d.derived_from, errors)) {
        d.bytes = s.cases[d.derived_from].bytes;
        ok = apply_mutations(d.bytes, c["mutations"], d.mutations, err);
      } else {
        err = "its base '" + d.derived_from + "' failed to build";
      }
    } else if (c.contains("hex")) {
      ok = parse_hex(c["hex"], d.bytes, err);
    } else {
      ok = build_rkc_family(c, s.root, d.bytes, err);
    }
  } catch (const std::exception& e) {
    err = e.what();
    ok = false;
  }
  d.building = false;
  if (!ok) {
    errors.push_back(d.source + " " + id + ": " + err);
    return false;
  }
  d.built = true;
  return true;
}

}  // namespace voxrig::golden
