// voxrig — the command-line front end of the reference codec and conformance suite.
#include <cstring>
#include <iostream>
#include <string_view>

#include "cli_common.h"
#include "commands.h"

namespace {

struct Command {
  std::string_view name;
  int (*run)(int, char**);
  std::string_view summary;
};

constexpr Command kCommands[] = {
    {"compile", voxrig::cli::cmd_compile, "compile a JSON model (with optional rig) to .vfp"},
    {"dump", voxrig::cli::cmd_dump, "print the canonical JSON dump of a file (reader protocol)"},
    {"validate", voxrig::cli::cmd_validate, "check files under a profile, human-readable"},
    {"roundtrip", voxrig::cli::cmd_roundtrip, "decode and re-write a file with the writer"},
    {"canonicalize", voxrig::cli::cmd_canonicalize, "decode and write the canonical form"},
    {"mesh", voxrig::cli::cmd_mesh, "mesh a model (bone-aware for rigs) to OBJ or glTF"},
    {"pose", voxrig::cli::cmd_pose, "sample a clip at a time and write the posed mesh (OBJ)"},
    {"export-gltf", voxrig::cli::cmd_export_gltf, "write a rig and its clips as glTF 2.0 (.glb)"},
    {"limits", voxrig::cli::cmd_limits, "print the default decoding limits as JSON"},
    {"errors", voxrig::cli::cmd_errors, "print the error-code list (JSON or --markdown)"},
    {"conform", voxrig::cli::cmd_conform, "run a reader over the golden corpus (conformance)"},
    {"golden", voxrig::cli::cmd_golden, "regenerate (regen) or verify (check) the golden corpus"},
    {"gen", voxrig::cli::cmd_gen, "write seeded generated cases (valid + negative) as a corpus"},
};

void usage(std::ostream& out) {
  out << "usage: voxrig COMMAND [ARGS]   (voxrig COMMAND --help for details)\n\n"
         "Reference codec and conformance suite for VFP 1.3 + Voxel Rig v1 (.vfp) and the\n"
         "RKCH v3 family (.rkc, .kv6, .rvc, .kfa).\n\ncommands:\n";
  for (const Command& c : kCommands) {
    out << "  " << c.name;
    for (size_t i = c.name.size(); i < 14; ++i) out << ' ';
    out << c.summary << "\n";
  }
  out << "\nexit codes: 0 ok/accepted, 1 input rejected, 2 usage, 3 I/O, 4 a check failed\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return voxrig::cli::kExitUsage;
  }
  std::string_view cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    usage(std::cout);
    return voxrig::cli::kExitOk;
  }
  if (cmd == "--version") {
    std::cout << "voxrig " << VOXRIG_VERSION << "\n";
    return voxrig::cli::kExitOk;
  }
  for (const Command& c : kCommands)
    if (c.name == cmd) return c.run(argc, argv);
  std::cerr << "voxrig: unknown command '" << cmd << "' (see voxrig --help)\n";
  return voxrig::cli::kExitUsage;
}
