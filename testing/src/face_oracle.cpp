// The meshing oracles (face_oracle.h has the contracts).
#include "voxrig/testing/face_oracle.h"

#include <algorithm>
#include <array>
#include <ostream>

namespace voxrig::testing {

std::string to_string(const Face& f) {
  return std::string("axis ") + "xyz"[f.axis] + (f.positive ? "+" : "-") + " at (" +
         std::to_string(f.x) + "," + std::to_string(f.y) + "," + std::to_string(f.z) +
         ") material " + std::to_string(f.material) + " joint " + std::to_string(f.joint);
}

std::ostream& operator<<(std::ostream& os, const Face& f) { return os << to_string(f); }

std::vector<Face> unit_faces(std::span<const Quad> quads) {
  std::vector<Face> out;
  for (const Quad& q : quads) {
    const int u = (q.axis + 1) % 3, v = (q.axis + 2) % 3;
    for (uint32_t i = 0; i < q.w; ++i)
      for (uint32_t j = 0; j < q.h; ++j) {
        std::array<uint32_t, 3> c{q.x, q.y, q.z};
        c[size_t(u)] += i, c[size_t(v)] += j;
        out.push_back(Face{q.axis, q.positive, c[0], c[1], c[2], q.material, q.joint});
      }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Face> exposed_faces(const Vox0& g, std::span<const uint16_t> joints) {
  std::vector<Face> out;
  const std::array<uint32_t, 3> size{g.size_x, g.size_y, g.size_z};
  for (uint32_t z = 0; z < size[2]; ++z)
    for (uint32_t y = 0; y < size[1]; ++y)
      for (uint32_t x = 0; x < size[0]; ++x) {
        const size_t at = g.index(x, y, z);
        if (g.voxels[at] == 0) continue;
        const uint16_t joint = joints.empty() ? 0 : joints[at];
        for (uint8_t d = 0; d < 6; ++d) {
          const uint8_t axis = d / 2, positive = d % 2;
          std::array<uint32_t, 3> n{x, y, z};
          bool exposed = positive ? n[axis] + 1 == size[axis] : n[axis] == 0;
          if (!exposed) {
            n[axis] = positive ? n[axis] + 1 : n[axis] - 1;
            const size_t nat = g.index(n[0], n[1], n[2]);
            exposed = g.voxels[nat] == 0 || (!joints.empty() && joints[nat] != joint);
          }
          if (!exposed) continue;
          std::array<uint32_t, 3> c{x, y, z};
          c[axis] += positive;
          out.push_back(Face{axis, positive, c[0], c[1], c[2], g.voxels[at], joint});
        }
      }
  std::sort(out.begin(), out.end());
  return out;
}

std::string face_difference(const std::vector<Face>& got, const std::vector<Face>& want) {
  if (got == want) return {};
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  const bool extra = i < got.size() && (i >= want.size() || got[i] < want[i]);
  return std::to_string(got.size()) + " unit faces vs " + std::to_string(want.size()) +
         " expected; first difference: " +
         (extra ? "unexpected " + to_string(got[i]) : "missing " + to_string(want[i]));
}

std::vector<Quad> per_voxel_greedy(const Vox0& g, std::span<const uint16_t> joints) {
  const uint32_t size[3] = {g.size_x, g.size_y, g.size_z};
  const bool bone = !joints.empty();
  auto solid = [&](int64_t x, int64_t y, int64_t z) {
    if (x < 0 || y < 0 || z < 0 || x >= size[0] || y >= size[1] || z >= size[2]) return false;
    return g.voxels[g.index(uint32_t(x), uint32_t(y), uint32_t(z))] != 0;
  };
  auto joint_at = [&](uint32_t x, uint32_t y, uint32_t z) -> int {
    return bone ? joints[g.index(x, y, z)] : 0;
  };
  // Per axis: which coordinates the slice, the rows and the columns (bits) are.
  const int slice_axis[3] = {0, 1, 2}, row_axis[3] = {2, 2, 1}, col_axis[3] = {1, 0, 0};
  std::vector<Quad> out;
  std::vector<uint32_t> mask(64 * 64);
  for (uint32_t z0 = 0; z0 < size[2]; z0 += 64)
    for (uint32_t y0 = 0; y0 < size[1]; y0 += 64)
      for (uint32_t x0 = 0; x0 < size[0]; x0 += 64) {
        const uint32_t org[3] = {x0, y0, z0};
        uint32_t ext[3];
        for (int a = 0; a < 3; ++a) ext[a] = std::min<uint32_t>(64, size[a] - org[a]);
        for (int a = 0; a < 3; ++a)
          for (int dir = 0; dir < 2; ++dir)
            for (uint32_t s = 0; s < ext[slice_axis[a]]; ++s) {
              const int ra = row_axis[a], ca = col_axis[a];
              const uint32_t rows = ext[ra], cols = ext[ca];
              for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t c = 0; c < cols; ++c) {
                  uint32_t p[3];
                  p[a] = org[a] + s;
                  p[ra] = org[ra] + r;
                  p[ca] = org[ca] + c;
                  uint32_t m = 0;
                  if (solid(p[0], p[1], p[2])) {
                    int64_t n[3] = {p[0], p[1], p[2]};
                    n[a] += dir ? 1 : -1;
                    const bool covered = solid(n[0], n[1], n[2]) &&
                                         joint_at(uint32_t(n[0]), uint32_t(n[1]), uint32_t(n[2])) ==
                                             joint_at(p[0], p[1], p[2]);
                    if (!covered) {
                      m = 1 + (g.voxels[g.index(p[0], p[1], p[2])] |
                               uint32_t(joint_at(p[0], p[1], p[2])) << 8);
                    }
                  }
                  mask[r * 64 + c] = m;
                }
              for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t c = 0; c < cols;) {
                  const uint32_t m = mask[r * 64 + c];
                  if (m == 0) {
                    ++c;
                    continue;
                  }
                  uint32_t w = 1;
                  while (c + w < cols && mask[r * 64 + c + w] == m) ++w;
                  uint32_t h = 1;
                  for (; r + h < rows; ++h) {
                    bool ok = true;
                    for (uint32_t k = 0; k < w && ok; ++k) ok = mask[(r + h) * 64 + c + k] == m;
                    if (!ok) break;
                  }
                  for (uint32_t j = 0; j < h; ++j)
                    for (uint32_t k = 0; k < w; ++k) mask[(r + j) * 64 + c + k] = 0;
                  uint32_t corner[3], extent[3] = {0, 0, 0};
                  corner[a] = org[a] + s + uint32_t(dir);
                  corner[ra] = org[ra] + r;
                  corner[ca] = org[ca] + c;
                  extent[ra] = h;
                  extent[ca] = w;
                  Quad q;
                  q.x = corner[0];
                  q.y = corner[1];
                  q.z = corner[2];
                  q.w = extent[(a + 1) % 3];
                  q.h = extent[(a + 2) % 3];
                  q.axis = uint8_t(a);
                  q.positive = uint8_t(dir);
                  q.material = (m - 1) & 0xFF;
                  q.joint = uint16_t((m - 1) >> 8);
                  out.push_back(q);
                  c += w;
                }
            }
      }
  if (bone) {
    std::stable_sort(out.begin(), out.end(),
                     [](const Quad& a, const Quad& b) { return a.joint < b.joint; });
  }
  return out;
}

}  // namespace voxrig::testing
