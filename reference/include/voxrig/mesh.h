// voxrig/mesh.h — quads from a VOX0 grid: naive, greedy and bone-aware greedy meshing
// (docs/spec/evaluation.md#meshing).
//
// A Quad is a rectangle of unit faces on one grid plane. Coordinates are VOX0 grid units: voxel
// (x, y, z) occupies [x, x+1] x [y, y+1] x [z, z+1]. For a quad with normal axis `axis`, the
// in-plane axes are u = (axis + 1) % 3 and v = (axis + 2) % 3 (x: u=y, v=z; y: u=z, v=x;
// z: u=x, v=y); `w` is the extent along u and `h` along v; (x, y, z) is the quad's minimum corner,
// which lies on the face plane (coordinate c for a face looking toward -axis of a voxel at c,
// c + 1 for one looking toward +axis).
//
// Meshers:
// - naive: one quad per exposed face (the oracle). A face is exposed when the neighbour voxel is
//   outside the grid or empty, or (with a joint map) bound to a different joint.
// - greedy: merges coplanar adjacent exposed faces with the same palette index (joints ignored;
//   every quad has joint 0).
// - bone-aware greedy: faces are exposed as in naive-with-joints and merged only when palette
//   index AND joint agree, so no quad spans two joints (required for animation).
// The greedy meshers are "binary greedy": per 64^3 tile they build 64-bit occupancy masks per
// row, derive face masks by shift/and-not, and merge runs with count-trailing-zeros; no quad
// crosses a 64-voxel tile boundary (tiles start at multiples of 64 on each axis). The merge is
// the classic greedy: take the first face in scan order, extend along the row while faces of the
// same material follow, then extend over following rows while the whole span matches.
//
// Output order (deterministic, documented so two runs and two machines agree):
// - naive: voxels in VOX0 order (x fastest), per voxel the faces -x, +x, -y, +y, -z, +z; then a
//   stable grouping by joint id when a joint map is given.
// - greedy / bone-aware: tiles with z-tile outermost, then y-tile, then x-tile; within a tile
//   axis 0, 1, 2; direction - then +; slice ascending; then row, then run start. Rows and runs:
//   z faces: rows y, runs along x; y faces: rows z, runs along x; x faces: rows z, runs along y.
//   bone-aware then groups the quads by joint id, ascending, stable.
//
// Allocation: every mesher clears `out` and appends; once `out` and the MeshScratch have grown to
// the size a grid needs, meshing that grid (or a smaller one) again allocates nothing. A quad
// cap (MeshScratch::set_quad_limit) bounds `out`: past it a mesher fails with limit.output.
// Untrusted input: safe for any Vox0 whose voxels.size() equals the product of its sizes (checked);
// palette indices are not checked (any non-zero byte is a solid voxel).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/kv6.h"
#include "voxrig/result.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// One rectangle of unit faces. See the header comment for coordinates and axes.
struct Quad {
  uint32_t x = 0, y = 0, z = 0;  ///< minimum corner, on the face plane
  uint32_t w = 1, h = 1;         ///< extent along u and v
  uint8_t axis = 0;              ///< normal axis: 0 = x, 1 = y, 2 = z
  uint8_t positive = 0;          ///< 1: the face looks toward +axis; 0: toward -axis
  uint16_t joint = 0;            ///< joint id of the voxels (0 without a joint map)
  uint32_t material = 0;         ///< VOX0: palette index; KV6 (kv6 meshing): the voxel's col
  bool operator==(const Quad& o) const = default;
};

/// Reusable working memory for the meshers (opaque). Not thread-safe: one per thread.
class MeshScratch {
 public:
  MeshScratch();
  ~MeshScratch();
  MeshScratch(const MeshScratch&) = delete;
  MeshScratch& operator=(const MeshScratch&) = delete;
  MeshScratch(MeshScratch&&) noexcept;
  MeshScratch& operator=(MeshScratch&&) noexcept;
  /// Caps the quads a mesher run with this scratch may hold (default: no cap): past
  /// `max_quads` it stops and fails with limit.output, so a caller that writes at least B
  /// bytes per quad bounds its memory by the output it allows (max_quads = max_bytes / B). The
  /// greedy meshers check after each 64^3 tile (at most one tile's quads past the cap), naive
  /// after each z-slice, KV6 at the end (its faces are bounded by the stored voxels).
  void set_quad_limit(size_t max_quads);

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  Impl* impl_;
};

