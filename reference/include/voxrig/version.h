// voxrig/version.h — the versions a manifest, a report and `voxrig --version` name.
#pragma once

#include <string_view>

namespace voxrig {

/// The suite's version ("0.1.0", the project's; also the VOXRIG_VERSION macro).
std::string_view suite_version();
/// The version of docs/spec/ this codec implements ("1.0"; its one home is docs/spec/README.md's
/// "**voxrig spec M.N**" line, read at configure time).
std::string_view spec_version();
/// The version of the golden corpus built from this tree's golden/sources ("1.0"; its one home
/// is golden/sources/corpus-version.txt).
std::string_view corpus_version();

}  // namespace voxrig
