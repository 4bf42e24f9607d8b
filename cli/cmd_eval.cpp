// voxrig mesh / pose / export-gltf: look at a model, its rig and its clips.
#include <charconv>
#include <cmath>
#include <iostream>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/any_format.h"
#include "voxrig/export.h"
#include "voxrig/kv6.h"
#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {
namespace {

// Decodes `bytes` (read from `path`) as VFP under vfp-rig (meshing needs the rig when there is
// one). Prints the error JSON (stdout) and returns nullopt on failure; sets `exit`.
std::optional<VfpFile> load_vfp(const std::string& path, std::span<const uint8_t> bytes,
                                int& exit) {
  auto f = decode_vfp(bytes, DecodeOptions{Profile::VfpRig, Limits{}});
  if (!f.ok()) {
    std::cout << error_json(f.error()) << "\n";
    std::cerr << path << ": " << f.error().to_text() << "\n";
    exit = kExitReject;
    return std::nullopt;
  }
  return std::move(f).value();
}

// Reads `path` and decodes it as load_vfp does; on failure `exit` says why (I/O or reject).
std::optional<VfpFile> read_vfp(const std::string& path, int& exit) {
  auto in = read_file(path);
  if (!in) {
    exit = kExitIo;
    return std::nullopt;
  }
  return load_vfp(path, *in, exit);
}

int report(const Error& e, const std::string& what) {
  std::cout << error_json(e) << "\n";
  std::cerr << "voxrig: " << what << ": " << e.to_text() << "\n";
  return kExitReject;
}

bool write_text(const std::string& path, const std::string& text) {
  return write_file(path, std::vector<uint8_t>(text.begin(), text.end()));
}

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

}  // namespace

int cmd_mesh(int argc, char** argv) {
  static constexpr std::string_view kUsage =
      "usage: voxrig mesh FILE --format obj|gltf -o OUT [--mesher bone-aware|greedy|naive]\n"
      "Meshes a .vfp (its VOX0 grid; bone-aware when the file has a rig) or a .kv6 (its stored\n"
      "visible faces, merged by colour) and writes Wavefront OBJ (one group per joint) or, for\n"
      "VFP, a glTF 2.0 binary of the model at bind pose (no animations; see export-gltf).\n"
      "  --mesher M   bone-aware (default for rigs), greedy (default for static models), naive\n"
      "Exit: 0 written, 1 the file was rejected, 2 usage, 3 I/O.\n";
  auto args = parse_args(argc, argv, 2, {"--format", "-o", "--mesher"}, {});
  if (!args) return kExitUsage;
  if (args->help) return print_text(kUsage), kExitOk;
  auto format = args->get("--format").value_or("obj");
  auto out = args->get("-o");
  auto mesher = args->get("--mesher").value_or("bone-aware");
  if (args->positional.size() != 1 || !out || (format != "obj" && format != "gltf") ||
      (mesher != "bone-aware" && mesher != "greedy" && mesher != "naive")) {
    std::cerr << "voxrig: mesh needs FILE, --format obj|gltf, -o OUT and a known --mesher "
                 "(see --help)\n";
    return kExitUsage;
  }
  auto in = read_file(args->positional[0]);
  if (!in) return kExitIo;
  if (detect_format(*in) == Format::Kv6) {
    if (format != "obj") {
      std::cerr << "voxrig: KV6 meshes are exported as OBJ only\n";
      return kExitUsage;
    }
    auto kv6 = decode_kv6(*in, 0, DecodeOptions{Profile::RkcStrict, Limits{}});
    if (!kv6.ok()) return report(kv6.error(), args->positional[0]);
    std::vector<Quad> quads;
    MeshScratch scratch;
    Status s =
        mesher == "naive" ? mesh_kv6_naive(*kv6, quads) : mesh_kv6_greedy(*kv6, quads, scratch);
    if (!s.ok()) return report(s.error(), "meshing");
    return write_text(*out, export_obj(quads)) ? kExitOk : kExitIo;
  }
  int exit = kExitOk;
  auto f = load_vfp(args->positional[0], *in, exit);
  if (!f) return exit;
  if (format == "gltf") {
    auto glb = export_gltf(*f->vox0(), f->skel(), f->vskn(), nullptr);
    if (!glb.ok()) return report(glb.error(), "glTF export");
    return write_file(*out, *glb) ? kExitOk : kExitIo;
  }
  auto quads = mesh_model(*f, mesher);
  if (!quads.ok()) return report(quads.error(), "meshing");
  return write_text(*out, export_obj(*quads, f->vox0()->palette)) ? kExitOk : kExitIo;
}

