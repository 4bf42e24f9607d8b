// bench/pose_bench.cpp — per-frame evaluation: VFP pose sampling, local-to-model and skinning
// (pose.h), the RKCH clip clock + hinge solve (rkc_eval.h), and the plain float sampler baseline.
//
// Pose data (inputs.h): a random-forest skeleton, one 1 s looping clip with 30 keys per
// track and T, R, S on every joint. "forward" = 60 Hz playback (t advances 1000/60 ms per
// iteration; a SamplingCache is used, as a player would), "random" = uniformly random times from
// a fixed table of 4096 (no cache: a seek has no useful history). Under clamp the forward time
// wraps at 1 s so it keeps moving. items_per_second = joints evaluated per second
// ("joint-samples/s"). Every loop here is per-frame work and must not allocate (Alloc::None).
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "baselines.h"
#include "harness.h"
#include "voxrig/pose.h"
#include "voxrig/rkc_eval.h"
#include "voxrig/testing/perf_inputs.h"

namespace voxrig::bench {
namespace {

struct PoseInput {
  Skel skel;
  Anim anim;
  std::unique_ptr<RigRuntime> runtime;
  std::vector<double> random_times;
};

// `distinct`: key times differ between neighbouring tracks (pose_anim_distinct_times), so the
// sampler searches and divides per track: the `_distinct` benchmarks measure that path.
const PoseInput& pose_input(uint32_t joints, bool distinct = false) {
  static std::vector<std::unique_ptr<PoseInput>> cache(2 * 4097);
  auto& slot = cache.at(joints + (distinct ? 4097 : 0));
  if (slot) return *slot;
  slot = std::make_unique<PoseInput>();
  slot->skel = forest_skel(joints, 0x9051u + joints);
  slot->anim = distinct ? pose_anim_distinct_times(slot->skel, 30, 0xA0u + joints)
                        : pose_anim(slot->skel, 30, 0xA0u + joints);
  slot->runtime = std::make_unique<RigRuntime>(
      must(RigRuntime::build(slot->skel, &slot->anim), "RigRuntime::build"));
  std::mt19937_64 rng(0x7143u);
  slot->random_times.resize(4096);
  for (double& t : slot->random_times) t = static_cast<double>(rng() >> 11) * 0x1.0p-53 * 1000.0;
  return *slot;
}

// The time of iteration i.
struct Clock {
  bool forward;
  TimeMode mode;
  const std::vector<double>* random;
  uint64_t i = 0;
  double next() {
    const uint64_t k = i++;
    if (!forward) return (*random)[k & 4095];
    const double t = static_cast<double>(k) * (1000.0 / 60.0);
    return mode == TimeMode::Clamp ? std::fmod(t, 1000.0) : t;
  }
};

const char* policy_name(SamplePolicy p) {
  return p == SamplePolicy::Step ? "step" : p == SamplePolicy::Linear ? "linear" : "slerp";
}

// Runs the pose jobs of one benchmark on the SSE2 baseline kernels (pose.h PoseKernels) while
// it lives: the `_sse2` benchmarks measure that path on machines where Auto picks AVX.
struct KernelScope {
  explicit KernelScope(bool sse2) {
    set_pose_kernels(sse2 ? PoseKernels::Sse2 : PoseKernels::Auto);
  }
  ~KernelScope() { set_pose_kernels(PoseKernels::Auto); }
};

void register_sampling(SamplePolicy policy, TimeMode mode, bool forward, uint32_t joints,
                       bool with_l2m, bool sse2 = false, bool distinct = false) {
  const std::string name = std::string(with_l2m ? (sse2       ? "POSE/sample_l2m_sse2/"
                                                   : distinct ? "POSE/sample_l2m_distinct/"
                                                              : "POSE/sample_l2m/")
                                                : "POSE/sample/") +
                           policy_name(policy) + "/" +
                           (mode == TimeMode::Clamp ? "clamp/" : "loop/") +
                           (forward ? "forward/" : "random/") + std::to_string(joints);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    const KernelScope kernels(sse2);
    const PoseInput& in = pose_input(joints, distinct);
    SamplingCache cache(in.runtime->max_track_count());
    std::vector<Trs> locals(joints);
    std::vector<Mat4> models(joints);
    SamplingJob job{in.runtime.get(), 0, 0, policy, mode, forward ? &cache : nullptr, locals};
    const LocalToModelJob l2m{in.runtime.get(), locals, models};
    must(job.run(), "SamplingJob");
    must(l2m.run(), "LocalToModelJob");
    Clock clock{forward, mode, &in.random_times};
    for (auto _ : measure(state, Alloc::None)) {
      job.time_ms = clock.next();
      Status s = job.run();
      benchmark::DoNotOptimize(s);
      if (with_l2m) {
        Status m = l2m.run();
        benchmark::DoNotOptimize(m);
      }
      benchmark::ClobberMemory();
    }
    rates(state, 0, joints);
  });
}

