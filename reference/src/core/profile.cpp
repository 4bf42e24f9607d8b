// Profile names.
#include "voxrig/profile.h"

#include "voxrig/enum_names.h"

namespace voxrig {

namespace {

constexpr EnumName<Profile> kProfileNames[] = {{Profile::VfpStatic, "vfp-static"},
                                               {Profile::VfpRig, "vfp-rig"},
                                               {Profile::RkcStrict, "rkc-strict"},
                                               {Profile::RkcCompat, "rkc-compat"}};

}  // namespace

std::string_view to_string(Profile p) { return name_of(kProfileNames, p, "vfp-rig"); }

std::optional<Profile> profile_from_string(std::string_view name) {
  return value_of(kProfileNames, name);
}

}  // namespace voxrig
