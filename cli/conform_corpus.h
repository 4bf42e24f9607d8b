// The golden corpus as `voxrig conform` sees it: where it is, and whether it is intact.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli_common.h"
#include "voxrig/conform/conform.h"

namespace voxrig::cli {

/// A loaded, verified corpus.
struct Corpus {
  std::string dir;              ///< absolute path of the golden directory
  std::string manifest_sha256;  ///< SHA-256 of manifest.json, lower-case hex
  conform::Manifest manifest;
  std::optional<conform::RuleCatalogue> rules;  ///< rules.json, when the corpus has one

  /// Absolute path of a manifest-relative path.
  std::string file(const std::string& relative) const { return dir + "/" + relative; }
};

/// Where the golden corpus is: `explicit_dir`, else $VOXRIG_GOLDEN, else the installed corpus
/// relative to the executable (<prefix>/share/voxrig/golden), else the source tree's golden/
/// (compile definition). Returns the first candidate holding a manifest.json, else nullopt with
/// every candidate tried in `tried`.
std::optional<std::string> locate_golden(const std::optional<std::string>& explicit_dir,
                                         std::vector<std::string>& tried);

/// Reads manifest.json, hashes it, parses it, then checks every case file's SHA-256 and that
/// every dump / expected file the manifest names exists. Prints one line per problem to stderr.
/// Returns 0 (kExitOk) when the corpus is intact, kExitIo when a file is missing or unreadable
/// or the manifest is malformed, kExitFailed when a case file's hash differs.
int load_corpus(const std::string& dir, Corpus& out);

/// How conform reads corpus files, expected-failure lists and reader outputs: quietly (it
/// reports a failure in its own words) and at most 1 GiB (a runaway reader output fails).
inline constexpr ReadOptions kCorpusRead{.quiet = true, .max_bytes = size_t{1} << 30};

}  // namespace voxrig::cli
