// Verdicts of the reader protocol (docs/spec/protocols.md): what a reader run means, expected-failure
// lists and tallies. Nothing here runs a process; the CLI hands in what it observed.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <map>
#include <tuple>

#include "verdict_internal.h"
#include "voxrig/conform/conform.h"
#include "voxrig/enum_names.h"

namespace voxrig::conform {
namespace {

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGSYS:
      return "SIGSYS";
    case SIGXCPU:
      return "SIGXCPU";
    default:
      return "signal";
  }
}

// One line of at most `max` bytes from untrusted output, for a reason string.
std::string snippet(std::string_view s, size_t max = 80) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.remove_suffix(1);
  std::string out;
  for (char c : s.substr(0, max)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (s.size() > max) out += "...";
  return out;
}

// As snippet, but keeps the last `max` bytes: a reader's stderr ends with what identifies the
// failure (the file Python cannot open, a traceback's exception), while its start is the
// interpreter's path. Never cuts inside a UTF-8 sequence.
std::string snippet_tail(std::string_view s, size_t max = 80) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.remove_suffix(1);
  if (s.size() <= max) return snippet(s, max);
  size_t from = s.size() - max;
  while (from < s.size() && (static_cast<unsigned char>(s[from]) & 0xC0) == 0x80) ++from;
  return "..." + snippet(s.substr(from), max);
}

// The problems every operation shares: the run did not end with exit 0 or 1.
std::optional<Judgement> abnormal(const RunOutcome& run) {
  char buf[64];
  if (!run.started)
    return Judgement{Verdict::Crash, "could not start the reader: " + run.spawn_error};
  if (run.timed_out) {
    std::snprintf(buf, sizeof buf, "timed out after %.1f s (process group killed)", run.seconds);
    return Judgement{Verdict::Timeout, buf};
  }
  if (run.output_overflow)
    return Judgement{Verdict::Crash, "output exceeded the capture limit (killed)"};
  if (!run.protocol_error.empty())
    return Judgement{Verdict::Crash, "serve: " + snippet(run.protocol_error)};
  if (run.signal != 0)
    return Judgement{Verdict::Crash, "killed by signal " + std::to_string(run.signal) + " (" +
                                         signal_name(run.signal) + ")"};
  if (run.exit_code != 0 && run.exit_code != 1) {
    std::string r = "exit code " + std::to_string(run.exit_code);
    // A reader started through `sh -c` that dies by a signal shows up as 128 + signal.
    if (run.exit_code > 128 && run.exit_code <= 128 + 64)
      r += " (a shell's report of signal " + std::to_string(run.exit_code - 128) + ", " +
           signal_name(run.exit_code - 128) + ")";
    else
      r += " (the protocol allows 0 and 1)";
    if (!run.err.empty()) r += "; stderr: " + snippet_tail(run.err);
    return Judgement{Verdict::Crash, r};
  }
  return std::nullopt;
}

// Exit 1: the output must be {"error": code}. Returns the judgement of the code against the
// expectation (`expected_code` empty when the expectation was success).
Judgement judge_rejection(const RunOutcome& run, bool expected_reject,
                          const std::string& expected_code, CodeMode codes,
                          std::string_view what_was_expected) {
  auto code = rejection_code(run.out);
  if (!code)
    return {Verdict::Crash, "exit 1 without {\"error\": CODE} on stdout: " +
                                (run.out.empty() ? std::string("(empty)") : snippet(run.out))};
  if (!expected_reject)
    return {Verdict::Fail,
            "rejected with " + snippet(*code) + ", expected " + std::string(what_was_expected)};
  if (*code == expected_code) return {Verdict::Pass, ""};
  std::string r = "rejected with " + snippet(*code) + ", expected " + expected_code;
  if (codes == CodeMode::Loose) return {Verdict::Loose, r + " (codes not compared: --codes loose)"};
  return {Verdict::Fail, r};
}

}  // namespace

namespace detail {
std::optional<Judgement> abnormal_run(const RunOutcome& run) { return abnormal(run); }
Judgement judge_rejection_run(const RunOutcome& run, bool expected_reject,
                              const std::string& expected_code, CodeMode codes,
                              std::string_view what_was_expected) {
  return judge_rejection(run, expected_reject, expected_code, codes, what_was_expected);
}
}  // namespace detail

constexpr EnumName<Check> kCheckNames[] = {{Check::Dump, "dump"},
                                           {Check::Roundtrip, "roundtrip"},
                                           {Check::Canonicalize, "canonicalize"},
                                           {Check::Compile, "compile"},
                                           {Check::Pose, "pose"},
                                           {Check::Mesh, "mesh"}};

std::string_view to_string(Check c) { return name_of(kCheckNames, c, "dump"); }

std::optional<Check> check_from_string(std::string_view s) { return value_of(kCheckNames, s); }

