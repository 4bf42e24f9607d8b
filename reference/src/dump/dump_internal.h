// Internals shared by the canonical dumps (not installed).
#pragma once

#include <cstddef>
#include <string_view>

#include "voxrig/json_out.h"

namespace voxrig::detail {

/// The schema every canonical dump names (docs/spec/dump.md).
inline constexpr std::string_view kDumpSchema = "voxrig-dump/2";

/// RVC frames (and TIME values) dumped one entry each; the rest fold into one digest
/// (docs/spec/dump.md "RVC"). Small, so that even 65536 tiny clips in one RKCH stay within the
/// dump bound of 1 MiB + 64 x the input size (kDumpBoundBase, kDumpBoundPerByte in dump.h).
inline constexpr size_t kDumpInlineFrames = 2;

/// Opens a top-level dump object: {"schema": "voxrig-dump/2", "format": `format`, ... (the
/// caller adds the format's fields and closes the object).
inline void begin_dump(JsonOut& out, std::string_view format) {
  out.begin_object();
  out.field_string("schema", kDumpSchema);
  out.field_string("format", format);
}

}  // namespace voxrig::detail
