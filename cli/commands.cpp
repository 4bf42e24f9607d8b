// The command table. Each command's descriptor lives in its own cmd_<name>.cpp; the one list
// below both declares them and orders the table (= the order of `voxrig --help`).
#include "commands.h"

#include <iostream>
#include <new>
#include <stdexcept>

namespace voxrig::cli {

#define VOXRIG_CLI_COMMANDS(X)                                                          \
  X(kCompile)                                                                           \
  X(kDump)                                                                              \
  X(kValidate)                                                                          \
  X(kRoundtrip) X(kCanonicalize) X(kMesh) X(kPose) X(kExportGltf) X(kLimits) X(kErrors) \
      X(kConform) X(kGolden) X(kGen) X(kFuzzReader) X(kInfo) X(kRules) X(kBenchReader) X(kServe)

#define VOXRIG_CLI_DECLARE(id) extern const Command id;
VOXRIG_CLI_COMMANDS(VOXRIG_CLI_DECLARE)
#undef VOXRIG_CLI_DECLARE

namespace {

#define VOXRIG_CLI_ADDRESS(id) &id,
constexpr const Command* kTable[] = {VOXRIG_CLI_COMMANDS(VOXRIG_CLI_ADDRESS)};
#undef VOXRIG_CLI_ADDRESS

}  // namespace

std::span<const Command* const> commands() { return kTable; }

const Command* find_command(std::string_view name) {
  for (const Command* c : kTable)
    if (c->name == name) return c;
  return nullptr;
}

int run_command(const Command& command, int argc, char** argv) {
  auto args = parse_args(argc, argv, 2, command.options);
  if (!args) return kExitUsage;
  if (args->help) {
    std::cout << command.usage;
    return kExitOk;
  }
  return command.run(*args);
}

int run_command(int argc, char** argv) {
  const std::string_view name = argc > 1 ? argv[1] : "";
  const Command* c = find_command(name);
  if (!c) {
    std::cerr << "voxrig: unknown command '" << name << "' (see voxrig --help)\n";
    return kExitUsage;
  }
  // The library turns allocation failure into internal.out_of_memory; this catches it in the
  // CLI's own code (reading stdin, building text, the walker of `info`), so no command aborts.
  try {
    return run_command(*c, argc, argv);
  } catch (const std::bad_alloc&) {
    return report_out_of_memory();
  } catch (const std::length_error&) {  // a size past what a container can hold: the same
    return report_out_of_memory();
  }
}

}  // namespace voxrig::cli
