// voxrig/decode_options.h — what every decoder is told: the profile and the limits.
#pragma once

#include "voxrig/limits.h"
#include "voxrig/profile.h"

namespace voxrig {

/// How to decode: which profile's rules apply, and the resource limits.
struct DecodeOptions {
  Profile profile = Profile::VfpRig;
  Limits limits;
};

}  // namespace voxrig
