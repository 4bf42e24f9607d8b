// Meshing: naive / greedy / bone-aware invariants, exact agreement with a per-voxel greedy,
// hand-written small cases, determinism, no allocation on reuse, errors, and the upper YMM
// state the kernels hand back. Every Mesh test runs on both builds of the binary greedy kernel
// (mesh.h MeshKernels: Auto, the AVX2 build where the CPU has it, and the SSE2 baseline).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "voxrig/mesh.h"
#include "voxrig/testing/alloc_counter.h"
#include "voxrig/testing/face_oracle.h"
#include "ymm_state.h"

namespace voxrig {

/// Readable gtest output for quads.
inline void PrintTo(const Quad& q, std::ostream* os) {
  *os << "{" << q.x << "," << q.y << "," << q.z << " " << q.w << "x" << q.h << " axis"
      << int(q.axis) << (q.positive ? "+" : "-") << " j" << q.joint << " m" << q.material << "}";
}

/// Readable gtest output for the kernel parameter.
inline void PrintTo(MeshKernels k, std::ostream* os) {
  *os << (k == MeshKernels::Auto ? "Auto" : "Sse2");
}

namespace {

using testing::per_voxel_greedy;
using testing::unit_faces;

Vox0 make_grid(uint16_t sx, uint16_t sy, uint16_t sz) {
  Vox0 g;
  g.size_x = sx;
  g.size_y = sy;
  g.size_z = sz;
  g.palette.assign(9, Rgba{10, 20, 30, 255});
  g.voxels.assign(size_t{sx} * sy * sz, 0);
  return g;
}

// Random grid: fill probability p, palette 1..colours; joints by `joint_mode`:
// 0 = one joint (id 3), 1 = x-slabs of 2, 2 = random per voxel among 3 ids, 3 = 2x2x2 blocks.
struct Case {
  Vox0 grid;
  std::vector<uint16_t> joints;
};
Case random_case(std::mt19937& rng, uint16_t sx, uint16_t sy, uint16_t sz, double p, int colours,
                 int joint_mode) {
  Case c{make_grid(sx, sy, sz), {}};
  std::bernoulli_distribution fill(p);
  c.joints.resize(c.grid.voxels.size());
  for (uint32_t z = 0; z < sz; ++z)
    for (uint32_t y = 0; y < sy; ++y)
      for (uint32_t x = 0; x < sx; ++x) {
        const size_t i = c.grid.index(x, y, z);
        if (fill(rng)) c.grid.voxels[i] = uint8_t(1 + rng() % colours);
        switch (joint_mode) {
          case 0:
            c.joints[i] = 3;
            break;
          case 1:
            c.joints[i] = uint16_t(x / 2);
            break;
          case 2:
            c.joints[i] = uint16_t(7 * (rng() % 3));
            break;
          default:
            c.joints[i] = uint16_t((x / 2) + 10 * (y / 2) + 100 * (z / 2));
            break;
        }
      }
  return c;
}

std::vector<Quad> naive(const Vox0& g, const std::vector<uint16_t>& joints) {
  MeshScratch s;
  std::vector<Quad> out;
  EXPECT_TRUE(mesh_naive(g, joints, out, s).ok());
  return out;
}
std::vector<Quad> greedy(const Vox0& g) {
  MeshScratch s;
  std::vector<Quad> out;
  EXPECT_TRUE(mesh_greedy(g, out, s).ok());
  return out;
}
std::vector<Quad> bone(const Vox0& g, const std::vector<uint16_t>& joints) {
  MeshScratch s;
  std::vector<Quad> out;
  EXPECT_TRUE(mesh_bone_aware(g, joints, out, s).ok());
  return out;
}

// The Mesh tests under both kernel builds (the parameter); Auto is restored after each.
class Mesh : public ::testing::TestWithParam<MeshKernels> {
 protected:
  void SetUp() override { set_mesh_kernels(GetParam()); }
  void TearDown() override { set_mesh_kernels(MeshKernels::Auto); }
};

// Test names end in the parameter as PrintTo spells it (…/Auto, …/Sse2).
INSTANTIATE_TEST_SUITE_P(Kernels, Mesh, ::testing::Values(MeshKernels::Auto, MeshKernels::Sse2),
                         ::testing::PrintToStringParamName());

TEST_P(Mesh, SelectsTheRequestedKernels) {
  const std::string in_use = mesh_kernels_in_use();
#if defined(__SSE2__)
  if (GetParam() == MeshKernels::Sse2) {
    EXPECT_EQ(in_use, "sse2");
  } else {
    EXPECT_TRUE(in_use == "avx2" || in_use == "sse2") << in_use;
#if defined(__x86_64__) && defined(__GNUC__)
    const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                     __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    EXPECT_EQ(in_use == "avx2", has);
#endif
  }
#else
  EXPECT_EQ(in_use, "portable");
#endif
}

// The kernels hand the caller a clean upper YMM state (ymm_state.h): with it dirty, the
// caller's SSE code, and the SSE2 kernels, run several times slower. A 64^3 grid, half full, of
// eight colours: the kind of grid on which the AVX2 build once returned with it dirty.
TEST_P(Mesh, LeavesTheUpperYmmStateClean) {
  if (!testing::can_read_ymm_state()) GTEST_SKIP() << "this CPU does not report XINUSE";
  std::mt19937 rng(11);
  Vox0 g = make_grid(64, 64, 64);
  for (uint8_t& v : g.voxels) v = rng() % 2 ? uint8_t(1 + rng() % 8) : uint8_t(0);
  std::vector<uint16_t> joints(g.voxels.size());
  for (size_t i = 0; i < joints.size(); ++i) joints[i] = uint16_t((i % 64) / 8);
  MeshScratch s;
  std::vector<Quad> out;
  ASSERT_TRUE(mesh_greedy(g, out, s).ok());
  EXPECT_FALSE(testing::upper_ymm_dirty()) << "after mesh_greedy";
  ASSERT_TRUE(mesh_bone_aware(g, joints, out, s).ok());
  EXPECT_FALSE(testing::upper_ymm_dirty()) << "after mesh_bone_aware";
}

TEST_P(Mesh, TwoVoxelsByHand) {
  Vox0 g = make_grid(2, 1, 1);
  g.voxels = {4, 4};
  // Naive: 10 exposed faces (the shared face is hidden).
  EXPECT_EQ(naive(g, {}).size(), 10u);
  // Greedy: -x at 0, +x at 2, and the four long faces merged (w/h per the u/v convention).
  std::vector<Quad> expect = {
      {0, 0, 0, 1, 1, 0, 0, 0, 4}, {2, 0, 0, 1, 1, 0, 1, 0, 4},  // x faces: u=y, v=z
      {0, 0, 0, 1, 2, 1, 0, 0, 4}, {0, 1, 0, 1, 2, 1, 1, 0, 4},  // y faces: u=z (w), v=x (h=2)
      {0, 0, 0, 2, 1, 2, 0, 0, 4}, {0, 0, 1, 2, 1, 2, 1, 0, 4},  // z faces: u=x (w=2), v=y
  };
  EXPECT_EQ(greedy(g), expect);
  // Two joints: the shared face is exposed on both sides and nothing merges: 12 quads,
  // joint 1's six first, then joint 2's.
  std::vector<Quad> b = bone(g, {2, 1});
  ASSERT_EQ(b.size(), 12u);
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(b[i].joint, 1);
  for (size_t i = 6; i < 12; ++i) EXPECT_EQ(b[i].joint, 2);
  for (const Quad& q : b) EXPECT_EQ(q.w * q.h, 1u);
  // The face between them: joint 2's voxel (x=0) looks +x at plane 1, joint 1's looks -x.
  EXPECT_EQ(b[0], (Quad{1, 0, 0, 1, 1, 0, 0, 1, 4}));
  EXPECT_EQ(b[7], (Quad{1, 0, 0, 1, 1, 0, 1, 2, 4}));
}

TEST_P(Mesh, DifferentPalettesDoNotMerge) {
  Vox0 g = make_grid(3, 1, 1);
  g.voxels = {1, 2, 1};
  // Every long face splits into three: 2 end faces + 4 * 3 = 14 quads, same as naive.
  EXPECT_EQ(greedy(g).size(), 14u);
  EXPECT_EQ(unit_faces(greedy(g)), unit_faces(naive(g, {})));
}

TEST_P(Mesh, InvariantsOnRandomGrids) {
  std::mt19937 rng(7);
  const uint16_t shapes[][3] = {{1, 1, 1},  {5, 4, 3},  {8, 8, 8},  {17, 9, 13}, {64, 3, 2},
                                {70, 3, 5}, {3, 70, 4}, {4, 3, 70}, {65, 66, 2}, {16, 16, 16}};
  for (const auto& sh : shapes) {
    for (double p : {0.2, 0.5, 1.0}) {
      for (int colours : {1, 3}) {
        for (int mode = 0; mode < 4; ++mode) {
          Case c = random_case(rng, sh[0], sh[1], sh[2], p, colours, mode);
          SCOPED_TRACE(::testing::Message() << sh[0] << "x" << sh[1] << "x" << sh[2] << " p=" << p
                                            << " colours=" << colours << " joints=" << mode);
          const std::vector<Quad> n0 = naive(c.grid, {});
          const std::vector<Quad> nj = naive(c.grid, c.joints);
          const std::vector<Quad> gq = greedy(c.grid);
          const std::vector<Quad> bq = bone(c.grid, c.joints);
          // Cover exactly the naive faces, per (direction, palette, joint).
          EXPECT_EQ(unit_faces(gq), unit_faces(n0));
          EXPECT_EQ(unit_faces(bq), unit_faces(nj));
          EXPECT_LE(gq.size(), n0.size());
          EXPECT_LE(bq.size(), nj.size());
          // Exactly the per-voxel greedy, quad for quad, in the same order.
          EXPECT_EQ(gq, per_voxel_greedy(c.grid, {}));
          EXPECT_EQ(bq, per_voxel_greedy(c.grid, c.joints));
          // No quad spans two joints; output grouped by joint.
          for (size_t i = 0; i < bq.size(); ++i) {
            const Quad& q = bq[i];
            if (i > 0) {
              EXPECT_LE(bq[i - 1].joint, q.joint);
            }
            const uint32_t c3[3] = {q.x, q.y, q.z};
            const int a = q.axis, u = (a + 1) % 3, v = (a + 2) % 3;
            for (uint32_t j = 0; j < q.h; ++j)
              for (uint32_t k = 0; k < q.w; ++k) {
                uint32_t p3[3];
                p3[a] = c3[a] - q.positive;
                p3[u] = c3[u] + k;
                p3[v] = c3[v] + j;
                ASSERT_EQ(c.joints[c.grid.index(p3[0], p3[1], p3[2])], q.joint);
              }
          }
          // With a single joint, bone-aware equals greedy (up to the joint field).
          if (mode == 0) {
            std::vector<Quad> relabel = gq;
            for (Quad& q : relabel) q.joint = 3;
            EXPECT_EQ(bq, relabel);
          }
        }
      }
    }
  }
}

// Joint maps made of regions (the binary mesher reuses a row's joint masks from its +y row when
// their joint ids are equal, and its +z mask when the +z rows are equal too): maps whose y
// boundary moves with z (a staircase), one whose y boundary lies only beyond x = 64, and random
// nested boxes, so equal rows sit next to unequal ones in every direction. Exactly the per-voxel
// greedy, quad for quad.
TEST_P(Mesh, BoneAwareOnRegionJointMaps) {
  std::mt19937 rng(11);
  const uint16_t shapes[][3] = {{24, 24, 24}, {70, 20, 19}, {9, 67, 21}, {12, 18, 66}};
  for (const auto& sh : shapes) {
    for (double p : {0.7, 1.0}) {
      for (int mode = 0; mode < 4; ++mode) {
        Case c = random_case(rng, sh[0], sh[1], sh[2], p, 2, 0);
        struct Box {
          uint32_t lo[3], hi[3];
        };
        std::vector<Box> boxes(6);
        for (Box& b : boxes)
          for (int a = 0; a < 3; ++a) {
            b.lo[a] = uint32_t(rng() % sh[a]);
            b.hi[a] = b.lo[a] + 1 + uint32_t(rng() % sh[a]);
          }
        for (uint32_t z = 0; z < sh[2]; ++z)
          for (uint32_t y = 0; y < sh[1]; ++y)
            for (uint32_t x = 0; x < sh[0]; ++x) {
              uint16_t j = 0;
              if (mode == 0) {
                j = y >= 2 + z / 3 ? 1 : 0;  // the y boundary moves with z
              } else if (mode == 1) {
                j = uint16_t((y >= 3 + z % 5 ? 1 : 0) + 2 * (x >= 5 + y / 4 ? 1 : 0));
              } else if (mode == 2) {
                // Rows equal on x < 64 but not at x = 64: the next tile's first voxel, which the
                // last bit of a row's x mask compares with.
                j = x >= 64 && y >= 3 + z % 4 ? 1 : 0;
              } else {
                const uint32_t v[3] = {x, y, z};
                for (size_t k = 0; k < boxes.size(); ++k) {
                  bool in = true;
                  for (int a = 0; a < 3; ++a)
                    in = in && v[a] >= boxes[k].lo[a] && v[a] < boxes[k].hi[a];
                  if (in) j = uint16_t(k + 1);
                }
              }
              c.joints[c.grid.index(x, y, z)] = j;
            }
        SCOPED_TRACE(::testing::Message()
                     << sh[0] << "x" << sh[1] << "x" << sh[2] << " p=" << p << " map=" << mode);
        EXPECT_EQ(bone(c.grid, c.joints), per_voxel_greedy(c.grid, c.joints));
      }
    }
  }
}

// The one-joint shortcut (every solid voxel bound to one joint: plain greedy) reads the joint map
// alone first, in blocks of 64 ids. A single voxel bound to another joint far into the map, in a
// middle block or in the tail after the last whole block, must still expose its seams; the same
// odd id on an empty voxel changes nothing.
TEST_P(Mesh, OneJointShortcutSeesALateJointChange) {
  std::mt19937 rng(29);
  Case c = random_case(rng, 23, 19, 17, 0.8, 3, 0);  // 7429 voxels: tail of 5 after 116 blocks
  const size_t n = c.grid.voxels.size();
  for (size_t at : {size_t{64 * 57 + 13}, n - 3}) {
    SCOPED_TRACE(at);
    Case solid = c;
    solid.grid.voxels[at] = 2;
    solid.joints[at] = 4;
    EXPECT_EQ(bone(solid.grid, solid.joints), per_voxel_greedy(solid.grid, solid.joints));
    Case empty = c;
    empty.grid.voxels[at] = 0;
    empty.joints[at] = 4;
    std::vector<Quad> want = greedy(empty.grid);
    for (Quad& q : want) q.joint = 3;
    EXPECT_EQ(bone(empty.grid, empty.joints), want);
  }
}

// Strata: every z layer painted in one palette index, in bands of a few layers (the binary
// mesher writes a layer of one index without its per-row tests, and its z change masks as "both
// solid" or nothing when the layer above had one index too). Some layers carry a stray voxel of
// another index in some row, so a layer leaves that path part way; some are empty. Exactly the
// per-voxel greedy, quad for quad, plain and with an x-slab joint map.
TEST_P(Mesh, LayeredColoursMatchPerVoxelGreedy) {
  std::mt19937 rng(19);
  const uint16_t shapes[][3] = {{64, 64, 40}, {70, 9, 23}, {13, 66, 17}, {20, 20, 70}};
  for (const auto& sh : shapes) {
    for (double p : {0.6, 1.0}) {
      for (int stray_every : {0, 3}) {
        Case c = random_case(rng, sh[0], sh[1], sh[2], p, 1, 1);
        uint8_t colour = 1;
        for (uint32_t z = 0; z < sh[2]; ++z) {
          if (rng() % 4 == 0) colour = uint8_t(1 + rng() % 3);  // a band boundary
          const bool empty = rng() % 9 == 0;
          const bool stray = stray_every != 0 && rng() % stray_every == 0;
          const uint32_t sy = uint32_t(rng() % sh[1]), sx = uint32_t(rng() % sh[0]);
          for (uint32_t y = 0; y < sh[1]; ++y)
            for (uint32_t x = 0; x < sh[0]; ++x) {
              uint8_t& v = c.grid.voxels[c.grid.index(x, y, z)];
              if (empty) v = 0;
              if (v != 0) v = colour;
              if (stray && y == sy && x == sx) v = uint8_t(colour % 3 + 1);
            }
        }
        SCOPED_TRACE(::testing::Message() << sh[0] << "x" << sh[1] << "x" << sh[2] << " p=" << p
                                          << " stray_every=" << stray_every);
        EXPECT_EQ(greedy(c.grid), per_voxel_greedy(c.grid, {}));
        EXPECT_EQ(bone(c.grid, c.joints), per_voxel_greedy(c.grid, c.joints));
      }
    }
  }
}

// Tiles without a face are skipped: an empty tile, and a full one whose every neighbour voxel is
// solid (with joints: bound to the tile's joint). A 130^3 grid has one such inner tile, x, y, z
// in 64..127. Full, the skip is right; one voxel taken out inside that tile, or beside any of
// its six faces, or a neighbour bound to another joint, gives the tile faces, which must appear.
// Exactly the per-voxel greedy, plain and bone-aware.
TEST_P(Mesh, FacelessTilesAreSkippedOnlyWhenFaceless) {
  const uint32_t n = 130;
  Vox0 full = make_grid(n, n, n);
  std::fill(full.voxels.begin(), full.voxels.end(), uint8_t{2});
  const std::vector<uint16_t> one_joint(full.voxels.size(), 4);
  const uint32_t holes[][3] = {{n, 0, 0},    {90, 90, 90},  {63, 90, 90}, {128, 90, 90},
                               {90, 63, 90}, {90, 128, 90}, {90, 90, 63}, {90, 90, 128}};
  for (const auto& h : holes) {
    SCOPED_TRACE(::testing::Message() << "hole at " << h[0] << "," << h[1] << "," << h[2]);
    Vox0 g = full;
    std::vector<uint16_t> other = one_joint;
    if (h[0] < n) {
      g.voxels[g.index(h[0], h[1], h[2])] = 0;
      other[g.index(h[0], h[1], h[2])] = 5;
    }
    const std::vector<Quad> gq = greedy(g);
    EXPECT_EQ(gq, per_voxel_greedy(g, {}));
    EXPECT_EQ(bone(g, one_joint), per_voxel_greedy(g, one_joint));
    // The hole filled again, but bound to another joint: a face toward it with joints only.
    EXPECT_EQ(bone(full, other), per_voxel_greedy(full, other));
  }
  // Empty tiles around one voxel in the inner tile.
  Vox0 sparse = make_grid(n, n, n);
  sparse.voxels[sparse.index(100, 70, 120)] = 3;
  EXPECT_EQ(greedy(sparse).size(), 6u);
  EXPECT_EQ(bone(sparse, one_joint), per_voxel_greedy(sparse, one_joint));
}

TEST_P(Mesh, DeterministicAndAllocationFreeOnReuse) {
  std::mt19937 rng(11);
  Case c = random_case(rng, 40, 33, 30, 0.5, 4, 3);
  MeshScratch s;
  std::vector<Quad> a, b;
  ASSERT_TRUE(mesh_bone_aware(c.grid, c.joints, a, s).ok());
  ASSERT_TRUE(mesh_greedy(c.grid, b, s).ok());
  {
    testing::AllocationProbe probe;
    std::vector<Quad> a2 = a, b2 = b;  // copies allocate; reset the probe below
    (void)a2;
    (void)b2;
  }
  std::vector<Quad> a_again, b_again;
  a_again.reserve(a.size());
  b_again.reserve(b.size());
  testing::AllocationProbe probe;
  ASSERT_TRUE(mesh_bone_aware(c.grid, c.joints, a_again, s).ok());
  ASSERT_TRUE(mesh_greedy(c.grid, b_again, s).ok());
  EXPECT_EQ(probe.count(), 0u);
  EXPECT_EQ(a, a_again);
  EXPECT_EQ(b, b_again);
  std::vector<Quad> n1, n2;
  ASSERT_TRUE(mesh_naive(c.grid, c.joints, n1, s).ok());
  testing::AllocationProbe probe2;
  ASSERT_TRUE(mesh_naive(c.grid, c.joints, n1, s).ok());
  EXPECT_EQ(probe2.count(), 0u);
}

TEST_P(Mesh, EmptyAndFullGrids) {
  Vox0 empty = make_grid(9, 9, 9);
  EXPECT_TRUE(greedy(empty).empty());
  EXPECT_TRUE(bone(empty, std::vector<uint16_t>(729, 1)).empty());
  Vox0 full = make_grid(64, 64, 64);
  std::fill(full.voxels.begin(), full.voxels.end(), uint8_t{2});
  // A full tile: one quad per side.
  EXPECT_EQ(greedy(full).size(), 6u);
  Vox0 wide = make_grid(130, 2, 2);
  std::fill(wide.voxels.begin(), wide.voxels.end(), uint8_t{2});
  // Three x tiles (64 + 64 + 2): the 4 long sides split at tile edges: 2 + 4 * 3 quads.
  EXPECT_EQ(greedy(wide).size(), 14u);
}

TEST_P(Mesh, ErrorsAndJointMap) {
  Vox0 g = make_grid(2, 2, 2);
  g.voxels[0] = 1;
  g.voxels[7] = 1;
  MeshScratch s;
  std::vector<Quad> out;
  std::vector<uint16_t> short_map(7, 0);
  EXPECT_EQ(mesh_bone_aware(g, short_map, out, s).error().code, ErrorCode::EvalBufferSize);
  EXPECT_EQ(mesh_bone_aware(g, {}, out, s).error().code, ErrorCode::EvalBufferSize);
  EXPECT_EQ(mesh_naive(g, short_map, out, s).error().code, ErrorCode::EvalBufferSize);
  Vox0 bad = g;
  bad.voxels.pop_back();
  EXPECT_EQ(mesh_greedy(bad, out, s).error().code, ErrorCode::EvalBufferSize);

  Vskn vskn;
  vskn.default_joint = 4;
  vskn.bindings = {{7, 9}};
  auto map = joint_map(g, vskn);
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(*map, (std::vector<uint16_t>{4, 4, 4, 4, 4, 4, 4, 9}));
  vskn.bindings.push_back({8, 1});
  auto broken = joint_map(g, vskn);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().code, ErrorCode::VsknOffsetRange);
  EXPECT_EQ(broken.error().path, "VSKN/binding[1]");
}

// A KV6 built from a dense grid of colours (0 = empty) keeping only voxels with an exposed
// face, with vis bits from the neighbours (KV6 z-down: -z is toward z - 1, like the grid).
Kv6 kv6_from(uint32_t sx, uint32_t sy, uint32_t sz, const std::vector<uint32_t>& cells) {
  Kv6 k;
  k.xsiz = sx;
  k.ysiz = sy;
  k.zsiz = sz;
  auto at = [&](int64_t x, int64_t y, int64_t z) -> uint32_t {
    if (x < 0 || y < 0 || z < 0 || x >= sx || y >= sy || z >= sz) return 0;
    return cells[size_t(x + sx * (y + sy * z))];
  };
  for (uint32_t x = 0; x < sx; ++x) {
    uint32_t slice = 0;
    for (uint32_t y = 0; y < sy; ++y) {
      uint16_t count = 0;
      for (uint32_t z = 0; z < sz; ++z) {
        if (at(x, y, z) == 0) continue;
        uint8_t vis = 0;
        const int64_t d[6][3] = {{-1, 0, 0}, {1, 0, 0},  {0, -1, 0},
                                 {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
        for (int b = 0; b < 6; ++b)
          if (at(x + d[b][0], y + d[b][1], z + d[b][2]) == 0) vis |= uint8_t(1 << b);
        if (vis == 0) continue;  // KV6 keeps surface voxels only
        k.voxels.push_back(Kv6Voxel{at(x, y, z), uint16_t(z), vis, 0});
        ++count;
      }
      k.ylen.push_back(count);
      slice += count;
    }
    k.xlen.push_back(slice);
  }
  return k;
}

TEST(MeshKv6, SingleVoxelAndMergesByCol) {
  Kv6 one = kv6_from(1, 1, 1, {0x80FF0000});
  std::vector<Quad> n, g;
  MeshScratch s;
  ASSERT_TRUE(mesh_kv6_naive(one, n).ok());
  ASSERT_TRUE(mesh_kv6_greedy(one, g, s).ok());
  EXPECT_EQ(n.size(), 6u);
  EXPECT_EQ(g.size(), 6u);
  EXPECT_EQ(n[0], (Quad{0, 0, 0, 1, 1, 0, 0, 0, 0x80FF0000}));
  // Two voxels along x, same col: 10 faces, greedy merges the 4 long sides: 6 quads.
  Kv6 two = kv6_from(2, 1, 1, {0x80123456, 0x80123456});
  ASSERT_TRUE(mesh_kv6_naive(two, n).ok());
  ASSERT_TRUE(mesh_kv6_greedy(two, g, s).ok());
  EXPECT_EQ(n.size(), 10u);
  EXPECT_EQ(g.size(), 6u);
  // Different cols do not merge.
  Kv6 mixed = kv6_from(2, 1, 1, {0x80123456, 0x80654321});
  ASSERT_TRUE(mesh_kv6_greedy(mixed, g, s).ok());
  EXPECT_EQ(g.size(), 10u);
}

TEST(MeshKv6, GreedyCoversExactlyTheVisFaces) {
  std::mt19937 rng(3);
  for (int round = 0; round < 20; ++round) {
    const uint32_t sx = 1 + rng() % 12, sy = 1 + rng() % 12, sz = 1 + rng() % 12;
    std::vector<uint32_t> cells(size_t(sx) * sy * sz);
    for (auto& c : cells) c = rng() % 3 == 0 ? 0 : 0x80000000u | (rng() % 3) * 0x111111u;
    Kv6 k = kv6_from(sx, sy, sz, cells);
    std::vector<Quad> n, g, g2;
    MeshScratch s;
    ASSERT_TRUE(mesh_kv6_naive(k, n).ok());
    ASSERT_TRUE(mesh_kv6_greedy(k, g, s).ok());
    EXPECT_EQ(unit_faces(g), unit_faces(n));
    EXPECT_LE(g.size(), n.size());
    ASSERT_TRUE(mesh_kv6_greedy(k, g2, s).ok());
    EXPECT_EQ(g, g2);
  }
}

TEST(MeshKv6, RunTableMismatch) {
  Kv6 k = kv6_from(2, 2, 2, std::vector<uint32_t>(8, 0x80FFFFFF));
  std::vector<Quad> out;
  MeshScratch s;
  Kv6 more = k;
  more.ylen[0] += 5;  // claims voxels that are not stored
  EXPECT_EQ(mesh_kv6_naive(more, out).error().code, ErrorCode::EvalBufferSize);
  EXPECT_EQ(mesh_kv6_greedy(more, out, s).error().code, ErrorCode::EvalBufferSize);
  Kv6 shape = k;
  shape.ylen.pop_back();
  EXPECT_EQ(mesh_kv6_greedy(shape, out, s).error().code, ErrorCode::EvalBufferSize);
  Kv6 fewer = k;
  fewer.ylen[3] = 0;  // the last column's voxels are simply not reached
  ASSERT_TRUE(mesh_kv6_naive(fewer, out).ok());
  EXPECT_LT(out.size(), 24u);
}

}  // namespace
}  // namespace voxrig
