// Greedy meshing without joints: the public entry point over the binary mesher (mesh_binary.cpp).
#include "mesh/mesh_internal.h"

namespace voxrig {

static Status mesh_greedy_unguarded(const Vox0& vox0, std::vector<Quad>& out,
                                    MeshScratch& scratch) {
  detail::Grid g{};
  VOXRIG_TRY(detail::make_grid(vox0, {}, g));
  out.clear();
  detail::mesh_binary(g, 0, scratch.impl(), out);
  if (scratch.impl().over_quad_limit) return detail::quad_limit_error(scratch.impl().max_quads);
  return ok_status();
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Status mesh_greedy(const Vox0& vox0, std::vector<Quad>& out, MeshScratch& scratch) {
  return guard_out_of_memory([&] { return mesh_greedy_unguarded(vox0, out, scratch); });
}

}  // namespace voxrig
