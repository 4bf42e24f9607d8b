// The adoption ladder (conform.h ConformanceLevel): which rung a run's checks make up, which rung
// its results reached, and what makes a run partial. A partial run must never read as full
// conformance, so every report states the rung run, the rung reached and these notes.
#include <string>
#include <vector>

#include "voxrig/conform/conform.h"
#include "voxrig/conform/run.h"
#include "voxrig/enum_names.h"

namespace voxrig::conform {
namespace {

constexpr EnumName<ConformanceLevel> kLevelNames[] = {
    {ConformanceLevel::None, "none"},
    {ConformanceLevel::Verdicts, "verdicts"},
    {ConformanceLevel::Dumps, "dumps"},
    {ConformanceLevel::Writers, "writers"},
    {ConformanceLevel::Capabilities, "capabilities"}};

bool ok(Verdict v) { return v == Verdict::Pass || v == Verdict::Loose; }

bool is_writer(Check c) { return c == Check::Roundtrip || c == Check::Canonicalize; }

bool claims(const RunInfo& info, std::string_view capability) {
  for (const auto& c : info.capabilities)
    if (c == capability) return true;
  return false;
}

// Whether every counted result of `rung`'s own checks (not the lower rungs') passed.
bool rung_passed(ConformanceLevel rung, const std::vector<CaseResult>& results) {
  for (const CaseResult& r : results) {
    if (!r.counted) continue;
    switch (rung) {
      case ConformanceLevel::Verdicts:
        if (r.check == Check::Dump && !ok(r.accept_reject)) return false;
        break;
      case ConformanceLevel::Dumps:
        if (r.check == Check::Dump && !ok(r.observed)) return false;
        break;
      case ConformanceLevel::Writers:
        if (is_writer(r.check) && !ok(r.observed)) return false;
        break;
      case ConformanceLevel::Capabilities:
        if (r.check != Check::Dump && !is_writer(r.check) && !ok(r.observed)) return false;
        break;
      case ConformanceLevel::None:
        break;
    }
  }
  return true;
}

}  // namespace

std::string_view to_string(ConformanceLevel l) { return name_of(kLevelNames, l, "none"); }

std::optional<ConformanceLevel> conformance_level_from_string(std::string_view s) {
  return value_of(kLevelNames, s);
}

RunChecks checks_for_level(ConformanceLevel level) {
  RunChecks c;
  c.dump = level != ConformanceLevel::None;
  c.dump_content = level >= ConformanceLevel::Dumps;
  c.writer = level >= ConformanceLevel::Writers;
  c.compile = c.pose = c.mesh = level >= ConformanceLevel::Capabilities;
  return c;
}

ConformanceLevel level_of_run(const RunInfo& info) {
  if (!info.dump) return ConformanceLevel::None;
  if (!info.dump_content) return ConformanceLevel::Verdicts;
  if (!info.writer) return ConformanceLevel::Dumps;
  if (!claims(info, "compile") || !claims(info, "pose") || !claims(info, "mesh"))
    return ConformanceLevel::Writers;
  return ConformanceLevel::Capabilities;
}

ConformanceLevel level_reached(const RunInfo& info, const std::vector<CaseResult>& results) {
  const ConformanceLevel run = level_of_run(info);
  ConformanceLevel reached = ConformanceLevel::None;
  for (ConformanceLevel rung : {ConformanceLevel::Verdicts, ConformanceLevel::Dumps,
                                ConformanceLevel::Writers, ConformanceLevel::Capabilities}) {
    if (rung > run || !rung_passed(rung, results)) break;
    reached = rung;
  }
  return reached;
}

std::vector<std::string> partial_run_notes(const RunInfo& info) {
  std::vector<std::string> notes;
  if (info.profiles.size() < 4)
    notes.push_back(std::to_string(info.profiles.size()) + " of 4 profiles");
  if (!info.filter.empty()) notes.push_back("filtered");
  if (info.codes == CodeMode::Loose) notes.push_back("codes loose");
  if (!info.expected_failures.empty()) notes.push_back("expected-failure list");
  return notes;
}

}  // namespace voxrig::conform
