// Locating and verifying the golden corpus before anything runs (voxrig/conform/corpus.h).
#include "voxrig/conform/corpus.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "voxrig/sha256.h"

namespace voxrig::conform {
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

std::string_view as_text(const std::vector<uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The counts of what load_corpus found wrong.
struct Damage {
  size_t missing = 0, differ = 0;
};

void check_case_files(const Corpus& c, Damage& d, std::vector<std::string>& problems) {
  for (const auto& mc : c.manifest.cases) {
    const std::string path = c.file(mc.path);
    const auto bytes = read_regular_file(path);
    if (!bytes) {
      problems.push_back("case " + mc.id + ": cannot read " + path);
      ++d.missing;
      continue;
    }
    const std::string got = to_hex(sha256(*bytes));
    if (got != mc.sha256) {
      problems.push_back("case " + mc.id + ": " + mc.path +
                         " does not match the manifest (manifest sha256 " + mc.sha256 + ", file " +
                         got + ")");
      ++d.differ;
    }
    auto need = [&](const std::string& rel) {
      std::error_code ec;
      if (!fs::is_regular_file(c.file(rel), ec)) {
        problems.push_back("case " + mc.id + ": missing " + c.file(rel));
        ++d.missing;
      }
    };
    for (const auto& e : mc.expect) {
      if (!e.accept) continue;
      need(e.dump);
      if (e.roundtrip.kind == WriterSpec::Kind::Path) need(e.roundtrip.value);
      if (e.canonicalize.kind == WriterSpec::Kind::Path) need(e.canonicalize.value);
    }
  }
}

void check_capability_files(const Corpus& c, Damage& d, std::vector<std::string>& problems) {
  for (const auto& cc : c.manifest.capability_cases) {
    const auto bytes = read_regular_file(c.file(cc.path));
    if (!bytes) {
      problems.push_back("case " + cc.id + ": cannot read " + c.file(cc.path));
      ++d.missing;
    } else if (to_hex(sha256(*bytes)) != cc.sha256) {
      problems.push_back("case " + cc.id + ": " + cc.path + " does not match the manifest");
      ++d.differ;
    }
    std::error_code ec;
    if (!cc.output.empty() && !fs::is_regular_file(c.file(cc.output), ec)) {
      problems.push_back("case " + cc.id + ": missing " + c.file(cc.output));
      ++d.missing;
    }
  }
}

}  // namespace

std::optional<std::string> locate_golden(const std::optional<std::string>& explicit_dir,
                                         std::span<const CorpusCandidate> defaults,
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
  for (const auto& c : defaults) {
    tried.push_back(c.dir + " (" + c.label + ")");
    if (has_manifest(c.dir)) return absolute(c.dir);
  }
  return std::nullopt;
}

CorpusStatus load_corpus(const std::string& dir, Corpus& out, std::vector<std::string>& problems) {
  out.dir = dir;
  const std::string manifest_path = out.file("manifest.json");
  const auto text = read_regular_file(manifest_path);
  if (!text) {
    problems.push_back("cannot read " + manifest_path);
    return CorpusStatus::Unreadable;
  }
  out.manifest_sha256 = to_hex(sha256(*text));
  std::string problem;
  auto manifest = parse_manifest(as_text(*text), &problem);
  if (!manifest) {
    problems.push_back(manifest_path + ": " + problem);
    return CorpusStatus::Unreadable;
  }
  out.manifest = std::move(*manifest);
  // The rule catalogue gives reports their rule summaries; a corpus without one (an older or a
  // generated corpus) still runs, with rule IDs only.
  if (const auto rules = read_regular_file(out.file("rules.json"))) {
    auto catalogue = parse_rules(as_text(*rules), &problem);
    if (!catalogue) {
      problems.push_back(out.file("rules.json") + ": " + problem);
      return CorpusStatus::Unreadable;
    }
    out.rules = std::move(*catalogue);
  }
  Damage d;
  check_case_files(out, d, problems);
  check_capability_files(out, d, problems);
  if (!d.missing && !d.differ) return CorpusStatus::Ok;
  problems.push_back("the corpus in " + dir + " does not match its manifest (" +
                     std::to_string(d.differ) + " case file(s) differ, " +
                     std::to_string(d.missing) +
                     " file(s) missing); nothing was run. Regenerate or reinstall the corpus.");
  return d.missing ? CorpusStatus::Unreadable : CorpusStatus::Mismatch;
}

}  // namespace voxrig::conform
