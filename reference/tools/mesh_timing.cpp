// Quick local timing of the meshers (not a unit test, not a Google Benchmark suite).
// Build (after `cmake --build --preset ci`):
//   g++ -std=c++20 -O2 -ffp-contract=off -Ireference/include -Ireference/tests \
//     reference/tools/mesh_timing.cpp build/ci/reference/libvoxrig_reference.a -lcrypto -lz \
//     -o /tmp/mesh_timing && /tmp/mesh_timing
// Inputs per performance.md (fixed seeds, 64^3): random50, sphere (radius N/2-1), terrain
// (summed sines, palette by height band); joint maps 1 joint, 8 x-slabs, 64 blocks of 16^3.
// Prints voxels/s (grid voxels / wall time), medians of 9, next to in-run baselines: a plain
// scan of the grid, the naive mesher and a per-voxel greedy (tests/mesh_oracle.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mesh_oracle.h"
#include "voxrig/mesh.h"

using namespace voxrig;

// Thread CPU time, not wall time: the shared 2-core machines run other jobs, and time spent
// descheduled is not the code's (the in-run baselines are measured the same way).
static double now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

static Vox0 grid(int kind) {
  const int n = 64;
  Vox0 g;
  g.size_x = g.size_y = g.size_z = n;
  g.palette.assign(9, Rgba{1, 2, 3, 255});
  g.voxels.assign(size_t(n) * n * n, 0);
  std::mt19937 rng(42);
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        uint8_t v = 0;
        if (kind == 0) {
          if (rng() & 1) v = uint8_t(1 + rng() % 8);
        } else if (kind == 1) {
          const double r = n / 2.0 - 1, c = n / 2.0;
          const double dx = x + 0.5 - c, dy = y + 0.5 - c, dz = z + 0.5 - c;
          if (dx * dx + dy * dy + dz * dz <= r * r) v = 1;
        } else {
          const double h =
              24 + 8 * std::sin(x * 0.15) + 6 * std::cos(y * 0.11) + 4 * std::sin((x + y) * 0.07);
          if (z < h) v = uint8_t(1 + z / 8);
        }
        g.voxels[g.index(x, y, z)] = v;
      }
  return g;
}

static std::vector<uint16_t> joints(int kind) {
  std::vector<uint16_t> j(64 * 64 * 64);
  for (int z = 0; z < 64; ++z)
    for (int y = 0; y < 64; ++y)
      for (int x = 0; x < 64; ++x) {
        uint16_t v = 0;
        if (kind == 8) v = uint16_t(x / 8);
        if (kind == 64) v = uint16_t(x / 16 + 4 * (y / 16) + 16 * (z / 16));
        j[x + 64 * (y + 64 * z)] = v;
      }
  return j;
}

static double rate(const std::function<size_t()>& fn) {
  std::vector<double> r;
  for (int rep = 0; rep < 9; ++rep) {
    size_t iters = 0;
    const double t0 = now();
    double t1 = t0;
    while (t1 - t0 < 0.05) {
      fn();
      ++iters;
      t1 = now();
    }
    r.push_back(double(iters) * 64 * 64 * 64 / (t1 - t0));
  }
  std::sort(r.begin(), r.end());
  return r[4];
}

int main() {
  const char* names[] = {"random50", "sphere", "terrain"};
  for (int kind = 0; kind < 3; ++kind) {
    const Vox0 g = grid(kind);
    MeshScratch scratch;
    std::vector<Quad> out;
    volatile size_t sink = 0;
    const double scan = rate([&] {
      size_t s = 0;
      for (uint8_t v : g.voxels) s += v;
      sink = s;
      return s;
    });
    const double naive = rate([&] {
      (void)mesh_naive(g, {}, out, scratch);
      return out.size();
    });
    const size_t naive_quads = out.size();
    const double greedy = rate([&] {
      (void)mesh_greedy(g, out, scratch);
      return out.size();
    });
    const size_t greedy_quads = out.size();
    const double pvg = rate([&] { return testing::per_voxel_greedy(g, {}).size(); });
    std::printf(
        "%-9s scan %8.0f M/s | naive %6.1f M/s (%zu quads) | per-voxel greedy %6.1f M/s |"
        " greedy %7.1f M/s (%zu quads, %.1fx per-voxel)\n",
        names[kind], scan / 1e6, naive / 1e6, naive_quads, pvg / 1e6, greedy / 1e6, greedy_quads,
        greedy / pvg);
    for (int jk : {1, 8, 64}) {
      const std::vector<uint16_t> jm = joints(jk);
      const double bone = rate([&] {
        (void)mesh_bone_aware(g, jm, out, scratch);
        return out.size();
      });
      const size_t bq = out.size();
      const double pvb = rate([&] { return testing::per_voxel_greedy(g, jm).size(); });
      std::printf(
          "%-9s joints=%-2d bone-aware %7.1f M voxels/s (%zu quads) | per-voxel %6.1f M/s"
          " | %.1fx\n",
          names[kind], jk, bone / 1e6, bq, pvb / 1e6, bone / pvb);
    }
    (void)sink;
  }
  return 0;
}
