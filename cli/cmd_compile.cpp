// voxrig compile: the JSON compile input (docs/spec/compile.md) to a VFP 1.3 file.
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
    "usage: voxrig compile IN.json OUT.vfp     (the compile protocol, docs/spec/protocols.md)\n"
    "       voxrig compile IN.json -o OUT.vfp [--max-output N]\n"
    "Compiles the JSON compile input (docs/spec/compile.md) into a VFP 1.3 file; with a \"rig\" object\n"
    "the SKEL/VSKN/ANIM sections are written and bound by SHA-256. IN.json may be - (stdin).\n"
    "The input holds at most 8388608 JSON values (`voxrig limits` json_values), counted while\n"
    "it is parsed; nothing may follow the document.\n"  //
    VOXRIG_CLI_MAX_OUTPUT_HELP                          //
    "Exit: 0 written, 1 the JSON was rejected ({\"error\", \"offset\", \"path\"} on stdout,\n"
    "the path is a JSON path) or the VFP is over --max-output, 2 usage, 3 I/O.\n";

constexpr OptionSpec kOptions[] = {{"-o", true}, {"--max-output", true}};

int run(const Args& args) {
  auto out_path = args.get("-o");
  if (!out_path && args.positional.size() == 2) out_path = args.positional[1];
  if (args.positional.size() != (args.has("-o") ? 1u : 2u) || !out_path) {
    std::cerr << "voxrig: compile needs IN.json and OUT.vfp (or -o OUT.vfp) (see --help)\n";
    return kExitUsage;
  }
  bool bad = false;
  Limits limits;
  limits.output_bytes = max_output_option(args, bad);
  if (bad) return kExitUsage;
  auto in = read_file(args.positional[0]);
  if (!in) return kExitIo;
  auto model = compile_vfp_json(as_text(*in), limits);
  in = std::nullopt;  // the model holds what it needs
  if (!model.ok()) return report_rejection(model.error(), args.positional[0]);
  // The grid was checked against the limit before it was allocated; the rig sections only now.
  if (const uint64_t size = vfp_encoded_size(*model); size > limits.output_bytes)
    return report_rejection(
        error_at(ErrorCode::LimitOutput, 0, "",
                 "the VFP takes " + std::to_string(size) + " bytes, over the output limit of " +
                     std::to_string(limits.output_bytes)),
        args.positional[0]);
  // Streamed from the model: the grid is never copied.
  OutputStream out(*out_path);
  const Status written = write_vfp(*model, out.sink());
  if (!written.ok()) return report_rejection(written.error(), args.positional[0]);
  return out.finish() ? kExitOk : kExitIo;
}

}  // namespace

extern const Command kCompile{"compile", "compile a JSON model (with optional rig) to .vfp", kUsage,
                              kOptions, run};

}  // namespace voxrig::cli