int cmd_pose(int argc, char** argv) {
  static constexpr std::string_view kUsage =
      "usage: voxrig pose FILE --clip NAME --t MS -o OUT.obj [--policy linear|step|slerp]\n"
      "                   [--mode clamp|loop]\n"
      "Samples clip NAME of a rigged .vfp at time MS (milliseconds, may be fractional) and\n"
      "writes the posed bone-aware mesh as OBJ: each joint's group moves rigidly by\n"
      "model_j(t) * inverse(model_j(bind)) (formats.md \"Evaluation\").\n"
      "Exit: 0 written, 1 the file was rejected or has no such clip, 2 usage, 3 I/O.\n";
  auto args = parse_args(argc, argv, 2, {"--clip", "--t", "-o", "--policy", "--mode"}, {});
  if (!args) return kExitUsage;
  if (args->help) return print_text(kUsage), kExitOk;
  auto clip_name = args->get("--clip");
  auto t_text = args->get("--t");
  auto out = args->get("-o");
  const std::string policy = args->get("--policy").value_or("linear");
  const std::string mode = args->get("--mode").value_or("clamp");
  double t = 0;
  bool t_ok = false;
  if (t_text) {
    auto [p, ec] = std::from_chars(t_text->data(), t_text->data() + t_text->size(), t);
    t_ok = ec == std::errc() && p == t_text->data() + t_text->size() && std::isfinite(t);
  }
  if (args->positional.size() != 1 || !clip_name || !t_ok || !out ||
      (policy != "linear" && policy != "step" && policy != "slerp") ||
      (mode != "clamp" && mode != "loop")) {
    std::cerr << "voxrig: pose needs FILE, --clip NAME, --t MS (a finite number) and -o OUT "
                 "(see --help)\n";
    return kExitUsage;
  }
  int exit = kExitOk;
  auto f = read_vfp(args->positional[0], exit);
  if (!f) return exit;
  if (!f->skel() || !f->vskn() || !f->anim()) {
    std::cerr << "voxrig: " << args->positional[0] << " has no rig with clips\n";
    return kExitReject;
  }
  std::optional<size_t> clip;
  for (size_t i = 0; i < f->anim()->clips.size(); ++i)
    if (f->anim()->clips[i].name == *clip_name) clip = i;
  if (!clip) {
    std::cerr << "voxrig: " << args->positional[0] << " has no clip named '" << *clip_name << "'\n";
    return kExitReject;
  }
  auto runtime = RigRuntime::build(*f->skel(), f->anim());
  if (!runtime.ok()) return report(runtime.error(), "rig");
  auto joints = joint_map(*f->vox0(), *f->vskn());
  if (!joints.ok()) return report(joints.error(), "rig");
  PoseRequest req;
  req.clip = *clip;
  req.time_ms = t;
  req.policy = policy == "step"    ? SamplePolicy::Step
               : policy == "slerp" ? SamplePolicy::Slerp
                                   : SamplePolicy::Linear;
  req.mode = mode == "loop" ? TimeMode::Loop : TimeMode::Clamp;
  auto obj = export_posed_obj(*f->vox0(), *joints, *runtime, req);
  if (!obj.ok()) return report(obj.error(), "pose");
  return write_text(*out, *obj) ? kExitOk : kExitIo;
}

int cmd_export_gltf(int argc, char** argv) {
  static constexpr std::string_view kUsage =
      "usage: voxrig export-gltf FILE -o OUT.glb [--step]\n"
      "Writes a .vfp as a glTF 2.0 binary: one node per joint carrying its bone-aware mesh, the\n"
      "joint hierarchy, and every clip as an animation (translation/rotation/scale channels,\n"
      "LINEAR samplers, or STEP with --step). Axes per formats.md D23 (z up -> glTF y up).\n"
      "Exit: 0 written, 1 the file was rejected, 2 usage, 3 I/O.\n";
  auto args = parse_args(argc, argv, 2, {"-o"}, {"--step"});
  if (!args) return kExitUsage;
  if (args->help) return print_text(kUsage), kExitOk;
  auto out = args->get("-o");
  if (args->positional.size() != 1 || !out) {
    std::cerr << "voxrig: export-gltf needs FILE and -o OUT.glb (see --help)\n";
    return kExitUsage;
  }
  int exit = kExitOk;
  auto f = read_vfp(args->positional[0], exit);
  if (!f) return exit;
  GltfOptions opt;
  if (args->has("--step")) opt.interpolation = GltfInterpolation::Step;
  auto glb = export_gltf(*f->vox0(), f->skel(), f->vskn(), f->anim(), opt);
  if (!glb.ok()) return report(glb.error(), "glTF export");
  return write_file(*out, *glb) ? kExitOk : kExitIo;
}

}  // namespace voxrig::cli
