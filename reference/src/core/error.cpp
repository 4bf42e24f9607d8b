// Error-list lookups generated from errors.def.
#include "voxrig/error.h"

#include <initializer_list>
#include <string>

#include "voxrig/enum_names.h"

namespace voxrig {

std::string_view to_string(ErrorCode code) {
  switch (code) {
#define VOXRIG_ERROR(name, value, text, category, ...) \
  case ErrorCode::name:                                \
    return text;
#define VOXRIG_WARNING(name, value, text, ...)
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
  }
  return "internal.bug";
}

std::string_view to_string(WarningCode code) {
  switch (code) {
#define VOXRIG_ERROR(name, value, text, category, ...)
#define VOXRIG_WARNING(name, value, text, ...) \
  case WarningCode::name:                      \
    return text;
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
  }
  return "internal.bug";
}

Category category_of(ErrorCode code) {
  switch (code) {
#define VOXRIG_ERROR(name, value, text, category, ...) \
  case ErrorCode::name:                                \
    return Category::category;
#define VOXRIG_WARNING(name, value, text, ...)
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
  }
  return Category::Internal;
}

namespace {

// Field `i` of a code's documentation arguments in errors.def ("" when the line has none, so a
// line without them still compiles; the errors_documented test then fails).
constexpr std::string_view doc_field(size_t i, std::initializer_list<const char*> fields) {
  return i < fields.size() ? std::string_view(fields.begin()[i]) : std::string_view();
}

}  // namespace

std::string_view spec_section_of(ErrorCode code) {
  switch (code) {
#define VOXRIG_ERROR(name, value, text, category, ...) \
  case ErrorCode::name:                                \
    return doc_field(0, {__VA_ARGS__});
#define VOXRIG_WARNING(name, value, text, ...)
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
  }
  return "";
}

std::string_view spec_section_of(WarningCode code) {
  switch (code) {
#define VOXRIG_ERROR(name, value, text, category, ...)
#define VOXRIG_WARNING(name, value, text, ...) \
  case WarningCode::name:                      \
    return doc_field(0, {__VA_ARGS__});
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
  }
  return "";
}

std::string_view meaning_of(ErrorCode code) {
  switch (code) {
#define VOXRIG_ERROR(name, value, text, category, ...) \
  case ErrorCode::name:                                \
    return doc_field(1, {__VA_ARGS__});
#define VOXRIG_WARNING(name, value, text, ...)
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
  }
  return "";
}

std::string_view meaning_of(WarningCode code) {
  switch (code) {
#define VOXRIG_ERROR(name, value, text, category, ...)
#define VOXRIG_WARNING(name, value, text, ...) \
  case WarningCode::name:                      \
    return doc_field(1, {__VA_ARGS__});
#include "voxrig/errors.def"
#undef VOXRIG_ERROR
#undef VOXRIG_WARNING
  }
  return "";
}

std::string_view to_string(Category category) {
  static constexpr EnumName<Category> kNames[] = {{Category::Bad, "bad"},
                                                  {Category::Unsupported, "unsupported"},
                                                  {Category::Limit, "limit"},
                                                  {Category::Internal, "internal"}};
  return name_of(kNames, category, "internal");
}

std::optional<ErrorCode> error_code_from_string(std::string_view text) {
  std::optional<ErrorCode> found;
  for_each_error_code([&](ErrorCode c, uint16_t, std::string_view s, Category) {
    if (s == text) found = c;
  });
  return found;
}

Error Error::prefixed(std::string_view prefix) const {
  Error e = *this;
  e.path = path.empty() ? std::string(prefix) : std::string(prefix) + "/" + path;
  return e;
}

Error Error::rebased(uint64_t base) const {
  Error e = *this;
  e.offset += base;
  return e;
}

std::string Error::to_text() const {
  std::string out(to_string(code));
  out += " at offset " + std::to_string(offset);
  if (!path.empty()) out += " (" + path + ")";
  if (!detail.empty()) out += ": " + detail;
  return out;
}

}  // namespace voxrig
