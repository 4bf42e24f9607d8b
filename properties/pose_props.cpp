// VFP pose evaluation (docs/spec/evaluation.md#D19, D20): a key time returns the normalised
// key, rotations stay unit, looping is periodic, a model matrix is the product of the locals
// along its chain, and skinning at the bind pose is the identity.
#include "eval_support.h"
#include "prop_gen_common.h"
#include "prop_gen_vfp.h"
#include "prop_support.h"

namespace voxrig::props {
namespace {

constexpr SamplePolicy kPolicies[] = {SamplePolicy::Step, SamplePolicy::Linear,
                                      SamplePolicy::Slerp};

// A skeleton and one to three clips in D20's domain.
GenRig gen_rig() { return gen_eval_rig(3); }

std::vector<Trs> sample(const RigRuntime& rt, size_t clip, double t, SamplePolicy p, TimeMode m) {
  std::vector<Trs> out(rt.joint_count());
  SamplingJob job{&rt, clip, t, p, m, nullptr, out};
  VOXRIG_RC_OK(job.run());
  return out;
}

void record_rig(const GenRig& r) {
  VfpFile f;
  f.sections = {Section{{make_tag("VOX0"), -1, 0, kSectionRequired}, Vox0{1, 1, 1, {Rgba{}}, {0}}},
                Section{{make_tag("SKEL"), -1, 0, 0}, r.skel},
                Section{{make_tag("VSKN"), -1, 0, 0}, Vskn{r.skel.joints[0].id, {}, {}, {}}},
                Section{{make_tag("ANIM"), -1, 0, 0}, r.anim}};
  rebind(f);
  if (auto b = encode_vfp(f); b.ok()) record("vfp", b.value());
}

// r recorded (as a VFP file, to replay a failing case) and then its runtime.
RigRuntime build_recorded(const GenRig& r) {
  record_rig(r);
  auto rt = RigRuntime::build(r.skel, &r.anim);
  if (!rt.ok()) RC_FAIL("RigRuntime::build failed: " + rt.error().to_text());
  return std::move(rt).value();
}

}  // namespace

VOXRIG_PROP(PoseEval, KeyTimesReturnTheNormalisedKey, 1000, ()) {
  const GenRig r = gen_rig();
  const RigRuntime rt = build_recorded(r);
  for (size_t c = 0; c < r.anim.clips.size(); ++c) {
    const AnimClip& clip = r.anim.clips[c];
    for (const AnimTrack& track : clip.tracks) {
      const int32_t j = rt.joint_index(track.joint);
      for (const AnimKey& key : track.keys) {
        for (SamplePolicy p : kPolicies) {
          const std::vector<Trs> out = sample(rt, c, key.time_ms, p, TimeMode::Clamp);
          const std::string m = trs_mismatch(out[size_t(j)], key.trs);
          if (!m.empty())
            RC_FAIL("clip " + std::to_string(clip.id) + " joint " + std::to_string(track.joint) +
                    " key @" + std::to_string(key.time_ms) + " policy " + std::to_string(int(p)) +
                    ": " + m);
        }
      }
    }
    // Joints without a track keep their bind TRS.
    const std::vector<Trs> out =
        sample(rt, c, uniform<uint32_t>(0, 1000), SamplePolicy::Linear, TimeMode::Clamp);
    for (size_t j = 0; j < r.skel.joints.size(); ++j) {
      bool animated = false;
      for (const AnimTrack& t : clip.tracks) animated = animated || t.joint == r.skel.joints[j].id;
      if (!animated) RC_ASSERT(trs_mismatch(out[j], r.skel.joints[j].bind) == std::string());
    }
  }
}

VOXRIG_PROP(PoseEval, RotationsAreUnitAtAnyTime, 1000, ()) {
  const GenRig r = gen_rig();
  const RigRuntime rt = build_recorded(r);
  const size_t c = uniform<size_t>(0, r.anim.clips.size());
  const double d = r.anim.clips[c].duration_ms;
  const double t =
      (uniform<int>(-2000, 3001) / 1000.0) * std::max(d, 1.0) + uniform<int>(0, 8) / 8.0;
  for (SamplePolicy p : kPolicies) {
    for (TimeMode m : {TimeMode::Clamp, TimeMode::Loop}) {
      for (const Trs& x : sample(rt, c, t, p, m)) {
        const double n = std::sqrt(double(x.r.x) * x.r.x + double(x.r.y) * x.r.y +
                                   double(x.r.z) * x.r.z + double(x.r.w) * x.r.w);
        RC_ASSERT(std::fabs(n - 1.0) <= 1e-5);
      }
    }
  }
}

VOXRIG_PROP(PoseEval, LoopIsPeriodic, 1000, ()) {
  const GenRig r = gen_rig();
  const RigRuntime rt = build_recorded(r);
  const size_t c = uniform<size_t>(0, r.anim.clips.size());
  const uint32_t d = r.anim.clips[c].duration_ms;
  RC_PRE(d > 0u);
  RC_PRE(d < (1u << 24));
  // t in [0, d) on a 1/8 ms grid, shifted by whole periods (negative ones too): exact in double.
  const double t = std::min(uniform<uint64_t>(0, uint64_t{d} * 8) / 8.0, d - 0.125);
  const int k = uniform<int>(-3, 4);
  for (SamplePolicy p : kPolicies) {
    const std::vector<Trs> base = sample(rt, c, t, p, TimeMode::Clamp);
    const std::vector<Trs> looped = sample(rt, c, t + double(k) * d, p, TimeMode::Loop);
    for (size_t j = 0; j < base.size(); ++j) {
      RC_LOG() << "t " << t << " k " << k << " policy " << int(p) << " joint " << j << "\n";
      RC_ASSERT(trs_mismatch(looped[j], base[j]) == std::string());
    }
  }
  // t = duration maps to 0 under loop.
  const std::vector<Trs> at_end = sample(rt, c, d, SamplePolicy::Linear, TimeMode::Loop);
  const std::vector<Trs> at_zero = sample(rt, c, 0, SamplePolicy::Linear, TimeMode::Clamp);
  for (size_t j = 0; j < at_end.size(); ++j)
    RC_ASSERT(trs_mismatch(at_end[j], at_zero[j]) == std::string());
}

VOXRIG_PROP(PoseEval, ModelIsTheProductOfLocalsAlongTheChain, 1000, ()) {
  const GenRig r = gen_rig();
  const RigRuntime rt = build_recorded(r);
  const size_t c = uniform<size_t>(0, r.anim.clips.size());
  const std::vector<Trs> locals =
      sample(rt, c, uniform<uint32_t>(0, 4000), kPolicies[uniform<size_t>(0, 3)], TimeMode::Loop);
  std::vector<Mat4> models(rt.joint_count());
  VOXRIG_RC_OK((LocalToModelJob{&rt, locals, models}.run()));
  const auto parents = rt.parents();
  for (size_t j = 0; j < rt.joint_count(); ++j) {
    M4 want = identity4();  // L(root) * ... * L(j), built from j upward
    for (int64_t k = int64_t(j); k >= 0; k = parents[size_t(k)])
      want = mul(trs_matrix(locals[size_t(k)]), want);
    const std::string m = mat_mismatch(models[j], want);
    if (!m.empty()) RC_FAIL("joint index " + std::to_string(j) + ": " + m);
  }
  // At the bind pose every skinning matrix is the identity (D20's domain: no singular bind).
  std::vector<Trs> bind(rt.bind_locals().begin(), rt.bind_locals().end());
  std::vector<Mat4> bind_models(rt.joint_count()), skinning(rt.joint_count());
  VOXRIG_RC_OK((LocalToModelJob{&rt, bind, bind_models}.run()));
  VOXRIG_RC_OK((SkinningJob{&rt, bind_models, skinning}.run()));
  for (size_t j = 0; j < rt.joint_count(); ++j) {
    RC_ASSERT(rt.singular_bind()[j] == 0);
    // model(bind) * inverse(model(bind)) rounds like its factors: scale the tolerance by them.
    const double cond = max_abs(rt.bind_models()[j]) * max_abs(rt.inverse_bind_models()[j]);
    const std::string m = mat_mismatch(skinning[j], identity4(), cond);
    if (!m.empty()) RC_FAIL("skinning at bind, joint index " + std::to_string(j) + ": " + m);
  }
}

}  // namespace voxrig::props
