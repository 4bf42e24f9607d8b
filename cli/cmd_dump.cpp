// voxrig dump: the reader protocol of the conformance suite (docs/spec/protocols.md).
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/any_format.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig dump [--profile P] FILE\n"
    "Decodes FILE (format chosen by magic bytes) and prints its canonical JSON dump\n"
    "(docs/spec/dump.md). This is the reader protocol of the conformance suite.\n"  //
    VOXRIG_CLI_PROFILE_HELP                                                           //
    "Exit: 0 accepted (dump on stdout), 1 rejected ({\"error\": code, \"offset\": N,\n"
    "\"path\": ...} on stdout), 2 usage, 3 I/O.\n";

int run(const Args& args) {
  int exit = kExitOk;
  auto dump = run_on_file(args, 1, dump_any, exit);
  if (!dump) return exit;
  std::cout << *dump;
  return kExitOk;
}

}  // namespace

extern const Command kDump{"dump", "print the canonical JSON dump of a file (reader protocol)",
                           kUsage, kFileOptions, run};

}  // namespace voxrig::cli
