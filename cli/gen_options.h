// The generator options `voxrig gen` shares with `voxrig conform --generated`, and how both write
// a generated corpus (voxrig/testing/gen_corpus.h) with progress and disagreement lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.h"
#include "voxrig/testing/gen_corpus.h"

namespace voxrig::cli {

/// The values of --format (a comma-separated list) and --size of gen and conform --generated.
inline constexpr std::string_view kGenFormatChoices[] = {"vfp", "rkc", "kv6", "rvc", "kfa", "all"};
inline constexpr std::string_view kGenSizeChoices[] = {"small", "medium"};

/// Parses --format, --seed and --size into `o`. Returns kExitOk or kExitUsage (after printing
/// one line that names the command `who`).
int parse_generated_options(const Args& args, gen::GenCorpusOptions& o, std::string_view who);

/// A generator number (--seed, --count, --index, --mix-negative): strtoull with base 0 (decimal,
/// 0x hex, 0 octal), the whole argument, no sign, no overflow. False on anything else.
bool parse_gen_number(const std::string& s, uint64_t& out);

/// gen::write_generated_corpus into `dir`, with progress on stderr for runs of 200 cases or more
/// (when `progress`), one "gen: MISMATCH ..." line per disagreement and their count. Returns
/// kExitOk, kExitFailed (a disagreement; the corpus is written) or kExitIo (after one line).
/// `ids` receives the case ids by run index.
int write_generated(const std::string& dir, const gen::GenCorpusOptions& o, bool progress,
                    std::vector<std::string>& ids);

}  // namespace voxrig::cli
