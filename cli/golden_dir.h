// Where the CLI finds the golden corpus: conform::locate_golden with the places an installed or
// a built voxrig knows about.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace voxrig::cli {

/// `given` (--golden), else $VOXRIG_GOLDEN, else the installed corpus relative to this executable
/// (<prefix>/share/voxrig/golden), else the source tree's golden/ (compile definition). Returns
/// the first that holds a manifest.json, else nullopt with every place tried in `tried`.
std::optional<std::string> find_golden(const std::optional<std::string>& given,
                                       std::vector<std::string>& tried);

/// Prints each problem line as "voxrig conform: LINE" on stderr (how every command reports a
/// corpus that does not load).
void print_corpus_problems(const std::vector<std::string>& problems);

}  // namespace voxrig::cli
