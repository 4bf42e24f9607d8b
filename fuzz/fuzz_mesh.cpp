// Fuzz target: VOX0 meshing (mesh.h; docs/spec/evaluation.md#meshing). The input is read as a grid (one
// axis up to 70 so quads meet the 64-voxel tile edges, palette, one byte per voxel giving its
// palette index and joint) plus a joint map, checked against joint_map() of the equivalent VSKN.
// Invariants: naive = the brute-force exposed faces (with and without joints); greedy covers
// exactly the naive faces per (direction, palette); bone-aware greedy covers exactly the
// joint-aware naive faces per (direction, palette, joint), so no quad spans two joints; no quad
// crosses a tile; with one joint bone-aware equals greedy; meshing again gives the same quads.
#include "fuzz_common.h"
#include "voxrig/mesh.h"
#include "voxrig/testing/face_oracle.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Picker in{{data, size}};
  static constexpr uint16_t kJointIds[] = {0, 3, 7, 65535};
  const uint8_t big = in.take() % 3, joints_n = 1 + in.take() % 4, palette_n = 1 + in.take() % 4;
  std::array<uint16_t, 3> dims{};
  for (int a = 0; a < 3; ++a) dims[a] = uint16_t(1 + in.take() % (a == big ? 70 : 9));
  Vox0 g;
  g.size_x = dims[0], g.size_y = dims[1], g.size_z = dims[2];
  g.palette.assign(palette_n + 1, Rgba{1, 2, 3, 255});
  Vskn vskn;
  vskn.default_joint = kJointIds[0];
  std::vector<uint16_t> joints;
  for (size_t i = 0, n = size_t{dims[0]} * dims[1] * dims[2]; i < n; ++i) {
    const uint8_t b = in.take();
    g.voxels.push_back(uint8_t(b % (palette_n + 1)));
    joints.push_back(g.voxels.back() ? kJointIds[(b >> 4) % joints_n] : kJointIds[0]);
    if (joints.back() != vskn.default_joint) vskn.bindings.push_back({uint32_t(i), joints.back()});
  }
  auto map = joint_map(g, vskn);
  VOXRIG_FUZZ_CHECK(map.ok() && map.value() == joints, "joint_map differs from the bindings");
  MeshScratch scratch;
  std::vector<Quad> naive, naive_j, greedy, bone, again;
  VOXRIG_FUZZ_CHECK(mesh_naive(g, {}, naive, scratch).ok() && mesh_greedy(g, greedy, scratch).ok());
  VOXRIG_FUZZ_CHECK(mesh_naive(g, joints, naive_j, scratch).ok());
  VOXRIG_FUZZ_CHECK(mesh_bone_aware(g, joints, bone, scratch).ok());
  const auto faces = testing::unit_faces(naive), faces_j = testing::unit_faces(naive_j);
  VOXRIG_FUZZ_CHECK(faces.size() == naive.size() && faces_j.size() == naive_j.size());
  VOXRIG_FUZZ_CHECK(faces == testing::exposed_faces(g, {}), "naive != exposed faces");
  VOXRIG_FUZZ_CHECK(faces_j == testing::exposed_faces(g, joints), "naive with joints wrong");
  VOXRIG_FUZZ_CHECK(testing::unit_faces(greedy) == faces, "greedy does not cover naive");
  VOXRIG_FUZZ_CHECK(testing::unit_faces(bone) == faces_j, "bone-aware does not cover naive");
  for (const auto* quads : {&greedy, &bone})
    for (const Quad& q : *quads) VOXRIG_FUZZ_CHECK(fuzz::inside_one_tile(q), "quad crosses a tile");
  if (joints_n == 1) {
    for (Quad& q : bone) q.joint = 0;
    VOXRIG_FUZZ_CHECK(bone == greedy, "single joint: bone-aware != greedy");
  }
  VOXRIG_FUZZ_CHECK(mesh_greedy(g, again, scratch).ok() && again == greedy, "not deterministic");
  return 0;
}
