// Matrix helpers, LocalToModelJob and SkinningJob (formats.md "Evaluation", D20).
//
// Matrices are column-major (m[c * 4 + r]). The hierarchy walk follows the runtime's
// parent-first order, so a skeleton that lists a child before its parent composes correctly.
#include <cmath>

#include "voxrig/pose.h"

namespace voxrig {
namespace {

Error job_error(ErrorCode code, const char* detail) {
  Error e;
  e.code = code;
  e.detail = detail;
  return e;
}

}  // namespace

Mat4 Mat4::identity() {
  Mat4 r{};
  r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1.0f;
  return r;
}

Mat4 trs_to_mat4(const Trs& trs) {
  const float x = trs.r.x, y = trs.r.y, z = trs.r.z, w = trs.r.w;
  const float xx = x * x, yy = y * y, zz = z * z;
  const float xy = x * y, xz = x * z, yz = y * z;
  const float wx = w * x, wy = w * y, wz = w * z;
  Mat4 m;
  // Column 0 = R * e_x * sx, column 1 = R * e_y * sy, column 2 = R * e_z * sz.
  m.m[0] = (1.0f - 2.0f * (yy + zz)) * trs.s.x;
  m.m[1] = (2.0f * (xy + wz)) * trs.s.x;
  m.m[2] = (2.0f * (xz - wy)) * trs.s.x;
  m.m[3] = 0.0f;
  m.m[4] = (2.0f * (xy - wz)) * trs.s.y;
  m.m[5] = (1.0f - 2.0f * (xx + zz)) * trs.s.y;
  m.m[6] = (2.0f * (yz + wx)) * trs.s.y;
  m.m[7] = 0.0f;
  m.m[8] = (2.0f * (xz + wy)) * trs.s.z;
  m.m[9] = (2.0f * (yz - wx)) * trs.s.z;
  m.m[10] = (1.0f - 2.0f * (xx + yy)) * trs.s.z;
  m.m[11] = 0.0f;
  m.m[12] = trs.t.x;
  m.m[13] = trs.t.y;
  m.m[14] = trs.t.z;
  m.m[15] = 1.0f;
  return m;
}

Mat4 mat4_mul(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c) {
    const float b0 = b.m[c * 4 + 0], b1 = b.m[c * 4 + 1], b2 = b.m[c * 4 + 2],
                b3 = b.m[c * 4 + 3];
    for (int row = 0; row < 4; ++row) {
      r.m[c * 4 + row] = a.m[row] * b0 + a.m[4 + row] * b1 + a.m[8 + row] * b2 + a.m[12 + row] * b3;
    }
  }
  return r;
}

std::optional<Mat4> affine_inverse(const Mat4& a) {
  double m[3][3];  // m[row][col]
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m[r][c] = a.m[c * 4 + r];
  for (float v : a.m)
    if (!std::isfinite(v)) return std::nullopt;
  const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
  const double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
  const double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  const double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
  if (!std::isfinite(det) || std::fabs(det) < 1e-12) return std::nullopt;
  const double inv_det = 1.0 / det;
  double inv[3][3];
  inv[0][0] = c00 * inv_det;
  inv[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * inv_det;
  inv[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * inv_det;
  inv[1][0] = c01 * inv_det;
  inv[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * inv_det;
  inv[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * inv_det;
  inv[2][0] = c02 * inv_det;
  inv[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * inv_det;
  inv[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * inv_det;
  const double t[3] = {a.m[12], a.m[13], a.m[14]};
  Mat4 r{};
  for (int row = 0; row < 3; ++row) {
    double it = 0;
    for (int c = 0; c < 3; ++c) {
      r.m[c * 4 + row] = static_cast<float>(inv[row][c]);
      it -= inv[row][c] * t[c];
    }
    r.m[12 + row] = static_cast<float>(it);
  }
  r.m[15] = 1.0f;
  for (float v : r.m)
    if (!std::isfinite(v)) return std::nullopt;
  return r;
}

Vec3 transform_point(const Mat4& m, const Vec3& p) {
  return Vec3{m.m[0] * p.x + m.m[4] * p.y + m.m[8] * p.z + m.m[12],
              m.m[1] * p.x + m.m[5] * p.y + m.m[9] * p.z + m.m[13],
              m.m[2] * p.x + m.m[6] * p.y + m.m[10] * p.z + m.m[14]};
}

Status LocalToModelJob::validate() const {
  if (runtime == nullptr) return job_error(ErrorCode::EvalBadArgument, "no runtime");
  const size_t n = runtime->joint_count();
  if (locals.size() < n) return job_error(ErrorCode::EvalBufferSize, "locals shorter than joints");
  if (models.size() < n) return job_error(ErrorCode::EvalBufferSize, "models shorter than joints");
  return ok_status();
}

Status LocalToModelJob::run() const {
  VOXRIG_TRY(validate());
  const std::span<const int32_t> parents = runtime->parents();
  for (uint32_t j : runtime->parent_first_order()) {
    const Mat4 local = trs_to_mat4(locals[j]);
    models[j] = parents[j] < 0 ? local : mat4_mul(models[parents[j]], local);
  }
  return ok_status();
}

Status SkinningJob::validate() const {
  if (runtime == nullptr) return job_error(ErrorCode::EvalBadArgument, "no runtime");
  const size_t n = runtime->joint_count();
  if (models.size() < n) return job_error(ErrorCode::EvalBufferSize, "models shorter than joints");
  if (skinning.size() < n) {
    return job_error(ErrorCode::EvalBufferSize, "skinning shorter than joints");
  }
  return ok_status();
}

Status SkinningJob::run() const {
  VOXRIG_TRY(validate());
  const size_t n = runtime->joint_count();
  const std::span<const Mat4> inverse_bind = runtime->inverse_bind_models();
  const std::span<const uint8_t> singular = runtime->singular_bind();
  for (size_t j = 0; j < n; ++j) {
    skinning[j] = singular[j] ? Mat4::identity() : mat4_mul(models[j], inverse_bind[j]);
  }
  return ok_status();
}

}  // namespace voxrig
