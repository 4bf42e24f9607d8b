// gen_corpus.h — writes a generated corpus (voxrig/testing/gen.h cases) in the golden layout
// (files/, dumps/, expected/, manifest.json; docs/manifest-schema.md), so `voxrig conform
// --golden DIR` runs it unchanged. Shared by `voxrig gen` and `voxrig conform --generated`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.h"
#include "voxrig/testing/gen.h"

namespace voxrig::cli {

struct GenCorpusOptions {
  std::vector<gen::GenFormat> formats;  ///< case i has formats[i % formats.size()]
  bool all_formats = false;             ///< spelled "all" on the command line
  uint64_t count = 10;
  uint64_t seed = 1;
  gen::GenSize size = gen::GenSize::Small;
  bool all_negative = false;      ///< --negative: every case is a negative case
  uint32_t negative_every = 0;    ///< --mix-negative K: case i is negative when i % K == K - 1
  std::optional<uint64_t> index;  ///< --index I: only case I of the run
  bool progress = true;           ///< progress lines on stderr for large runs
};

/// The id of case `index` (e.g. "gen/vfp/000003-vfp.section_tag_lower").
std::string gen_case_id(const gen::GenCase& c, uint64_t index);

/// The command that regenerates case `index` of the run alone into `out_dir`.
std::string gen_regen_command(const GenCorpusOptions& o, uint64_t index,
                              const std::string& out_dir);

/// Generates the cases and writes the corpus into `dir` (created if needed). For every profile a
/// case declares as accepted, the expected dump and writer outputs come from the reference;
/// declared verdicts never do. When the reference rejects a file the generator declares valid,
/// the case is still written (so conform reports it) and a MISMATCH line goes to stderr.
/// Returns kExitOk, kExitFailed (some mismatch; corpus written) or kExitIo. `ids` receives the
/// case ids by run index (empty string for indices not generated).
int write_generated_corpus(const std::string& dir, const GenCorpusOptions& o,
                           std::vector<std::string>& ids);

/// The values of --format (a comma-separated list) and --size of gen and conform --generated.
inline constexpr std::string_view kGenFormatChoices[] = {"vfp", "rkc", "kv6", "rvc", "kfa", "all"};
inline constexpr std::string_view kGenSizeChoices[] = {"small", "medium"};

/// Parses the generator options `voxrig gen` shares with `voxrig conform --generated` (--format,
/// --seed, --size) into `o`. Returns kExitOk or kExitUsage (after printing one line that names
/// the command `who`).
int parse_generated_options(const Args& args, GenCorpusOptions& o, std::string_view who);

/// A generator number (--seed, --count, --index, --mix-negative): strtoull with base 0 (decimal,
/// 0x hex, 0 octal), the whole argument, no sign, no overflow. False on anything else.
bool parse_gen_number(const std::string& s, uint64_t& out);

}  // namespace voxrig::cli
