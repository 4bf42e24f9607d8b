// voxrig/error.h — the error value every fallible function returns.
//
// Codes come from errors.def (the single list). An Error always carries the absolute file offset
// of the field or read that failed and a path such as "ANIM/clip[2]/track[0]/key[5]" (docs/spec/
// D12). Errors are cold: building one may allocate, the success path never does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "voxrig/path.h"

namespace voxrig {

/// What kind of failure a code is (docs/spec/errors.md).
enum class Category : uint8_t { Bad, Unsupported, Limit, Internal };

/// Every error code; values are pinned in errors.def.
enum class ErrorCode : uint16_t {
#define VOXRIG_ERROR(name, value, code, category, ...) name = value,
#define VOXRIG_WARNING(name, value, code, ...)
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
};

/// Every validator warning; values are pinned in errors.def.
enum class WarningCode : uint16_t {
#define VOXRIG_ERROR(name, value, code, category, ...)
#define VOXRIG_WARNING(name, value, code, ...) name = value,
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
};

/// The stable dotted string of `code` ("skel.parent_missing"). Never fails.
std::string_view to_string(ErrorCode code);
/// The stable dotted string of a warning code.
std::string_view to_string(WarningCode code);
/// The category of `code`.
Category category_of(ErrorCode code);
/// "bad" / "unsupported" / "limit" / "internal".
std::string_view to_string(Category category);
/// Inverse of to_string(ErrorCode); nullopt for an unknown string.
std::optional<ErrorCode> error_code_from_string(std::string_view text);

/// The spec section errors.def gives for `code` (docs/spec/<file>.md#<RULE>);
/// "" if none is recorded. Never fails, allocates nothing.
std::string_view spec_section_of(ErrorCode code);
/// The one-line meaning errors.def gives for `code`; "" if none is recorded.
std::string_view meaning_of(ErrorCode code);
/// spec_section_of / meaning_of for a warning code.
std::string_view spec_section_of(WarningCode code);
std::string_view meaning_of(WarningCode code);

/// Visits every warning code in errors.def order: fn(WarningCode, value, code string).
template <class Fn>
void for_each_warning_code(Fn&& fn) {
#define VOXRIG_ERROR(name, value, code, category, ...)
#define VOXRIG_WARNING(name, value, code, ...) \
  fn(WarningCode::name, uint16_t{value}, std::string_view{code});
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
}

/// Visits every error code in errors.def order: fn(ErrorCode, value, code string, Category).
template <class Fn>
void for_each_error_code(Fn&& fn) {
#define VOXRIG_ERROR(name, value, code, category, ...) \
  fn(ErrorCode::name, uint16_t{value}, std::string_view{code}, Category::category);
#define VOXRIG_WARNING(name, value, code, ...)
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
}

/// A failure: stable code, absolute file offset, structural path and a human detail.
/// `detail` is for people (validate output); machines compare `code` only.
struct Error {
  ErrorCode code = ErrorCode::InternalBug;
  uint64_t offset = 0;
  std::string path;
  std::string detail;

  /// Returns a copy whose path is `prefix + "/" + path` (or just prefix when path is empty);
  /// used by containers to name an embedded blob (docs/spec/conventions.md#D12: "MSHS/mesh[1]").
  Error prefixed(std::string_view prefix) const;
  /// Returns a copy whose offset is shifted by `base` (for errors raised inside an embedded
  /// blob decoded from offset 0).
  Error rebased(uint64_t base) const;
  /// "skel.parent_missing at offset 120 (SKEL/joint[3]): detail".
  std::string to_text() const;
};

// ---- the one way to build an Error (every codec, evaluator, mesher and exporter uses these) ----

/// An Error with `code` at absolute file offset `offset`, structural path `path` (rendered,
/// e.g. "SKEL/joint[3]", or empty for the whole input) and human `detail`. Never fails;
/// allocates only for the strings it is given.
inline Error error_at(ErrorCode code, uint64_t offset, std::string path, std::string detail = {}) {
  return Error{code, offset, std::move(path), std::move(detail)};
}
/// As above with a Path, rendered here (decoders carry Paths and render them only on error).
inline Error error_at(ErrorCode code, uint64_t offset, const Path& path, std::string detail = {}) {
  return error_at(code, offset, path.str(), std::move(detail));
}

/// An error about a model rather than bytes (evaluation, meshing and export check arguments
/// and decoded models): offset 0, `path` names the model part ("BONS/bone[2]") or is empty.
inline Error model_error(ErrorCode code, std::string path, std::string detail = {}) {
  return error_at(code, 0, std::move(path), std::move(detail));
}

/// A non-fatal finding of a validator (docs/spec/protocols.md#D14).
struct Warning {
  WarningCode code;
  uint64_t offset = 0;
  std::string path;
  std::string detail;
};

}  // namespace voxrig
