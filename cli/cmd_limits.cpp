// voxrig limits: the default decoding limits (formats.md "Limits") as JSON.
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/limits.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig limits\nPrints the default decoding limits as JSON (formats.md \"Limits\",\n"
    "the table under \"Decisions that make two implementations agree\").\n"
    "Exit: 0 printed, 2 usage (an argument was given).\n";

int run(const Args& args) {
  if (!args.positional.empty()) {
    std::cerr << "voxrig: limits takes no argument, got '" << args.positional[0]
              << "' (see --help)\n";
    return kExitUsage;
  }
  std::cout << Limits{}.to_json();
  return kExitOk;
}

}  // namespace

extern const Command kLimits{
    "limits", "print the default decoding limits as JSON", kUsage, {}, run};

}  // namespace voxrig::cli
