// Shared by the judges of verdict.cpp and capability.cpp (not installed).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "voxrig/conform/conform.h"

namespace voxrig::conform::detail {

/// Crash / timeout / no start / exit code other than 0 and 1, or nullopt for a normal exit.
std::optional<Judgement> abnormal_run(const RunOutcome& run);

/// Exit 1: the output must be {"error": code}; judged against the expectation.
Judgement judge_rejection_run(const RunOutcome& run, bool expected_reject,
                              const std::string& expected_code, CodeMode codes,
                              std::string_view what_was_expected);

}  // namespace voxrig::conform::detail
