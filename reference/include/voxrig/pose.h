// voxrig/pose.h — VFP (Voxel Rig v1) pose evaluation as ozz-animation-style jobs.
//
// Shape: a RigRuntime is built once from a Skel (+ optional Anim); it owns everything derived
// from the model (parent-first order, normalised bind pose, bind matrices and their inverses,
// SoA key streams per clip). Jobs are small structs of inputs and caller-owned output spans with
// validate() and run(): run() validates, then evaluates without allocating, without I/O and
// without exceptions. All joint-indexed buffers use the joint's position in Skel::joints
// ("joint index"), whatever order the skeleton lists parents and children in.
//
// Semantics (docs/spec/evaluation.md#D19, D20):
// - A joint with a track is sampled from its keys; a joint without one keeps its bind TRS.
// - Every stored quaternion (keys and bind) is normalised once at build: "returns the key
//   exactly" means equal to the normalised key. A quaternion shorter than 1e-12 becomes identity.
// - Time is a double in milliseconds. Clamp: clamp to [0, duration]. Loop: floor-modulo
//   (negative t wraps; t = duration maps to 0); duration 0 => t = 0. Before the first key the
//   first key holds, after the last key the last key holds (a looping clip does not blend from the
//   last key back to the first).
// - Policies: Step (the last key at or before t), Linear (lerp T and S, shortest-arc nlerp R),
//   Slerp (lerp T and S, shortest-arc slerp R, nlerp when the dot product exceeds 0.9995).
// - local = T * R * S; model = parent model * local (parents first).
// - Skinning matrix = model_j(t) * inverse(model_j(bind)); a joint whose bind model matrix is
//   singular (|det| < 1e-12) or non-finite gets identity (its voxels stay at the bind pose) and
//   RigRuntime::warnings() carries eval.singular_bind for it (D20).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "voxrig/error.h"
#include "voxrig/result.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// A column-major 4x4 matrix: element (row r, column c) is m[c * 4 + r] (glTF's layout).
struct Mat4 {
  float m[16];
  /// The identity matrix.
  static Mat4 identity();
};

/// T * R * S as a matrix. The quaternion is used as given (callers pass unit quaternions).
Mat4 trs_to_mat4(const Trs& trs);
/// a * b (applies b first). Affine inputs give an affine result.
Mat4 mat4_mul(const Mat4& a, const Mat4& b);
/// The inverse of an affine matrix (last row 0 0 0 1) computed in double, or nullopt when the
/// 3x3 part is singular (|det| < 1e-12) or any element or the result is non-finite.
std::optional<Mat4> affine_inverse(const Mat4& a);
/// m * (p, 1): transforms a point by an affine matrix.
Vec3 transform_point(const Mat4& m, const Vec3& p);
/// q / |q| computed in float; identity when |q| < 1e-12 (xform.rs `normalize`). NaN propagates.
Quat normalized(const Quat& q);

/// How keys are interpolated. See the header comment.
enum class SamplePolicy : uint8_t { Step, Linear, Slerp };
/// How the requested time maps into the clip. See the header comment.
enum class TimeMode : uint8_t { Clamp, Loop };

/// Maps `t_ms` into [0, duration_ms] per D19 (clamp) or [0, duration_ms) (loop; duration 0 gives
/// 0). `t_ms` must be finite (a NaN or infinity maps to 0).
double map_clip_time(double t_ms, uint32_t duration_ms, TimeMode mode);

namespace detail {
// One step of LocalToModelJob's walk (RigRuntime::build, parent-first order): byte offsets of
// the joint's model matrix and local TRS in the job's spans, and of its parent's model matrix
// (kL2mRoot for a root), so the kernels index by offset instead of turning joint indices into
// addresses per joint.
struct L2mStep {
  uint32_t model;
  uint32_t trs;
  uint32_t parent;
};
inline constexpr uint32_t kL2mRoot = UINT32_MAX;
}  // namespace detail

/// Everything the jobs need, derived once from a Skel and an optional Anim. Immutable after
/// build; safe to share between threads (jobs only read it).
class RigRuntime {
 public:
  /// Builds the runtime. Allocates (proportional to joints + keys); never fails on a model that
  /// decode_vfp accepted under vfp-rig. Errors for a hand-built model: skel.no_joints,
  /// skel.joint_order (duplicate joint id), skel.parent_missing, skel.parent_cycle,
  /// anim.joint_missing, anim.track_order (two tracks for one joint), anim.no_keys,
  /// anim.key_time_order. Error offsets are 0; paths name the joint/clip/track/key
  /// ("ANIM/clip[0]/track[2]"). Safe on any model (no UB on hostile values).
  static Result<RigRuntime> build(const Skel& skel, const Anim* anim);