/// The joint id of every voxel (x-fastest, same length as vox0.voxels): vskn.default_joint
/// unless a binding says otherwise (empty voxels get the default too). Allocates one vector.
/// Errors: vskn.offset_range (a binding offset >= the voxel count; path "VSKN/binding[i]").
/// Bindings need not be sorted; for a duplicated offset the last binding wins.
Result<std::vector<uint16_t>> joint_map(const Vox0& vox0, const Vskn& vskn);

/// Naive meshing (the oracle). `joints` is empty (no joint map: joint 0, faces between solid
/// voxels never exposed) or one joint id per voxel. Errors: eval.buffer_size (voxels or joints
/// size does not match the grid).
Status mesh_naive(const Vox0& vox0, std::span<const uint16_t> joints, std::vector<Quad>& out,
                  MeshScratch& scratch);

/// Greedy meshing by palette index (joints ignored, joint 0). Errors: eval.buffer_size.
Status mesh_greedy(const Vox0& vox0, std::vector<Quad>& out, MeshScratch& scratch);

/// Bone-aware greedy meshing: faces between different joints are exposed, quads never span two
/// joints, output grouped by joint id. `joints` must hold one id per voxel. With a single joint
/// the quads equal mesh_greedy's except for the joint field. Errors: eval.buffer_size.
Status mesh_bone_aware(const Vox0& vox0, std::span<const uint16_t> joints, std::vector<Quad>& out,
                       MeshScratch& scratch);

/// Which build of the binary greedy kernel (mesh_greedy, mesh_bone_aware) runs on x86-64. Auto
/// (the default): the AVX2 build when the CPU has AVX2, BMI1, BMI2 and POPCNT (and the OS saves
/// the AVX state), else the SSE2 baseline; Sse2: always the SSE2 baseline. Both are compiled
/// from one source and give the same quads in the same order (mesh_test runs every Mesh test on
/// both); Sse2 lets tests, benchmarks and instruction counts run the baseline on any machine.
/// Thread-safe; applies to calls started afterwards. No effect on the naive and KV6 meshers.
enum class MeshKernels : uint8_t { Auto, Sse2 };
/// Selects the kernel build (see MeshKernels). Never allocates, never fails.
void set_mesh_kernels(MeshKernels kernels);
/// The build the greedy meshers use now: "avx2", "sse2" or "portable" (no SSE2).
const char* mesh_kernels_in_use();

// ---- KV6 (docs/spec/kv6.md#D22) ----
// KV6 keeps surface voxels only, so faces come from the stored `vis` bits (0x01 -x, 0x02 +x,
// 0x04 -y, 0x08 +y, 0x10 -z, 0x20 +z), not from neighbour tests. Coordinates are KV6's own:
// x, y as stored and z z-down (0 = top), in voxel units from the minimum corner (the pivot is
// not applied). A voxel's (x, y) comes from the ylen run table (column x * ysiz + y takes the
// next ylen voxels in file order). Quads carry the voxel's `col` (0x80RRGGBB) in `material`
// instead of a palette index, and joint 0.

/// One quad per set vis bit (the oracle), voxels in file order, bits in the order above.
/// Errors: eval.buffer_size when xlen/ylen do not match xsiz/ysiz (a hand-built model) or the run
/// table claims more voxels than are stored. Run tables that claim fewer are meshed as far as
/// they go (rkc-compat keeps such files). Allocates only `out`.
Status mesh_kv6_naive(const Kv6& kv6, std::vector<Quad>& out);

/// Merges the vis faces per plane by `col`: faces sorted by (axis, direction, slice, row,
/// column) with the row/run axes of the VOX0 meshers (x faces: rows z, runs y; y faces: rows z,
/// runs x; z faces: rows y, runs x); runs of consecutive columns with one col are merged, then a
/// run continues the quad above it when start, length and col are equal. Output in that sorted
/// order. Covers exactly the naive faces. Errors as mesh_kv6_naive. Allocation-free once `out`
/// and `scratch` have grown.
Status mesh_kv6_greedy(const Kv6& kv6, std::vector<Quad>& out, MeshScratch& scratch);

}  // namespace voxrig
