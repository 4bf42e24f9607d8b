// voxrig pose: samples a clip of a rigged .vfp and writes the posed bone-aware mesh as OBJ.
#include <charconv>
#include <cmath>
#include <iostream>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/export.h"
#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig pose FILE --clip NAME --t MS -o OUT.obj [--policy linear|step|slerp]\n"
    "                   [--mode clamp|loop]\n"
    "Samples clip NAME of a rigged .vfp at time MS (milliseconds, may be fractional) and\n"
    "writes the posed bone-aware mesh as OBJ: each joint's group moves rigidly by\n"
    "model_j(t) * inverse(model_j(bind)) (formats.md \"Evaluation\").\n"
    "Exit: 0 written, 1 the file was rejected or has no such clip, 2 usage, 3 I/O.\n";

constexpr std::string_view kPolicies[] = {"step", "linear", "slerp"};
constexpr std::string_view kModes[] = {"clamp", "loop"};
constexpr OptionSpec kOptions[] = {{"--clip", true},
                                   {"--t", true},
                                   {"-o", true},
                                   {"--policy", true, kPolicies},
                                   {"--mode", true, kModes}};

// --t: a finite number of milliseconds, the whole argument.
bool parse_time(const std::optional<std::string>& text, double& t) {
  if (!text) return false;
  auto [p, ec] = std::from_chars(text->data(), text->data() + text->size(), t);
  return ec == std::errc() && p == text->data() + text->size() && std::isfinite(t);
}

int run(const Args& args) {
  auto clip_name = args.get("--clip");
  auto out = args.get("-o");
  const std::string policy = args.get("--policy").value_or("linear");
  const std::string mode = args.get("--mode").value_or("clamp");
  double t = 0;
  const bool t_ok = parse_time(args.get("--t"), t);
  if (args.positional.size() != 1 || !clip_name || !t_ok || !out ||
      (policy != "linear" && policy != "step" && policy != "slerp") ||
      (mode != "clamp" && mode != "loop")) {
    std::cerr << "voxrig: pose needs FILE, --clip NAME, --t MS (a finite number) and -o OUT "
                 "(see --help)\n";
    return kExitUsage;
  }
  int exit = kExitOk;
  auto f = read_vfp(args.positional[0], exit);
  if (!f) return exit;
  if (!f->skel() || !f->vskn() || !f->anim()) {
    std::cerr << "voxrig: " << args.positional[0] << " has no rig with clips\n";
    return kExitReject;
  }
  std::optional<size_t> clip;
  for (size_t i = 0; i < f->anim()->clips.size(); ++i)
    if (f->anim()->clips[i].name == *clip_name) clip = i;
  if (!clip) {
    std::cerr << "voxrig: " << args.positional[0] << " has no clip named '" << *clip_name << "'\n";
    return kExitReject;
  }
  auto runtime = RigRuntime::build(*f->skel(), f->anim());
  if (!runtime.ok()) return report_rejection(runtime.error(), "rig");
  auto joints = joint_map(*f->vox0(), *f->vskn());
  if (!joints.ok()) return report_rejection(joints.error(), "rig");
  PoseRequest req;
  req.clip = *clip;
  req.time_ms = t;
  req.policy = policy == "step"    ? SamplePolicy::Step
               : policy == "slerp" ? SamplePolicy::Slerp
                                   : SamplePolicy::Linear;
  req.mode = mode == "loop" ? TimeMode::Loop : TimeMode::Clamp;
  auto obj = export_posed_obj(*f->vox0(), *joints, *runtime, req);
  if (!obj.ok()) return report_rejection(obj.error(), "pose");
  return write_file(*out, *obj) ? kExitOk : kExitIo;
}

}  // namespace

extern const Command kPose{"pose", "sample a clip at a time and write the posed mesh (OBJ)", kUsage,
                           kOptions, run};

}  // namespace voxrig::cli
