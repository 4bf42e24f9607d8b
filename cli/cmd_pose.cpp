// voxrig pose: the pose protocol (conformance.md "Writers, evaluators and meshers": one model
// matrix per joint or bone as JSON) and, with an OBJ output, the posed bone-aware mesh.
#include <charconv>
#include <cmath>
#include <iostream>
#include <string>

#include "capability_io.h"
#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/export.h"
#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/pose_f64.h"
#include "voxrig/rkc_eval.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig pose [--profile P] --clip C --t MS [--policy step|linear|slerp]\n"
    "                   [--mode clamp|loop] [--format json|obj] [-o OUT] FILE\n"
    "Samples clip C of FILE at time MS (milliseconds, a decimal number; fractional, negative and\n"
    "past-the-end times are valid) and prints the pose protocol's JSON (conformance.md):\n"
    "{\"model\": [[16 numbers], ...]}, one column-major 4x4 model matrix per joint in SKEL order\n"
    "(VFP: formats.md \"Evaluation\", D19-D20, computed in double) or per bone (RKCH: the solved\n"
    "bone transform, rkc-family.md 6 and D21; policy and mode do not apply).\n"
    "  --profile P   vfp-rig (default for VFP), vfp-static, rkc-strict (default for RKCH), "
    "rkc-compat\n"
    "  --clip C      VFP: the clip id (or its name); RKCH: the clip index\n"
    "  --t MS        VFP: any finite number; RKCH: rounded down to whole ms, -2^31 .. 2^32-1\n"
    "                (past 2^31-1 the i32 clock wraps, D21)\n"
    "  --format F    json (default) or obj: the posed bone-aware mesh of a VFP rig as OBJ, each\n"
    "                joint's group moved by model_j(t) * inverse(model_j(bind)); without "
    "--format,\n"
    "                -o OUT.obj selects obj\n"
    "  -o OUT        write to OUT instead of stdout\n"
    "Exit: 0 posed, 1 rejected ({\"error\": code} on stdout: the file's decode error,\n"
    "eval.bad_clip for a clip that does not exist, eval.bad_time for a non-finite time),\n"
    "2 usage, 3 I/O.\n";

constexpr OptionSpec kOptions[] = {{"--clip", true},   {"--t", true},    {"-o", true},
                                   {"--policy", true}, {"--mode", true}, {"--format", true},
                                   {"--profile", true}};

// The whole argument as a number (from_chars accepts inf and nan: those are eval.bad_time).
bool parse_number(const std::string& text, double& t) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), t);
  return ec == std::errc() && p == text.data() + text.size();
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int reject(ErrorCode code, const std::string& file, const std::string& message) {
  print_error_json(error_at(code, 0, "", message));
  std::cerr << "voxrig: " << file << ": " << message << "\n";
  return kExitReject;
}

// "0 'wave', 1 'walk'" for the bad-clip message.
std::string clip_list(const Anim* anim) {
  if (!anim || anim->clips.empty()) return "the file has no clips";
  std::string s = "clips:";
  for (const auto& c : anim->clips) s += " " + std::to_string(c.id) + " '" + c.name + "'";
  return s;
}

std::optional<size_t> find_vfp_clip(const Anim* anim, const std::string& c) {
  if (!anim) return std::nullopt;
  double id = 0;
  if (parse_number(c, id))
    for (size_t i = 0; i < anim->clips.size(); ++i)
      if (double(anim->clips[i].id) == id) return i;
  for (size_t i = 0; i < anim->clips.size(); ++i)
    if (anim->clips[i].name == c) return i;
  return std::nullopt;
}

int write_out(const std::optional<std::string>& out, const std::string& text) {
  if (!out) {
    std::cout << text;
    return kExitOk;
  }
  return write_file(*out, text) ? kExitOk : kExitIo;
}

struct Request {
  std::string file, clip, format;
  std::optional<std::string> out;
  double t = 0;
  SamplePolicy policy = SamplePolicy::Linear;
  TimeMode mode = TimeMode::Clamp;
};

int pose_vfp(const VfpFile& f, const Request& r) {
  const Anim* anim = f.anim();
  const auto clip = find_vfp_clip(f.skel() && f.vskn() ? anim : nullptr, r.clip);
  if (!clip)
    return reject(ErrorCode::EvalBadClip, r.file, "no clip '" + r.clip + "'; " + clip_list(anim));
  if (!std::isfinite(r.t)) return reject(ErrorCode::EvalBadTime, r.file, "--t is not finite");
  if (r.format == "obj") {
    auto runtime = RigRuntime::build(*f.skel(), anim);
    if (!runtime.ok()) return report_rejection(runtime.error(), "rig");
    auto joints = joint_map(*f.vox0(), *f.vskn());
    if (!joints.ok()) return report_rejection(joints.error(), "rig");
    PoseRequest req{*clip, r.t, r.policy, r.mode};
    auto obj = export_posed_obj(*f.vox0(), *joints, *runtime, req, f.skel());
    if (!obj.ok()) return report_rejection(obj.error(), "pose");
    return write_out(r.out, *obj);
  }
  auto models = evaluate_models_f64(*f.skel(), *anim, *clip, r.t, r.policy, r.mode);
  if (!models.ok()) return report_rejection(models.error(), "pose");
  return write_out(r.out, model_matrices_json(*models));
}

