// voxrig export-gltf: a rig and its clips as a glTF 2.0 binary.
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/export.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig export-gltf FILE -o OUT [--format glb|gltf] [--step] [--max-output N]\n"
    "Writes a .vfp as glTF 2.0: one node per joint carrying its bone-aware mesh, the\n"
    "joint hierarchy, and every clip as an animation (translation/rotation/scale channels,\n"
    "LINEAR samplers, or STEP with --step). Axes per docs/spec/evaluation.md#D23 (z up -> glTF y up).\n"
    "  --format F   glb (binary) or gltf (JSON, the buffer as a data URI); default: OUT's\n"
    "               extension (.gltf -> gltf, anything else -> glb)\n"  //
    VOXRIG_CLI_MAX_OUTPUT_HELP                                                 //
    "Exit: 0 written, 1 the file was rejected or the output is over --max-output, 2 usage,\n"
    "3 I/O.\n";

constexpr std::string_view kFormats[] = {"glb", "gltf"};
constexpr OptionSpec kOptions[] = {
    {"-o", true}, {"--step", false}, {"--format", true, kFormats}, {"--max-output", true}};

int run(const Args& args) {
  auto out = args.get("-o");
  if (args.positional.size() != 1 || !out) {
    std::cerr << "voxrig: export-gltf needs FILE and -o OUT.glb (see --help)\n";
    return kExitUsage;
  }
  // parse_args has checked --format against its choices.
  const std::optional<std::string> format =
      args.last("--format").value_or(format_of_extension(*out) == "gltf" ? "gltf" : "glb");
  bool bad = false;
  GltfOptions opt;
  opt.max_bytes = max_output_option(args, bad);
  if (bad) return kExitUsage;
  int exit = kExitOk;
  auto f = read_vfp(args.positional[0], exit);
  if (!f) return exit;
  if (args.has("--step")) opt.interpolation = GltfInterpolation::Step;
  auto parts = export_gltf_parts(*f->vox0(), f->skel(), f->vskn(), f->anim(), opt);
  if (!parts.ok()) return report_rejection(parts.error(), "glTF export");
  return write_gltf(out, *format, *parts, opt.max_bytes);
}

}  // namespace

extern const Command kExportGltf{"export-gltf", "write a rig and its clips as glTF 2.0 (.glb)",
                                 kUsage, kOptions, run};

}  // namespace voxrig::cli
