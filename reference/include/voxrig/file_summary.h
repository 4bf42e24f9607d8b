// voxrig/file_summary.h — what a file holds, in numbers, and its verdict under every profile that
// applies: the contents of `voxrig info`, as library calls a tool can make without the CLI.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "voxrig/any_format.h"
#include "voxrig/profile.h"

namespace voxrig {

/// The profile a file is read under when the user names none: vfp-rig for a VFP file or one of
/// unknown format, rkc-strict for the RKCH family (RKCH, KV6, RVC, KFA). Reads the magic only.
Profile default_profile(std::span<const uint8_t> bytes);

/// How many of each thing a file holds, decoded under `profile`.
struct ContentCounts {
  Profile profile = Profile::VfpRig;  ///< the profile the counts come from
  /// Name -> count in a fixed order per format: VFP sections, size_x/y/z, palette, voxels (the
  /// filled cells), joints, bindings, clips; RKCH meshes, bones, clips, voxel_clips,
  /// extra_chunks; KV6 size_x/y/z, voxels; RVC chunks, size_x/y/z, frames; KFA hinges, frames,
  /// seq. Empty when the file is rejected under `profile` (or its format is unknown).
  std::vector<std::pair<std::string, uint64_t>> counts;
};

/// The counts under the file's default profile or, when that rejects the file, under its
/// family's other profile (vfp-static reads a VFP whose rig is broken; rkc-compat what
/// rkc-strict rejects), so a rejected file still shows what it holds; `profile` says which.
/// Costs one or two decodes under the default Limits. Throws std::bad_alloc when a decode runs
/// out of memory (internal.out_of_memory), so a caller never shows a file without its counts
/// for that reason.
ContentCounts count_contents(std::span<const uint8_t> bytes);

/// One profile's verdict on a file.
struct ProfileVerdict {
  Profile profile = Profile::VfpRig;
  ValidationReport report;
};

/// validate_any under each profile that applies to the file's format, in the order of the
/// Profile enum: vfp-static and vfp-rig for VFP, rkc-strict and rkc-compat for the RKCH family,
/// all four for a file of unknown format. Default Limits. Throws std::bad_alloc as
/// count_contents.
std::vector<ProfileVerdict> verdicts_by_profile(std::span<const uint8_t> bytes);

}  // namespace voxrig
