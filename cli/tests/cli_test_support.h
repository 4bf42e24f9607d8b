// Helpers of the CLI's tests: a fixture with a scratch directory, and running a whole
// `voxrig COMMAND ...` argv in process (through the command table) capturing what it prints.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "commands.h"

namespace voxrig::cli {

/// A test with its own empty directory `dir_` (removed afterwards).
class ScratchDirTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string templ = testing::TempDir() + "voxrig-cli-test-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string dir_;
};

/// Runs `argv` (argv[0] "voxrig", argv[1] the command) with run_command; stores its stdout in
/// `out` and its stderr in `err` and returns its exit code.
inline int run_captured(std::vector<std::string> argv, std::string& out, std::string& err) {
  std::vector<char*> raw;
  for (auto& a : argv) raw.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int rc = run_command(static_cast<int>(raw.size()), raw.data());
  out = testing::internal::GetCapturedStdout();
  err = testing::internal::GetCapturedStderr();
  return rc;
}

}  // namespace voxrig::cli