int pose_rkc(const Character& c, const Request& r) {
  if (r.format == "obj") {
    std::cerr << "voxrig: pose --format obj is for VFP rigs; an RKCH pose is JSON only\n";
    return kExitUsage;
  }
  double index = -1;
  const bool numeric = parse_number(r.clip, index) && index >= 0 && index == std::floor(index);
  const SkeletalClip* clip = nullptr;
  if (numeric && index < double(c.clips.size()))
    clip = std::get_if<SkeletalClip>(&c.clips[size_t(index)].data);
  if (!clip) {
    std::string list = "skeletal clips:";
    for (size_t i = 0; i < c.clips.size(); ++i)
      if (std::holds_alternative<SkeletalClip>(c.clips[i].data))
        list += " " + std::to_string(i) + " '" + c.clips[i].name + "'";
    return reject(ErrorCode::EvalBadClip, r.file,
                  "no skeletal clip at index '" + r.clip + "'; " + list);
  }
  const double t = std::floor(r.t);
  if (!std::isfinite(r.t) || t < -2147483648.0 || t > 4294967295.0)
    return reject(ErrorCode::EvalBadTime, r.file,
                  "--t must be finite, -2^31 .. 2^32-1 ms for RKCH");
  auto rig = RkcRig::build(c);
  if (!rig.ok()) return report_rejection(rig.error(), "rig");
  std::vector<BoneXform> kfaval(c.bones.size());
  RkcClock clock;
  // The clock starts at 0 and advances by T; past INT32_MAX in two calls, so it wraps (D21).
  int64_t left = int64_t(t);
  do {
    const int32_t step = int32_t(std::min<int64_t>(left, INT32_MAX));
    RkcClipJob job{&*rig, clip, step, &clock, kfaval};
    if (Status s = job.run(); !s.ok()) return report_rejection(s.error(), "pose");
    left -= step;
  } while (left > 0);
  std::vector<Mat4> world(c.bones.size());
  RkcPlacement placement;
  placement.p = c.root;
  RkcHingeJob solve{&*rig, kfaval, placement, world};
  if (Status s = solve.run(); !s.ok()) return report_rejection(s.error(), "pose");
  std::vector<Mat4d> models(world.size());
  for (size_t i = 0; i < world.size(); ++i)
    for (int e = 0; e < 16; ++e) models[i][e] = world[i].m[e];
  return write_out(r.out, model_matrices_json(models));
}

int run(const Args& args) {
  Request r;
  auto policy = enum_option(args, "--policy", {"step", "linear", "slerp"}, "linear");
  auto mode = enum_option(args, "--mode", {"clamp", "loop"}, "clamp");
  r.out = args.last("-o");
  const std::string def = r.out && ends_with(*r.out, ".obj") ? "obj" : "json";
  auto format = enum_option(args, "--format", {"json", "obj"}, def);
  if (!policy || !mode || !format) return kExitUsage;
  r.format = *format;
  r.policy = *policy == "step"    ? SamplePolicy::Step
             : *policy == "slerp" ? SamplePolicy::Slerp
                                  : SamplePolicy::Linear;
  r.mode = *mode == "loop" ? TimeMode::Loop : TimeMode::Clamp;
  auto clip = args.last("--clip");
  auto t = args.last("--t");
  if (args.positional.size() != 1 || !clip || !t) {
    std::cerr << "voxrig: pose needs FILE, --clip C and --t MS (see --help)\n";
    return kExitUsage;
  }
  if (!parse_number(*t, r.t)) {
    std::cerr << "voxrig: --t: '" << *t << "' is not a decimal number of milliseconds\n";
    return kExitUsage;
  }
  r.clip = *clip;
  r.file = args.positional[0];
  bool bad = false;
  const std::optional<Profile> given = profile_option(args, bad);
  if (bad) return kExitUsage;
  auto in = read_file(r.file);
  if (!in) return kExitIo;
  const Profile profile = effective_profile(given, *in);
  auto model = decode_for_capability(*in, profile);
  if (!model.ok()) return report_rejection(model.error(), r.file);
  if (auto* f = std::get_if<VfpFile>(&*model)) return pose_vfp(*f, r);
  if (auto* c = std::get_if<Character>(&*model)) return pose_rkc(*c, r);
  return reject(ErrorCode::EvalBadClip, r.file, "a KV6 file has no clips");
}

}  // namespace

extern const Command kPose{"pose", "evaluate a clip at a time: model matrices (JSON) or posed OBJ",
                           kUsage, kOptions, run};

}  // namespace voxrig::cli
