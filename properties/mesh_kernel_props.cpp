// The meshing kernels (mesh.h: mesh_greedy, mesh_bone_aware) on grids big enough to cross
// 64-voxel tiles, against two oracles of voxrig::testing (face_oracle.h), written from the spec:
// the brute-force exposed faces (every exposed face covered exactly once, no unexposed face
// covered, every quad uniform in joint and palette index, no more quads than faces), and the
// per-voxel greedy mesher with the library's tiles and scan order (the same quads in the same
// order: the golden mesher cases pin the output, so a faster kernel must not change it). Both
// builds of the kernel (mesh.h MeshKernels) run on every case and must agree quad for quad.
//
// Shapes: lines (1x1xN in every orientation), plates (NxNx1), and boxes whose sides sit near
// multiples of 64 (1..8, 60..70, 124..132): tile edges, partial tiles, grid edges. Fill: random
// with any density, or a height field (large merges); palette: 1..3 colours, all of 1..255, or
// bands; joints: one id, blocks, per-voxel random among up to 300 ids, both mixed, or one id per
// 64-voxel tile shifted by 0..2 voxels (tiles inside one joint, whose faces at the tile edge
// still see another joint: the kernel's one-joint-tile path and its shell check). Choices
// are uniform at every case size (big grids from the first case on) and shrink toward small.
#include <random>

#include "prop_gen_common.h"
#include "prop_support.h"
#include "voxrig/mesh.h"
#include "voxrig/testing/face_oracle.h"

