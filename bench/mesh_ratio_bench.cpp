// bench/mesh_ratio_bench.cpp — issue 15's meshing targets as ratios measured in one process:
// the library's mesh_greedy / mesh_bone_aware against the frozen pre-issue copies in
// bench/baseline/mesh_baseline.cpp, run alternately inside every iteration on the same grid.
//
// Names: MESH/ratio/<kernel>/<grid>/<N>, kernel = greedy | bone_aware_j1 | _j8 | _j64 (joint
// maps of bench/inputs.h), on the default build of the greedy kernel (mesh.h MeshKernels::Auto:
// AVX2 where the CPU has it); greedy_sse2, bone_aware_j8_sse2 and _j64_sse2 run the SSE2 build.
// Every iteration times the library call, today's plain greedy and, for bone-aware, today's
// bone-aware, on the same grid, in an order that alternates per
// iteration (so neither side always runs on a warm cache). The benchmark's own time is all the
// calls of an iteration together; it is marked an in-run baseline (baseline=1) so compare.sh
// never gates it. Counters (ratios of the thread CPU times summed over all iterations):
//   vs_base_greedy = today's plain greedy time / library time   (the targets' yardstick)
//   vs_base_same   = today's same kernel time / library time    (bone-aware: today's bone-aware)
//   quads, base_quads = output sizes of the library and of today's same kernel (targets: no
//                       more quads than today; the tests pin them equal)
// With --benchmark_repetitions the _median aggregate of each counter is the figure
// docs/performance.md quotes; bench/mesh_ratios.py prints the target table from the JSON.
// Everything meshes into reused buffers grown by one untimed call; Alloc::None fails the run if
// either side allocates in the loop.

#include <string>
#include <vector>

#include "baseline/mesh_baseline.h"
#include "harness.h"
#include "inputs.h"
#include "voxrig/mesh.h"

namespace voxrig::bench {
namespace {

void register_ratio(uint32_t joints, GridKind kind, uint32_t n, MeshKernels kernels) {
  const std::string kernel = (joints ? "bone_aware_j" + std::to_string(joints) : "greedy") +
                             (kernels == MeshKernels::Sse2 ? "_sse2" : "");
  const std::string nm = "MESH/ratio/" + kernel + "/" + grid_name(kind) + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(nm.c_str(), [=](benchmark::State& state) {
    set_mesh_kernels(kernels);  // the frozen copies have one build: the SSE2 baseline
    const Vox0& g = grid(kind, n);
    const std::span<const uint16_t> jm =
        joints ? std::span<const uint16_t>(joint_map(joints, n)) : std::span<const uint16_t>();
    MeshScratch scratch;
    bench_baseline::Scratch base_scratch;
    // One output buffer for all three calls: random50 256^3 produces ~25 M quads (700 MB).
    std::vector<Quad> out;
    size_t lib_quads = 0, base_quads = 0;
    bool ok = true;
    const auto lib = [&] {
      // (No must() in here: its std::string argument would allocate inside the timed loop.)
      ok &= (joints ? mesh_bone_aware(g, jm, out, scratch) : mesh_greedy(g, out, scratch)).ok();
      lib_quads = out.size();
      benchmark::DoNotOptimize(out.data());
    };
    const auto base_greedy = [&] {
      ok &= bench_baseline::mesh_greedy(g, out, base_scratch).ok();
      if (!joints) base_quads = out.size();
      benchmark::DoNotOptimize(out.data());
    };
    const auto base_bone = [&] {
      ok &= bench_baseline::mesh_bone_aware(g, jm, out, base_scratch).ok();
      base_quads = out.size();
      benchmark::DoNotOptimize(out.data());
    };
    lib();  // grow out and both scratches: the timed calls reuse them
    base_greedy();
    if (joints) base_bone();
    double t_lib = 0, t_greedy = 0, t_bone = 0;
    uint64_t k = 0;
    // Role::Baseline: the iteration time is library + baselines together, so compare.sh must not
    // gate it (MESH/greedy, MESH/bone_aware_j* gate the library alone); the figures here are the
    // counters.
    for (auto _ : measure(state, Alloc::None, Role::Baseline)) {
      double t = 0;
      if (++k & 1) {
        t = seconds_of(lib);
        t_greedy += seconds_of(base_greedy);
        if (joints) t_bone += seconds_of(base_bone);
      } else {
        if (joints) t_bone += seconds_of(base_bone);
        t_greedy += seconds_of(base_greedy);
        t = seconds_of(lib);
      }
      t_lib += t;
    }
    state.counters["quads"] = static_cast<double>(lib_quads);
    state.counters["base_quads"] = static_cast<double>(base_quads);
    if (t_lib > 0) {
      state.counters["vs_base_greedy"] = t_greedy / t_lib;
      state.counters["vs_base_same"] = (joints ? t_bone : t_greedy) / t_lib;
    }
    set_mesh_kernels(MeshKernels::Auto);
    if (!ok) report_failure(state, "a mesher failed");
    if (lib_quads > base_quads) report_failure(state, "more quads than today's kernel");
  });
}

const bool registered = [] {
  for (GridKind kind : {GridKind::Sphere, GridKind::Terrain, GridKind::Random50})
    for (uint32_t n : {64u, 256u})
      for (uint32_t joints : {0u, 1u, 8u, 64u}) {
        register_ratio(joints, kind, n, MeshKernels::Auto);
        if (joints != 1) register_ratio(joints, kind, n, MeshKernels::Sse2);
      }
  return true;
}();

}  // namespace
}  // namespace voxrig::bench
