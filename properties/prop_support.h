// Property-test support: per-property budgets, the soak multiplier and counterexample files.
//
// VOXRIG_PROP(Suite, Name, Budget, (args...)) { ... } is RC_GTEST_PROP with a budget: the
// property runs Budget successful cases in CI (times VOXRIG_PROP_SOAK, default 1; an explicit
// `max_success` in RC_PARAMS wins over both). Everything else comes from RapidCheck's global
// configuration (RC_PARAMS: seed, max_size, reproduce, ...), so a failure printed by CI replays
// with the RC_PARAMS line it prints.
//
// A property names the file its case is about with record(ext, bytes) (or record_text). When
// the property fails, the artefacts of the last failing run - that is the shrunk counterexample,
// because every accepted shrink is a failing run and the search stops after the last one - are
// written to $VOXRIG_COUNTEREXAMPLE_DIR (default <build>/counterexamples) as
// <Suite>.<Name>.<ext>, and their paths are printed with the failure.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/error.h"
#include "voxrig/profile.h"

namespace voxrig::props {

/// Successful cases to run for a property whose CI budget is `budget` (see the file comment).
int max_success_for(int budget);

/// Names an artefact of the running case ("vfp", "rkc", "rvc", "kv6", "kfa", "json", ...). A
/// later record with the same extension replaces the earlier one. Cleared before every case.
void record(std::string_view ext, std::span<const uint8_t> bytes);
void record_text(std::string_view ext, std::string_view text);

/// The directory counterexamples are written to.
std::string counterexample_dir();

/// The result of random choices made inside a property (which joint to break, how to scramble a
/// file, which defaults to leave out). The choices shrink like any other, but the counterexample
/// shows one labelled line instead of every number picked.
template <class T>
struct Chosen {
  const char* label;
  T value;
};
template <class T>
void showValue(const Chosen<T>& c, std::ostream& os) {
  os << "(" << c.label << ")";
}

/// Runs `make` as a generator (its *gen picks become part of the case) and returns its value.
/// RapidCheck calls `make` again while shrinking, after the property has returned: it must capture
/// by value.
template <class F>
auto choose(const char* label, F make) {
  using T = decltype(make());
  return (*rc::gen::exec([label, make] { return Chosen<T>{label, make()}; })).value;
}

/// "ok" or the error code of a result (for assertions that compare codes).
template <class R>
std::string code_of(const R& r) {
  return r.ok() ? std::string("ok") : std::string(to_string(r.error().code));
}

/// "" unless `r` failed with a category-internal code (a bug in the reference), else a message.
template <class R>
std::string internal(const R& r, const char* what) {
  if (r.ok() || category_of(r.error().code) != Category::Internal) return {};
  return std::string(what) + " returned an internal error: " + r.error().to_text();
}

/// Where two byte strings first differ ("equal" when they do not).
std::string diff_bytes(std::span<const uint8_t> got, std::span<const uint8_t> want);

namespace detail {

void begin_case();
void case_failed();
/// Runs `property` with the budget and reports to GoogleTest (artefact files on failure).
void run_property(int budget, const rc::detail::Property& property);

// Wraps a property function so that every failing run snapshots its artefacts. Discards
// (RC_PRE, generation failures) are not failures and are passed through untouched.
template <class... Args>
struct Capturing {
  void (*fn)(Args...);
  void operator()(Args... args) const {
    begin_case();
    try {
      fn(static_cast<Args&&>(args)...);
    } catch (const rc::detail::CaseResult& r) {
      if (r.type == rc::detail::CaseResult::Type::Failure) case_failed();
      throw;
    } catch (const rc::GenerationFailure&) {
      throw;
    } catch (...) {
      case_failed();
      throw;
    }
  }
};

template <class... Args>
void run(int budget, void (*fn)(Args...)) {
  run_property(budget, rc::detail::toProperty(Capturing<Args...>{fn}));
}

}  // namespace detail
}  // namespace voxrig::props

/// Fails the case with the error text unless `expr` (a Result or Status) is ok; evaluates to
/// nothing. Use as a statement.
#define VOXRIG_RC_OK(expr)                                                                 \
  do {                                                                                     \
    const auto& voxrig_rc_ok_ = (expr);                                                    \
    if (!voxrig_rc_ok_.ok()) RC_FAIL(#expr " failed: " + voxrig_rc_ok_.error().to_text()); \
  } while (0)

/// Fails the case with where two byte strings differ (instead of printing both in full).
#define VOXRIG_RC_SAME_BYTES(got, want)                                          \
  do {                                                                           \
    const std::string voxrig_diff_ = ::voxrig::props::diff_bytes((got), (want)); \
    if (voxrig_diff_ != "equal") RC_FAIL(#got " != " #want ": " + voxrig_diff_); \
  } while (0)

/// Defines a RapidCheck property as a GoogleTest test with a CI budget of `Budget` cases.
#define VOXRIG_PROP(Suite, Name, Budget, ArgList)                                              \
  static void voxrig_prop_##Suite##_##Name ArgList;                                            \
  TEST(Suite, Name) { ::voxrig::props::detail::run((Budget), &voxrig_prop_##Suite##_##Name); } \
  static void voxrig_prop_##Suite##_##Name ArgList

namespace voxrig::props {

/// Asserts that canonical `bytes` are a fixed point under each of `profiles`: reencode(bytes, p)
/// (decode, then encode) gives them back, and so does roundtrip(bytes, p) (the D1 roundtrip, a
/// Result<Bytes>). Logs the profile; fails the case at the first difference.
template <class Reencode, class RoundTrip>
void check_fixed_point(const std::vector<uint8_t>& bytes, std::span<const Profile> profiles,
                       Reencode reencode, RoundTrip roundtrip) {
  for (Profile p : profiles) {
    RC_LOG() << "profile " << to_string(p) << "\n";
    const std::vector<uint8_t> again = reencode(bytes, p);
    VOXRIG_RC_SAME_BYTES(again, bytes);
    auto any = roundtrip(bytes, p);
    VOXRIG_RC_OK(any);
    VOXRIG_RC_SAME_BYTES(any.value(), bytes);
  }
}

}  // namespace voxrig::props
