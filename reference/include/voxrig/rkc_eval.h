// voxrig/rkc_eval.h — RKCH skeletal clip evaluation exactly as the seed implementation
// (docs/spec/rkc-evaluation.md#the-evaluation-state, docs/spec/rkc-evaluation.md#D21), as jobs with validate()/run().
//
// Two steps, like the seed's KfaSprite:
// - RkcClipJob = `animsprite(ti)`: advances the clip clock (seq timeline with jump and stop
//   markers) and writes kfaval (the per-bone local BoneXform) for every non-root bone by the
//   16.16 bracket ratio (lerp T/S, nlerp R, xform.rs). Roots are never written.
// - RkcHingeJob = `solve_kfa_limbs`: composes hinge frames parent-first into a world transform
//   per bone (child = parent · (Q·Pᵀ) · diag(S)).
//
// Integer semantics (D21): the seed's i32 time arithmetic wraps in two's complement (its release
// build); here it is done in uint32 and converted back, so it wraps with no undefined behaviour.
// A jump loop is advanced in closed form once the clock lands on the same jump target twice
// (Brent's cycle detection over landings), so a huge `ti` costs O(seq) not O(ti / period).
// Unsorted seq times are accepted as in the seed: the binary search assumes sorted times, and an
// out-of-order bracket gives trat < 0 (no blend) or trat > 65536 (extrapolation); see
// docs in the tests (rkc_eval_test.cpp) for pinned cases.
//
// Float details not fixed by the fact sheet, chosen here: blend t = float(trat) / 65536.0f;
// lerp is a + (b - a) * t per component; nlerp negates b when dot(a, b) < 0, lerps the four
// components the same way and normalises by dividing each by the length (identity below 1e-12);
// genperp uses t = 1 / sqrt(...) and multiplies (voxlap's genperp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/pose.h"
#include "voxrig/result.h"
#include "voxrig/rkc_model.h"

namespace voxrig {

/// `kfatime2seq(t)` (docs/spec/rkc-evaluation.md#the-evaluation-state): binary search with lower = 0, upper = len - 1; while
/// upper - lower >= 2: mid = (lower + upper) / 2, t >= seq[mid].tim ? lower = mid : upper = mid.
/// Returns lower. `seq` must not be empty (returns 0 then).
size_t kfatime2seq(std::span<const Seq> seq, int32_t t);

/// xform.rs `blend(a, b, t)`: lerp translation and scale, nlerp rotation (see the header).
BoneXform blend_xform(const BoneXform& a, const BoneXform& b, float t);

/// voxlap `genperp(a)`: two vectors perpendicular to `a` (b normalised in the plane of the two
/// largest components, c = a × b), with the exact tie-breaks of docs/spec/rkc-evaluation.md#the-bone-hierarchy; zero vector -> zeros.
void genperp(const std::array<float, 3>& a, std::array<float, 3>& b, std::array<float, 3>& c);

/// Bone hierarchy prepared once: hinges and a parent-first order.
class RkcRig {
 public:
  /// Errors (paths "BONS/bone[i]"): rkc.parent_range (a parent that is neither < 0 nor a bone
  /// index; the reference counts every negative parent as a root, as the seed's evaluator does),
  /// rkc.parent_cycle. Allocates.
  static Result<RkcRig> build(std::span<const Hinge> hinges);
  /// Convenience: the hinges of every bone of `character`.
  static Result<RkcRig> build(const Character& character);

  size_t bone_count() const { return hinges_.size(); }
  std::span<const Hinge> hinges() const { return hinges_; }
  /// Bone indices, each parent before its children.
  std::span<const uint32_t> parent_first_order() const { return order_; }

 private:
  std::vector<Hinge> hinges_;
  std::vector<uint32_t> order_;
};

/// The clip clock of one sprite (docs/spec/rkc-evaluation.md#the-evaluation-state): kfatim = current time (ms), okfatim = previous time,
/// set only by the host (used by blend markers).
struct RkcClock {
  int32_t kfatim = 0;
  int32_t okfatim = 0;
};

/// `animsprite(advance_ms)` on one skeletal clip.
struct RkcClipJob {
  const RkcRig* rig = nullptr;
  const SkeletalClip* clip = nullptr;
  int32_t advance_ms = 0;       ///< ti; <= 0 only re-evaluates the pose (never rewinds)
  RkcClock* clock = nullptr;    ///< in/out
  std::span<BoneXform> kfaval;  ///< in/out, size >= bone count; roots are left untouched

  /// Errors: eval.bad_argument (rig, clip or clock missing), eval.bad_clip (numhin != bone count
  /// or frames.size() != frame_count * numhin), eval.buffer_size (kfaval too short),
  /// eval.frame_index (a seq frm >= frame_count; path "seq[i]"), eval.jump_target (a jump whose
  /// target !frm is past the seq, or lands on another jump or stop marker, which the seed would
  /// use as a frame index). With no frames or an empty seq nothing is checked: run() does
  /// nothing, as the seed. O(seq length); never allocates on success.
  Status validate() const;
  /// validate(), then phase 1 (advance), phase 2 (brackets) and phase 3 (per-bone blend).
  Status run() const;
};

/// The sprite placement handed to the solver: position p and basis s, h, f (docs/spec/rkc-evaluation.md#the-bone-hierarchy defaults:
/// p = the character's META root, identity axes).
struct RkcPlacement {
  std::array<float, 3> p{0, 0, 0};
  std::array<float, 3> s{1, 0, 0};
  std::array<float, 3> h{0, 1, 0};
  std::array<float, 3> f{0, 0, 1};
};

/// `solve_kfa_limbs`: world transform per bone. world[i] columns 0, 1, 2 are the bone's basis
/// s, h, f (scale applied), column 3 its origin; row 3 is 0 0 0 1.
struct RkcHingeJob {
  const RkcRig* rig = nullptr;
  std::span<const BoneXform> kfaval;  ///< size >= bone count (root entries ignored)
  RkcPlacement placement;
  std::span<Mat4> world;  ///< size >= bone count

  /// Errors: eval.bad_argument (no rig), eval.buffer_size. Never allocates on success.
  Status validate() const;
  Status run() const;
};

}  // namespace voxrig
