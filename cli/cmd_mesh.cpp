// voxrig mesh: a model's mesh (bone-aware for rigs; a KV6's stored faces) as OBJ or glTF.
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/any_format.h"
#include "voxrig/export.h"
#include "voxrig/kv6.h"
#include "voxrig/mesh.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig mesh FILE --format obj|gltf -o OUT [--mesher bone-aware|greedy|naive]\n"
    "Meshes a .vfp (its VOX0 grid; bone-aware when the file has a rig) or a .kv6 (its stored\n"
    "visible faces, merged by colour) and writes Wavefront OBJ (one group per joint) or, for\n"
    "VFP, a glTF 2.0 binary of the model at bind pose (no animations; see export-gltf).\n"
    "  --mesher M   bone-aware (default for rigs), greedy (default for static models), naive\n"
    "Exit: 0 written, 1 the file was rejected, 2 usage, 3 I/O.\n";

constexpr std::string_view kFormats[] = {"obj", "gltf"};
constexpr std::string_view kMeshers[] = {"bone-aware", "greedy", "naive"};
constexpr OptionSpec kOptions[] = {
    {"--format", true, kFormats}, {"-o", true}, {"--mesher", true, kMeshers}};

// The bone-aware mesh of a rigged model, or the plain greedy mesh of a static one.
Result<std::vector<Quad>> mesh_model(const VfpFile& f, std::string_view mesher) {
  std::vector<Quad> quads;
  MeshScratch scratch;
  const Vox0& v = *f.vox0();
  std::vector<uint16_t> joints;
  if (f.vskn()) {
    VOXRIG_ASSIGN_OR_RETURN(joints, joint_map(v, *f.vskn()));
  }
  Status s;
  if (mesher == "naive")
    s = mesh_naive(v, joints, quads, scratch);
  else if (mesher == "greedy" || joints.empty())
    s = mesh_greedy(v, quads, scratch);
  else
    s = mesh_bone_aware(v, joints, quads, scratch);
  if (!s.ok()) return std::move(s).error();
  return quads;
}

// A KV6 has no grid to mesh: its stored visible faces are merged by colour.
int mesh_kv6(const Args& args, std::span<const uint8_t> bytes, const std::string& format,
             const std::string& mesher, const std::string& out) {
  if (format != "obj") {
    std::cerr << "voxrig: KV6 meshes are exported as OBJ only\n";
    return kExitUsage;
  }
  auto kv6 = decode_kv6(bytes, 0, DecodeOptions{Profile::RkcStrict, Limits{}});
  if (!kv6.ok()) return report_rejection(kv6.error(), args.positional[0]);
  std::vector<Quad> quads;
  MeshScratch scratch;
  Status s =
      mesher == "naive" ? mesh_kv6_naive(*kv6, quads) : mesh_kv6_greedy(*kv6, quads, scratch);
  if (!s.ok()) return report_rejection(s.error(), "meshing");
  return write_file(out, export_obj(quads)) ? kExitOk : kExitIo;
}

int run(const Args& args) {
  auto format = args.get("--format").value_or("obj");
  auto out = args.get("-o");
  auto mesher = args.get("--mesher").value_or("bone-aware");
  if (args.positional.size() != 1 || !out || (format != "obj" && format != "gltf") ||
      (mesher != "bone-aware" && mesher != "greedy" && mesher != "naive")) {
    std::cerr << "voxrig: mesh needs FILE, --format obj|gltf, -o OUT and a known --mesher "
                 "(see --help)\n";
    return kExitUsage;
  }
  auto in = read_file(args.positional[0]);
  if (!in) return kExitIo;
  if (detect_format(*in) == Format::Kv6) return mesh_kv6(args, *in, format, mesher, *out);
  int exit = kExitOk;
  auto f = load_vfp(args.positional[0], *in, exit);
  if (!f) return exit;
  if (format == "gltf") {
    auto glb = export_gltf(*f->vox0(), f->skel(), f->vskn(), nullptr);
    if (!glb.ok()) return report_rejection(glb.error(), "glTF export");
    return write_file(*out, *glb) ? kExitOk : kExitIo;
  }
  auto quads = mesh_model(*f, mesher);
  if (!quads.ok()) return report_rejection(quads.error(), "meshing");
  return write_file(*out, export_obj(*quads, f->vox0()->palette)) ? kExitOk : kExitIo;
}

}  // namespace

extern const Command kMesh{"mesh", "mesh a model (bone-aware for rigs) to OBJ or glTF", kUsage,
                           kOptions, run};

}  // namespace voxrig::cli
