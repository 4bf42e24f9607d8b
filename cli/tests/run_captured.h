// Test helper of the CLI's tests: runs a whole `voxrig COMMAND ...` argv in process, through the
// command table, and captures what it prints.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "commands.h"

namespace voxrig::cli {

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
