// Locating and verifying the golden corpus before `voxrig conform` runs anything.
#include "conform_corpus.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "voxrig/conform/process_pool.h"
#include "voxrig/sha256.h"

namespace voxrig::cli {
namespace fs = std::filesystem;

namespace {

bool has_manifest(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / "manifest.json", ec);
}

std::string absolute(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  return ec ? dir : p.string();
}

}  // namespace

std::optional<std::string> locate_golden(const std::optional<std::string>& explicit_dir,
                                         std::vector<std::string>& tried) {
  if (explicit_dir) {
    tried.push_back(*explicit_dir + " (--golden)");
    if (has_manifest(*explicit_dir)) return absolute(*explicit_dir);
    return std::nullopt;
  }
  if (const char* env = std::getenv("VOXRIG_GOLDEN"); env && *env) {
    tried.push_back(std::string(env) + " ($VOXRIG_GOLDEN)");
    if (has_manifest(env)) return absolute(env);
    return std::nullopt;
  }
#ifdef VOXRIG_GOLDEN_FROM_BINDIR
  // The installed layout is checked before the source tree: an installed voxrig must run the
  // corpus it was installed with, even when the checkout it was built from still exists.
  if (const std::string exe = conform::self_executable(); !exe.empty()) {
    const std::string dir = (fs::path(exe).parent_path() / VOXRIG_GOLDEN_FROM_BINDIR).string();
    tried.push_back(dir + " (installed)");
    if (has_manifest(dir)) return absolute(dir);
  }
#endif
#ifdef VOXRIG_SOURCE_GOLDEN_DIR
  tried.push_back(std::string(VOXRIG_SOURCE_GOLDEN_DIR) + " (source tree)");
  if (has_manifest(VOXRIG_SOURCE_GOLDEN_DIR)) return absolute(VOXRIG_SOURCE_GOLDEN_DIR);
#endif
  return std::nullopt;
}

int load_corpus(const std::string& dir, Corpus& out) {
  out.dir = dir;
  const std::string manifest_path = out.file("manifest.json");
  const auto text = read_file(manifest_path, kCorpusRead);
  if (!text) {
    std::cerr << "voxrig conform: cannot read " << manifest_path << "\n";
    return kExitIo;
  }
  out.manifest_sha256 = to_hex(sha256(*text));
  std::string problem;
  auto manifest = conform::parse_manifest(as_text(*text), &problem);
  if (!manifest) {
    std::cerr << "voxrig conform: " << manifest_path << ": " << problem << "\n";
    return kExitIo;
  }
  out.manifest = std::move(*manifest);
  // The rule catalogue gives reports their rule summaries; a corpus without one (an older or a
  // generated corpus) still runs, with rule IDs only.
  if (const auto rules = read_file(out.file("rules.json"), kCorpusRead)) {
    auto catalogue = conform::parse_rules(as_text(*rules), &problem);
    if (!catalogue) {
      std::cerr << "voxrig conform: " << out.file("rules.json") << ": " << problem << "\n";
      return kExitIo;
    }
    out.rules = std::move(*catalogue);
  }

  size_t missing = 0, differ = 0;
  for (const auto& c : out.manifest.cases) {
    const std::string path = out.file(c.path);
    const auto bytes = read_file(path, kCorpusRead);
    if (!bytes) {
      std::cerr << "voxrig conform: case " << c.id << ": cannot read " << path << "\n";
      ++missing;
      continue;
    }
    const std::string got = to_hex(sha256(*bytes));
    if (got != c.sha256) {
      std::cerr << "voxrig conform: case " << c.id << ": " << c.path
                << " does not match the manifest (manifest sha256 " << c.sha256 << ", file " << got
                << ")\n";
      ++differ;
    }
    auto need = [&](const std::string& rel) {
      std::error_code ec;
      if (!fs::is_regular_file(out.file(rel), ec)) {
        std::cerr << "voxrig conform: case " << c.id << ": missing " << out.file(rel) << "\n";
        ++missing;
      }
    };
    for (const auto& e : c.expect) {
      if (!e.accept) continue;
      need(e.dump);
      if (e.roundtrip.kind == conform::WriterSpec::Kind::Path) need(e.roundtrip.value);
      if (e.canonicalize.kind == conform::WriterSpec::Kind::Path) need(e.canonicalize.value);
    }
  }
  for (const auto& c : out.manifest.capability_cases) {
    const auto bytes = read_file(out.file(c.path), kCorpusRead);
    if (!bytes) {
      std::cerr << "voxrig conform: case " << c.id << ": cannot read " << out.file(c.path) << "\n";
      ++missing;
    } else if (to_hex(sha256(*bytes)) != c.sha256) {
      std::cerr << "voxrig conform: case " << c.id << ": " << c.path
                << " does not match the manifest\n";
      ++differ;
    }
    std::error_code ec;
    if (!c.output.empty() && !fs::is_regular_file(out.file(c.output), ec)) {
      std::cerr << "voxrig conform: case " << c.id << ": missing " << out.file(c.output) << "\n";
      ++missing;
    }
  }
  if (missing || differ) {
    std::cerr << "voxrig conform: the corpus in " << dir << " does not match its manifest ("
              << differ << " case file(s) differ, " << missing
              << " file(s) missing); nothing was run. Regenerate or reinstall the corpus.\n";
    return missing ? kExitIo : kExitFailed;
  }
  return kExitOk;
}

}  // namespace voxrig::cli