  /// Number of joints (== skel.joints.size()).
  size_t joint_count() const { return parent_.size(); }
  /// Parent joint index per joint index, -1 for a root.
  std::span<const int32_t> parents() const { return parent_; }
  /// Joint indices in parent-first order (each parent before its children; stable: among
  /// joints at the same depth, Skel order).
  std::span<const uint32_t> parent_first_order() const { return order_; }
  /// The bind-pose local TRS per joint, rotations normalised.
  std::span<const Trs> bind_locals() const { return bind_local_; }
  /// The bind-pose model matrix per joint.
  std::span<const Mat4> bind_models() const { return bind_model_; }
  /// inverse(bind model) per joint; identity for a singular or non-finite bind (D20).
  std::span<const Mat4> inverse_bind_models() const { return inverse_bind_; }
  /// 1 for a joint whose bind model is singular or non-finite (D20), else 0.
  std::span<const uint8_t> singular_bind() const { return singular_; }
  /// eval.singular_bind warnings, one per such joint, path "SKEL/joint[i]", in joint order.
  const std::vector<Warning>& warnings() const { return warnings_; }
  /// The joint index of a SKEL joint id, or -1.
  int32_t joint_index(uint16_t joint_id) const;
  /// The SKEL joint id of a joint index (index < joint_count()).
  uint16_t joint_id(size_t index) const { return joint_ids_[index]; }

  /// Number of clips (== anim->clips.size(), 0 without ANIM). Clips are addressed by position.
  size_t clip_count() const { return clips_.size(); }
  /// The position of the clip with this id, or nullopt.
  std::optional<size_t> find_clip(uint16_t clip_id) const;
  /// Duration in ms of clip `clip` (clip < clip_count()).
  uint32_t clip_duration_ms(size_t clip) const { return clips_[clip].duration_ms; }
  /// Id of clip `clip`.
  uint16_t clip_id(size_t clip) const { return clips_[clip].id; }
  /// Number of tracks of clip `clip`.
  size_t clip_track_count(size_t clip) const { return clips_[clip].track_count; }
  /// The largest track count over all clips (the size a SamplingCache needs).
  size_t max_track_count() const { return max_tracks_; }

 private:
  // build() without the out-of-memory guard (result.h guard_out_of_memory).
  static Result<RigRuntime> build_unguarded(const Skel& skel, const Anim* anim);
  friend struct SamplingJob;
  friend struct LocalToModelJob;
  struct Track {
    uint32_t joint;      // joint index
    uint32_t first_key;  // index into the key streams
    uint32_t key_count;  // >= 1
    // 1 when this track's key times equal the previous track's of the same clip (same count,
    // same values; baked clips key every joint at the same frames): the sampler then reuses that
    // track's bracket and interpolation factor instead of searching and dividing again.
    uint32_t same_times;
    // 1 when the three tracks after this one (same clip) all have same_times: the sampler then
    // samples the four as one SoA batch, and tests this one flag to know it (not three tracks).
    uint32_t leads_four;
    double index_scale;  // (key_count - 1) / (last time - first time): the interpolation guess
  };
  struct Clip {
    uint16_t id;
    uint32_t duration_ms;
    uint32_t first_track;
    uint32_t track_count;
  };

  std::vector<uint16_t> joint_ids_;
  std::vector<int32_t> parent_;
  std::vector<uint32_t> order_;
  std::vector<detail::L2mStep> l2m_steps_;  // order_ as LocalToModelJob walks it
  std::vector<Trs> bind_local_;
  std::vector<Mat4> bind_model_;
  std::vector<Mat4> inverse_bind_;
  std::vector<uint8_t> singular_;
  std::vector<Warning> warnings_;
  std::vector<std::pair<uint16_t, uint32_t>> id_to_index_;  // sorted by id
  std::vector<Clip> clips_;
  std::vector<Track> tracks_;
  // One key's value and the step to the next key of its track: `d` = next - this for T and S,
  // (next * shortest-arc sign) - this for R (the sign from the dot product's sign bit), so a
  // linear sample is value + d * u: the very float operations of lerp / nlerp, done once at
  // build instead of per sample. The last key of a track has d = 0 (never read).
  struct KeyStep {
    Trs value;  // rotation normalised
    Trs d;
  };
  // Key streams shared by all clips (a track's keys are contiguous in each stream): times apart
  // from values, so the bracket search reads only times, and one sample reads one 80-byte step.
  std::vector<double> key_time_;
  std::vector<KeyStep> key_step_;
  size_t max_tracks_ = 0;
};

