// Internals shared by the canonical dumps (not installed).
#pragma once

#include <string_view>

#include "voxrig/json_out.h"

namespace voxrig::detail {

/// The schema every canonical dump names (docs/dump-schema.md).
inline constexpr std::string_view kDumpSchema = "voxrig-dump/1";

/// Opens a top-level dump object: {"schema": "voxrig-dump/1", "format": `format`, ... (the
/// caller adds the format's fields and closes the object).
inline void begin_dump(JsonOut& out, std::string_view format) {
  out.begin_object();
  out.field_string("schema", kDumpSchema);
  out.field_string("format", format);
}

}  // namespace voxrig::detail
