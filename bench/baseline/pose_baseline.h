// bench/baseline/pose_baseline.h — frozen copies of the pose sampler (SamplingJob::run) and
// local-to-model (LocalToModelJob::run) as they were before issue 15's SoA rewrite, for in-run
// ratios (docs/performance.md "Pose"): the benchmark runs these and the library's jobs on the
// same data in the same process. Not part of the library; never changed on purpose again, so a
// ratio against them measures the library's progress. Inputs must be what the benchmarks build
// (a RigRuntime-valid Skel + Anim); nothing here validates.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/pose.h"

namespace voxrig::bench_baseline {

/// The key streams the old RigRuntime held (AoS Trs per key, rotations normalised, times in
/// separate doubles), built from the same Skel + Anim.
class PoseBaseline {
 public:
  /// Copies clip data from `anim` (tracks matched to joints through `rt`) and the hierarchy from
  /// `rt`. Allocates.
  PoseBaseline(const RigRuntime& rt, const Anim& anim);

  /// The old SamplingJob::run body (Linear/Step/Slerp, Clamp/Loop), with or without the cursor
  /// cache. `out` must hold joint_count() entries. Never allocates.
  void sample(size_t clip, double time_ms, SamplePolicy policy, TimeMode mode, bool use_cursors,
              std::span<Trs> out);
  /// The old LocalToModelJob::run body (SSE columns). Never allocates.
  void local_to_model(std::span<const Trs> locals, std::span<Mat4> models) const;

  size_t joint_count() const { return parent_.size(); }

 private:
  struct Track {
    uint32_t joint, first_key, key_count;
    double index_scale;
  };
  struct Clip {
    uint32_t duration_ms, first_track, track_count;
  };
  std::vector<int32_t> parent_;
  std::vector<uint32_t> order_;
  std::vector<Trs> bind_local_;
  std::vector<Clip> clips_;
  std::vector<Track> tracks_;
  std::vector<double> key_time_;
  std::vector<Trs> key_value_;
  std::vector<uint32_t> cursor_;
  size_t cursor_clip_ = SIZE_MAX;
};

}  // namespace voxrig::bench_baseline
