// A directory of a test's own under GoogleTest's temporary directory, removed with the object.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace voxrig::conform {

class TempDir {
 public:
  TempDir() {
    std::string templ = ::testing::TempDir() + "voxrig-conform-test-XXXXXX";
    path_ = ::mkdtemp(templ.data()) ? templ : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// The path of `rel` inside the directory.
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

}  // namespace voxrig::conform
