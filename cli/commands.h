// The voxrig subcommands: one table of {name, summary, usage, options, run}. main() dispatches
// and prints `voxrig --help` from it; every command parses its arguments the same way, with
// parse_args driven by its option list.
#pragma once

#include <span>
#include <string_view>

#include "cli_common.h"

namespace voxrig::cli {

/// One subcommand. Each cmd_<name>.cpp defines one (constant-initialized, so the table can be
/// read at any time).
struct Command {
  std::string_view name;                ///< argv[1]
  std::string_view summary;             ///< its line in `voxrig --help`
  std::string_view usage;               ///< `voxrig NAME --help`, printed to stdout
  std::span<const OptionSpec> options;  ///< what parse_args accepts
  /// Runs the command on parsed arguments (never called for --help); returns an Exit code.
  int (*run)(const Args& args);
};

/// Every command, in `voxrig --help` order.
std::span<const Command* const> commands();

/// The command called `name`, or nullptr.
const Command* find_command(std::string_view name);

/// Runs `command` on argv[2..]: parse errors exit kExitUsage, --help prints the usage text and
/// exits kExitOk, anything else is the command's exit code.
int run_command(const Command& command, int argc, char** argv);

/// run_command of the command named argv[1]; an unknown name prints one line and exits
/// kExitUsage. An allocation failure anywhere in the command (std::bad_alloc) ends it with the
/// internal.out_of_memory line and kExitReject (report_out_of_memory), never an abort. For
/// main() and callers that hold a whole `voxrig COMMAND ...` argv (the CLI's tests).
int run_command(int argc, char** argv);

}  // namespace voxrig::cli
