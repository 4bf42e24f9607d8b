// Shared plumbing of the voxrig CLI: exit codes, the one option parser, the one file reader and
// writer, and the error line every command prints. Nothing here knows any format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "voxrig/error.h"
#include "voxrig/limits.h"
#include "voxrig/profile.h"

namespace voxrig::cli {

/// Exit codes every command uses, so CI scripts can tell the cases apart.
enum Exit : int {
  kExitOk = 0,      ///< accepted / success
  kExitReject = 1,  ///< the input file was rejected (an Error was printed)
  kExitUsage = 2,   ///< wrong arguments
  kExitIo = 3,      ///< a file could not be read or written
  kExitFailed = 4,  ///< a check the command runs failed (conform, regen differences, ...)
};

/// One option a command accepts, as its Command lists it.
struct OptionSpec {
  std::string_view name;     ///< spelled as typed: "--profile", "-o"
  bool takes_value = false;  ///< "--profile P" (the next argument); else a flag
};

/// Parsed command line of one subcommand: positional arguments and --options in command-line
/// order (an option given twice appears twice).
struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  ///< "--name" -> value ("" for flags)
  bool help = false;

  /// Value of the first --name, or nullopt.
  std::optional<std::string> get(std::string_view name) const;
  /// Value of the last --name (a later option overrides an earlier one), or nullopt.
  std::optional<std::string> last(std::string_view name) const;
  bool has(std::string_view name) const;
};

/// Parses argv[first..] against `options`. "--help"/"-h" set `help`; "--name=value" is taken as
/// given (not checked against `options`); an argument starting with '-' must be a listed option,
/// and one that takes a value consumes the next argument. Returns nullopt after printing one
/// line to stderr ("unknown option", "needs a value"). Safe on any argv; allocates the strings.
std::optional<Args> parse_args(int argc, char** argv, int first,
                               std::span<const OptionSpec> options);

/// How read_file treats a file it cannot read.
struct ReadOptions {
  bool quiet = false;           ///< print nothing on failure (the caller reports it)
  size_t max_bytes = SIZE_MAX;  ///< a larger file fails as unreadable (nothing printed)
};

/// Every file the CLI reads goes through here. Reads the whole file (a pipe too); on failure
/// (cannot open, a directory, a read error, more than `max_bytes`) returns nullopt, after
/// printing "voxrig: cannot read FILE: reason" to stderr unless `quiet` or over `max_bytes`.
std::optional<std::vector<uint8_t>> read_file(const std::string& path,
                                              const ReadOptions& options = {});
/// Every file the CLI writes goes through here: creates or truncates `path` and writes `bytes`.
/// On failure prints "voxrig: cannot write FILE: reason" to stderr and returns false.
bool write_file(const std::string& path, std::span<const uint8_t> bytes);
/// write_file of text.
bool write_file(const std::string& path, std::string_view text);

/// The bytes of a file read by read_file, as text (no copy; valid while `bytes` lives).
inline std::string_view as_text(const std::vector<uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

/// Parses --profile; nullopt = not given. Prints a line and sets `bad` on an unknown name.
std::optional<Profile> profile_option(const Args& args, bool& bad);

/// The machine-readable rejection line: {"error": "<code>", "offset": N, "path": "..."}.
std::string error_json(const Error& e);
/// Prints error_json(e) and a newline to stdout (the rejection line of the reader protocol).
void print_error_json(const Error& e);

}  // namespace voxrig::cli
