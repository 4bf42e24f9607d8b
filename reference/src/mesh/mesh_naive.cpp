// Naive meshing, the oracle: one quad per exposed face, written to be obviously right. It uses
// only the shared layer (mesh_grid.cpp), so a bug in the binary mesher cannot hide in it.
#include "mesh/mesh_internal.h"

namespace voxrig {

static Status mesh_naive_unguarded(const Vox0& vox0, std::span<const uint16_t> joints,
                                   std::vector<Quad>& out, MeshScratch& scratch) {
  detail::Grid g{};
  VOXRIG_TRY(detail::make_grid(vox0, joints, g));
  MeshScratch::Impl& s = scratch.impl();
  s.ensure();
  std::vector<Quad>& dst = g.joints != nullptr ? s.staged : out;
  dst.clear();
  const uint32_t size[3] = {g.sx, g.sy, g.sz};
  for (uint32_t z = 0; z < g.sz; ++z) {
    if (dst.size() > s.max_quads) return detail::quad_limit_error(s.max_quads);
    for (uint32_t y = 0; y < g.sy; ++y) {
      for (uint32_t x = 0; x < g.sx; ++x) {
        const size_t i = g.index(x, y, z);
        if (g.vox[i] == 0) continue;
        const uint16_t joint = g.joints != nullptr ? g.joints[i] : 0;
        const uint32_t c[3] = {x, y, z};
        for (uint8_t axis = 0; axis < 3; ++axis) {
          for (uint8_t positive = 0; positive < 2; ++positive) {
            // The neighbour across this face; outside the grid counts as empty.
            bool exposed;
            if (positive ? c[axis] + 1 >= size[axis] : c[axis] == 0) {
              exposed = true;
            } else {
              uint32_t n[3] = {x, y, z};
              n[axis] = positive ? n[axis] + 1 : n[axis] - 1;
              const size_t ni = g.index(n[0], n[1], n[2]);
              exposed = g.vox[ni] == 0 || (g.joints != nullptr && g.joints[ni] != joint);
            }
            if (!exposed) continue;
            Quad q;
            uint32_t corner[3] = {x, y, z};
            corner[axis] += positive;
            q.x = corner[0];
            q.y = corner[1];
            q.z = corner[2];
            q.w = 1;
            q.h = 1;
            q.axis = axis;
            q.positive = positive;
            q.joint = joint;
            q.material = g.vox[i];
            dst.push_back(q);
          }
        }
      }
    }
  }
  if (dst.size() > s.max_quads) return detail::quad_limit_error(s.max_quads);
  if (g.joints != nullptr) detail::group_by_joint(s.staged, out, s);
  return ok_status();
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Status mesh_naive(const Vox0& vox0, std::span<const uint16_t> joints, std::vector<Quad>& out,
                  MeshScratch& scratch) {
  return guard_out_of_memory([&] { return mesh_naive_unguarded(vox0, joints, out, scratch); });
}

}  // namespace voxrig
