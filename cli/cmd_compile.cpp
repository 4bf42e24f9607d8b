// voxrig compile: the JSON compile input (formats.md) to a VFP 1.3 file.
#include <iostream>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig compile IN.json OUT.vfp     (the compile protocol, conformance.md)\n"
    "       voxrig compile IN.json -o OUT.vfp\n"
    "Compiles the JSON compile input (formats.md) into a VFP 1.3 file; with a \"rig\" object\n"
    "the SKEL/VSKN/ANIM sections are written and bound by SHA-256.\n"
    "Exit: 0 written, 1 the JSON was rejected ({\"error\", \"offset\", \"path\"} on stdout,\n"
    "the path is a JSON path), 2 usage, 3 I/O.\n";

constexpr OptionSpec kOptions[] = {{"-o", true}};

int run(const Args& args) {
  auto out_path = args.get("-o");
  if (!out_path && args.positional.size() == 2) out_path = args.positional[1];
  if (args.positional.size() != (args.has("-o") ? 1u : 2u) || !out_path) {
    std::cerr << "voxrig: compile needs IN.json and OUT.vfp (or -o OUT.vfp) (see --help)\n";
    return kExitUsage;
  }
  auto in = read_file(args.positional[0]);
  if (!in) return kExitIo;
  auto model = compile_vfp_json(as_text(*in), Limits{});
  if (!model.ok()) {
    return report_rejection(model.error(), args.positional[0]);
  }
  auto bytes = encode_vfp(*model);
  if (!bytes.ok()) {
    print_error_json(bytes.error());
    return kExitReject;
  }
  return write_file(*out_path, *bytes) ? kExitOk : kExitIo;
}

}  // namespace

extern const Command kCompile{"compile", "compile a JSON model (with optional rig) to .vfp", kUsage,
                              kOptions, run};

}  // namespace voxrig::cli
