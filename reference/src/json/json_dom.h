// json_dom.h (internal) — the compile input's view of the JSON tree (voxrig/json_tree.h):
// the default depth cap, kind names for messages and JSON paths.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "voxrig/json_tree.h"

namespace voxrig::detail {

inline constexpr uint32_t kNoNode = kJsonNoNode;
/// Deepest nesting the compile input accepts; deeper input is json.limit.
inline constexpr size_t kMaxJsonDepth = kJsonDefaultMaxDepth;

/// "integer", "float", "string", ... for messages.
std::string_view kind_name(JsonKind kind);

/// A JSON path built on the stack while walking ("$.rig.joints[1].parent"); rendered only when
/// an error is made. Keys that are not identifiers are written as ["..."].
struct JsonPath {
  const JsonPath* up = nullptr;
  std::string_view key;  ///< member name, or empty for an index step / the root
  int64_t index = -1;    ///< >= 0: array step

  JsonPath child(std::string_view k) const { return {this, k, -1}; }
  JsonPath item(size_t i) const { return {this, {}, static_cast<int64_t>(i)}; }
  std::string str() const;
};

/// A JSON parser's exception message as an error detail: what went wrong ("unexpected end of
/// input; expected ..."), without the library's exception id and line/column prefix (the error
/// has the offset).
std::string json_problem_text(std::string_view what);

/// Appends one path step to `out` ("." + key, or ["key"] when not an identifier).
void append_json_key(std::string& out, std::string_view key);

}  // namespace voxrig::detail
