// The in-process testee loader (voxrig/conform/testee_loader.h): dlopen, two dlsym, one call.
#include "voxrig/conform/testee_loader.h"

#include <dlfcn.h>

#include <cstring>

#include "voxrig/enum_names.h"
#include "voxrig/testee.h"

namespace voxrig::conform {

std::string_view to_string(TesteeStatus s) {
  static constexpr EnumName<TesteeStatus> kNames[] = {{TesteeStatus::Accept, "accept"},
                                                      {TesteeStatus::Reject, "reject"},
                                                      {TesteeStatus::Failure, "testee failure"}};
  return name_of(kNames, s, "testee failure");
}

Testee::Testee(std::string path, void* handle, DumpFn dump, FreeFn release)
    : path_(std::move(path)), handle_(handle), dump_(dump), free_(release) {}

Testee::~Testee() {
  if (handle_ != nullptr) dlclose(handle_);
}

std::unique_ptr<Testee> Testee::load(const std::string& path, std::string* error) {
  // dlopen searches the library path for a bare name; the user named a file.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  // RTLD_LOCAL: the testee's own symbols (a second copy of zlib, say) never bind to ours.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    *error = "cannot load testee " + path + ": " + (why != nullptr ? why : "unknown dlopen error");
    return nullptr;
  }
  // ISO C++ has no function-pointer cast from void*; POSIX guarantees this one works.
  void* dump = dlsym(handle, "voxrig_testee_dump");
  void* release = dlsym(handle, "voxrig_testee_free");
  const char* missing = dump == nullptr      ? "voxrig_testee_dump"
                        : release == nullptr ? "voxrig_testee_free"
                                             : nullptr;
  if (missing != nullptr) {
    dlclose(handle);
    *error = "testee " + path + " does not export " + missing +
             " (voxrig/testee.h: both voxrig_testee_dump and voxrig_testee_free, extern \"C\")";
    return nullptr;
  }
  return std::unique_ptr<Testee>(
      new Testee(path, handle, reinterpret_cast<DumpFn>(dump), reinterpret_cast<FreeFn>(release)));
}

TesteeOutcome Testee::dump(std::span<const uint8_t> bytes, std::string_view profile) const {
  std::string profile_z(profile);  // the ABI wants NUL-terminated text
  char* out = nullptr;
  size_t out_len = 0;
  int rc = dump_(bytes.empty() ? nullptr : bytes.data(), bytes.size(), profile_z.c_str(), &out,
                 &out_len);
  TesteeOutcome result;
  if (rc != VOXRIG_TESTEE_ACCEPT && rc != VOXRIG_TESTEE_REJECT) {
    result.text = "voxrig_testee_dump returned " + std::to_string(rc);
  } else if (out == nullptr) {
    result.text = "voxrig_testee_dump returned " + std::to_string(rc) + " with a NULL string";
  } else if (out_len > kMaxTesteeText) {
    result.text = "voxrig_testee_dump returned a string of " + std::to_string(out_len) +
                  " bytes (more than " + std::to_string(kMaxTesteeText) + ")";
  } else if (std::memchr(out, '\0', out_len) != nullptr) {
    // out_len counts bytes before the terminating NUL; an earlier NUL means a wrong length.
    result.text = "voxrig_testee_dump returned a string whose length (" + std::to_string(out_len) +
                  ") runs past its NUL";
  } else {
    result.status = rc == VOXRIG_TESTEE_ACCEPT ? TesteeStatus::Accept : TesteeStatus::Reject;
    result.text.assign(out, out_len);
  }
  free_(out);
  return result;
}

}  // namespace voxrig::conform
