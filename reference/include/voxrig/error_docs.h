// voxrig/error_docs.h — the error-code list of errors.def as people read it: docs/spec/errors.md
// (the CTest errors_doc_in_sync keeps that file equal to error_list_markdown()), a JSON list for
// tools, and one code explained. `voxrig errors` prints these.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace voxrig {

/// docs/spec/errors.md: every error code (code, pinned value, category, meaning, spec section) and
/// then every validator warning, as Markdown tables.
std::string error_list_markdown();

/// The same list as JSON: [{"code", "value", "category", "section", "meaning"}, ...], warnings
/// last with category "warning".
std::string error_list_json();

/// Every entry named `code` (a name can be both an error and a warning): its value, category
/// (or that it is a warning), meaning and spec section, one block each; nullopt when there is
/// none.
std::optional<std::string> explain_code(std::string_view code);

/// Up to 8 codes near an unknown `code`, nearest first: those containing it (4 characters or
/// more) and those within an edit distance of 4.
std::vector<std::string_view> near_codes(std::string_view code);

}  // namespace voxrig