namespace voxrig::props {
namespace {

using testing::Face;

struct BigGrid {
  Vox0 vox0;
  std::vector<uint16_t> joints;
};

uint32_t side_near_tiles() {
  switch (uniform<int>(0, 3)) {
    case 0:
      return uniform<uint32_t>(1, 9);
    case 1:
      return uniform<uint32_t>(60, 71);
    default:
      return uniform<uint32_t>(124, 133);
  }
}

BigGrid gen_big_grid() {
  uint32_t s[3] = {1, 1, 1};
  const int shape = uniform<int>(0, 3);
  const int axis = uniform<int>(0, 3);
  if (shape == 0) {  // line along `axis`
    s[axis] = uniform<uint32_t>(1, 300);
  } else if (shape == 1) {  // plate across `axis`
    s[(axis + 1) % 3] = uniform<uint32_t>(1, 140);
    s[(axis + 2) % 3] = uniform<uint32_t>(1, 140);
  } else {
    for (uint32_t& v : s) v = side_near_tiles();
    // Keep the oracle's brute force cheap: at most ~140k voxels.
    while (size_t{s[0]} * s[1] * s[2] > 140000) s[uniform<int>(0, 3)] = uniform<uint32_t>(1, 9);
  }
  const int density = uniform<int>(0, 101);  // percent, random fill
  const bool height_field = one_in(3);
  const int palette = uniform<int>(0, 3);  // 0: 1..3 colours, 1: all of 1..255, 2: bands
  const int colours = uniform<int>(1, 4);
  // 0: one, 1: blocks, 2: random, 3: blocks + noise, 4: per tile, shifted by `shift`
  const int joint_mode = uniform<int>(0, 5);
  const uint32_t shift = uniform<uint32_t>(0, 3);
  const uint32_t joint_count = uniform<uint32_t>(1, 301);
  const uint32_t block = uniform<uint32_t>(1, 40);
  const uint32_t seed = uniform<uint32_t>(0, 1u << 30);

  BigGrid g;
  g.vox0.size_x = s[0];
  g.vox0.size_y = s[1];
  g.vox0.size_z = s[2];
  const size_t n = size_t{s[0]} * s[1] * s[2];
  g.vox0.voxels.resize(n);
  g.joints.resize(n);
  std::mt19937 rng(seed);
  const uint16_t base = static_cast<uint16_t>(rng() % 65000);
  for (uint32_t z = 0; z < s[2]; ++z)
    for (uint32_t y = 0; y < s[1]; ++y)
      for (uint32_t x = 0; x < s[0]; ++x) {
        const size_t i = g.vox0.index(x, y, z);
        const bool solid =
            height_field ? z * 8 < (x * 5 + y * 3) % 97 + 3 : int(rng() % 100) < density;
        uint8_t c = 0;
        if (solid) {
          c = palette == 0   ? uint8_t(1 + rng() % colours)
              : palette == 1 ? uint8_t(1 + rng() % 255)
                             : uint8_t(1 + (z / 4 + x / 16) % 255);
        }
        g.vox0.voxels[i] = c;
        const uint32_t blk = (x / block + 7 * (y / block) + 31 * (z / block)) % joint_count;
        uint32_t j = 0;
        switch (joint_mode) {
          case 1:
            j = blk;
            break;
          case 2:
            j = rng() % joint_count;
            break;
          case 3:
            j = rng() % 8 == 0 ? rng() % joint_count : blk;
            break;
          case 4:
            j = ((x + shift) / 64 + 7 * ((y + shift) / 64) + 31 * ((z + shift) / 64)) % joint_count;
            break;
          default:
            break;
        }
        g.joints[i] = static_cast<uint16_t>(base + j);
      }
  return g;
}

// Restores the default kernel choice when a check ends, however it ends (RC_ASSERT throws).
struct KernelsRestored {
  ~KernelsRestored() { set_mesh_kernels(MeshKernels::Auto); }
};

// The library kernel's quads cover exactly the oracle's faces, each quad uniform in joint and
// palette index, and are exactly the per-voxel greedy oracle's quads (same order); the SSE2
// build gives the same quads as the default one (the AVX2 build where the CPU has it).
void check_kernel(const BigGrid& g, bool bone) {
  std::vector<Quad> got, got_sse2;
  MeshScratch scratch;
  const auto run = [&](std::vector<Quad>& out) {
    if (bone) {
      VOXRIG_RC_OK(mesh_bone_aware(g.vox0, g.joints, out, scratch));
    } else {
      VOXRIG_RC_OK(mesh_greedy(g.vox0, out, scratch));
    }
  };
  {
    const KernelsRestored restore;
    run(got);
    set_mesh_kernels(MeshKernels::Sse2);
    run(got_sse2);
  }
  RC_ASSERT(got.size() == got_sse2.size());
  for (size_t k = 0; k < got.size(); ++k) {
    if (!(got[k] == got_sse2[k]))
      RC_FAIL("quad " + std::to_string(k) + " differs between the " +
              std::string(mesh_kernels_in_use()) + " and sse2 builds");
  }
  const std::span<const uint16_t> jm =
      bone ? std::span<const uint16_t>(g.joints) : std::span<const uint16_t>();
  const std::vector<Quad> want = testing::per_voxel_greedy(g.vox0, jm);
  const std::vector<Face> exposed = testing::exposed_faces(g.vox0, jm);
  const std::vector<Face> faces = testing::unit_faces(got);
  const std::string diff = testing::face_difference(faces, exposed);
  if (!diff.empty()) RC_FAIL(std::string(bone ? "bone-aware" : "greedy") + " vs oracle: " + diff);
  RC_ASSERT(got.size() <= exposed.size());
  for (const Face& f : faces) {
    uint32_t c[3] = {f.x, f.y, f.z};
    if (f.positive) c[f.axis] -= 1;
    const size_t i = g.vox0.index(c[0], c[1], c[2]);
    RC_ASSERT(g.vox0.voxels[i] == f.material);
    RC_ASSERT((bone ? g.joints[i] : uint16_t{0}) == f.joint);
  }
  // Differential: the face sets agree (implied by the oracle check on both sides) and so do the
  // quads themselves, one by one.
  RC_ASSERT(testing::face_difference(testing::unit_faces(want), faces).empty());
  RC_ASSERT(got.size() == want.size());
  for (size_t k = 0; k < got.size(); ++k) {
    if (!(got[k] == want[k]))
      RC_FAIL("quad " + std::to_string(k) + " differs from the per-voxel greedy oracle's");
  }
}

}  // namespace

VOXRIG_PROP(MeshKernel, GreedyMatchesTheOraclesAcrossTiles, 120, ()) {
  check_kernel(gen_big_grid(), false);
}

VOXRIG_PROP(MeshKernel, BoneAwareMatchesTheOraclesAcrossTiles, 120, ()) {
  check_kernel(gen_big_grid(), true);
}

// One scratch and one output buffer reused over grids of different shapes (a smaller grid after
// a bigger one leaves no stale rows or staged quads behind).
VOXRIG_PROP(MeshKernel, ReusedScratchGivesTheFreshResult, 60, ()) {
  MeshScratch scratch;
  std::vector<Quad> out;
  for (int k = 0; k < 3; ++k) {
    const BigGrid g = gen_big_grid();
    std::vector<Quad> fresh;
    MeshScratch fresh_scratch;
    VOXRIG_RC_OK(mesh_bone_aware(g.vox0, g.joints, out, scratch));
    VOXRIG_RC_OK(mesh_bone_aware(g.vox0, g.joints, fresh, fresh_scratch));
    RC_ASSERT(out == fresh);
    VOXRIG_RC_OK(mesh_greedy(g.vox0, out, scratch));
    VOXRIG_RC_OK(mesh_greedy(g.vox0, fresh, fresh_scratch));
    RC_ASSERT(out == fresh);
  }
}

}  // namespace voxrig::props
