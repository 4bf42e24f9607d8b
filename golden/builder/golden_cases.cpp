// Reader and compile cases -> manifest entries, checked against the declared outcomes
// (golden_cases.h).
#include "golden_cases.h"

#include <set>

#include "golden_capabilities.h"
#include "voxrig/any_format.h"
#include "voxrig/sha256.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig::golden {
namespace {

using nlohmann::ordered_json;

std::vector<uint8_t> as_bytes(const std::string& s) { return {s.begin(), s.end()}; }
std::string sha_hex(const std::vector<uint8_t>& b) { return to_hex(sha256(b)); }

// The manifest's "rules" of a case: {"breaks": [...], "obeys": [...]} from its expected error
// codes (reader and writer) and its source's explicit lists (voxrig/conform/rules.h). An
// explicit ID the catalogue lacks is a source error.
ordered_json resolve_rules(Build& g, const std::string& id, const std::vector<std::string>& codes,
                           const RuleLists& lists) {
  return resolved_rules_json(g.rules, id, codes, lists, g.out.errors);
}

std::string describe(const Result<std::string>& r) {
  return r.ok() ? "accept"
                : "reject " + std::string(to_string(r.error().code)) + " (" + r.error().to_text() +
                      ")";
}

// Runs one writer operation and checks it against the declaration; returns the manifest value.
ordered_json writer_check(const char* op, const CaseDef& d, const ProfileExpect& pe,
                          const WriterExpect& w, const Result<std::vector<uint8_t>>& out,
                          Sources& s, Build& g) {
  const std::string where = d.id + " [" + pe.profile + "] " + op + ": ";
  if (!out.ok()) {
    const std::string code(to_string(out.error().code));
    if (w.kind != WriterExpect::Kind::Error || w.error != code)
      g.out.mismatches.push_back(where + "the writer failed with " + out.error().to_text());
    return ordered_json{{"error", code}};
  }
  const std::vector<uint8_t>& bytes = *out;
  const bool same = bytes == d.bytes;
  switch (w.kind) {
    case WriterExpect::Kind::Same:
      if (!same)
        g.out.mismatches.push_back(where + "declared byte-identical output, got " +
                                   std::to_string(bytes.size()) + " different bytes");
      break;
    case WriterExpect::Kind::Differs:
      if (same)
        g.out.mismatches.push_back(where + "declared a different output, got the input bytes");
      break;
    case WriterExpect::Kind::Case: {
      std::vector<std::string> errs;
      if (!build_case(s, w.case_id, errs)) {
        g.out.errors.insert(g.out.errors.end(), errs.begin(), errs.end());
      } else if (s.cases[w.case_id].bytes != bytes) {
        g.out.mismatches.push_back(where + "output differs from the bytes of case " + w.case_id);
      }
      break;
    }
    case WriterExpect::Kind::Bytes:
      if (w.bytes != bytes)
        g.out.mismatches.push_back(where + "output differs from the declared hex");
      break;
    case WriterExpect::Kind::Error:
      g.out.mismatches.push_back(where + "declared writer error " + w.error +
                                 ", the writer succeeded");
      break;
  }
  if (same) return "same";
  // One file per distinct output of a case: roundtrip and canonicalize (and the profiles) share it
  // when their bytes agree.
  const std::string key = d.id + "\n" + sha_hex(bytes);
  if (auto it = g.expected_by_content.find(key); it != g.expected_by_content.end())
    return it->second;
  const std::string path =
      "expected/" + d.id + "." + pe.profile + "." + op + "." + extension_of(d.format);
  g.out.files[path] = bytes;
  g.expected_by_content[key] = path;
  return path;
}

}  // namespace

ordered_json run_case(CaseDef& d, Sources& s, Build& g) {
  ordered_json e;
  e["id"] = d.id;
  const std::string path = "files/" + d.id + "." + extension_of(d.format);
  g.out.files[path] = d.bytes;
  const std::string detected(to_string(detect_format(d.bytes)));
  // An "unknown" case runs under all four profiles, so it may also hold a file of one family to
  // be judged under the other family's profiles (D7: file.unknown_format there too).
  if (detected != d.format && d.format != "unknown")
    g.out.mismatches.push_back(d.id + ": declared format " + d.format + ", the magic says " +
                               detected);
  ordered_json expect = ordered_json::object();
  for (const ProfileExpect& pe : d.expect) {
    const Profile profile = *profile_from_string(pe.profile);
    auto dump = dump_any(d.bytes, profile, Limits{});
    auto& count = g.out.counts[d.format][pe.profile];
    (pe.accept ? count.first : count.second)++;
    ordered_json x;
    if (!pe.accept) {
      x["verdict"] = "reject";
      x["error"] = pe.error;
      if (dump.ok() || std::string(to_string(dump.error().code)) != pe.error)
        g.out.mismatches.push_back(d.id + " [" + pe.profile + "]: declared reject " + pe.error +
                                   ", reference " + describe(dump));
      else  // where the reference reports it: context for reports only (never compared, D12)
        x["offset"] = dump.error().offset;
      expect[pe.profile] = x;
      continue;
    }
    x["verdict"] = "accept";
    if (!dump.ok()) {
      g.out.mismatches.push_back(d.id + " [" + pe.profile + "]: declared accept, reference " +
                                 describe(dump));
      expect[pe.profile] = x;
      continue;
    }
    const std::string dump_path = "dumps/" + d.id + "." + pe.profile + ".json";
    g.out.files[dump_path] = as_bytes(*dump);
    x["dump"] = dump_path;
    x["roundtrip"] = writer_check("roundtrip", d, pe, pe.roundtrip,
                                  roundtrip_any(d.bytes, profile, Limits{}), s, g);
    x["canonicalize"] = writer_check("canonicalize", d, pe, pe.canonicalize,
                                     canonicalize_any(d.bytes, profile, Limits{}), s, g);
    expect[pe.profile] = x;
  }
  e["path"] = path;
  e["sha256"] = sha_hex(d.bytes);
  e["format"] = d.format;
  e["tags"] = d.tags;
  e["rule"] = d.rule;
  std::vector<std::string> codes;
  for (const ProfileExpect& pe : d.expect) {
    if (!pe.accept) codes.push_back(pe.error);
    for (const WriterExpect* w : {&pe.roundtrip, &pe.canonicalize})
      if (w->kind == WriterExpect::Kind::Error) codes.push_back(w->error);
  }
  e["rules"] = resolve_rules(g, d.id, codes, d.rules);
  e["level"] = d.level;
  e["source"] = d.source;
  if (!d.derived_from.empty()) {
    e["derived_from"] = d.derived_from;
    e["mutations"] = d.mutations;
  }
  if (!d.compile_input.empty()) e["compile_input"] = d.compile_input;
  if (!d.note.empty()) e["note"] = d.note;
  e["expect"] = expect;
  return e;
}

