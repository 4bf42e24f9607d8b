// voxrig/conform/testee_loader.h — the one loader of in-process testees (voxrig/testee.h): a reader
// built as a shared library that exports voxrig_testee_dump and voxrig_testee_free.
//
// Used by `voxrig fuzz-reader --testee`, `voxrig bench-reader --testee` and the libFuzzer target
// fuzz_differential. POSIX only (dlopen). A loaded testee runs in this process: a testee that
// crashes or hangs takes the caller with it (that is the price of in-process speed; the process
// reader protocol is the safe mode).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace voxrig::conform {

/// How one call of voxrig_testee_dump ended.
enum class TesteeStatus {
  Accept,   ///< VOXRIG_TESTEE_ACCEPT: `text` is the testee's JSON dump (not yet validated)
  Reject,   ///< VOXRIG_TESTEE_REJECT: `text` is the error code the testee reported
  Failure,  ///< any other return value, a NULL string, or an over-long string: `text` says which
};
/// "accept", "reject", "testee failure".
std::string_view to_string(TesteeStatus s);

/// The outcome of one call; `text` is a copy (the testee's string is already freed).
struct TesteeOutcome {
  TesteeStatus status = TesteeStatus::Failure;
  std::string text;
};

/// Longest string accepted from a testee (the process runner's stdout cap); a longer one is a
/// Failure, so a runaway testee cannot make the caller copy unbounded memory.
inline constexpr size_t kMaxTesteeText = size_t{64} << 20;

/// A loaded testee library. Move-only; the library stays loaded while the object lives (and is
/// dlclose()d after). Not thread-safe: the ABI promises testees one call at a time.
class Testee {
 public:
  /// Loads the shared library at `path` (a name without '/' is taken relative to the current
  /// directory, never searched on LD_LIBRARY_PATH) and resolves both symbols. Returns nullptr
  /// and sets `*error` to one line naming the file and what is wrong ("cannot load LIB: <dlerror>",
  /// "LIB does not export voxrig_testee_free"). Allocates the object; runs the library's
  /// constructors (trusted code: the user asked to load it).
  static std::unique_ptr<Testee> load(const std::string& path, std::string* error);

  ~Testee();
  Testee(const Testee&) = delete;
  Testee& operator=(const Testee&) = delete;

  /// Calls voxrig_testee_dump on `bytes` under `profile` ("vfp-static", ...), copies the
  /// string (bounded by kMaxTesteeText), releases it with voxrig_testee_free and classifies the
  /// return value. Never throws except std::bad_alloc. Passes NULL data when `bytes` is empty.
  TesteeOutcome dump(std::span<const uint8_t> bytes, std::string_view profile) const;

  /// The path it was loaded from, as given.
  const std::string& path() const { return path_; }

 private:
  using DumpFn = int (*)(const uint8_t*, size_t, const char*, char**, size_t*);
  using FreeFn = void (*)(char*);
  Testee(std::string path, void* handle, DumpFn dump, FreeFn release);

  std::string path_;
  void* handle_ = nullptr;
  DumpFn dump_ = nullptr;
  FreeFn free_ = nullptr;
};

}  // namespace voxrig::conform
