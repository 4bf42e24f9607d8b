// Option values several commands share: numbers and seconds with one message form, and the
// generator options of `voxrig gen` and `voxrig conform --generated` (with how both write a
// generated corpus, voxrig/testing/gen_corpus.h, with progress and disagreement lines).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.h"
#include "voxrig/conform/run.h"
#include "voxrig/testing/gen_corpus.h"

namespace voxrig::cli {

/// The last --`name` as an unsigned integer (decimal, 0x hex or 0 octal; the whole argument, no
/// sign) in [lo, hi] into `out`; `out` is untouched when the option is absent. False after
/// "voxrig WHO: NAME takes a number from LO to HI, got 'V'".
bool number_option(const Args& args, std::string_view who, std::string_view name, uint64_t lo,
                   uint64_t hi, uint64_t& out);

/// The last --`name` as seconds in [lo, hi] into `out` (untouched when absent). False after
/// "voxrig WHO: NAME takes seconds from LO to HI, got 'V'".
bool seconds_option(const Args& args, std::string_view who, std::string_view name, double lo,
                    double hi, double& out);

/// The values of --format (a comma-separated list) and --size of gen and conform --generated.
inline constexpr std::string_view kGenFormatChoices[] = {"vfp", "rkc", "kv6", "rvc", "kfa", "all"};
/// --protocol auto|serve|oneshot (conform, fuzz-reader, bench-reader): how a --reader is reached.
inline constexpr std::string_view kProtocolChoices[] = {"auto", "serve", "oneshot"};
/// The last --protocol (parse_args checked the name); Auto when absent.
conform::ReaderProtocol protocol_option(const Args& args);

inline constexpr std::string_view kGenSizeChoices[] = {"small", "medium"};

/// Parses --format, --seed and --size into `o`. Returns kExitOk or kExitUsage (after one line
/// that names the command `who`).
int parse_generated_options(const Args& args, gen::GenCorpusOptions& o, std::string_view who);

/// gen::write_generated_corpus into `dir`, with progress on stderr for runs of 200 cases or more
/// (when `progress`), one "gen: MISMATCH ..." line per disagreement and their count. Returns
/// kExitOk, kExitFailed (a disagreement; the corpus is written) or kExitIo (after one line).
/// `ids` receives the case ids by run index.
int write_generated(const std::string& dir, const gen::GenCorpusOptions& o, bool progress,
                    std::vector<std::string>& ids);

}  // namespace voxrig::cli
