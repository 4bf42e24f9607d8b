// voxrig/profile.h — reader profiles (docs/spec/vfp.md#reader-profiles, D7-D9).
#pragma once

#include <optional>
#include <string_view>

namespace voxrig {

/// What a reader claims to support; it decides which rules reject a file.
enum class Profile {
  VfpStatic,  ///< VFP 1.3 without rig support: SKEL/VSKN/ANIM are unknown optional sections
  VfpRig,     ///< rig-aware and strict
  RkcStrict,  ///< RKCH family: invalid UTF-8 names, KV6 run tables and RVC frames reject
  RkcCompat,  ///< RKCH family: the seed implementation's verdicts (lossy names, parse only)
};

/// "vfp-static", "vfp-rig", "rkc-strict", "rkc-compat".
std::string_view to_string(Profile p);
/// Inverse of to_string; nullopt for an unknown name.
std::optional<Profile> profile_from_string(std::string_view name);

}  // namespace voxrig