std::string_view to_string(Level l) { return l == Level::Required ? "required" : "recommended"; }
std::string_view to_string(CodeMode m) { return m == CodeMode::Strict ? "strict" : "loose"; }

std::string_view to_string(Verdict v) {
  static constexpr EnumName<Verdict> kNames[] = {
      {Verdict::Pass, "pass"},   {Verdict::Loose, "loose"},     {Verdict::Fail, "fail"},
      {Verdict::Crash, "crash"}, {Verdict::Timeout, "timeout"}, {Verdict::Xfail, "xfail"},
      {Verdict::Xpass, "xpass"}};
  return name_of(kNames, v, "fail");
}

Judgement judge_dump(const DumpExpectation& expect, const RunOutcome& run, CodeMode codes) {
  if (auto j = abnormal(run)) return *j;
  if (run.exit_code == 1)
    return judge_rejection(run, !expect.accept, expect.error, codes, "accept");
  JsonDiff diff =
      compare_dump_json(expect.accept ? expect.dump : std::string_view("null"), run.out);
  if (diff.outcome == JsonCompare::ActualInvalid && run.out.find_first_not_of(" \t\r\n") ==
                                                       std::string::npos)
    return {Verdict::Crash, "exit 0 with nothing on stdout (the protocol expects the JSON dump)"};
  if (diff.outcome == JsonCompare::ActualInvalid)
    return {Verdict::Crash, "exit 0 with invalid JSON on stdout: " + snippet(diff.detail, 160)};
  if (!expect.accept) return {Verdict::Fail, "accepted, expected reject with " + expect.error};
  switch (diff.outcome) {
    case JsonCompare::Equal:
      return {Verdict::Pass, ""};
    case JsonCompare::ExpectedInvalid:
      return {Verdict::Fail, "the golden dump does not parse (corpus bug): " + diff.detail};
    case JsonCompare::Differ:
      return {Verdict::Fail,
              "dump differs at " + snippet(diff.path, 200) + ": " + snippet(diff.detail, 200)};
    case JsonCompare::ActualInvalid:
      break;
  }
  return {Verdict::Crash, "invalid JSON"};
}

Judgement judge_verdict(const DumpExpectation& expect, const RunOutcome& run, CodeMode codes) {
  if (auto j = abnormal(run)) return *j;
  if (run.exit_code == 1)
    return judge_rejection(run, !expect.accept, expect.error, codes, "accept");
  if (!expect.accept) return {Verdict::Fail, "accepted, expected reject with " + expect.error};
  return {Verdict::Pass, ""};
}

Judgement judge_writer(const WriterExpectation& expect, const RunOutcome& run,
                       const std::optional<std::vector<uint8_t>>& produced, CodeMode codes) {
  if (auto j = abnormal(run)) return *j;
  if (run.exit_code == 1)
    return judge_rejection(run, expect.error, expect.code, codes, "output bytes");
  if (expect.error) return {Verdict::Fail, "wrote output, expected error " + expect.code};
  if (!produced) return {Verdict::Fail, "exit 0 but no output file was written"};
  const auto& got = *produced;
  const size_t common = std::min(got.size(), expect.bytes.size());
  size_t i = 0;
  while (i < common && got[i] == expect.bytes[i]) ++i;
  if (i == common && got.size() == expect.bytes.size()) return {Verdict::Pass, ""};
  char buf[160];
  if (i < common)
    std::snprintf(buf, sizeof buf,
                  "output differs at byte %zu (expected 0x%02X, got 0x%02X); "
                  "%zu bytes expected, %zu written",
                  i, expect.bytes[i], got[i], expect.bytes.size(), got.size());
  else
    std::snprintf(buf, sizeof buf,
                  "output length differs: %zu bytes expected, %zu written "
                  "(equal up to byte %zu)",
                  expect.bytes.size(), got.size(), i);
  return {Verdict::Fail, buf};
}

// ---- expected failures ---------------------------------------------------------------------

namespace {

using Key = std::tuple<std::string, std::string, Check>;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// "vfp-json" is the profile compile results are reported under (a compiler has no profile).
bool is_profile(std::string_view p) {
  return p == "vfp-static" || p == "vfp-rig" || p == "rkc-strict" || p == "rkc-compat" ||
         p == "vfp-json";
}

bool fails(Verdict v) {
  return v == Verdict::Fail || v == Verdict::Crash || v == Verdict::Timeout || v == Verdict::Xfail;
}

}  // namespace

