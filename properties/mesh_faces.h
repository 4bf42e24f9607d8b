// Unit faces for the meshing properties: quads rasterised into unit faces, the exposed-face
// oracle written from formats.md "Meshing", and a comparison that names the first odd face.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "voxrig/mesh.h"
#include "voxrig/vfp_model.h"

namespace voxrig::props {

// One unit face: normal axis, direction, minimum corner on the face plane, material, joint.
using Face = std::array<uint32_t, 7>;

inline std::vector<Face> unit_faces(const std::vector<Quad>& quads) {
  std::vector<Face> out;
  for (const Quad& q : quads) {
    const int u = (q.axis + 1) % 3, v = (q.axis + 2) % 3;
    for (uint32_t i = 0; i < q.w; ++i)
      for (uint32_t j = 0; j < q.h; ++j) {
        std::array<uint32_t, 3> c{q.x, q.y, q.z};
        c[u] += i;
        c[v] += j;
        out.push_back({q.axis, q.positive, c[0], c[1], c[2], q.material, q.joint});
      }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The oracle: a face is exposed toward a neighbour outside the grid, empty, or (with joints)
// bound to another joint.
inline std::vector<Face> oracle(const Vox0& v, const std::vector<uint16_t>& joints) {
  const int n[3] = {v.size_x, v.size_y, v.size_z};
  std::vector<Face> out;
  for (int z = 0; z < n[2]; ++z)
    for (int y = 0; y < n[1]; ++y)
      for (int x = 0; x < n[0]; ++x) {
        const size_t i = v.index(x, y, z);
        if (v.voxels[i] == 0) continue;
        const uint16_t joint = joints.empty() ? 0 : joints[i];
        for (uint32_t axis = 0; axis < 3; ++axis)
          for (uint32_t pos = 0; pos < 2; ++pos) {
            int c[3] = {x, y, z};
            c[axis] += pos ? 1 : -1;
            bool exposed = c[axis] < 0 || c[axis] >= n[axis];
            if (!exposed) {
              const size_t k = v.index(c[0], c[1], c[2]);
              exposed = v.voxels[k] == 0 || (!joints.empty() && joints[k] != joint);
            }
            if (!exposed) continue;
            uint32_t p[3] = {uint32_t(x), uint32_t(y), uint32_t(z)};
            p[axis] += pos;
            out.push_back({axis, pos, p[0], p[1], p[2], v.voxels[i], joint});
          }
      }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string face_text(const Face& f) {
  return std::string("axis ") + "xyz"[f[0]] + (f[1] ? "+" : "-") + " at (" + std::to_string(f[2]) +
         "," + std::to_string(f[3]) + "," + std::to_string(f[4]) + ") material " +
         std::to_string(f[5]) + " joint " + std::to_string(f[6]);
}

// Fails the case with the first face one side has and the other lacks.
inline void same_faces(const std::vector<Face>& got, const std::vector<Face>& want,
                       const char* what) {
  if (got == want) return;
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  const bool extra = i < got.size() && (i >= want.size() || got[i] < want[i]);
  RC_FAIL(std::string(what) + ": " + std::to_string(got.size()) + " unit faces vs " +
          std::to_string(want.size()) + " expected; first difference: " +
          (extra ? "unexpected " + face_text(got[i]) : "missing " + face_text(want[i])));
}

}  // namespace voxrig::props
