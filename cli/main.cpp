// voxrig — the command-line front end of the reference codec and conformance suite.
#include <cerrno>
#include <cstring>
#include <iostream>
#include <string_view>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/version.h"

namespace {

void usage(std::ostream& out) {
  out << "usage: voxrig COMMAND [ARGS]   (voxrig COMMAND --help for details)\n\n"
         "Reference codec and conformance suite for VFP 1.3 + Voxel Rig v1 (.vfp) and the\n"
         "RKCH v3 family (.rkc, .kv6, .rvc, .kfa).\n\ncommands:\n";
  for (const voxrig::cli::Command* c : voxrig::cli::commands()) {
    out << "  " << c->name;
    for (size_t i = c->name.size(); i < 14; ++i) out << ' ';
    out << c->summary << "\n";
  }
  out << "\noptions:\n  --help        this list\n  --version     print the suite, spec and golden corpus versions\n"
         "\nexit codes: 0 ok/accepted, 1 input rejected, 2 usage, 3 I/O, 4 a check failed\n"
         "A FILE argument of - reads stdin; -o - writes stdout.\n";
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
    std::cout << "voxrig " << voxrig::suite_version() << " (voxrig spec " << voxrig::spec_version()
              << ", golden corpus " << voxrig::corpus_version() << ")\n";
    return voxrig::cli::kExitOk;
  }
  const int rc = voxrig::cli::run_command(argc, argv);  // dispatches through the command table
  // stdout redirected to a full disk (> /dev/full) or a closed pipe is an I/O failure too.
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "voxrig: cannot write stdout: " << std::strerror(errno ? errno : EIO) << "\n";
    return voxrig::cli::kExitIo;
  }
  return rc;
}
