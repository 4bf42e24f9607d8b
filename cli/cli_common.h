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
#include "voxrig/text_stream.h"

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
  /// The values an enum-valued option allows (empty = any value). parse_args rejects any other
  /// value with "voxrig: --policy: 'cubic' is not one of step, linear, slerp".
  std::span<const std::string_view> choices = {};
  bool list = false;  ///< the value is a comma-separated list; every item must be a choice
};

/// The four profile names, in the order usage texts list them (the choices of --profile).
inline constexpr std::string_view kProfileChoices[] = {"vfp-static", "vfp-rig", "rkc-strict",
                                                       "rkc-compat"};

/// "a, b, c": how an error line lists allowed values.
std::string join_choices(std::span<const std::string_view> choices);

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
/// given unless `name` is a listed option with choices; an argument starting with '-' (other
/// than "-", which is a positional: stdin) must be a listed option, and one that takes a value
/// consumes the next argument. A value outside the option's `choices` is refused. Returns
/// nullopt after printing one line to stderr ("unknown option", "needs a value", "is not one
/// of"). Safe on any argv; allocates the strings.
std::optional<Args> parse_args(int argc, char** argv, int first,
                               std::span<const OptionSpec> options);

/// The largest input any command reads, a file or stdin alike (docs/robustness.md): 1 GiB, above
/// any file the default limits accept, so stdin = /dev/zero ends instead of growing until the
/// allocator fails.
inline constexpr size_t kMaxInputBytes = size_t{1} << 30;

/// How read_file treats a file it cannot read.
struct ReadOptions {
  bool quiet = false;                 ///< print nothing on failure (the caller reports it)
  size_t max_bytes = kMaxInputBytes;  ///< a larger input fails as unreadable
};

/// Every file the CLI reads goes through here: "-" is stdin (conform::read_stdin), any other
/// path a regular file (conform::read_regular_file: a directory, a FIFO, a socket or a device
/// fails at once and never hangs; over `max_bytes` fails). On failure returns nullopt, after
/// printing the one line "voxrig: cannot read FILE: reason" to stderr unless `quiet`. Allocates
/// the bytes; std::bad_alloc when that fails.
std::optional<std::vector<uint8_t>> read_file(const std::string& path,
                                              const ReadOptions& options = {});
/// Every file the CLI writes goes through here: creates or truncates `path` and writes `bytes`
/// ("-" is stdout). Checked before opening: a directory, a missing folder; opened non-blocking,
/// so a FIFO nobody reads fails at once instead of hanging; every write and the close are
/// checked (a full disk, /dev/full: ENOSPC), and a regular file left half-written is removed.
/// On failure prints the one line "voxrig: cannot write FILE: reason" to stderr and returns
/// false. Never throws.
bool write_file(const std::string& path, std::span<const uint8_t> bytes);
/// Checks, before a long run, that write_file(path) could create the file: not a directory, its
/// folder exists, and the file can be opened for writing (an existing file is opened without
/// truncating; a new one is created and removed again). On failure prints "voxrig: cannot write
/// FILE: reason" (the same reasons as write_file) and returns false. A full disk is only found
/// by the write itself. Never throws.
bool check_writable(const std::string& path);
/// write_file of text.
bool write_file(const std::string& path, std::string_view text);

/// An output written piece by piece (mesh, pose and glTF writers stream through it), with
/// write_file's checks and messages. The file ("-" = stdout) is opened at the first piece, so an
/// output refused before it starts (limit.output) leaves an existing file untouched; once a
/// write fails the rest is dropped and finish() reports it. A regular file left half-written
/// (a failed write, or destruction without finish()) is removed. Never throws.
class OutputStream {
 public:
  explicit OutputStream(std::string path) : path_(std::move(path)) {}
  ~OutputStream();
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;

  /// Appends `piece` (opening the file first if needed); false once anything failed.
  bool write(std::string_view piece);
  /// A sink for the library's streaming writers that writes here.
  OutputSink sink() {
    return [this](std::string_view piece) { write(piece); };
  }
  /// Opens the file if nothing was written (an empty output is still created), closes it.
  /// false after printing "voxrig: cannot write PATH: reason" (once).
  bool finish();

 private:
  bool open();
  bool fail(const std::string& reason);
  std::string path_;
  int fd_ = -1;
  bool opened_ = false, failed_ = false, finished_ = false, regular_ = false;
};

/// --max-output BYTES of mesh / pose / export-gltf / compile: the option's value, or the default
/// (Limits::output_bytes) when it is absent. Sets `bad` after printing one line when the value is
/// not a whole number of bytes.
uint64_t max_output_option(const Args& args, bool& bad);

/// The usage lines of --max-output (a literal, so usage texts stay compile-time constants).
#define VOXRIG_CLI_MAX_OUTPUT_HELP                                                        \
  "  --max-output N  refuse (limit.output, exit 1) an output over N bytes; default\n"     \
  "                268435456 (256 MiB, `voxrig limits` output_bytes). Checked before\n"    \
  "                anything is written: a refused output leaves no file\n"

/// The bytes of a file read by read_file, as text (no copy; valid while `bytes` lives).
inline std::string_view as_text(const std::vector<uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

/// Parses --profile; nullopt = not given. Prints a line and sets `bad` on an unknown name
/// (parse_args already refuses one when the command lists kProfileChoices).
std::optional<Profile> profile_option(const Args& args, bool& bad);

/// The machine-readable rejection line: {"error": "<code>", "offset": N, "path": "..."}.
std::string error_json(const Error& e);
/// Prints error_json(e) and a newline to stdout (the rejection line of the reader protocol).
void print_error_json(const Error& e);

/// What a command does when an allocation fails anywhere in it (run_command catches
/// std::bad_alloc): prints {"error": "internal.out_of_memory", "offset": 0, "path": ""} to stdout
/// and one line to stderr without allocating, and returns kExitReject.
int report_out_of_memory();

}  // namespace voxrig::cli
