// voxrig/pose_f64.h — VFP pose evaluation in binary64: the expectation side of the pose protocol.
//
// The jobs of voxrig/pose.h evaluate in binary32 for speed. Conformance expectations must be
// closer to the exact value than D19's tolerance (|got - want| <= 1e-6 + 1e-5 |want|), and a
// binary32 hierarchy composition is not (about 1% of generated rigs exceed it; see
// docs/evaluation.md "Precision"). This evaluator follows exactly the same rules (docs/spec/
// "Evaluation", D19) on the same binary32 inputs but computes every step in double: quaternion
// normalisation, the interpolation weight, lerp / nlerp / slerp, T*R*S and the parent products.
// Its results are within ~1e-15 relative per operation of the real-arithmetic value, so the
// only disagreements with an exact evaluator come from decisions at exact thresholds (the slerp
// fallback at dot = 0.9995), which the golden pose cases avoid.
//
// The same rules as RigRuntime: joints without a track keep their bind TRS; quaternions are
// normalised (|q| < 1e-12 becomes identity); clamp / loop as map_clip_time(); step returns the
// last key at or before t; before the first key the first key, after the last the last key.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "voxrig/pose.h"
#include "voxrig/result.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// A column-major 4x4 matrix in double: element (row r, column c) is m[c * 4 + r].
using Mat4d = std::array<double, 16>;

/// The model matrix of every joint (indexed like Skel::joints) of clip position `clip` of `anim`
/// at `time_ms`, in double. Errors: eval.bad_clip (clip >= anim.clips.size()), eval.bad_time
/// (time not finite), and the RigRuntime::build codes for a model it would reject
/// (skel.no_joints, skel.joint_order for a duplicate id, skel.parent_missing, skel.parent_cycle,
/// anim.joint_missing). Safe on any
/// model decode_vfp accepted; allocates the result and O(joints) scratch.
Result<std::vector<Mat4d>> evaluate_models_f64(const Skel& skel, const Anim& anim, size_t clip,
                                               double time_ms, SamplePolicy policy, TimeMode mode);

/// The bind-pose model matrix of every joint, in double (same errors as above but no clip).
Result<std::vector<Mat4d>> bind_models_f64(const Skel& skel);

}  // namespace voxrig
