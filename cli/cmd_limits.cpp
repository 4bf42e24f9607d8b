// voxrig limits: the default decoding limits (docs/spec/limits.md) as JSON.
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/limits.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig limits\nPrints the default decoding limits as JSON (docs/spec/limits.md).\n"
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
