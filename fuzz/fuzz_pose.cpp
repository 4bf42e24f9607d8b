// Fuzz target: VFP pose evaluation (pose.h; docs/spec/evaluation.md#D19, D20). The input is read
// as a hand-built rig (fuzz_common.h read_rig) plus sample times; every clip is sampled at every
// time under every policy and time mode, then composed and skinned. Invariants: a well-formed
// rig builds; jobs fail only on a non-finite time (eval.bad_time); a SamplingCache never changes
// a result; D19 exactness (fuzz_common.h check_d19); results are finite whenever the inputs are
// inside D20's bounds and the scale products along every chain stay within [1e-6, 1e6] (deeper
// chains can overflow binary32 legitimately); no UB (sanitizers).
#include <cmath>

#include "fuzz_common.h"
#include "voxrig/pose.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Picker in{{data, size}};
  const fuzz::RigInput rig = fuzz::read_rig(in);
  auto built = RigRuntime::build(rig.skel, &rig.anim);
  VOXRIG_FUZZ_CHECK(built.ok() || rig.wild, built.ok() ? "" : built.error().to_text());
  if (!fuzz::ok_or_checked(built, 0, 0)) return 0;
  const RigRuntime& rt = built.value();
  const size_t n = rt.joint_count();
  const std::vector<uint8_t> bounded = fuzz::d20_bounded(rt, rig);
  fuzz::check_d19(rt, rig);
  std::vector<Trs> locals(n), cached(n);
  std::vector<Mat4> models(n), skinning(n);
  SamplingCache cache(rt.max_track_count());
  for (size_t c = 0; c < rt.clip_count(); ++c)
    for (double t : rig.times)
      for (SamplePolicy policy : {SamplePolicy::Step, SamplePolicy::Linear, SamplePolicy::Slerp})
        for (TimeMode mode : {TimeMode::Clamp, TimeMode::Loop}) {
          const Status s = SamplingJob{&rt, c, t, policy, mode, nullptr, locals}.run();
          VOXRIG_FUZZ_CHECK(s.ok() == std::isfinite(t), "sampling verdict != time finite");
          if (!s.ok()) {
            VOXRIG_FUZZ_CHECK(s.error().code == ErrorCode::EvalBadTime);
            continue;
          }
          const SamplingJob with_cache{&rt, c, t, policy, mode, &cache, cached};
          VOXRIG_FUZZ_CHECK(with_cache.run().ok());
          VOXRIG_FUZZ_CHECK(cached == locals, "the sampling cache changed a result");
          VOXRIG_FUZZ_CHECK((LocalToModelJob{&rt, locals, models}.run().ok()));
          VOXRIG_FUZZ_CHECK((SkinningJob{&rt, models, skinning}.run().ok()));
          for (size_t j = 0; j < n; ++j)
            if (bounded[j])
              VOXRIG_FUZZ_CHECK(
                  fuzz::finite(locals[j]) && fuzz::finite(models[j]) && fuzz::finite(skinning[j]),
                  "non-finite result inside D20 bounds");
        }
  return 0;
}