ordered_json run_compile_case(const CompileCase& c, Sources& s, Build& g) {
  ordered_json e;
  e["id"] = c.id;
  const std::string path = "files/" + c.id + ".json";
  g.out.files[path] = as_bytes(c.text);
  e["path"] = path;
  e["sha256"] = sha_hex(g.out.files[path]);
  e["format"] = "vfp-json";
  e["tags"] = c.tags;
  e["rule"] = c.rule;
  e["rules"] =
      resolve_rules(g, c.id, c.accept ? std::vector<std::string>{} : std::vector{c.error}, c.rules);
  e["level"] = c.level;
  e["source"] = c.source;
  if (!c.from_model.empty()) e["compile_input"] = c.from_model;
  if (!c.note.empty()) e["note"] = c.note;
  auto model = compile_vfp_json(c.text, Limits{});
  Result<std::vector<uint8_t>> bytes =
      model.ok() ? encode_vfp(*model) : Result<std::vector<uint8_t>>(model.error());
  ordered_json x;
  auto& count = g.out.counts["vfp-json"]["compile"];
  (c.accept ? count.first : count.second)++;
  if (c.accept) {
    x["verdict"] = "accept";
    if (!bytes.ok()) {
      g.out.mismatches.push_back(c.id + " [compile]: declared accept, reference rejects with " +
                                 bytes.error().to_text());
    } else {
      const std::string out = "expected/" + c.id + ".compile.vfp";
      g.out.files[out] = *bytes;
      x["output"] = out;
      if (!c.output_case.empty()) {
        std::vector<std::string> errs;
        if (!build_case(s, c.output_case, errs))
          g.out.errors.insert(g.out.errors.end(), errs.begin(), errs.end());
        else if (s.cases[c.output_case].bytes != *bytes)
          g.out.mismatches.push_back(c.id + " [compile]: output differs from case " +
                                     c.output_case);
      }
    }
  } else {
    x["verdict"] = "reject";
    x["error"] = c.error;
    if (!c.json_path.empty()) {
      x["path"] = c.json_path;
      if (!bytes.ok() && bytes.error().path != c.json_path)
        g.out.mismatches.push_back(c.id + " [compile]: declared JSON path " + c.json_path +
                                   ", reference " + bytes.error().path);
    }
    if (bytes.ok() || std::string(to_string(bytes.error().code)) != c.error)
      g.out.mismatches.push_back(c.id + " [compile]: declared reject " + c.error + ", reference " +
                                 (bytes.ok() ? std::string("accepts") : bytes.error().to_text()));
  }
  e["expect"] = x;
  return e;
}

void add_base_obeys(const Build& g, ordered_json& cases) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < cases.size(); ++i) index[cases[i]["id"].get<std::string>()] = i;
  std::map<size_t, std::set<std::string>> extra;
  for (const auto& c : cases) {
    if (!c.contains("derived_from")) continue;
    auto it = index.find(c["derived_from"].get<std::string>());
    if (it == index.end()) continue;
    for (const auto& id : c["rules"]["breaks"]) extra[it->second].insert(id.get<std::string>());
  }
  for (auto& [i, ids] : extra) {
    ordered_json& rules = cases[i]["rules"];
    std::set<std::string> breaks, obeys;
    for (const auto& id : rules["breaks"]) breaks.insert(id.get<std::string>());
    for (const auto& id : rules["obeys"]) obeys.insert(id.get<std::string>());
    obeys.insert(ids.begin(), ids.end());
    rules["obeys"] = ordered_json::array();
    for (const auto& r : g.rules.rules)
      if (obeys.count(r.id) && !breaks.count(r.id)) rules["obeys"].push_back(r.id);
  }
}

}  // namespace voxrig::golden
