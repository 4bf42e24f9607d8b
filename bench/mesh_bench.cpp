// bench/mesh_bench.cpp — meshing: naive, greedy and bone-aware greedy on inputs.h's grids,
// next to the in-run baselines (a plain grid scan and the per-voxel greedy mesher of
// baselines.cpp); KV6 meshing on a sprite.
//
// Names: MESH/<mesher>[_j<joints>]/<grid>/<N>. items_per_second = grid voxels per second (N^3 per
// iteration, empty ones included, the figure the targets use); counter "quads" = output size.
// The library meshers mesh into a reused std::vector<Quad> and MeshScratch, grown by one
// untimed call first: their loops must not allocate (Alloc::None fails the run otherwise).
// random50 stops at 128^3: at 256^3 the output alone (~25 M quads, 700 MB) would not fit next to
// the other helpers on the machine. The per-voxel greedy baseline stops at 128^3 (see below).
#include <string>
#include <vector>

#include "baselines.h"
#include "harness.h"
#include "voxrig/mesh.h"
#include "voxrig/testing/perf_inputs.h"

namespace voxrig::bench {
namespace {

std::vector<uint32_t> sizes_for(GridKind kind) {
  if (kind == GridKind::Random50) return {32, 64, 128};
  return {32, 64, 128, 256};
}

std::string name(const std::string& mesher, uint32_t joints, GridKind kind, uint32_t n) {
  return "MESH/" + mesher + (joints ? "_j" + std::to_string(joints) : "") + "/" + grid_name(kind) +
         "/" + std::to_string(n);
}

void finish(benchmark::State& state, uint32_t n, size_t quads) {
  rates(state, 0, uint64_t{n} * n * n);
  state.counters["quads"] = static_cast<double>(quads);
}

enum class Mesher { Naive, Greedy, BoneAware };

void register_library(Mesher mesher, uint32_t joints, GridKind kind, uint32_t n) {
  const char* base = mesher == Mesher::Naive    ? "naive"
                     : mesher == Mesher::Greedy ? "greedy"
                                                : "bone_aware";
  benchmark::RegisterBenchmark(name(base, joints, kind, n).c_str(), [=](benchmark::State& state) {
    const Vox0& g = grid(kind, n);
    const std::span<const uint16_t> jm =
        joints ? std::span<const uint16_t>(joint_map(joints, n)) : std::span<const uint16_t>();
    MeshScratch scratch;
    std::vector<Quad> out;
    const auto run = [&] {
      switch (mesher) {
        case Mesher::Naive:
          return mesh_naive(g, jm, out, scratch);
        case Mesher::Greedy:
          return mesh_greedy(g, out, scratch);
        case Mesher::BoneAware:
          return mesh_bone_aware(g, jm, out, scratch);
      }
      return mesh_greedy(g, out, scratch);
    };
    must(run(), "meshing");  // grows out and scratch: the timed calls reuse them
    for (auto _ : measure(state, Alloc::None)) {
      Status s = run();
      benchmark::DoNotOptimize(s);
      benchmark::DoNotOptimize(out.data());
    }
    finish(state, n, out.size());
  });
}

void register_grid(GridKind kind, uint32_t n) {
  benchmark::RegisterBenchmark(name("scan", 0, kind, n).c_str(), [=](benchmark::State& state) {
    const Vox0& g = grid(kind, n);
    uint64_t solid = 0;
    for (auto _ : measure(state, Alloc::None, Role::Baseline)) {
      solid = scan_grid(g);
      benchmark::DoNotOptimize(solid);
    }
    finish(state, n, 0);
    state.counters["solid"] = static_cast<double>(solid);
  });
  register_library(Mesher::Naive, 0, kind, n);
  register_library(Mesher::Naive, 64, kind, n);
  register_library(Mesher::Greedy, 0, kind, n);
  for (uint32_t joints : {1u, 8u, 64u}) register_library(Mesher::BoneAware, joints, kind, n);
  // The per-voxel baseline stops at 128^3: at 256^3 one call takes ~1 s of CPU, which the
  // bench-smoke budget cannot afford, and 64^3 is where the targets are stated.
  if (n > 128) return;
  for (uint32_t joints : {0u, 1u, 8u, 64u}) {
    benchmark::RegisterBenchmark(name("pvgreedy", joints, kind, n).c_str(),
                                 [=](benchmark::State& state) {
                                   const Vox0& g = grid(kind, n);
                                   std::span<const uint16_t> jm;
                                   if (joints) jm = joint_map(joints, n);
                                   std::vector<Quad> out;
                                   std::vector<uint32_t> mask;
                                   for (auto _ : measure(state, Alloc::Any, Role::Baseline)) {
                                     per_voxel_greedy(g, jm, out, mask);
                                     benchmark::DoNotOptimize(out.data());
                                   }
                                   finish(state, n, out.size());
                                 });
  }
}

void register_kv6(GridKind kind, uint32_t n) {
  const std::string tag = std::string(grid_name(kind)) + "/" + std::to_string(n);
  auto sprite = lazy<Kv6>();
  for (bool greedy : {false, true}) {
    benchmark::RegisterBenchmark(
        ((greedy ? "MESH/kv6_greedy/" : "MESH/kv6_naive/") + tag).c_str(),
        [=](benchmark::State& state) {
          if (!*sprite) *sprite = kv6_from_grid(grid(kind, n));
          const Kv6& k = **sprite;
          MeshScratch scratch;
          std::vector<Quad> out;
          const auto run = [&] {
            return greedy ? mesh_kv6_greedy(k, out, scratch) : mesh_kv6_naive(k, out);
          };
          must(run(), "KV6 meshing");
          for (auto _ : measure(state, Alloc::None)) {
            Status s = run();
            benchmark::DoNotOptimize(s);
            benchmark::DoNotOptimize(out.data());
          }
          rates(state, 0, k.voxels.size());  // items: stored (surface) voxels
          state.counters["quads"] = static_cast<double>(out.size());
        });
  }
}

const bool registered = [] {
  for (GridKind kind : {GridKind::Random50, GridKind::Sphere, GridKind::Terrain})
    for (uint32_t n : sizes_for(kind)) register_grid(kind, n);
  register_kv6(GridKind::Sphere, 64);
  register_kv6(GridKind::Terrain, 64);
  return true;
}();

}  // namespace
}  // namespace voxrig::bench
