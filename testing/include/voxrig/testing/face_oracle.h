// voxrig/testing/face_oracle.h — the meshing oracles the unit tests, the properties and the fuzz
// targets share (docs/spec/evaluation.md#meshing): quads rasterised back into unit faces, the exposed faces
// of a grid found by brute force, and a per-voxel greedy mesher with the library's tiles and
// scan order. They are written from the spec, not from reference/src/mesh, so a mesher bug does
// not hide in its own oracle.
#pragma once

#include <compare>
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "voxrig/mesh.h"
#include "voxrig/vfp_model.h"

namespace voxrig::testing {

/// One unit face: plane axis and direction, minimum corner on the face plane (mesh.h
/// coordinates), material and joint. Ordered so that sorted lists compare as multisets.
struct Face {
  uint8_t axis = 0, positive = 0;
  uint32_t x = 0, y = 0, z = 0;
  uint32_t material = 0;
  uint16_t joint = 0;
  auto operator<=>(const Face&) const = default;
};

/// "axis x+ at (1,0,0) material 4 joint 2": readable failure messages.
std::string to_string(const Face& f);
/// Prints to_string(f) (gtest picks it up for EXPECT_EQ on face lists).
std::ostream& operator<<(std::ostream& os, const Face& f);

/// Every unit face covered by `quads`, sorted (two quads covering one face show up twice).
/// Allocates the result; trusts the quads (w * h faces each, no bounds).
std::vector<Face> unit_faces(std::span<const Quad> quads);

/// The exposed faces of a grid by brute force, sorted: a face of a solid voxel is exposed when
/// the neighbour is outside the grid, empty, or (with a joint map, one entry per voxel) bound to
/// another joint. `joints` empty = no joint map (joint 0). Allocates the result; the grid must
/// be well-formed (voxels.size() == the product of the sizes).
std::vector<Face> exposed_faces(const Vox0& vox0, std::span<const uint16_t> joints);

/// Empty when `got` and `want` (sorted face lists) are equal; otherwise "N unit faces vs M
/// expected; first difference: unexpected|missing <face>" for the first face one side lacks.
std::string face_difference(const std::vector<Face>& got, const std::vector<Face>& want);

/// A straightforward per-voxel greedy mesher (Lysenko-style mask sweep): per 64^3 tile, axis,
/// direction and slice, a mask of face materials filled by testing every cell, then swept. It
/// keeps the tiles and scan order of the library's binary mesher, so mesh_greedy /
/// mesh_bone_aware must match it quad for quad. `joints` empty: plain greedy (joint 0);
/// otherwise faces between joints are exposed and the output is stably sorted by joint.
/// (bench/baselines.cpp keeps an untiled one as a speed baseline; that one is not an oracle.)
std::vector<Quad> per_voxel_greedy(const Vox0& vox0, std::span<const uint16_t> joints);

}  // namespace voxrig::testing
