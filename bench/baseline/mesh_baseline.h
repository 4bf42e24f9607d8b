// bench/baseline/mesh_baseline.h — the in-run meshing baselines of issue 15: frozen copies of
// the library's mesh_greedy and mesh_bone_aware as they were before the issue (commit 0d3ba6a),
// outside the library so that the library can change and still be measured against them in
// the same process (docs/performance.md "Meshing"). Same contracts as voxrig/mesh.h: same
// quads in the same order, allocation-free once `out` and the scratch have grown. Benchmarks
// and the baseline-vs-library differential test use them; nothing else should.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/mesh.h"
#include "voxrig/result.h"
#include "voxrig/vfp_model.h"

namespace voxrig::bench_baseline {

/// The baseline meshers' working memory (the pre-issue MeshScratch). One per thread.
class Scratch {
 public:
  Scratch();
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  Impl* impl_;
};

/// Pre-issue mesh_greedy (voxrig/mesh.h contract). Errors: eval.buffer_size.
Status mesh_greedy(const Vox0& vox0, std::vector<Quad>& out, Scratch& scratch);

/// Pre-issue mesh_bone_aware (voxrig/mesh.h contract). Errors: eval.buffer_size.
Status mesh_bone_aware(const Vox0& vox0, std::span<const uint16_t> joints, std::vector<Quad>& out,
                       Scratch& scratch);

}  // namespace voxrig::bench_baseline