void register_plain(bool forward, uint32_t joints) {
  const std::string name = std::string("POSE/plain_sampler/") + (forward ? "forward/" : "random/") +
                           std::to_string(joints);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    const PoseInput& in = pose_input(joints);
    const PlainSampler sampler(in.skel, in.anim);
    std::vector<Trs> locals(joints);
    Clock clock{forward, TimeMode::Clamp, &in.random_times};
    for (auto _ : measure(state, Alloc::None, Role::Baseline)) {
      sampler.sample(static_cast<float>(clock.next()), locals);
      benchmark::ClobberMemory();
    }
    rates(state, 0, joints);
  });
}

// The timed loop of one evaluation job: run() once per iteration, which must not allocate.
template <class Job>
void time_job(benchmark::State& state, const Job& job) {
  for (auto _ : measure(state, Alloc::None)) {
    Status s = job.run();
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
  }
}

void register_hierarchy(uint32_t joints) {
  for (bool sse2 : {false, true}) {
    benchmark::RegisterBenchmark(
        ((sse2 ? "POSE/l2m_sse2/" : "POSE/l2m/") + std::to_string(joints)).c_str(),
        [=](benchmark::State& state) {
          const KernelScope kernels(sse2);
          const PoseInput& in = pose_input(joints);
          std::vector<Trs> locals(in.runtime->bind_locals().begin(),
                                  in.runtime->bind_locals().end());
          std::vector<Mat4> models(joints);
          time_job(state, LocalToModelJob{in.runtime.get(), locals, models});
          rates(state, 0, joints);
        });
  }
  benchmark::RegisterBenchmark(("POSE/skinning/" + std::to_string(joints)).c_str(),
                               [=](benchmark::State& state) {
                                 const PoseInput& in = pose_input(joints);
                                 std::vector<Mat4> models(in.runtime->bind_models().begin(),
                                                          in.runtime->bind_models().end());
                                 std::vector<Mat4> skinning(joints);
                                 time_job(state, SkinningJob{in.runtime.get(), models, skinning});
                                 rates(state, 0, joints);
                               });
}

// ---- RKCH: animsprite clock + blend (RkcClipJob), solve_kfa_limbs (RkcHingeJob) ----
struct RkcInput {
  Character character;
  std::unique_ptr<RkcRig> rig;
};

void register_rkc(uint32_t bones) {
  auto input = std::make_shared<RkcInput>();
  const auto prepare = [=] {
    if (input->rig) return;
    input->character = character(bones, false);
    input->rig = std::make_unique<RkcRig>(must(RkcRig::build(input->character), "RkcRig"));
  };
  for (int what = 0; what < 3; ++what) {
    static const char* kNames[] = {"RKC/clip_eval/", "RKC/hinge_solve/", "RKC/clip_eval_hinge/"};
    benchmark::RegisterBenchmark(
        (kNames[what] + std::to_string(bones)).c_str(), [=](benchmark::State& state) {
          prepare();
          const auto& clip = std::get<SkeletalClip>(input->character.clips[0].data);
          RkcClock clock;
          std::vector<BoneXform> kfaval(bones);
          std::vector<Mat4> world(bones);
          RkcClipJob job{input->rig.get(), &clip, 16, &clock, kfaval};
          RkcHingeJob solve{input->rig.get(), kfaval, RkcPlacement{}, world};
          must(job.run(), "RkcClipJob");
          must(solve.run(), "RkcHingeJob");
          for (auto _ : measure(state, Alloc::None)) {
            if (what != 1) {
              Status s = job.run();
              benchmark::DoNotOptimize(s);
            }
            if (what != 0) {
              Status s = solve.run();
              benchmark::DoNotOptimize(s);
            }
            benchmark::ClobberMemory();
          }
          rates(state, 0, bones);
        });
  }
}

const bool registered = [] {
  for (SamplePolicy p : {SamplePolicy::Step, SamplePolicy::Linear, SamplePolicy::Slerp})
    for (TimeMode m : {TimeMode::Clamp, TimeMode::Loop})
      for (bool forward : {true, false}) register_sampling(p, m, forward, 256, false);
  for (uint32_t joints : {16u, 64u, 256u, 1024u}) {
    for (bool forward : {true, false}) {
      if (joints != 256)
        register_sampling(SamplePolicy::Linear, TimeMode::Loop, forward, joints, false);
      register_sampling(SamplePolicy::Linear, TimeMode::Loop, forward, joints, true);
      register_sampling(SamplePolicy::Linear, TimeMode::Loop, forward, joints, true, true);
      if (joints >= 256)
        register_sampling(SamplePolicy::Linear, TimeMode::Loop, forward, joints, true, false, true);
      register_plain(forward, joints);
    }
    register_hierarchy(joints);
  }
  for (uint32_t bones : {1u, 16u, 64u, 200u}) register_rkc(bones);
  return true;
}();

}  // namespace
}  // namespace voxrig::bench
