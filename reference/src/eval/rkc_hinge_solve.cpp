// RKCH hinge composition (docs/spec/rkc-evaluation.md#the-bone-hierarchy, roxlap-core `solve_kfa_limbs`).
//
// Hinge (64 bytes on disk, BONS and KFA): parent i32, p[0] 3xf32, p[1] 3xf32, v[0] 3xf32,
// v[1] 3xf32, vmin i16, vmax i16, htype u8, filler 7 bytes.
//
// Per child bone, with X = kfaval (identity when htype != 0):
//   Q frame: anchor p[0] + X.t, axes (v[0], genperp(v[0])) each rotated by X.r;
//   P frame: anchor p[1], axes (v[1], genperp(v[1]));
//   R = Q·Pᵀ (linear), R_o = qp - R·pp; child = parent ∘ R; then the child's basis columns
//   are scaled by X.s (descendants inherit the scale through their parent's basis).
// Roots: basis = the placement's s, h, f; origin = p - (p0.x·s + p0.y·h + p0.z·f).
#include <algorithm>
#include <cmath>
#include <string>

#include "voxrig/rkc_eval.h"
#include "voxrig/validate.h"

namespace voxrig {
namespace {

using F3 = std::array<float, 3>;

inline F3 cross(const F3& a, const F3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// xform.rs `rotate`: v + w·t + q×t with t = 2(q×v); assumes a unit quaternion.
inline F3 rotate(const std::array<float, 4>& q, const F3& v) {
  const F3 qv{q[0], q[1], q[2]};
  const F3 c = cross(qv, v);
  const F3 t{2.0f * c[0], 2.0f * c[1], 2.0f * c[2]};
  const F3 qt = cross(qv, t);
  return {v[0] + q[3] * t[0] + qt[0], v[1] + q[3] * t[1] + qt[1], v[2] + q[3] * t[2] + qt[2]};
}

// A world frame: basis columns (s, h, f) and origin o.
struct Frame {
  F3 col[3];
  F3 o;
};

Frame from_mat4(const Mat4& m) {
  Frame f;
  for (int c = 0; c < 4; ++c) {
    F3& dst = c < 3 ? f.col[c] : f.o;
    for (int r = 0; r < 3; ++r) dst[r] = m.m[c * 4 + r];
  }
  return f;
}

Mat4 to_mat4(const Frame& f) {
  Mat4 m{};
  for (int c = 0; c < 4; ++c) {
    const F3& src = c < 3 ? f.col[c] : f.o;
    for (int r = 0; r < 3; ++r) m.m[c * 4 + r] = src[r];
  }
  m.m[15] = 1.0f;
  return m;
}

Error rig_error(ErrorCode code, size_t bone, const char* detail) {
  return model_error(code, "BONS/bone[" + std::to_string(bone) + "]", detail);
}

}  // namespace

void genperp(const std::array<float, 3>& a, std::array<float, 3>& b, std::array<float, 3>& c) {
  if (a[0] == 0.0f && a[1] == 0.0f && a[2] == 0.0f) {
    b = {0, 0, 0};
    c = {0, 0, 0};
    return;
  }
  const float ax = std::fabs(a[0]), ay = std::fabs(a[1]), az = std::fabs(a[2]);
  if (ax < ay && ax < az) {
    const float t = 1.0f / std::sqrt(a[1] * a[1] + a[2] * a[2]);
    b = {0.0f, a[2] * t, -a[1] * t};
  } else if (ay < az) {
    const float t = 1.0f / std::sqrt(a[0] * a[0] + a[2] * a[2]);
    b = {-a[2] * t, 0.0f, a[0] * t};
  } else {
    const float t = 1.0f / std::sqrt(a[0] * a[0] + a[1] * a[1]);
    b = {a[1] * t, -a[0] * t, 0.0f};
  }
  c = cross(a, b);
}

Result<RkcRig> RkcRig::build(const Character& character) {
  std::vector<Hinge> hinges;
  hinges.reserve(character.bones.size());
  for (const Bone& b : character.bones) hinges.push_back(b.hinge);
  return build(hinges);
}

Result<RkcRig> RkcRig::build(std::span<const Hinge> hinges) {
  RkcRig rig;
  const size_t n = hinges.size();
  rig.hinges_.assign(hinges.begin(), hinges.end());
  // The evaluator treats every negative parent as a root (looser than the decoders' "-1 only"),
  // so negatives become -1 before the shared rules see them.
  std::vector<int32_t> parents(n);
  for (size_t i = 0; i < n; ++i) parents[i] = std::max(hinges[i].parent, int32_t{-1});
  if (auto i = first_parent_out_of_range(parents))
    return rig_error(ErrorCode::RkcParentRange, *i, "parent is not a bone index");
  if (auto i = first_cycle_start(parents))
    return rig_error(ErrorCode::RkcParentCycle, *i, "parent cycle");
  rig.order_ = voxrig::parent_first_order(parents);
  return rig;
}

Status RkcHingeJob::validate() const {
  if (rig == nullptr) {
    return model_error(ErrorCode::EvalBadArgument, {}, "no rig");
  }
  if (kfaval.size() < rig->bone_count() || world.size() < rig->bone_count()) {
    return model_error(ErrorCode::EvalBufferSize, {}, "kfaval or world shorter than the bones");
  }
  return ok_status();
}

Status RkcHingeJob::run() const {
  VOXRIG_TRY(validate());
  const std::span<const Hinge> hinges = rig->hinges();
  for (uint32_t i : rig->parent_first_order()) {
    const Hinge& hg = hinges[i];
    Frame out;
    if (hg.parent < 0) {
      const F3& p0 = hg.p[0];
      out.col[0] = placement.s;
      out.col[1] = placement.h;
      out.col[2] = placement.f;
      for (int r = 0; r < 3; ++r) {
        out.o[r] = placement.p[r] -
                   (p0[0] * placement.s[r] + p0[1] * placement.h[r] + p0[2] * placement.f[r]);
      }
      world[i] = to_mat4(out);
      continue;
    }
    const BoneXform identity;
    const BoneXform& x = hg.htype == 0 ? kfaval[i] : identity;
    // Q frame (rotated by X.r about the translated anchor) and P frame.
    F3 q[3], p[3];
    q[0] = hg.v[0];
    genperp(q[0], q[1], q[2]);
    for (F3& axis : q) axis = rotate(x.r, axis);
    const F3 qp{hg.p[0][0] + x.t[0], hg.p[0][1] + x.t[1], hg.p[0][2] + x.t[2]};
    p[0] = hg.v[1];
    genperp(p[0], p[1], p[2]);
    const F3& pp = hg.p[1];
    // R = Q·Pᵀ, R_o = qp - R·pp.
    float rl[3][3];  // rl[row][col]
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        rl[r][c] = q[0][r] * p[0][c] + q[1][r] * p[1][c] + q[2][r] * p[2][c];
      }
    }
    F3 ro;
    for (int r = 0; r < 3; ++r) {
      ro[r] = qp[r] - (rl[r][0] * pp[0] + rl[r][1] * pp[1] + rl[r][2] * pp[2]);
    }
    // child = parent ∘ R, then scale the child's basis.
    const Frame par = from_mat4(world[static_cast<size_t>(hg.parent)]);
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) {
        out.col[c][r] =
            (par.col[0][r] * rl[0][c] + par.col[1][r] * rl[1][c] + par.col[2][r] * rl[2][c]) *
            x.s[c];
      }
    }
    for (int r = 0; r < 3; ++r) {
      out.o[r] = par.col[0][r] * ro[0] + par.col[1][r] * ro[1] + par.col[2][r] * ro[2] + par.o[r];
    }
    world[i] = to_mat4(out);
  }
  return ok_status();
}

}  // namespace voxrig
