// Locating the golden corpus from the CLI (golden_dir.h).
#include "golden_dir.h"

#include <filesystem>
#include <iostream>

#include "voxrig/conform/corpus.h"
#include "voxrig/conform/process_pool.h"

namespace voxrig::cli {

std::optional<std::string> find_golden(const std::optional<std::string>& given,
                                       std::vector<std::string>& tried) {
  std::vector<conform::CorpusCandidate> defaults;
#ifdef VOXRIG_GOLDEN_FROM_BINDIR
  // The installed layout is checked before the source tree: an installed voxrig must run the
  // corpus it was installed with, even when the checkout it was built from still exists.
  if (const std::string exe = conform::self_executable(); !exe.empty())
    defaults.push_back(
        {(std::filesystem::path(exe).parent_path() / VOXRIG_GOLDEN_FROM_BINDIR).string(),
         "installed"});
#endif
#ifdef VOXRIG_SOURCE_GOLDEN_DIR
  defaults.push_back({VOXRIG_SOURCE_GOLDEN_DIR, "source tree"});
#endif
  return conform::locate_golden(given, defaults, tried);
}

void print_corpus_problems(const std::vector<std::string>& problems) {
  for (const auto& p : problems) std::cerr << "voxrig conform: " << p << "\n";
}

}  // namespace voxrig::cli
