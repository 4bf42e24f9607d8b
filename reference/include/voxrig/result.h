// voxrig/result.h — Result<T>: a value or an Error. No exceptions cross the library boundary.
#pragma once

#include <new>
#include <utility>
#include <variant>

#include "voxrig/error.h"

namespace voxrig {

/// Holds either a T or an Error. Check ok() before value(); value() on an error is a bug
/// (asserted in debug builds).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT
  /// A value built in place from `args` (no temporary T to move from and destroy: decoders that
  /// fill a value through a reference start from this).
  template <class... Args>
  explicit Result(std::in_place_t, Args&&... args)
      : v_(std::in_place_index<0>, std::forward<Args>(args)...) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const& { return std::get<1>(v_); }
  Error&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

/// Result of an operation with no value: success, or an Error.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), failed_(true) {}  // NOLINT

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const& { return error_; }
  Error&& error() && { return std::move(error_); }

 private:
  Error error_;
  bool failed_ = false;
};

using Status = Result<void>;

/// The success value of Status.
inline Status ok_status() { return {}; }

/// The library's one conversion of allocation failure: runs `fn` (returning a Result or Status)
/// and returns its result, or internal.out_of_memory (offset 0, empty path) when an allocation
/// inside it threw std::bad_alloc. Every public entry point that can allocate (the any_format.h
/// dispatch, compile_vfp_json, the meshers, RigRuntime::build, export_posed_obj, export_gltf)
/// runs its body through this; decoders and writers themselves never catch. The error holds no
/// strings, so building it allocates nothing and cannot fail in turn.
template <class F>
auto guard_out_of_memory(F&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return Error{ErrorCode::InternalOutOfMemory, 0, {}, {}};
  }
}

}  // namespace voxrig

/// Evaluates a Status/Result expression and returns its error from the enclosing function.
#define VOXRIG_TRY(expr)                                                        \
  do {                                                                          \
    auto&& voxrig_try_result_ = (expr);                                         \
    if (!voxrig_try_result_.ok()) return std::move(voxrig_try_result_).error(); \
  } while (0)

#define VOXRIG_CONCAT_INNER_(a, b) a##b
#define VOXRIG_CONCAT_(a, b) VOXRIG_CONCAT_INNER_(a, b)
/// `VOXRIG_ASSIGN_OR_RETURN(auto x, expr);` binds the value of a Result or returns its error.
#define VOXRIG_ASSIGN_OR_RETURN(lhs, expr) \
  VOXRIG_ASSIGN_OR_RETURN_IMPL_(VOXRIG_CONCAT_(voxrig_aor_, __LINE__), lhs, expr)
#define VOXRIG_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return std::move(tmp).error();       \
  lhs = std::move(tmp).value()