/// Caller-owned cursor cache for SamplingJob: remembers, per track, the key bracket of the last
/// sample so that forward playback finds the next bracket in O(1) amortised. The cursors are
/// hints only (always range-checked), so a cache shared across clips or runtimes gives correct
/// results, merely slower. Not thread-safe: one cache per concurrently running job.
class SamplingCache {
 public:
  SamplingCache() = default;
  /// A cache for clips of up to `max_tracks` tracks. Allocates.
  explicit SamplingCache(size_t max_tracks) : cursor_(max_tracks, 0) {}
  /// Resizes (allocates) and invalidates.
  void resize(size_t max_tracks) {
    cursor_.assign(max_tracks, 0);
    invalidate();
  }
  /// Forgets every cursor (the next sample searches from scratch). Never allocates.
  void invalidate() {
    runtime_ = nullptr;
    clip_ = SIZE_MAX;
  }
  /// The number of tracks this cache can serve.
  size_t capacity() const { return cursor_.size(); }

 private:
  friend struct SamplingJob;
  const RigRuntime* runtime_ = nullptr;
  size_t clip_ = SIZE_MAX;
  std::vector<uint32_t> cursor_;
};

/// Samples one clip at one time into local TRS per joint.
/// Contract: run() never allocates and never throws; output[j] receives joint j's local TRS.
struct SamplingJob {
  const RigRuntime* runtime = nullptr;
  size_t clip = 0;  ///< clip position (not id) in the runtime
  double time_ms = 0;
  SamplePolicy policy = SamplePolicy::Linear;
  TimeMode mode = TimeMode::Clamp;
  SamplingCache* cache = nullptr;  ///< optional; when set, capacity() >= clip track count
  std::span<Trs> output;           ///< size >= runtime->joint_count()

  /// Errors: eval.bad_argument (no runtime, policy or mode out of range), eval.bad_clip (clip
  /// >= clip_count()), eval.bad_time (time not finite), eval.buffer_size (output shorter than
  /// the joint count, or a cache smaller than the clip's track count). Never allocates on
  /// success.
  Status validate() const;
  /// validate(), then samples. Never allocates on success.
  Status run() const;
};

/// Which SIMD kernels LocalToModelJob runs on x86-64. Auto (the default): the AVX kernel when
/// the CPU and OS support AVX, else the SSE2 baseline; Sse2: always the SSE2 baseline. Both give
/// the same bits (pose_exact_test runs both); Sse2 lets tests and benchmarks run the baseline
/// path on any machine. Thread-safe; applies to jobs started afterwards. No effect elsewhere.
enum class PoseKernels : uint8_t { Auto, Sse2 };
/// Selects the kernels (see PoseKernels). Never allocates, never fails.
void set_pose_kernels(PoseKernels kernels);
/// The kernels LocalToModelJob uses now: "avx", "sse2" or "portable" (no SSE2).
const char* pose_kernels_in_use();

/// Composes local TRS into model matrices, parents first: model = parent model * T * R * S.
struct LocalToModelJob {
  const RigRuntime* runtime = nullptr;
  std::span<const Trs> locals;  ///< size >= joint_count (rotations should be unit)
  std::span<Mat4> models;       ///< size >= joint_count; receives the model matrices

  /// Errors: eval.bad_argument (no runtime), eval.buffer_size (a span shorter than the joint
  /// count). Never allocates on success.
  Status validate() const;
  Status run() const;
};

/// Skinning matrices: skinning[j] = models[j] * inverse(bind model j); identity for a joint with
/// a singular bind (D20). A voxel bound to joint j moves by skinning[j].
struct SkinningJob {
  const RigRuntime* runtime = nullptr;
  std::span<const Mat4> models;  ///< size >= joint_count
  std::span<Mat4> skinning;      ///< size >= joint_count

  /// Errors: eval.bad_argument (no runtime), eval.buffer_size. Never allocates on success.
  Status validate() const;
  Status run() const;
};

}  // namespace voxrig
