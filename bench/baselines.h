// bench/baselines.h — the in-run baselines written in the benchmark itself: a figure is read next
// to a reference measured in the same process, which cancels most of a shared machine's drift.
// They are deliberately straightforward: what a competent first implementation would look like,
// not tuned code, and not copies of the library.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/vfp_model.h"

namespace voxrig::bench {

/// A plain scan of the grid: the number of solid voxels (a lower bound for any mesher: it has to
/// look at every voxel once).
uint64_t scan_grid(const Vox0& vox0);

/// The classic per-voxel greedy mesher (one mask cell per voxel face, built by looking up each
/// voxel and its neighbour; then merge runs along u and rows along v). `joints` empty = palette
/// only; otherwise faces between different joints are exposed and quads never span two joints
/// (same face rule as mesh_bone_aware). No 64-voxel tiles. `mask` is reusable scratch.
void per_voxel_greedy(const Vox0& vox0, std::span<const uint16_t> joints, std::vector<Quad>& out,
                      std::vector<uint32_t>& mask);

/// A plain float sampler over the same key data a RigRuntime holds: per track, std::upper_bound
/// on float times, lerp T and S, nlerp R (shortest arc). No cache, no SoA, no interpolation guess.
class PlainSampler {
 public:
  /// Copies clip 0 of `anim` (every joint of `skel` must have a track, in joint order).
  PlainSampler(const Skel& skel, const Anim& anim);
  /// Samples at t_ms (already mapped into the clip) into out[joint].
  void sample(float t_ms, std::span<Trs> out) const;
  size_t joint_count() const { return first_.size() - 1; }

 private:
  std::vector<float> times_;     // all tracks' key times, concatenated
  std::vector<Trs> values_;      // matching values
  std::vector<uint32_t> first_;  // track j's keys: [first_[j], first_[j + 1])
};

}  // namespace voxrig::bench
