// Budgets, soak multiplier and counterexample files for VOXRIG_PROP (see prop_support.h).
#include "prop_support.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#ifndef VOXRIG_DEFAULT_COUNTEREXAMPLE_DIR
#define VOXRIG_DEFAULT_COUNTEREXAMPLE_DIR "counterexamples"
#endif

namespace rc::detail {
// Defined in RapidCheck's library (src/detail/DefaultTestListener.h, not an installed header):
// the listener that prints verbose progress and, at exit, the RC_PARAMS="reproduce=..." line.
TestListener& globalTestListener();
}  // namespace rc::detail

namespace voxrig::props {
namespace {

using Artefacts = std::map<std::string, std::vector<uint8_t>>;

// The running case's artefacts and the snapshot of the last failing run (single-threaded:
// RapidCheck runs cases one after the other on the test's thread).
Artefacts& current() {
  static Artefacts a;
  return a;
}
Artefacts& failing() {
  static Artefacts a;
  return a;
}

int soak_factor() {
  const char* s = std::getenv("VOXRIG_PROP_SOAK");
  if (s == nullptr || *s == '\0') return 1;
  const long v = std::strtol(s, nullptr, 10);
  return v >= 1 && v <= 1000000 ? static_cast<int>(v) : 1;
}

bool rc_params_sets_max_success() {
  const char* s = std::getenv("RC_PARAMS");
  return s != nullptr && std::string_view(s).find("max_success") != std::string_view::npos;
}

// Writes the failing artefacts; returns one "counterexample: <path>" line per file.
std::string write_counterexamples(const std::string& test_name) {
  std::string lines;
  if (failing().empty()) return lines;
  const std::filesystem::path dir = counterexample_dir();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const auto& [ext, bytes] : failing()) {
    const std::filesystem::path file = dir / (test_name + "." + ext);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!out) {
      lines += "could not write counterexample " + file.string() + "\n";
      continue;
    }
    lines += "counterexample written: " + file.string() + " (" + std::to_string(bytes.size()) +
             " bytes)\n";
  }
  return lines;
}

}  // namespace

int max_success_for(int budget) {
  if (rc_params_sets_max_success()) return rc::detail::configuration().testParams.maxSuccess;
  const long long n = static_cast<long long>(budget) * soak_factor();
  return static_cast<int>(std::min<long long>(n, 1 << 30));
}

void record(std::string_view ext, std::span<const uint8_t> bytes) {
  current()[std::string(ext)] = std::vector<uint8_t>(bytes.begin(), bytes.end());
}

void record_text(std::string_view ext, std::string_view text) {
  record(ext, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

std::string diff_bytes(std::span<const uint8_t> got, std::span<const uint8_t> want) {
  const size_t n = std::min(got.size(), want.size());
  size_t i = 0;
  while (i < n && got[i] == want[i]) ++i;
  if (i == n && got.size() == want.size()) return "equal";
  std::ostringstream os;
  os << "sizes " << got.size() << " vs " << want.size() << ", first difference at offset " << i;
  if (i < n) os << " (0x" << std::hex << int(got[i]) << " vs 0x" << int(want[i]) << ")";
  return os.str();
}

std::string counterexample_dir() {
  const char* s = std::getenv("VOXRIG_COUNTEREXAMPLE_DIR");
  return s != nullptr && *s != '\0' ? std::string(s)
                                    : std::string(VOXRIG_DEFAULT_COUNTEREXAMPLE_DIR);
}

namespace detail {

void begin_case() { current().clear(); }

void case_failed() { failing() = current(); }

void run_property(int budget, const rc::detail::Property& property) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  // Same id as RC_GTEST_PROP, so RapidCheck's reproduce strings keep working.
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = max_success_for(budget);

  failing().clear();
  const rc::detail::TestResult result =
      rc::detail::checkProperty(property, metadata, params, rc::detail::globalTestListener(),
                                rc::detail::configuration().reproduce);

  if (result.template is<rc::detail::SuccessResult>()) {
    const auto& success = result.template get<rc::detail::SuccessResult>();
    if (!success.distribution.empty()) {
      rc::detail::printResultMessage(result, std::cout);
      std::cout << std::endl;
    }
    return;
  }
  std::ostringstream ss;
  rc::detail::printResultMessage(result, ss);
  if (result.template is<rc::detail::FailureResult>()) {
    ss << "\n" << write_counterexamples(std::string(info->test_suite_name()) + "." + info->name());
  }
  FAIL() << ss.str();
}

}  // namespace detail
}  // namespace voxrig::props
