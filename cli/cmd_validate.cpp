// voxrig validate: checks files under a profile and prints human-readable (or JSON) diagnostics.
#include <iostream>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/any_format.h"
#include "voxrig/json_out.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig validate [--profile P] [--json] FILE...\n"
    "Checks each FILE under the profile and prints human-readable diagnostics, one line each\n"
    "in the form every command's messages take:\n"
    "  voxrig: FILE: ok (format, profile, N warning(s))            or\n"
    "  voxrig: FILE: CODE at offset N (PATH): detail\n"
    "plus one line per warning (duplicates, non-canonical order, trailing payload bytes...):\n"
    "  voxrig: FILE: warning CODE at offset N (PATH): detail\n"  //
    VOXRIG_CLI_PROFILE_HELP                                                                      //
    "  --json        one JSON object per file instead of text\n"
    "A --profile of the other family (rkc-strict on a .vfp, vfp-rig on a .rkc) rejects that\n"
    "file with file.unknown_format. Every FILE is checked even when an earlier one fails.\n"
    "Exit: 0 every file valid; else 3 if a file could not be read, 1 if a file was rejected.\n";

constexpr OptionSpec kOptions[] = {{"--profile", true, kProfileChoices}, {"--json", false}};

void print_json(const std::string& path, Profile profile, const ValidationReport& r) {
  std::cout << "{\"file\": " << json_quote(path) << ", \"format\": \"" << to_string(r.format)
            << "\", \"profile\": \"" << to_string(profile)
            << "\", \"valid\": " << (r.error ? "false" : "true");
  if (r.error) std::cout << ", \"error\": " << error_json(*r.error);
  std::cout << ", \"warnings\": [";
  for (size_t i = 0; i < r.warnings.size(); ++i) {
    const Warning& w = r.warnings[i];
    std::cout << (i ? ", " : "") << "{\"warning\": " << json_quote(to_string(w.code))
              << ", \"offset\": " << w.offset << ", \"path\": " << json_quote(w.path) << "}";
  }
  std::cout << "]}\n";
}

// The error line is the one every other command prints for a rejected file (report_rejection:
// "voxrig: FILE: " and Error::to_text), so one error reads the same whichever command found it.
void print_text(const std::string& path, Profile profile, const ValidationReport& r) {
  for (const Warning& w : r.warnings)
    std::cout << "voxrig: " << path << ": warning " << to_string(w.code) << " at offset "
              << w.offset << (w.path.empty() ? "" : " (" + w.path + ")")
              << (w.detail.empty() ? "" : ": " + w.detail) << "\n";
  if (r.error)
    std::cout << "voxrig: " << path << ": " << r.error->to_text() << "\n";
  else
    std::cout << "voxrig: " << path << ": ok (" << to_string(r.format) << ", " << to_string(profile)
              << ", " << r.warnings.size() << " warning(s))\n";
}

int run(const Args& args) {
  bool bad = false;
  auto given = profile_option(args, bad);
  if (bad) return kExitUsage;
  if (args.positional.empty()) {
    std::cerr << "voxrig: validate needs at least one FILE (see --help)\n";
    return kExitUsage;
  }
  bool io = false, rejected = false;
  for (const auto& path : args.positional) {
    auto in = read_file(path);
    if (!in) {
      io = true;  // read_file printed the line; the other files are still checked
      continue;
    }
    const Profile profile = effective_profile(given, *in);
    ValidationReport r = validate_any(*in, profile, Limits{});
    rejected |= r.error.has_value();
    if (args.has("--json"))
      print_json(path, profile, r);
    else
      print_text(path, profile, r);
  }
  return io ? kExitIo : rejected ? kExitReject : kExitOk;
}

}  // namespace

extern const Command kValidate{"validate", "check files under a profile, human-readable", kUsage,
                               kOptions, run};

}  // namespace voxrig::cli
