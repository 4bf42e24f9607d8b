// Profile names.
#include "voxrig/profile.h"

namespace voxrig {

std::string_view to_string(Profile p) {
  switch (p) {
    case Profile::VfpStatic:
      return "vfp-static";
    case Profile::VfpRig:
      return "vfp-rig";
    case Profile::RkcStrict:
      return "rkc-strict";
    case Profile::RkcCompat:
      return "rkc-compat";
  }
  return "vfp-rig";
}

std::optional<Profile> profile_from_string(std::string_view name) {
  for (Profile p : {Profile::VfpStatic, Profile::VfpRig, Profile::RkcStrict, Profile::RkcCompat})
    if (to_string(p) == name) return p;
  return std::nullopt;
}

}  // namespace voxrig
