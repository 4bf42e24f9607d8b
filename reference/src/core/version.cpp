// The versions of voxrig/version.h. Only this file sees the spec and corpus version macros
// (reference/CMakeLists.txt), so bumping one rebuilds one file.
#include "voxrig/version.h"

namespace voxrig {

std::string_view suite_version() { return VOXRIG_VERSION; }
std::string_view spec_version() { return VOXRIG_SPEC_VERSION; }
std::string_view corpus_version() { return VOXRIG_CORPUS_VERSION; }

}  // namespace voxrig