ExpectedFailureList parse_expected_failures(std::string_view text) {
  ExpectedFailureList list;
  std::map<Key, size_t> seen;
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    std::string_view reason;
    if (auto hash = line.find('#'); hash != std::string_view::npos) {
      reason = trim(line.substr(hash + 1));
      line = line.substr(0, hash);
    }
    line = trim(line);
    if (line.empty()) continue;
    std::vector<std::string_view> tokens;
    while (!line.empty()) {
      size_t end = line.find_first_of(" \t");
      tokens.push_back(line.substr(0, end));
      line = end == std::string_view::npos ? std::string_view() : trim(line.substr(end));
    }
    const std::string where = "line " + std::to_string(line_no) + ": ";
    if (tokens.size() < 2 || tokens.size() > 3) {
      list.problems.push_back(where + "expected `CASE_ID PROFILE [CHECK]  # reason`");
      continue;
    }
    if (!is_profile(tokens[1])) {
      list.problems.push_back(where + "unknown profile '" + std::string(tokens[1]) +
                              "' (vfp-static, vfp-rig, rkc-strict, rkc-compat)");
      continue;
    }
    ExpectedFailure e{std::string(tokens[0]), std::string(tokens[1]), Check::Dump,
                      std::string(reason)};
    if (tokens.size() == 3) {
      auto c = check_from_string(tokens[2]);
      if (!c) {
        list.problems.push_back(where + "unknown check '" + std::string(tokens[2]) +
                                "' (dump, roundtrip, canonicalize, compile, pose, mesh)");
        continue;
      }
      e.check = *c;
    }
    auto [it, inserted] = seen.emplace(Key{e.id, e.profile, e.check}, line_no);
    if (!inserted) {
      list.problems.push_back(where + "duplicate of line " + std::to_string(it->second));
      continue;
    }
    list.entries.push_back(std::move(e));
  }
  return list;
}

std::vector<ExpectedFailure> apply_expected_failures(std::vector<CaseResult>& results,
                                                     const ExpectedFailureList& list) {
  std::map<Key, const ExpectedFailure*> listed;
  for (const auto& e : list.entries) listed.emplace(Key{e.id, e.profile, e.check}, &e);
  std::map<Key, bool> used;
  for (CaseResult& r : results) {
    r.observed = r.verdict;
    auto it = listed.find(Key{r.id, r.profile, r.check});
    if (it == listed.end()) continue;
    used[it->first] = true;
    r.listed_reason = it->second->reason;
    if (r.verdict == Verdict::Fail || r.verdict == Verdict::Crash ||
        r.verdict == Verdict::Timeout) {
      r.verdict = Verdict::Xfail;
    } else if (r.verdict == Verdict::Pass || r.verdict == Verdict::Loose) {
      r.verdict = Verdict::Xpass;
      r.reason =
          "listed as an expected failure but passes now: remove its line (the list only "
          "shrinks)";
    }
  }
  std::vector<ExpectedFailure> unmatched;
  for (const auto& e : list.entries)
    if (!used.count(Key{e.id, e.profile, e.check})) unmatched.push_back(e);
  return unmatched;
}

std::string render_expected_failures(const std::vector<CaseResult>& results,
                                     const std::vector<ExpectedFailure>& kept) {
  std::map<Key, std::string> lines;
  for (const auto& e : kept) lines[Key{e.id, e.profile, e.check}] = e.reason;
  for (const CaseResult& r : results) {
    if (!fails(r.verdict)) continue;
    // The verdict the run had before the list turned it into xfail: fail, crash or timeout.
    const Verdict shown = r.verdict == Verdict::Xfail ? r.observed : r.verdict;
    const std::string reason = std::string(to_string(shown)) + ": " + r.reason;
    lines[Key{r.id, r.profile, r.check}] = snippet(reason, 200);
  }
  std::string out =
      "# voxrig conform expected failures: one `CASE_ID PROFILE [CHECK]  # reason` per line.\n"
      "# A listed case that fails is reported as xfail; a listed case that passes fails the run\n"
      "# (the list only shrinks). Rewritten by `voxrig conform --update-expected`.\n";
  for (const auto& [key, reason] : lines) {
    const auto& [id, profile, check] = key;
    out += id + " " + profile;
    if (check != Check::Dump) out += " " + std::string(to_string(check));
    if (!reason.empty()) out += "  # " + reason;
    out += "\n";
  }
  return out;
}

// ---- tallies --------------------------------------------------------------------------------

void Tally::add(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      ++pass;
      break;
    case Verdict::Loose:
      ++loose;
      break;
    case Verdict::Fail:
      ++fail;
      break;
    case Verdict::Crash:
      ++crash;
      break;
    case Verdict::Timeout:
      ++timeout;
      break;
    case Verdict::Xfail:
      ++xfail;
      break;
    case Verdict::Xpass:
      ++xpass;
      break;
  }
}

Summary summarize(const std::vector<CaseResult>& results, size_t skipped) {
  Summary s;
  s.skipped = skipped;
  for (const CaseResult& r : results) (r.counted ? s.counted : s.recommended).add(r.verdict);
  return s;
}

}  // namespace voxrig::conform
