// Quick local timing of the pose jobs (not a unit test, not a Google Benchmark suite).
// Build: g++ -std=c++20 -O2 -ffp-contract=off -Ireference/include reference/tools/pose_timing.cpp \
//          build/ci/reference/libvoxrig_reference.a -lcrypto -lz -o /tmp/pose_timing
// Prints joint-samples/s for forward 60 Hz playback and for uniformly random times (linear
// policy, 256 joints, 30 keys per track with T, R and S, 1 s looping clip), medians of 9 runs,
// next to an in-run baseline (a plain float lerp over the same key bytes).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>
#include <vector>

#include "voxrig/pose.h"

using namespace voxrig;

// Thread CPU time, not wall time: the shared 2-core machines run other jobs, and time spent
// descheduled is not the code's (the in-run baselines are measured the same way).
static double now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

int main(int argc, char** argv) {
  const int joints = argc > 1 ? std::atoi(argv[1]) : 256;
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(-1, 1);
  Skel skel;
  Anim anim;
  AnimClip clip;
  clip.id = 0;
  clip.duration_ms = 1000;
  for (int j = 0; j < joints; ++j) {
    SkelJoint sj;
    sj.id = uint16_t(j);
    sj.parent = j == 0 ? -1 : int16_t(rng() % j);
    skel.joints.push_back(sj);
    AnimTrack tr;
    tr.joint = uint16_t(j);
    for (int k = 0; k < 30; ++k) {
      AnimKey key;
      key.time_ms = uint32_t(k * 1000 / 29);
      key.trs.t = {u(rng), u(rng), u(rng)};
      Quat q{u(rng), u(rng), u(rng), u(rng)};
      key.trs.r = normalized(q);
      key.trs.s = {1 + 0.1f * u(rng), 1, 1};
      tr.keys.push_back(key);
    }
    clip.tracks.push_back(tr);
  }
  anim.clips.push_back(clip);
  auto rt = RigRuntime::build(skel, &anim);
  if (!rt.ok()) return 1;
  std::vector<Trs> out(joints);
  std::vector<Mat4> models(joints);
  SamplingCache cache(rt->max_track_count());
  const int frames = 20000;
  std::vector<double> random_times(frames);
  for (auto& t : random_times) t = std::uniform_real_distribution<double>(0, 1000)(rng);
  auto run = [&](bool forward, SamplingCache* c) {
    double t0 = now();
    for (int f = 0; f < frames; ++f) {
      SamplingJob job{&*rt,
                      0,
                      forward ? f * (1000.0 / 60.0) : random_times[f],
                      SamplePolicy::Linear,
                      TimeMode::Loop,
                      c,
                      out};
      if (!job.run().ok()) std::abort();
    }
    return double(frames) * joints / (now() - t0);
  };
  auto l2m = [&]() {
    double t0 = now();
    for (int f = 0; f < frames; ++f) {
      if (!LocalToModelJob{&*rt, out, models}.run().ok()) std::abort();
    }
    return double(frames) * joints / (now() - t0);
  };
  // Baseline: a plain float lerp of the 10 TRS floats between two keys picked by a precomputed
  // index (no search, no normalisation), over key data of the same size.
  std::vector<float> flat(size_t(joints) * 30 * 10);
  for (size_t i = 0; i < flat.size(); ++i) flat[i] = float(i % 97) * 0.01f;
  std::vector<float> flat_out(size_t(joints) * 10);
  auto baseline = [&]() {
    double t0 = now();
    for (int f = 0; f < frames; ++f) {
      const double t = std::fmod(f * (1000.0 / 60.0), 1000.0);
      const int k = std::min(28, int(t * 29 / 1000));
      const float a = float(t * 29 / 1000 - k);
      for (int j = 0; j < joints; ++j) {
        const float* p = &flat[(size_t(j) * 30 + k) * 10];
        for (int c = 0; c < 10; ++c) flat_out[size_t(j) * 10 + c] = p[c] + (p[c + 10] - p[c]) * a;
      }
    }
    asm volatile("" : : "r"(flat_out.data()) : "memory");
    return double(frames) * joints / (now() - t0);
  };
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> fwd, fwd_nocache, rnd, rnd_cache, h, base;
  for (int rep = 0; rep < 9; ++rep) {
    fwd.push_back(run(true, &cache));
    fwd_nocache.push_back(run(true, nullptr));
    rnd.push_back(run(false, nullptr));
    rnd_cache.push_back(run(false, &cache));
    h.push_back(l2m());
    base.push_back(baseline());
  }
  std::printf("joints=%d keys/track=30 policy=linear (median of 9)\n", joints);
  std::printf("forward 60Hz, cache     : %7.1f M joint-samples/s\n", median(fwd) / 1e6);
  std::printf("forward 60Hz, no cache  : %7.1f M joint-samples/s\n", median(fwd_nocache) / 1e6);
  std::printf("random, no cache        : %7.1f M joint-samples/s\n", median(rnd) / 1e6);
  std::printf("random, cache           : %7.1f M joint-samples/s\n", median(rnd_cache) / 1e6);
  std::printf("baseline plain float lerp: %7.1f M joint-samples/s\n", median(base) / 1e6);
  std::printf("local-to-model          : %7.1f M joints/s\n", median(h) / 1e6);
  return 0;
}
