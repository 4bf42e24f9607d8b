// The golden builder's entry point (golden_corpus.h): sources -> the generated tree, written or
// compared with the committed one.
#include "golden_corpus.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "golden_capabilities.h"
#include "golden_cases.h"
#include "voxrig/sha256.h"
#include "voxrig/version.h"

namespace voxrig::golden {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

constexpr const char* kGeneratedDirs[] = {"files", "dumps", "expected"};

std::vector<uint8_t> as_bytes(const std::string& s) { return {s.begin(), s.end()}; }

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
// The committed manifest's hashes against the committed files.
void manifest_drift(const std::string& golden_dir, std::vector<std::string>& problems) {
  const auto manifest = slurp(golden_dir + "/manifest.json");
  if (!manifest) {
    problems.push_back("manifest.json: cannot read " + golden_dir + "/manifest.json");
    return;
  }
  try {
    const auto m = nlohmann::json::parse(manifest->begin(), manifest->end());
    for (const char* list : {"cases", "compile_cases", "pose_cases", "mesh_cases"})
      for (const auto& c : m.value(list, nlohmann::json::array())) {
        const std::string p = c.at("path");
        auto bytes = slurp(golden_dir + "/" + p);
        if (!bytes)
          problems.push_back("manifest: " + p + " is missing");
        else if (to_hex(sha256(*bytes)) != c.at("sha256").get<std::string>())
          problems.push_back("manifest: sha256 of " + p + " does not match");
      }
  } catch (const std::exception& e) {
    problems.push_back(std::string("manifest.json is not valid: ") + e.what());
  }
}

// The rule catalogue that resolves every case's rules; a problem is a source error.
void load_rules(const std::string& golden_dir, Build& g) {
  const std::string rules_path = golden_dir + "/rules.json";
  const auto text = slurp(rules_path);
  if (!text) {
    g.out.errors.push_back("cannot read " + rules_path + " (the rule catalogue)");
    return;
  }
  std::string problem;
  auto cat = conform::parse_rules(
      std::string_view(reinterpret_cast<const char*>(text->data()), text->size()), &problem);
  if (!cat)
    g.out.errors.push_back(rules_path + ": " + problem);
  else
    g.rules = std::move(*cat);
}

}  // namespace

BuiltCorpus build_corpus(const std::string& golden_dir) {
  Build g;
  load_rules(golden_dir, g);
  Sources s = load_sources(golden_dir, g.out.errors);
  for (auto& [id, d] : s.cases) build_case(s, id, g.out.errors);
  ordered_json cases = ordered_json::array(), compile = ordered_json::array();
  for (auto& [id, d] : s.cases) {
    if (!d.built) continue;
    cases.push_back(run_case(d, s, g));
  }
  for (const auto& [id, c] : s.compile_cases) compile.push_back(run_compile_case(c, s, g));
  add_base_obeys(g, cases);
  CapabilityCorpus cap = build_capability_cases(s, g.rules);
  g.out.files.insert(cap.files.begin(), cap.files.end());
  g.out.mismatches.insert(g.out.mismatches.end(), cap.mismatches.begin(), cap.mismatches.end());
  g.out.errors.insert(g.out.errors.end(), cap.errors.begin(), cap.errors.end());
  g.out.counts["pose"]["pose"] = {int(cap.pose_accept), int(cap.pose_reject)};
  g.out.counts["mesh"]["mesh"] = {int(cap.mesh_cases), 0};
  ordered_json m;
  m["schema"] = "voxrig-manifest/1";
  m["suite"] = "voxrig";
  m["suite_version"] = suite_version();
  m["spec_version"] = spec_version();
  m["corpus_version"] = corpus_version();
  m["cases"] = cases;
  m["compile_cases"] = compile;
  m["pose_cases"] = cap.pose;
  m["mesh_cases"] = cap.mesh;
  std::string text;
  pretty(m, 0, text);
  g.out.files["manifest.json"] = as_bytes(text + "\n");
  return std::move(g.out);
}

std::string write_corpus(const std::string& out_dir, const BuiltCorpus& built) {
  std::error_code ec;
  for (const char* sub : kGeneratedDirs) fs::remove_all(fs::path(out_dir) / sub, ec);
  for (const auto& [rel, bytes] : built.files) {
    const fs::path p = fs::path(out_dir) / rel;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out.close();
    if (!out) return "cannot write " + p.string() + ": " + std::strerror(errno ? errno : EIO);
  }
  return "";
}

std::vector<std::string> corpus_drift(const std::string& golden_dir, const BuiltCorpus& built,
                                      size_t& committed) {
  std::vector<std::string> problems;
  manifest_drift(golden_dir, problems);
  const std::set<std::string> present = list_tree(golden_dir);
  committed = present.size();
  for (const auto& [p, bytes] : built.files)
    if (!present.count(p)) problems.push_back(p + ": generated but not committed");
  for (const auto& p : present) {
    const auto it = built.files.find(p);
    if (it == built.files.end())
      problems.push_back(p + ": committed but no longer generated");
    else if (slurp(golden_dir + "/" + p) != it->second)
      problems.push_back(p + ": differs from the regenerated bytes");
  }
  return problems;
}

}  // namespace voxrig::golden
