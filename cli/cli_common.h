// Shared plumbing of the voxrig CLI: argument parsing, file I/O, exit codes, error output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

/// Parsed command line of one subcommand: positional arguments and --options.
struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  ///< "--name" -> value ("" for flags)
  bool help = false;

  /// Value of --name, or nullopt.
  std::optional<std::string> get(std::string_view name) const;
  bool has(std::string_view name) const;
};

/// Parses argv[first..]; `value_options` lists options that take a value ("--profile").
/// Returns nullopt (after printing one line to stderr) on an unknown option or missing value.
std::optional<Args> parse_args(int argc, char** argv, int first,
                               const std::vector<std::string_view>& value_options,
                               const std::vector<std::string_view>& flag_options);

/// Reads a whole file; on failure prints "voxrig: cannot read FILE: reason" and returns nullopt.
std::optional<std::vector<uint8_t>> read_file(const std::string& path);
/// Writes a whole file; on failure prints one line and returns false.
bool write_file(const std::string& path, const std::vector<uint8_t>& bytes);

/// Parses --profile; nullopt = not given. Prints a line and sets `bad` on an unknown name.
std::optional<Profile> profile_option(const Args& args, bool& bad);

/// The machine-readable rejection line: {"error": "<code>", "offset": N, "path": "..."}.
std::string error_json(const Error& e);

/// Prints usage text to stdout.
void print_text(std::string_view text);

}  // namespace voxrig::cli
