// voxrig/enum_names.h — enum <-> text through one table per enum: the one way the library (and
// the conformance and testing libraries) spell an enumerator and read it back, so a name is
// written once and both directions agree by construction.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace voxrig {

/// One row of a name table: an enumerator and its stable text.
template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

/// The name of `value` in `table`, or `fallback` when no row holds it (a value cast from outside
/// the enumerators). Linear in the table; allocates nothing; safe on any value.
template <class E, size_t N>
constexpr std::string_view name_of(const EnumName<E> (&table)[N], E value,
                                   std::string_view fallback) {
  for (const EnumName<E>& row : table)
    if (row.value == value) return row.name;
  return fallback;
}

/// The value of the first row named exactly `name` (case-sensitive), or nullopt. Linear in the
/// table; allocates nothing; safe on untrusted text.
template <class E, size_t N>
constexpr std::optional<E> value_of(const EnumName<E> (&table)[N], std::string_view name) {
  for (const EnumName<E>& row : table)
    if (row.name == name) return row.value;
  return std::nullopt;
}

}  // namespace voxrig
