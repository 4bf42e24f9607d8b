// voxrig/testing/perf_inputs.h — the perf corpus: deterministic inputs of the benchmarks
// (bench/), of `voxrig bench-reader` and of the peers' measurements (docs/performance.md,
// "Measuring against the peers").
//
// Everything is generated from fixed seeds, so two runs (and two machines) measure the same bytes.
// Grids and joint maps are cached per (kind, size): they are built once per process, outside
// every timed loop. All models are valid under their strict profile: every benchmark runs its
// operation once before timing and aborts when that fails, so a broken generator cannot go
// unnoticed as a fast error path.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/result.h"
#include "voxrig/rkc_model.h"
#include "voxrig/rvc.h"
#include "voxrig/vfp_model.h"

namespace voxrig::perf {

/// The benchmark grids.
/// - Random50: every voxel filled with probability 1/2, palette index uniform in 1..8.
/// - Sphere: solid ball of radius N/2 - 1 centred in the grid (voxel centres), index 1.
/// - Terrain: heightmap of summed sines, palette index by height band (1..4).
enum class GridKind { Random50 = 0, Sphere = 1, Terrain = 2 };
const char* grid_name(GridKind kind);

/// The N x N x N grid of `kind` (cached; N <= 256).
const Vox0& grid(GridKind kind, uint32_t n);

/// Joint map for an N^3 grid with 1 joint (all 0), 8 joints (x-slabs of N/8) or 64 joints
/// (4 x 4 x 4 blocks of (N/4)^3); joint ids 0..joints-1 (cached).
const std::vector<uint16_t>& joint_map(uint32_t joints, uint32_t n);

/// A skeleton of `joints` joints (ids 0..n-1) as a random forest: joint i > 0 is a root with
/// probability 1/32, else a child of a uniformly chosen earlier joint. Random bind TRS (unit
/// rotations, scale 0.8..1.2), names "joint_<i>". baseSourceHash left zero.
Skel forest_skel(uint32_t joints, uint64_t seed);

/// One 1 s clip (id 0, duration 1000 ms) with a track on every joint of `skel`, `keys` keys per
/// track (times round(k * 1000 / (keys - 1)), T, R and S on every key).
Anim pose_anim(const Skel& skel, uint32_t keys, uint64_t seed);
/// pose_anim with key times that differ from track to track: the inner keys of track i are
/// shifted by 1 + i % 15 ms (first and last key stay at 0 and 1000), so no two neighbouring
/// tracks share a time stream (the sampler's same-times shortcut never applies).
Anim pose_anim_distinct_times(const Skel& skel, uint32_t keys, uint64_t seed);

/// An ANIM with exactly `total_keys` keys in one clip: ceil(total/30) tracks of 30 keys (the last
/// one shorter) over a forest skeleton with one joint per track. `skel_out` receives it.
Anim anim_with_keys(uint32_t total_keys, Skel& skel_out);

/// VSKN binding every non-empty voxel whose joint-map entry differs from the default joint 0.
Vskn vskn_from_map(const Vox0& vox0, const std::vector<uint16_t>& joints);

/// A complete rig file: VOX0 of `kind`/N, a `joints`-joint skeleton (joint-map ids), VSKN from
/// the joint map, and an ANIM with 30 keys on every joint; hashes bound (rebind).
VfpFile rig_file(GridKind kind, uint32_t n, uint32_t joints);

/// KV6 sprite of the surface voxels of an N^3 grid (vis bits from the neighbours, colours from
/// the palette as 0x80RRGGBB, z kept as is).
Kv6 kv6_from_grid(const Vox0& vox0);

/// An RVC clip of `frames` frames of a D^3 ball moving one voxel along x per frame, key frame
/// every 8 frames (rvc_from_frames, so deflated per D4).
RvcClip moving_ball_clip(uint32_t d, uint32_t frames);

/// A character with `bones` bones in a random tree, one KV6 mesh per bone (its own copy of a
/// 16^3 sphere shell), one skeletal clip (30 frames, seq looping back to 0), and, when
/// `voxel_clips`, one 16^3 x 8-frame RVC clip per 10 bones (at least one) attached to every
/// tenth bone.
Character character(uint32_t bones, bool voxel_clips);

/// The seed's synthetic character shape scaled down (its `synthetic_character()`: unit KV6
/// meshes, short names, hinge frames from Q15 angles): `bones` bones in a chain-like random tree,
/// one 1-voxel KV6 and one static attachment per bone, one skeletal clip of `frames` frames with
/// a looping seq. Per-file costs dominate its decode (seed_character(16, 8) is ~10 KB).
Character seed_character(uint32_t bones, uint32_t frames);

/// The smallest benchmark character, exactly 259 bytes encoded (the benchmarks check it): META
/// "t", one 1-voxel KV6, one root bone "b" without attachments, one skeletal clip "w" of one
/// frame and no seq, empty VCLP.
Character tiny_character();

/// Aborts with `what` unless the condition holds (input generation must not fail silently).
void require(bool ok, const std::string& what);

/// The value of a Result, or abort naming `what` and the error (setup code only).
template <class T>
T must(Result<T> r, const std::string& what) {
  if (!r.ok()) require(false, what + ": " + r.error().to_text());
  return std::move(r).value();
}
inline void must(const Status& s, const std::string& what) {
  if (!s.ok()) require(false, what + ": " + s.error().to_text());
}

}  // namespace voxrig::perf
