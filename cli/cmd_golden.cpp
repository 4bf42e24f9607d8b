// voxrig golden regen | check — the golden corpus generator and its drift check.
//
// regen: loads golden/sources, builds every case's bytes, runs the reference under every
// profile of the case's format and checks that its verdict and error code equal the DECLARED
// ones (the reference never decides what a case expects), then writes golden/files, dumps,
// expected and manifest.json. Any disagreement fails (exit 4) and lists every mismatch.
// check: verifies the committed manifest's hashes, regenerates into a temporary directory and
// fails on any byte difference from the committed tree.
#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "cli_common.h"
#include "commands.h"
#include "golden_capabilities.h"
#include "golden_sources.h"
#include "voxrig/any_format.h"
#include "voxrig/conform/rules.h"
#include "voxrig/sha256.h"
#include "voxrig/testing/layout.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig::cli {
namespace {

namespace fs = std::filesystem;
using golden::CaseDef;
using golden::CompileCase;
using golden::ProfileExpect;
using golden::Sources;
using golden::WriterExpect;
using nlohmann::ordered_json;

constexpr const char* kGeneratedDirs[] = {"files", "dumps", "expected"};
// check reports unreadable files in its own words.
constexpr ReadOptions kQuiet{.quiet = true};

std::vector<uint8_t> as_bytes(const std::string& s) { return {s.begin(), s.end()}; }
std::string sha_hex(const std::vector<uint8_t>& b) { return to_hex(sha256(b)); }

// Everything one regeneration produces, by path relative to the golden directory.
struct Generated {
  std::map<std::string, std::vector<uint8_t>> files;
  std::vector<std::string> mismatches;                     // reference disagrees with a declaration
  std::vector<std::string> errors;                         // a source could not be loaded or built
  std::map<std::string, std::string> expected_by_content;  // case id + sha -> expected/ path
  std::map<std::string, std::map<std::string, std::pair<int, int>>>
      counts;                    // format -> profile -> (accept, reject)
  conform::RuleCatalogue rules;  // golden/rules.json: resolves each case's rules
};

// The manifest's "rules" of a case: {"breaks": [...], "obeys": [...]} from its expected error
// codes (reader and writer) and its source's explicit lists (voxrig/conform/rules.h). An
// explicit ID the catalogue lacks is a source error.
ordered_json resolve_rules(Generated& g, const std::string& id,
                           const std::vector<std::string>& codes, const golden::RuleLists& lists) {
  return resolved_rules_json(g.rules, id, codes, lists, g.errors);
}

std::string describe(const Result<std::string>& r) {
  return r.ok() ? "accept"
                : "reject " + std::string(to_string(r.error().code)) + " (" + r.error().to_text() +
                      ")";
}

// Runs one writer operation and checks it against the declaration; returns the manifest value.
ordered_json writer_check(const char* op, const CaseDef& d, const ProfileExpect& pe,
                          const WriterExpect& w, const Result<std::vector<uint8_t>>& out,
                          Sources& s, Generated& g) {
  const std::string where = d.id + " [" + pe.profile + "] " + op + ": ";
  if (!out.ok()) {
    const std::string code(to_string(out.error().code));
    if (w.kind != WriterExpect::Kind::Error || w.error != code)
      g.mismatches.push_back(where + "the writer failed with " + out.error().to_text());
    return ordered_json{{"error", code}};
  }
  const std::vector<uint8_t>& bytes = *out;
  const bool same = bytes == d.bytes;
  switch (w.kind) {
    case WriterExpect::Kind::Same:
      if (!same)
        g.mismatches.push_back(where + "declared byte-identical output, got " +
                               std::to_string(bytes.size()) + " different bytes");
      break;
    case WriterExpect::Kind::Differs:
      if (same) g.mismatches.push_back(where + "declared a different output, got the input bytes");
      break;
    case WriterExpect::Kind::Case: {
      std::vector<std::string> errs;
      if (!golden::build_case(s, w.case_id, errs)) {
        g.errors.insert(g.errors.end(), errs.begin(), errs.end());
      } else if (s.cases[w.case_id].bytes != bytes) {
        g.mismatches.push_back(where + "output differs from the bytes of case " + w.case_id);
      }
      break;
    }
    case WriterExpect::Kind::Bytes:
      if (w.bytes != bytes) g.mismatches.push_back(where + "output differs from the declared hex");
      break;
    case WriterExpect::Kind::Error:
      g.mismatches.push_back(where + "declared writer error " + w.error + ", the writer succeeded");
      break;
  }
  if (same) return "same";
  // One file per distinct output of a case: roundtrip and canonicalize (and the profiles) share it
  // when their bytes agree.
  const std::string key = d.id + "\n" + sha_hex(bytes);
  if (auto it = g.expected_by_content.find(key); it != g.expected_by_content.end())
    return it->second;
  const std::string path =
      "expected/" + d.id + "." + pe.profile + "." + op + "." + golden::extension_of(d.format);
  g.files[path] = bytes;
  g.expected_by_content[key] = path;
  return path;
}

ordered_json run_case(CaseDef& d, Sources& s, Generated& g) {
  ordered_json e;
  e["id"] = d.id;
  const std::string path = "files/" + d.id + "." + golden::extension_of(d.format);
  g.files[path] = d.bytes;
  const std::string detected(to_string(detect_format(d.bytes)));
  if (detected != d.format)
    g.mismatches.push_back(d.id + ": declared format " + d.format + ", the magic says " + detected);
  ordered_json expect = ordered_json::object();
  for (const ProfileExpect& pe : d.expect) {
    const Profile profile = *profile_from_string(pe.profile);
    auto dump = dump_any(d.bytes, profile, Limits{});
    auto& count = g.counts[d.format][pe.profile];
    (pe.accept ? count.first : count.second)++;
    ordered_json x;
    if (!pe.accept) {
      x["verdict"] = "reject";
      x["error"] = pe.error;
      if (dump.ok() || std::string(to_string(dump.error().code)) != pe.error)
        g.mismatches.push_back(d.id + " [" + pe.profile + "]: declared reject " + pe.error +
                               ", reference " + describe(dump));
      else  // where the reference reports it: context for reports only (never compared, D12)
        x["offset"] = dump.error().offset;
      expect[pe.profile] = x;
      continue;
    }
    x["verdict"] = "accept";
    if (!dump.ok()) {
      g.mismatches.push_back(d.id + " [" + pe.profile + "]: declared accept, reference " +
                             describe(dump));
      expect[pe.profile] = x;
      continue;
    }
    const std::string dump_path = "dumps/" + d.id + "." + pe.profile + ".json";
    g.files[dump_path] = as_bytes(*dump);
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

ordered_json run_compile_case(const CompileCase& c, Sources& s, Generated& g) {
  ordered_json e;
  e["id"] = c.id;
  const std::string path = "files/" + c.id + ".json";
  g.files[path] = as_bytes(c.text);
  e["path"] = path;
  e["sha256"] = sha_hex(g.files[path]);
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
  auto& count = g.counts["vfp-json"]["compile"];
  (c.accept ? count.first : count.second)++;
  if (c.accept) {
    x["verdict"] = "accept";
    if (!bytes.ok()) {
      g.mismatches.push_back(c.id + " [compile]: declared accept, reference rejects with " +
                             bytes.error().to_text());
    } else {
      const std::string out = "expected/" + c.id + ".compile.vfp";
      g.files[out] = *bytes;
      x["output"] = out;
      if (!c.output_case.empty()) {
        std::vector<std::string> errs;
        if (!golden::build_case(s, c.output_case, errs))
          g.errors.insert(g.errors.end(), errs.begin(), errs.end());
        else if (s.cases[c.output_case].bytes != *bytes)
          g.mismatches.push_back(c.id + " [compile]: output differs from case " + c.output_case);
      }
    }
  } else {
    x["verdict"] = "reject";
    x["error"] = c.error;
    if (!c.json_path.empty()) {
      x["path"] = c.json_path;
      if (!bytes.ok() && bytes.error().path != c.json_path)
        g.mismatches.push_back(c.id + " [compile]: declared JSON path " + c.json_path +
                               ", reference " + bytes.error().path);
    }
    if (bytes.ok() || std::string(to_string(bytes.error().code)) != c.error)
      g.mismatches.push_back(c.id + " [compile]: declared reject " + c.error + ", reference " +
                             (bytes.ok() ? std::string("accepts") : bytes.error().to_text()));
  }
  e["expect"] = x;
  return e;
}

// A negative case is its valid base with one rule broken (conformance.md "Golden corpus"), so
// the base obeys every rule its derived cases break (unless it breaks that rule itself).
// Rewrites each case's "obeys" in catalogue order.
void add_base_obeys(const Generated& g, ordered_json& cases) {
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

// Readable and compact: a value whose one-line form fits in 100 columns stays on one line,
// everything else is broken into one member per line with two-space indentation.
void pretty(const ordered_json& v, int indent, std::string& out) {
  const std::string one = v.dump();
  if ((!v.is_object() && !v.is_array()) || one.size() + size_t(indent) <= 100 || v.empty()) {
    out += one;
    return;
  }
  const std::string pad(size_t(indent) + 2, ' ');
  out += v.is_object() ? "{\n" : "[\n";
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!first) out += ",\n";
    first = false;
    out += pad;
    if (v.is_object()) out += ordered_json(it.key()).dump() + ": ";
    pretty(*it, indent + 2, out);
  }
  out += "\n" + std::string(size_t(indent), ' ') + (v.is_object() ? "}" : "]");
}

Generated generate(const std::string& golden_dir) {
  Generated g;
  const std::string rules_path = golden_dir + "/rules.json";
  if (auto text = read_file(rules_path, kQuiet); !text) {
    g.errors.push_back("cannot read " + rules_path + " (the rule catalogue)");
  } else {
    std::string problem;
    auto cat = conform::parse_rules(as_text(*text), &problem);
    if (!cat)
      g.errors.push_back(rules_path + ": " + problem);
    else
      g.rules = std::move(*cat);
  }
  Sources s = golden::load_sources(golden_dir, g.errors);
  for (auto& [id, d] : s.cases) golden::build_case(s, id, g.errors);
  ordered_json cases = ordered_json::array(), compile = ordered_json::array();
  for (auto& [id, d] : s.cases) {
    if (!d.built) continue;
    cases.push_back(run_case(d, s, g));
  }
  for (const auto& [id, c] : s.compile_cases) compile.push_back(run_compile_case(c, s, g));
  add_base_obeys(g, cases);
  CapabilityCorpus cap = build_capability_cases(s, g.rules);
  g.files.insert(cap.files.begin(), cap.files.end());
  g.mismatches.insert(g.mismatches.end(), cap.mismatches.begin(), cap.mismatches.end());
  g.errors.insert(g.errors.end(), cap.errors.begin(), cap.errors.end());
  g.counts["pose"]["pose"] = {int(cap.pose_accept), int(cap.pose_reject)};
  g.counts["mesh"]["mesh"] = {int(cap.mesh_cases), 0};
  ordered_json m;
  m["schema"] = "voxrig-manifest/1";
  m["suite"] = "voxrig";
  m["suite_version"] = VOXRIG_VERSION;
  m["cases"] = cases;
  m["compile_cases"] = compile;
  m["pose_cases"] = cap.pose;
  m["mesh_cases"] = cap.mesh;
  std::string text;
  pretty(m, 0, text);
  g.files["manifest.json"] = as_bytes(text + "\n");
  return g;
}

bool write_tree(const std::string& out_dir, const Generated& g) {
  std::error_code ec;
  for (const char* sub : kGeneratedDirs) fs::remove_all(fs::path(out_dir) / sub, ec);
  for (const auto& [rel, bytes] : g.files) {
    const fs::path p = fs::path(out_dir) / rel;
    fs::create_directories(p.parent_path(), ec);
    if (!write_file(p.string(), bytes)) return false;
  }
  return true;
}

// Relative paths of every generated file present under `dir`.
std::set<std::string> list_tree(const std::string& dir) {
  std::set<std::string> r;
  std::error_code ec;
  if (fs::exists(fs::path(dir) / "manifest.json")) r.insert("manifest.json");
  for (const char* sub : kGeneratedDirs)
    for (fs::recursive_directory_iterator it(fs::path(dir) / sub, ec), end; !ec && it != end;
         it.increment(ec))
      if (it->is_regular_file()) r.insert(fs::relative(it->path(), dir).generic_string());
  return r;
}

void print_summary(const Generated& g, std::ostream& out) {
  for (const auto& [format, profiles] : g.counts)
    for (const auto& [profile, c] : profiles)
      out << "  " << format << " " << profile << ": " << c.first << " accept, " << c.second
          << " reject\n";
}

int report(const Generated& g) {
  for (const auto& e : g.errors) std::cerr << "golden: source error: " << e << "\n";
  for (const auto& m : g.mismatches) std::cerr << "golden: MISMATCH " << m << "\n";
  if (!g.errors.empty() || !g.mismatches.empty()) {
    std::cerr << "golden: " << g.errors.size() << " source error(s), " << g.mismatches.size()
              << " mismatch(es) between declared and reference outcomes\n";
    return kExitFailed;
  }
  return kExitOk;
}

int regen(const std::string& golden_dir, const std::string& out_dir, bool force) {
  Generated g = generate(golden_dir);
  const int rc = report(g);
  if (rc != kExitOk && !force) {
    std::cerr << "golden: nothing written (use --force to write anyway)\n";
    return rc;
  }
  if (!write_tree(out_dir, g)) return kExitIo;
  std::cout << "golden: wrote " << g.files.size() << " files to " << out_dir << "\n";
  print_summary(g, std::cout);
  return rc;
}

int check(const std::string& golden_dir, bool keep) {
  std::vector<std::string> problems;
  // 1. The committed manifest's hashes match the committed files.
  auto manifest_bytes = read_file(golden_dir + "/manifest.json", kQuiet);
  if (!manifest_bytes) {
    std::cerr << "golden: cannot read " << golden_dir << "/manifest.json\n";
    return kExitIo;
  }
  try {
    const auto m = nlohmann::json::parse(manifest_bytes->begin(), manifest_bytes->end());
    for (const char* list : {"cases", "compile_cases", "pose_cases", "mesh_cases"})
      for (const auto& c : m.value(list, nlohmann::json::array())) {
        const std::string p = c.at("path");
        auto bytes = read_file(golden_dir + "/" + p, kQuiet);
        if (!bytes)
          problems.push_back("manifest: " + p + " is missing");
        else if (sha_hex(*bytes) != c.at("sha256").get<std::string>())
          problems.push_back("manifest: sha256 of " + p + " does not match");
      }
  } catch (const std::exception& e) {
    problems.push_back(std::string("manifest.json is not valid: ") + e.what());
  }
  // 2. Regenerate into a temporary directory and compare byte for byte.
  std::string tmpl = (fs::temp_directory_path() / "voxrig-golden-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    std::cerr << "golden: cannot create a temporary directory\n";
    return kExitIo;
  }
  Generated g = generate(golden_dir);
  int rc = report(g);
  if (!write_tree(tmpl, g)) return kExitIo;
  const auto committed = list_tree(golden_dir), fresh = list_tree(tmpl);
  for (const auto& p : fresh)
    if (!committed.count(p)) problems.push_back(p + ": generated but not committed");
  for (const auto& p : committed)
    if (!fresh.count(p))
      problems.push_back(p + ": committed but no longer generated");
    else if (read_file(golden_dir + "/" + p, kQuiet) != read_file(tmpl + "/" + p, kQuiet))
      problems.push_back(p + ": differs from the regenerated bytes");
  std::error_code ec;
  if (keep)
    std::cout << "golden: regenerated tree kept in " << tmpl << "\n";
  else
    fs::remove_all(tmpl, ec);
  for (const auto& p : problems) std::cerr << "golden: DRIFT " << p << "\n";
  if (!problems.empty()) {
    std::cerr << "golden: " << problems.size()
              << " difference(s); run `voxrig golden regen` and commit golden/\n";
    rc = kExitFailed;
  }
  if (rc == kExitOk)
    std::cout << "golden: check passed (" << committed.size() << " files identical)\n";
  return rc;
}

constexpr std::string_view kUsage =
    "usage: voxrig golden regen [--golden DIR] [--out DIR] [--force]\n"
    "       voxrig golden check [--golden DIR] [--keep]\n"
    "       voxrig golden fields FILE\n"
    "regen: builds every case of DIR/sources (default DIR: ./golden), checks that the\n"
    "  reference's verdict and error code equal the declared ones under every profile, and\n"
    "  writes files/, dumps/, expected/ and manifest.json under --out (default DIR).\n"
    "  Any disagreement is listed and fails with exit 4 (nothing written without --force).\n"
    "check: verifies the manifest hashes, regenerates into a temporary directory and fails\n"
    "  (exit 4) on any byte difference from the committed tree (--keep keeps the temp dir).\n"
    "fields FILE: prints every field path the mutation locator knows in FILE (offset, size),\n"
    "  for writing case sources. A file of unknown format is refused (exit 1).\n"
    "Exit: 0 ok, 1 fields: the file cannot be walked, 2 usage, 3 I/O, 4 regen/check differences.\n";
constexpr OptionSpec kOptions[] = {
    {"--golden", true}, {"--out", true}, {"--force", false}, {"--keep", false}};

int run(const Args& args) {
  if (args.positional.size() == 2 && args.positional[0] == "fields") {
    auto bytes = read_file(args.positional[1]);
    if (!bytes) return kExitIo;
    const testing::Layout l = testing::layout_of(*bytes);
    if (detect_format(*bytes) == Format::Unknown || l.fields.size() <= 1) {  // only "end"
      std::cerr << "voxrig: golden fields: cannot walk " << args.positional[1]
                << ": its magic is none of VFP, RKCH, Kvxl, RVCL, Kwlk\n";
      return kExitReject;
    }
    for (const auto& f : l.fields)
      std::cout << f.offset << "\t" << f.size << "\t" << f.path << "\n";
    for (const auto& r : l.regions)
      std::cout << "region " << r.length_path << " @" << r.length_offset << " counts ["
                << r.content_start << ", " << r.content_end << ")\n";
    return kExitOk;
  }
  if (args.positional.size() != 1 ||
      (args.positional[0] != "regen" && args.positional[0] != "check")) {
    std::cerr << "voxrig: golden needs 'regen' or 'check' (see --help)\n";
    return kExitUsage;
  }
  const std::string golden_dir = args.get("--golden").value_or("golden");
  if (!fs::is_directory(fs::path(golden_dir) / "sources")) {
    std::cerr << "voxrig: cannot read " << golden_dir
              << ": no sources/ folder there (--golden takes the golden directory)\n";
    return kExitIo;
  }
  if (args.positional[0] == "regen")
    return regen(golden_dir, args.get("--out").value_or(golden_dir), args.has("--force"));
  return check(golden_dir, args.has("--keep"));
}

}  // namespace

extern const Command kGolden{"golden", "regenerate (regen) or verify (check) the golden corpus",
                             kUsage, kOptions, run};

}  // namespace voxrig::cli
