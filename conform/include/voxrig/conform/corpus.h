// voxrig/conform/corpus.h — the golden corpus on disk: where it is, and whether it is intact
// (docs/manifest-schema.md). Every run (run.h), fuzz-reader and `voxrig rules` start here.
//
// This part of the library reads files (never writes): the manifest, the rule catalogue and every
// case file the manifest names, each read as a regular file of at most kMaxCorpusFile bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "voxrig/conform/conform.h"
#include "voxrig/conform/file_input.h"

namespace voxrig::conform {

/// A loaded, verified corpus.
struct Corpus {
  std::string dir;              ///< absolute path of the golden directory
  std::string manifest_sha256;  ///< SHA-256 of manifest.json, lower-case hex
  Manifest manifest;
  std::optional<RuleCatalogue> rules;  ///< rules.json, when the corpus has one

  /// Absolute path of a manifest-relative path.
  std::string file(const std::string& relative) const { return dir + "/" + relative; }
};

/// A place a corpus may be, after an explicit directory and $VOXRIG_GOLDEN.
struct CorpusCandidate {
  std::string dir;
  std::string label;  ///< how `tried` names it: "installed", "source tree"
};

/// Where the golden corpus is: `explicit_dir` (the only place looked at when given), else
/// $VOXRIG_GOLDEN (likewise), else the first of `defaults` holding a manifest.json. Returns the
/// absolute directory, or nullopt with every place looked at in `tried` ("DIR (--golden)",
/// "DIR ($VOXRIG_GOLDEN)", "DIR (LABEL)").
std::optional<std::string> locate_golden(const std::optional<std::string>& explicit_dir,
                                         std::span<const CorpusCandidate> defaults,
                                         std::vector<std::string>& tried);

/// How loading a corpus ended.
enum class CorpusStatus {
  Ok,          ///< intact
  Unreadable,  ///< a file is missing or unreadable, or the manifest / catalogue is malformed
  Mismatch,    ///< every file is there but a case file's SHA-256 differs from the manifest's
};

/// Reads manifest.json, hashes and parses it, reads rules.json when present, then checks every
/// case file's SHA-256 and that every dump / expected file the manifest names exists. Appends
/// one line per problem to `problems` ("case ID: cannot read PATH", ..., and last a line saying
/// nothing was run). Fills `out` as far as it got.
CorpusStatus load_corpus(const std::string& dir, Corpus& out, std::vector<std::string>& problems);

}  // namespace voxrig::conform
