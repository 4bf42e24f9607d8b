// golden_corpus.h — the golden builder's entry point: golden/sources -> the whole generated tree
// (files/, dumps/, expected/, manifest.json; docs/manifest-schema.md), every outcome checked
// against the one the source declares (the reference never decides what a case expects).
// `voxrig golden regen | check` call these; golden/README.md is the author's guide.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace voxrig::golden {

/// Everything one build produces.
struct BuiltCorpus {
  std::map<std::string, std::vector<uint8_t>> files;  ///< by path relative to the golden dir
  std::vector<std::string> mismatches;  ///< the reference disagrees with a declaration
  std::vector<std::string> errors;      ///< a source could not be loaded or built
  /// format -> profile (or check) -> (accepts, rejects), for the summary.
  std::map<std::string, std::map<std::string, std::pair<int, int>>> counts;
};

/// Loads and builds every case of `golden_dir`/sources and the rule catalogue
/// (`golden_dir`/rules.json), runs the reference on each (every profile, the writers, the
/// compiler, pose and mesh) and records the declared outcomes with the reference's dumps, writer
/// outputs and capability expectations. Deterministic: the same sources give the same bytes.
BuiltCorpus build_corpus(const std::string& golden_dir);

/// Replaces the generated part of `out_dir` (files/, dumps/, expected/ and manifest.json) with
/// `built`. Returns "" or the first "cannot write PATH: reason".
std::string write_corpus(const std::string& out_dir, const BuiltCorpus& built);

/// How the committed tree in `golden_dir` differs from `built`, one line each: the committed
/// manifest's hashes against the committed files ("manifest: PATH is missing", "... does not
/// match"), then each generated file not committed, committed file no longer generated, and file
/// whose bytes differ. Empty when the tree is exactly what the sources build. `committed` receives
/// the number of generated-tree files present in `golden_dir`.
std::vector<std::string> corpus_drift(const std::string& golden_dir, const BuiltCorpus& built,
                                      size_t& committed);

}  // namespace voxrig::golden
