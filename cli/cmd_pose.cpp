// voxrig pose: the pose protocol (docs/spec/protocols.md: one model
// matrix per joint or bone as JSON) and, with an OBJ output, the posed bone-aware mesh.
#include <charconv>
#include <cmath>
#include <iostream>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/conform/capability_protocol.h"
#include "voxrig/export.h"
#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/pose_f64.h"
#include "voxrig/rkc_eval.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {
namespace {

using namespace voxrig::conform;

constexpr std::string_view kUsage =
    "usage: voxrig pose [--profile P] --clip C --t MS [--policy step|linear|slerp]\n"
    "                   [--mode clamp|loop] [--format json|obj] [-o OUT] [--max-output N] FILE\n"
    "Samples clip C of FILE at time MS (milliseconds, a decimal number; fractional, negative and\n"
    "past-the-end times are valid) and prints the pose protocol's JSON (docs/spec/protocols.md):\n"
    "{\"model\": [[16 numbers], ...]}, one column-major 4x4 model matrix per joint in SKEL order\n"
    "(VFP: docs/spec/evaluation.md#pose-at-time-t, D19-D20, computed in double) or per bone (RKCH: the solved\n"
    "bone transform, docs/spec/rkc-evaluation.md and D21; policy and mode do not apply).\n"
    "  --profile P   vfp-rig (default for VFP), vfp-static, rkc-strict (default for RKCH), "
    "rkc-compat\n"
    "  --clip C      VFP: the clip id (or its name); RKCH: the clip index\n"
    "  --t MS        VFP: any finite number; RKCH: rounded down to whole ms, -2^31 .. 2^32-1\n"
    "                (past 2^31-1 the i32 clock wraps, D21)\n"
    "  --format F    json (default) or obj: the posed bone-aware mesh of a VFP rig as OBJ, each\n"
    "                joint's group moved by model_j(t) * inverse(model_j(bind)); without "
    "--format,\n"
    "                -o OUT.obj selects obj\n"
    "  -o OUT        write to OUT instead of stdout\n"  //
    VOXRIG_CLI_MAX_OUTPUT_HELP                           //
    "Exit: 0 posed, 1 rejected ({\"error\": code} on stdout: the file's decode error,\n"
    "eval.bad_clip for a clip that does not exist, eval.bad_time for a non-finite time,\n"
    "limit.output for an output over --max-output), 2 usage, 3 I/O.\n";

constexpr std::string_view kPolicies[] = {"step", "linear", "slerp"};
constexpr std::string_view kModes[] = {"clamp", "loop"};
constexpr std::string_view kFormats[] = {"json", "obj"};
constexpr OptionSpec kOptions[] = {{"--clip", true},
                                   {"--t", true},
                                   {"-o", true},
                                   {"--policy", true, kPolicies},
                                   {"--mode", true, kModes},
                                   {"--format", true, kFormats},
                                   {"--profile", true, kProfileChoices},
                                   {"--max-output", true}};

// The whole argument as a number (from_chars accepts inf and nan: those are eval.bad_time).
bool parse_number(const std::string& text, double& t) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), t);
  return ec == std::errc() && p == text.data() + text.size();
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct Request {
  std::string file, clip, format;
  std::optional<std::string> out;
  uint64_t max_output = 0;
  double t = 0;
  SamplePolicy policy = SamplePolicy::Linear;
  TimeMode mode = TimeMode::Clamp;
};

// --format obj: the posed bone-aware mesh (binary32 runtime, as a renderer would).
int pose_obj(const VfpFile& f, const Request& r) {
  PoseQuery q{r.clip, r.t, r.policy, r.mode};
  auto check = pose_models(CapabilityModel{f}, q);  // the clip and time errors
  if (!check.ok()) return report_rejection(check.error(), r.file);
  const Anim* anim = f.anim();
  const size_t clip = find_clip(*anim, r.clip).value_or(0);  // pose_models found it
  auto runtime = RigRuntime::build(*f.skel(), anim);
  if (!runtime.ok()) return report_rejection(runtime.error(), "rig");
  auto joints = joint_map(*f.vox0(), *f.vskn());
  if (!joints.ok()) return report_rejection(joints.error(), "rig");
  PoseRequest req{clip, r.t, r.policy, r.mode};
  return stream_output(r.out, "pose", [&](const OutputSink& sink) {
    return write_posed_obj(*f.vox0(), *joints, *runtime, req, f.skel(), r.max_output, sink);
  });
}

int run(const Args& args) {
  Request r;
  // parse_args has checked --policy, --mode and --format against their choices.
  const std::optional<std::string> policy = args.last("--policy").value_or("linear");
  const std::optional<std::string> mode = args.last("--mode").value_or("clamp");
  r.out = args.last("-o");
  const std::string def = r.out && ends_with(*r.out, ".obj") ? "obj" : "json";
  const std::optional<std::string> format = args.last("--format").value_or(def);
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
  r.max_output = max_output_option(args, bad);
  if (bad) return kExitUsage;
  auto in = read_file(r.file);
  if (!in) return kExitIo;
  const Profile profile = effective_profile(given, *in);
  auto model = decode_for_capability(*in, profile);
  if (!model.ok()) return report_rejection(model.error(), r.file);
  if (r.format == "obj") {
    if (auto* f = std::get_if<VfpFile>(&*model)) return pose_obj(*f, r);
    std::cerr << "voxrig: pose --format obj is for VFP rigs; an RKCH pose is JSON only\n";
    return kExitUsage;
  }
  auto models = pose_models(*model, PoseQuery{r.clip, r.t, r.policy, r.mode});
  if (!models.ok()) return report_rejection(models.error(), r.file);
  // One matrix per joint or bone (at most the limits' 65536): small, but capped all the same.
  const std::string text = model_matrices_json(*models);
  return stream_output(r.out, "pose", [&](const OutputSink& sink) -> Status {
    if (text.size() > r.max_output)
      return error_at(ErrorCode::LimitOutput, 0, "",
                      "the pose JSON takes " + std::to_string(text.size()) +
                          " bytes, over the output limit of " + std::to_string(r.max_output));
    sink(text);
    return ok_status();
  });
}

}  // namespace

extern const Command kPose{"pose", "evaluate a clip at a time: model matrices (JSON) or posed OBJ",
                           kUsage, kOptions, run};

}  // namespace voxrig::cli
