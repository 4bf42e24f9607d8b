// voxrig mesh: the mesh protocol (docs/spec/protocols.md: quads as
// JSON) and a model's mesh as OBJ or glTF (bone-aware for rigs; a KV6's stored faces).
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/conform/capability_protocol.h"
#include "voxrig/export.h"
#include "voxrig/kv6.h"
#include "voxrig/mesh.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {
namespace {

using namespace voxrig::conform;

constexpr std::string_view kUsage =
    "usage: voxrig mesh [--profile P] [--format json|obj|glb|gltf] [-o OUT]\n"
    "                   [--mesher bone-aware|greedy|naive] [--max-output N] FILE\n"
    "Meshes a .vfp (its VOX0 grid at bind pose; bone-aware when the profile reads its rig), a\n"
    "KV6 (its stored visible faces merged by col, D22) or the KV6 meshes of an RKCH character.\n"
    "  --format json   the mesh protocol (docs/spec/protocols.md): {\"quads\": [{\"normal\": \"+x\",\n"
    "                  \"voxels\": [x0, y0, z0, x1, y1, z1], \"joint\": J, \"color\": C}, ...]}\n"
    "                  (RKCH characters: J is the mesh index)\n"
    "  --format obj    Wavefront OBJ, one group per joint named after the SKEL joint (RKCH:\n"
    "                  after the bone the mesh is attached to)\n"
    "  --format glb    (VFP) a glTF 2.0 binary of the model at bind pose; gltf: the same as\n"
    "                  JSON with the buffer embedded as a data URI\n"
    "  Without --format the output type follows OUT's extension (.json .obj .glb .gltf); without\n"
    "  -o, or with -o -, the JSON goes to stdout.\n"
    "  --profile P     vfp-rig (default for VFP), vfp-static (the rig is ignored: joint 0),\n"
    "                  rkc-strict (default for RKCH / KV6), rkc-compat\n"
    "  --mesher M      bone-aware (default for rigs), greedy (default for static models), naive\n"
    VOXRIG_CLI_MAX_OUTPUT_HELP  //
    "Exit: 0 written, 1 the file was rejected or the output is over --max-output\n"
    "({\"error\": code} on stdout), 2 usage, 3 I/O.\n";

constexpr std::string_view kFormats[] = {"json", "obj", "glb", "gltf"};
constexpr std::string_view kMeshers[] = {"bone-aware", "greedy", "naive"};
constexpr OptionSpec kOptions[] = {{"--format", true, kFormats},
                                   {"-o", true},
                                   {"--mesher", true, kMeshers},
                                   {"--profile", true, kProfileChoices},
                                   {"--max-output", true}};

// The quads as the protocol's JSON or as OBJ (`names`: the OBJ group names), streamed to OUT.
int emit(const std::optional<std::string>& out, const std::string& format,
         std::span<const Quad> quads, std::span<const Rgba> palette, const Skel* names,
         uint64_t max_output) {
  return stream_output(out, "mesh", [&](const OutputSink& sink) -> Status {
    if (format == "obj") return write_obj(quads, palette, names, max_output, sink);
    if (stream_within(max_output, sink,
                      [&](TextStream& text) { return quads_json_text(quads, text); }))
      return ok_status();
    return error_at(ErrorCode::LimitOutput, 0, "",
                    "the mesh JSON of " + std::to_string(quads.size()) +
                        " quads is over the output limit of " + std::to_string(max_output));
  });
}

int run(const Args& args) {
  const auto out = args.last("-o");
  std::string fallback = "json";
  if (out && *out != "-" && !args.has("--format")) {  // `-o -` is stdout, JSON by default
    fallback = format_of_extension(*out);
    if (fallback.empty()) {
      std::cerr << "voxrig: mesh: cannot tell the output type from '" << *out
                << "' (use --format json|obj|glb|gltf or a .json .obj .glb .gltf name)\n";
      return kExitUsage;
    }
  }
  // parse_args has checked --format and --mesher against their choices.
  const std::optional<std::string> format = args.last("--format").value_or(fallback);
  const std::optional<std::string> mesher = args.last("--mesher").value_or("bone-aware");
  if (args.positional.size() != 1) {
    std::cerr << "voxrig: mesh needs one FILE (see --help)\n";
    return kExitUsage;
  }
  if ((*format == "glb" || *format == "gltf") && !out) {
    std::cerr << "voxrig: mesh --format " << *format << " needs -o OUT\n";
    return kExitUsage;
  }
  const std::string& file = args.positional[0];
  bool bad = false;
  const std::optional<Profile> given = profile_option(args, bad);
  const uint64_t max_output = max_output_option(args, bad);
  if (bad) return kExitUsage;
  auto in = read_file(file);
  if (!in) return kExitIo;
  auto model = decode_for_capability(*in, effective_profile(given, *in));
  in = std::nullopt;  // the model holds what it needs
  if (!model.ok()) return report_rejection(model.error(), file);
  // Every text form takes at least kObjMinQuadBytes per quad: more quads cannot fit.
  const size_t max_quads =
      static_cast<size_t>(std::min<uint64_t>(max_output / kObjMinQuadBytes, SIZE_MAX));

  if (auto* f = std::get_if<VfpFile>(&*model)) {
    if (*format == "glb" || *format == "gltf") {
      GltfOptions options;
      options.max_bytes = max_output;
      auto parts = export_gltf_parts(*f->vox0(), f->skel() && f->vskn() ? f->skel() : nullptr,
                                     f->skel() && f->vskn() ? f->vskn() : nullptr, nullptr,
                                     options);
      if (!parts.ok()) return report_rejection(parts.error(), "glTF export");
      return write_gltf(out, *format, *parts, max_output);
    }
    auto quads = mesh_quads(*model, *mesher, max_quads);
    if (!quads.ok()) return report_rejection(quads.error(), "meshing");
    return emit(out, *format, *quads, f->vox0()->palette, f->skel(), max_output);
  }
  if (*format == "glb" || *format == "gltf") {
    std::cerr << "voxrig: mesh --format " << *format << " is for VFP models; KV6 and RKCH "
              << "meshes are written as json or obj\n";
    return kExitUsage;
  }
  auto all = mesh_quads(*model, *mesher, max_quads);
  if (!all.ok()) return report_rejection(all.error(), file);
  Skel names;  // OBJ group names of an RKCH character: the bone a mesh is attached to
  if (auto* c = std::get_if<Character>(&*model)) names = mesh_group_names(*c);
  return emit(out, *format, *all, {}, names.joints.empty() ? nullptr : &names, max_output);
}

}  // namespace

extern const Command kMesh{"mesh", "mesh a model: quads as JSON (the mesh protocol), OBJ or glTF",
                           kUsage, kOptions, run};

}  // namespace voxrig::cli
