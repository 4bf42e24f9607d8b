// Shared by the evaluation and meshing properties: D19 tolerances and an independent double-
// precision T*R*S so chain products can be checked against the jobs.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "voxrig/pose.h"
#include "voxrig/vfp_model.h"

namespace voxrig::props {

/// D19: 1e-5 relative / 1e-6 absolute.
inline bool near(double a, double b, double scale = 0) {
  const double tol = 1e-6 + 1e-5 * std::max({std::fabs(a), std::fabs(b), scale});
  return std::fabs(a - b) <= tol;
}

/// q / |q| in double (the normalised key of D19); identity below 1e-12 as pose.h.
inline std::array<double, 4> normalised(const Quat& q) {
  const double n =
      std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w);
  if (n < 1e-12) return {0, 0, 0, 1};
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}

/// "" when `got` equals `want` with its rotation normalised (tolerance D19), else what differs.
inline std::string trs_mismatch(const Trs& got, const Trs& want) {
  const double g[10] = {got.t.x, got.t.y, got.t.z, got.r.x, got.r.y,
                        got.r.z, got.r.w, got.s.x, got.s.y, got.s.z};
  const auto q = normalised(want.r);
  const double w[10] = {want.t.x, want.t.y, want.t.z, q[0],     q[1],
                        q[2],     q[3],     want.s.x, want.s.y, want.s.z};
  for (int i = 0; i < 10; ++i)
    if (!near(g[i], w[i]))
      return "component " + std::to_string(i) + ": " + std::to_string(g[i]) + " vs " +
             std::to_string(w[i]);
  return {};
}

/// Row-major 4x4 in double.
using M4 = std::array<std::array<double, 4>, 4>;

inline M4 identity4() {
  M4 m{};
  for (int i = 0; i < 4; ++i) m[i][i] = 1;
  return m;
}

/// T * R * S of a TRS whose quaternion is used as given.
inline M4 trs_matrix(const Trs& t) {
  const double x = t.r.x, y = t.r.y, z = t.r.z, w = t.r.w;
  const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                          {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                          {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
  const double s[3] = {t.s.x, t.s.y, t.s.z};
  M4 m = identity4();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m[i][j] = r[i][j] * s[j];
  m[0][3] = t.t.x;
  m[1][3] = t.t.y;
  m[2][3] = t.t.z;
  return m;
}

inline M4 mul(const M4& a, const M4& b) {
  M4 c{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

/// The largest |element| of a matrix.
inline double max_abs(const Mat4& m) {
  double s = 0;
  for (float v : m.m) s = std::max(s, double(std::fabs(v)));
  return s;
}

/// "" when the column-major Mat4 equals the reference within D19 (relative to the largest
/// element of the reference, or to `scale` when larger), else the first element that differs.
inline std::string mat_mismatch(const Mat4& got, const M4& want, double scale = 0) {
  for (const auto& row : want)
    for (double v : row) scale = std::max(scale, std::fabs(v));
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      if (!near(got.m[c * 4 + r], want[r][c], scale))
        return "element (" + std::to_string(r) + "," + std::to_string(c) +
               "): " + std::to_string(got.m[c * 4 + r]) + " vs " + std::to_string(want[r][c]);
  return {};
}

}  // namespace voxrig::props
