// voxrig conform: verdicts, expected-failure lists, summary, JUnit XML, JSON report, manifest.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "voxrig/conform/conform.h"

namespace voxrig::conform {
namespace {

RunOutcome exited(int code, std::string out, std::string err = "") {
  RunOutcome r;
  r.exit_code = code;
  r.out = std::move(out);
  r.err = std::move(err);
  return r;
}

const DumpExpectation kAccept{true, "", R"({"schema": "voxrig-dump/2", "scale": 1.0})"};
const DumpExpectation kReject{false, "skel.parent_missing", ""};

TEST(ConformVerdict, DumpPassesOnTheSameValue) {
  auto j = judge_dump(kAccept, exited(0, R"({"scale": 1.0, "schema": "voxrig-dump/2"})"),
                      CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Pass) << j.reason;
}

TEST(ConformVerdict, DumpMismatchNamesThePath) {
  auto j = judge_dump(kAccept, exited(0, R"({"scale": -1.0, "schema": "voxrig-dump/2"})"),
                      CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_NE(j.reason.find("$.scale"), std::string::npos) << j.reason;
}

TEST(ConformVerdict, AcceptRejectMismatchFailsInBothModes) {
  for (CodeMode m : {CodeMode::Strict, CodeMode::Loose}) {
    auto j = judge_dump(kAccept, exited(1, R"({"error": "skel.cycle"})"), m);
    EXPECT_EQ(j.verdict, Verdict::Fail);
    EXPECT_EQ(j.reason, "rejected with skel.cycle, expected accept");
    j = judge_dump(kReject, exited(0, R"({"schema": "voxrig-dump/2"})"), m);
    EXPECT_EQ(j.verdict, Verdict::Fail);
    EXPECT_EQ(j.reason, "accepted, expected reject with skel.parent_missing");
  }
}

TEST(ConformVerdict, ErrorCodesAreComparedOnlyInStrictMode) {
  auto j = judge_dump(kReject, exited(1, R"({"error": "skel.parent_missing", "offset": 9})"),
                      CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Pass);
  j = judge_dump(kReject, exited(1, R"({"error": "skel.cycle"})"), CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_EQ(j.reason, "rejected with skel.cycle, expected skel.parent_missing");
  j = judge_dump(kReject, exited(1, R"({"error": "skel.cycle"})"), CodeMode::Loose);
  EXPECT_EQ(j.verdict, Verdict::Loose);
  j = judge_dump(kReject, exited(1, R"({"error": "skel.parent_missing"})"), CodeMode::Loose);
  EXPECT_EQ(j.verdict, Verdict::Pass);
}

TEST(ConformVerdict, CrashesAndTimeouts) {
  RunOutcome sig;
  sig.signal = 11;
  auto j = judge_dump(kAccept, sig, CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Crash);
  EXPECT_EQ(j.reason, "killed by signal 11 (SIGSEGV)");

  j = judge_dump(kReject, exited(2, "", "usage\n"), CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Crash);
  EXPECT_NE(j.reason.find("exit code 2"), std::string::npos);
  EXPECT_NE(j.reason.find("usage"), std::string::npos);

  // A long stderr keeps its end, where Python names the file it cannot open.
  const std::string cannot_open =
      "/root/.pyenv/versions/3.11.7/bin/python3: can't open file "
      "'/home/someone/projects/my-voxel-reader/src/my_reader.py': [Errno 2] No such file or "
      "directory\n";
  j = judge_dump(kAccept, exited(2, "", cannot_open), CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Crash);
  EXPECT_NE(j.reason.find("src/my_reader.py': [Errno 2] No such file or directory"),
            std::string::npos)
      << j.reason;
  EXPECT_LE(j.reason.size(), 140u) << j.reason;  // a summary line stays within 200

  j = judge_dump(kAccept, exited(0, "hello"), CodeMode::Strict);  // invalid JSON
  EXPECT_EQ(j.verdict, Verdict::Crash);
  j = judge_dump(kReject, exited(0, "hello"), CodeMode::Strict);  // invalid JSON beats verdict
  EXPECT_EQ(j.verdict, Verdict::Crash);
  j = judge_dump(kReject, exited(1, "skel.parent_missing"), CodeMode::Strict);  // protocol
  EXPECT_EQ(j.verdict, Verdict::Crash);
  j = judge_dump(kReject, exited(1, ""), CodeMode::Loose);
  EXPECT_EQ(j.verdict, Verdict::Crash);

  RunOutcome slow;
  slow.timed_out = true;
  slow.seconds = 2.5;
  j = judge_dump(kAccept, slow, CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Timeout);
  EXPECT_NE(j.reason.find("2.5"), std::string::npos);

  RunOutcome big = exited(0, "{}");
  big.output_overflow = true;
  EXPECT_EQ(judge_dump(kAccept, big, CodeMode::Strict).verdict, Verdict::Crash);

  RunOutcome none;
  none.started = false;
  none.spawn_error = "/nope: No such file";
  j = judge_dump(kAccept, none, CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Crash);
  EXPECT_NE(j.reason.find("/nope"), std::string::npos);
}

TEST(ConformVerdict, WriterBytesAndErrors) {
  const std::vector<uint8_t> want = {1, 2, 3, 4};
  WriterExpectation bytes;
  bytes.bytes = want;
  EXPECT_EQ(judge_writer(bytes, exited(0, ""), want, CodeMode::Strict).verdict, Verdict::Pass);
  auto j = judge_writer(bytes, exited(0, ""), std::vector<uint8_t>{1, 2, 9, 4}, CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_NE(j.reason.find("byte 2 (expected 0x03, got 0x09)"), std::string::npos) << j.reason;
  j = judge_writer(bytes, exited(0, ""), std::vector<uint8_t>{1, 2, 3}, CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_NE(j.reason.find("4 bytes expected, 3 written"), std::string::npos) << j.reason;
  j = judge_writer(bytes, exited(0, ""), std::nullopt, CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_EQ(judge_writer(bytes, exited(1, R"({"error": "rvc.write.unrepresentable"})"),
                         std::nullopt, CodeMode::Strict)
                .verdict,
            Verdict::Fail);

  WriterExpectation refuse;
  refuse.error = true;
  refuse.code = "rvc.write.unrepresentable";
  EXPECT_EQ(judge_writer(refuse, exited(1, R"({"error": "rvc.write.unrepresentable"})"),
                         std::nullopt, CodeMode::Strict)
                .verdict,
            Verdict::Pass);
  EXPECT_EQ(judge_writer(refuse, exited(1, R"({"error": "other"})"), std::nullopt, CodeMode::Loose)
                .verdict,
            Verdict::Loose);
  EXPECT_EQ(judge_writer(refuse, exited(0, ""), want, CodeMode::Strict).verdict, Verdict::Fail);
  RunOutcome sig;
  sig.signal = 6;
  EXPECT_EQ(judge_writer(refuse, sig, std::nullopt, CodeMode::Strict).verdict, Verdict::Crash);
}

// ---- expected failures -----------------------------------------------------------------------

CaseResult result(std::string id, std::string profile, Verdict v, Check c = Check::Dump) {
  CaseResult r;
  r.id = std::move(id);
  r.profile = std::move(profile);
  r.check = c;
  r.verdict = v;
  r.reason = "because";
  return r;
}

TEST(ConformProgress, CountRateCaseProfileAndANonDumpCheck) {
  EXPECT_EQ(progress_text(3, 10, 1.5, result("vfp/a", "vfp-rig", Verdict::Pass)),
            "[3/10 2.0/s ] vfp/a vfp-rig");
  EXPECT_EQ(progress_text(1, 2, 0, result("vfp/b", "vfp-static", Verdict::Fail, Check::Pose)),
            "[1/2 0.0/s ] vfp/b vfp-static pose");
}

TEST(ConformExpectedFailures, ParsesEntriesCommentsAndChecks) {
  auto list = parse_expected_failures(
      "# header comment\n"
      "\n"
      "vfp/skel/a vfp-rig   # our reader reports skel.cycle here\n"
      "  vfp/skel/b\tvfp-static\n"
      "rkc/x rkc-compat roundtrip # writer drops trailing bytes\r\n");
  ASSERT_TRUE(list.problems.empty()) << list.problems[0];
  ASSERT_EQ(list.entries.size(), 3u);
  EXPECT_EQ(list.entries[0].id, "vfp/skel/a");
  EXPECT_EQ(list.entries[0].profile, "vfp-rig");
  EXPECT_EQ(list.entries[0].check, Check::Dump);
  EXPECT_EQ(list.entries[0].reason, "our reader reports skel.cycle here");
  EXPECT_EQ(list.entries[1].id, "vfp/skel/b");
  EXPECT_EQ(list.entries[1].reason, "");
  EXPECT_EQ(list.entries[2].check, Check::Roundtrip);
  EXPECT_EQ(list.entries[2].reason, "writer drops trailing bytes");
}

TEST(ConformExpectedFailures, MalformedLinesAreProblemsWithLineNumbers) {
  auto list = parse_expected_failures(
      "vfp/a\n"                     // 1: no profile
      "vfp/a vfp\n"                 // 2: unknown profile
      "vfp/a vfp-rig dumpp\n"       // 3: unknown check
      "vfp/a vfp-rig dump extra\n"  // 4: too many tokens
      "vfp/a vfp-rig\n"             // 5: fine
      "vfp/a vfp-rig dump\n");      // 6: duplicate of 5 (dump is the default)
  ASSERT_EQ(list.problems.size(), 5u);
  EXPECT_TRUE(list.problems[0].starts_with("line 1: ")) << list.problems[0];
  EXPECT_TRUE(list.problems[1].starts_with("line 2: unknown profile 'vfp'")) << list.problems[1];
  EXPECT_TRUE(list.problems[2].starts_with("line 3: unknown check")) << list.problems[2];
  EXPECT_TRUE(list.problems[3].starts_with("line 4: ")) << list.problems[3];
  EXPECT_EQ(list.problems[4], "line 6: duplicate of line 5");
  EXPECT_EQ(list.entries.size(), 1u);
}

TEST(ConformExpectedFailures, ListedFailuresAreXfailListedPassesAreXpass) {
  std::vector<CaseResult> rs = {
      result("a", "vfp-rig", Verdict::Fail),
      result("b", "vfp-rig", Verdict::Crash),
      result("c", "vfp-rig", Verdict::Timeout),
      result("d", "vfp-rig", Verdict::Pass),
      result("e", "vfp-rig", Verdict::Loose),
      result("f", "vfp-rig", Verdict::Fail),
      result("a", "vfp-static", Verdict::Fail),
      result("a", "vfp-rig", Verdict::Fail, Check::Roundtrip),
  };
  auto list = parse_expected_failures(
      "a vfp-rig # known\nb vfp-rig\nc vfp-rig\nd vfp-rig\ne vfp-rig\ngone vfp-rig # stale\n");
  auto unmatched = apply_expected_failures(rs, list);
  EXPECT_EQ(rs[0].verdict, Verdict::Xfail);
  EXPECT_EQ(rs[0].observed, Verdict::Fail);
  EXPECT_EQ(rs[0].listed_reason, "known");
  EXPECT_EQ(rs[1].verdict, Verdict::Xfail);
  EXPECT_EQ(rs[1].observed, Verdict::Crash);
  EXPECT_EQ(rs[2].verdict, Verdict::Xfail);
  EXPECT_EQ(rs[3].verdict, Verdict::Xpass);  // the list only shrinks
  EXPECT_NE(rs[3].reason.find("remove"), std::string::npos);
  EXPECT_EQ(rs[4].verdict, Verdict::Xpass);
  EXPECT_EQ(rs[5].verdict, Verdict::Fail);  // not listed
  EXPECT_EQ(rs[6].verdict, Verdict::Fail);  // listed for another profile only
  EXPECT_EQ(rs[7].verdict, Verdict::Fail);  // listed for the dump check only
  ASSERT_EQ(unmatched.size(), 1u);
  EXPECT_EQ(unmatched[0].id, "gone");

  Summary s = summarize(rs, 4);
  EXPECT_EQ(s.counted.xfail, 3u);
  EXPECT_EQ(s.counted.xpass, 2u);
  EXPECT_EQ(s.counted.fail, 3u);
  EXPECT_EQ(s.counted.failed(), 5u);  // 3 fail + 2 xpass
  EXPECT_EQ(s.counted.passed(), 0u);
  EXPECT_EQ(s.skipped, 4u);
}

TEST(ConformExpectedFailures, UpdateListsCurrentFailuresAndKeepsUnrunEntries) {
  std::vector<CaseResult> rs = {
      result("b", "vfp-rig", Verdict::Fail),
      result("a", "vfp-rig", Verdict::Pass),
      result("c", "vfp-rig", Verdict::Timeout),
      result("a", "vfp-static", Verdict::Xfail),
      result("d", "vfp-rig", Verdict::Xpass),
      result("c", "vfp-rig", Verdict::Crash, Check::Canonicalize),
  };
  rs[3].observed = Verdict::Crash;
  std::vector<ExpectedFailure> kept = {{"z", "rkc-strict", Check::Dump, "not run today"}};
  const std::string text = render_expected_failures(rs, kept);
  const std::string body =
      "a vfp-static  # crash: because\n"
      "b vfp-rig  # fail: because\n"
      "c vfp-rig  # timeout: because\n"
      "c vfp-rig canonicalize  # crash: because\n"
      "z rkc-strict  # not run today\n";
  ASSERT_GE(text.size(), body.size());
  EXPECT_EQ(text.substr(text.size() - body.size()), body) << text;
  // What it writes, it reads back without problems.
  auto reread = parse_expected_failures(text);
  EXPECT_TRUE(reread.problems.empty());
  EXPECT_EQ(reread.entries.size(), 5u);
}

// ---- summary, JUnit, JSON report ---------------------------------------------------------------

RunInfo info() {
  RunInfo i;
  i.suite = "voxrig";
  i.suite_version = "0.1.0";
  i.manifest_sha256 = std::string(64, 'a');
  i.golden_dir = "/g";
  i.reader = "python3 reader.py --flag \"x\" <&>";
  i.profiles = {"vfp-static", "vfp-rig"};
  i.seconds = 1.25;
  return i;
}

std::vector<CaseResult> mixed() {
  std::vector<CaseResult> rs = {
      result("vfp/ok", "vfp-rig", Verdict::Pass),
      result("vfp/bad", "vfp-rig", Verdict::Fail),
      result("vfp/boom", "vfp-static", Verdict::Crash),
      result("vfp/slow", "vfp-static", Verdict::Timeout),
      result("vfp/known", "vfp-rig", Verdict::Xfail),
      result("vfp/loose", "vfp-rig", Verdict::Loose),
      result("vfp/limit", "vfp-rig", Verdict::Fail),
      result("vfp/ok", "vfp-rig", Verdict::Pass, Check::Roundtrip),
  };
  rs[1].reason = "dump differs at $.a: <b> & \"c\"";
  rs[2].reason = "killed by signal 11 (SIGSEGV)";
  rs[2].stderr_tail = std::string("bad \x01 bytes \xff\xfe and \xef\xbf\xbf end ]]>\n");
  rs[4].observed = Verdict::Fail;
  rs[6].level = Level::Recommended;
  rs[6].counted = false;
  return rs;
}

TEST(ConformReport, SummaryEndsWithTheCountsLine) {
  auto rs = mixed();
  Summary s = summarize(rs, 7);
  EXPECT_EQ(s.counted.passed(), 3u);  // 2 pass + 1 loose
  EXPECT_EQ(s.counted.failed(), 3u);  // fail + crash + timeout
  EXPECT_EQ(s.recommended.failed(), 1u);
  const std::string text = summary_text(info(), rs, s);
  const std::string tail =
      "crash: 1\ntimeout: 1\nxfail: 1\nloose: 1\nskipped: 7 (checks that do not apply, not "
      "failures: a profile of the other format family, a writer check the manifest leaves out)\n"
      "time: 1.25 s, 6.4 checks/s\nlevel reached: dumps (next: writers; partial: 2 of 4 profiles)\n"
      "3 passed, 3 failed\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail) << text;
  EXPECT_NE(text.find("FAIL    vfp/bad  vfp-rig  dump: dump differs"), std::string::npos) << text;
  EXPECT_NE(text.find("recommended: 0 passed, 1 failed"), std::string::npos) << text;
  EXPECT_EQ(text.find("vfp/known"), std::string::npos);  // xfail is counted, not listed
}

// A minimal XML 1.0 well-formedness check: one root, balanced tags, quoted attributes, only
// the five predefined entities or character references, no control characters, valid UTF-8.
// Returns "" or the first problem; counts elements by name.
std::string check_xml(const std::string& x, std::map<std::string, int>& counts) {
  for (size_t i = 0; i < x.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(x[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "control character";
  }
  nlohmann::json probe = x;  // nlohmann validates UTF-8 when dumping
  try {
    (void)probe.dump();
  } catch (const std::exception&) {
    return "invalid UTF-8";
  }
  auto entity_ok = [&](size_t amp) {
    const size_t semi = x.find(';', amp);
    if (semi == std::string::npos) return false;
    const std::string e = x.substr(amp + 1, semi - amp - 1);
    if (e == "amp" || e == "lt" || e == "gt" || e == "quot" || e == "apos") return true;
    if (e.size() >= 2 && e[0] == '#')
      return e.find_first_not_of("0123456789", 1) == std::string::npos;
    return false;
  };
  if (!x.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")) return "no XML declaration";
  size_t i = x.find('\n') + 1;
  std::vector<std::string> stack;
  bool root_done = false;
  while (i < x.size()) {
    if (x[i] != '<') {
      if (x[i] == '&' && !entity_ok(i)) return "bad entity in text";
      if (x[i] == '>') return "raw '>' in text";
      if (stack.empty() && x[i] != '\n' && x[i] != ' ') return "text outside the root";
      ++i;
      continue;
    }
    const bool closing = i + 1 < x.size() && x[i + 1] == '/';
    size_t j = i + (closing ? 2 : 1);
    const size_t name_start = j;
    while (j < x.size() &&
           (std::isalnum(static_cast<unsigned char>(x[j])) || x[j] == '-' || x[j] == '_'))
      ++j;
    const std::string name = x.substr(name_start, j - name_start);
    if (name.empty()) return "empty tag name";
    if (closing) {
      if (stack.empty() || stack.back() != name) return "unbalanced </" + name + ">";
      stack.pop_back();
      if (j >= x.size() || x[j] != '>') return "bad closing tag";
      i = j + 1;
      if (stack.empty()) root_done = true;
      continue;
    }
    if (root_done) return "second root element";
    ++counts[name];
    // attributes
    while (true) {
      while (j < x.size() && x[j] == ' ') ++j;
      if (j >= x.size()) return "unterminated tag";
      if (x[j] == '>' || (x[j] == '/' && j + 1 < x.size() && x[j + 1] == '>')) break;
      const size_t a = j;
      while (j < x.size() && (std::isalnum(static_cast<unsigned char>(x[j])) || x[j] == '_')) ++j;
      if (j == a || j + 1 >= x.size() || x[j] != '=' || x[j + 1] != '"') return "bad attribute";
      j += 2;
      while (j < x.size() && x[j] != '"') {
        if (x[j] == '<') return "'<' in attribute";
        if (x[j] == '&' && !entity_ok(j)) return "bad entity in attribute";
        ++j;
      }
      if (j >= x.size()) return "unterminated attribute";
      ++j;
    }
    if (x[j] == '/') {
      i = j + 2;
      if (stack.empty()) root_done = true;
    } else {
      stack.push_back(name);
      i = j + 1;
    }
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  if (!root_done) return "no root";
  return "";
}

TEST(ConformReport, JUnitIsWellFormedAndCountsFailures) {
  auto rs = mixed();
  const std::string x = junit_xml(info(), rs);
  std::map<std::string, int> counts;
  EXPECT_EQ(check_xml(x, counts), "") << x;
  EXPECT_EQ(counts["testsuites"], 1);
  EXPECT_EQ(counts["testsuite"], 2);  // vfp-static, vfp-rig
  EXPECT_EQ(counts["testcase"], 8);
  EXPECT_EQ(counts["failure"], 1);  // vfp/bad
  EXPECT_EQ(counts["error"], 2);    // crash, timeout
  EXPECT_EQ(counts["skipped"], 2);  // xfail, recommended failure
  EXPECT_NE(x.find("tests=\"8\" failures=\"1\" errors=\"2\" skipped=\"2\""), std::string::npos);
  EXPECT_NE(x.find("name=\"vfp/ok [roundtrip]\""), std::string::npos);
  EXPECT_NE(x.find("&lt;b&gt; &amp; &quot;c&quot;"), std::string::npos);
  // vfp-static is the first suite, as listed in RunInfo::profiles.
  EXPECT_LT(x.find("<testsuite name=\"vfp-static\""), x.find("<testsuite name=\"vfp-rig\""));

  // The checker itself catches what it must.
  std::map<std::string, int> c2;
  EXPECT_NE(check_xml("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a><b></a></b>\n", c2), "");
  EXPECT_NE(check_xml("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a x=\"&\"/>\n", c2), "");
  EXPECT_NE(check_xml("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>\x01</a>\n", c2), "");
}

TEST(ConformReport, JsonReportCarriesRunInfoAndEveryResult) {
  auto rs = mixed();
  Summary s = summarize(rs, 7);
  RunInfo i = info();
  i.codes = CodeMode::Loose;
  const std::string text = report_json(i, rs, s);
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(text)) << text;
  EXPECT_EQ(j["schema"], "voxrig-conform-report/2");
  EXPECT_EQ(j["suite_version"], "0.1.0");
  EXPECT_EQ(j["manifest_sha256"], std::string(64, 'a'));
  EXPECT_EQ(j["reader"], "python3 reader.py --flag \"x\" <&>");
  EXPECT_EQ(j["codes"], "loose");
  EXPECT_EQ(j["profiles"], nlohmann::json({"vfp-static", "vfp-rig"}));
  EXPECT_EQ(j["summary"]["counted"]["passed"], 3);
  EXPECT_EQ(j["summary"]["counted"]["failed"], 3);
  EXPECT_EQ(j["summary"]["counted"]["loose"], 1);
  EXPECT_EQ(j["summary"]["recommended"]["failed"], 1);
  EXPECT_EQ(j["summary"]["skipped"], 7);
  ASSERT_EQ(j["results"].size(), 8u);
  EXPECT_EQ(j["results"][2]["verdict"], "crash");
  EXPECT_EQ(j["results"][2]["reason"], "killed by signal 11 (SIGSEGV)");
  EXPECT_TRUE(j["results"][2].contains("stderr_tail"));
  EXPECT_EQ(j["results"][4]["verdict"], "xfail");
  EXPECT_EQ(j["results"][4]["observed"], "fail");
  EXPECT_EQ(j["results"][6]["level"], "recommended");
  EXPECT_EQ(j["results"][6]["counted"], false);
  EXPECT_EQ(j["results"][7]["check"], "roundtrip");
  EXPECT_TRUE(j["results"][0]["time_ms"].is_number());
}

// ---- manifest -----------------------------------------------------------------------------------

constexpr const char* kManifest = R"({
  "schema": "voxrig-manifest/1", "suite": "voxrig", "suite_version": "0.1.0", "future_key": 1,
  "cases": [
    {"id": "vfp/a", "path": "files/vfp/a.vfp", "sha256": "0000000000000000000000000000000000000000000000000000000000000000",
     "format": "vfp", "tags": ["positive"], "rule": "r", "level": "required", "source": "s",
     "expect": {"vfp-rig": {"verdict": "accept", "dump": "dumps/vfp/a.vfp-rig.json", "roundtrip": "same",
                            "canonicalize": "expected/vfp/a.vfp-rig.canonicalize.vfp"},
                "vfp-static": {"verdict": "reject", "error": "vfp.section.unknown_required"}}},
    {"id": "vfp/b", "path": "files/vfp/b.vfp", "sha256": "1111111111111111111111111111111111111111111111111111111111111111",
     "format": "vfp", "level": "recommended",
     "expect": {"vfp-rig": {"verdict": "accept", "dump": "dumps/b.json", "roundtrip": {"error": "x.y"}}}}
  ]})";

TEST(ConformManifest, ParsesCasesAndExpectationsInProfileOrder) {
  std::string problem;
  auto m = parse_manifest(kManifest, &problem);
  ASSERT_TRUE(m) << problem;
  EXPECT_EQ(m->suite_version, "0.1.0");
  ASSERT_EQ(m->cases.size(), 2u);
  const ManifestCase& a = m->cases[0];
  EXPECT_EQ(a.level, Level::Required);
  ASSERT_EQ(a.expect.size(), 2u);
  EXPECT_EQ(a.expect[0].profile, "vfp-static");  // fixed order, not file order
  EXPECT_FALSE(a.expect[0].accept);
  EXPECT_EQ(a.expect[0].error, "vfp.section.unknown_required");
  const ManifestExpect* rig = a.find("vfp-rig");
  ASSERT_NE(rig, nullptr);
  EXPECT_EQ(rig->dump, "dumps/vfp/a.vfp-rig.json");
  EXPECT_EQ(rig->roundtrip.kind, WriterSpec::Kind::Same);
  EXPECT_EQ(rig->canonicalize.kind, WriterSpec::Kind::Path);
  EXPECT_EQ(a.find("rkc-strict"), nullptr);
  EXPECT_EQ(m->cases[1].level, Level::Recommended);
  EXPECT_EQ(m->cases[1].expect[0].roundtrip.kind, WriterSpec::Kind::Error);
  EXPECT_EQ(m->cases[1].expect[0].roundtrip.value, "x.y");
  EXPECT_EQ(m->cases[1].expect[0].canonicalize.kind, WriterSpec::Kind::Absent);
}

// Capability cases carry their resolved rules like reader cases (reports name them).
TEST(ConformManifest, CapabilityCasesCarryTheirRules) {
  std::string text = kManifest;
  const std::string tail = "\n  ]}";
  ASSERT_EQ(text.substr(text.size() - tail.size()), tail);
  text.replace(text.size() - tail.size(), tail.size(), R"(],
  "pose_cases": [
    {"id": "pose/a/0/t1", "path": "files/vfp/a.vfp", "sha256": "0000000000000000000000000000000000000000000000000000000000000000",
     "format": "vfp", "profile": "vfp-rig", "rules": {"breaks": ["CONF-7"], "obeys": ["EVAL-1", "D19"]},
     "level": "required", "clip": "9", "t": "1", "expect": {"verdict": "reject", "error": "eval.bad_clip"}}]})");
  std::string problem;
  auto m = parse_manifest(text, &problem);
  ASSERT_TRUE(m) << problem;
  ASSERT_EQ(m->capability_cases.size(), 1u);
  const auto& rules = m->capability_cases[0].rules;
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].id, "CONF-7");
  EXPECT_EQ(rules[0].relation, RuleRelation::Breaks);
  EXPECT_EQ(rules[2].id, "D19");
  EXPECT_EQ(rules[2].relation, RuleRelation::Obeys);
  const std::string lists = R"({"breaks": ["CONF-7"], "obeys": ["EVAL-1", "D19"]})";
  text.replace(text.find(lists), lists.size(), R"(["CONF-7"])");
  EXPECT_FALSE(parse_manifest(text, &problem));
  EXPECT_NE(problem.find("\"rules\" must be an object"), std::string::npos) << problem;
}

TEST(ConformManifest, RefusesWhatItCannotTrust) {
  auto refuses = [](std::string from, std::string to, std::string want) {
    std::string text = kManifest;
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    std::string problem;
    EXPECT_FALSE(parse_manifest(text, &problem)) << to;
    EXPECT_NE(problem.find(want), std::string::npos) << problem;
  };
  refuses("files/vfp/a.vfp", "../a.vfp", "relative path");
  refuses("files/vfp/a.vfp", "/etc/passwd", "relative path");
  refuses("dumps/b.json", "dumps/../../b.json", "relative path");
  refuses("\"vfp-static\": {", "\"vfp-statik\": {", "unknown profile");
  refuses("\"verdict\": \"reject\"", "\"verdict\": \"maybe\"", "verdict");
  refuses("\"verdict\": \"accept\", \"dump\": \"dumps/b.json\",", "\"verdict\": \"accept\",",
          "\"dump\"");
  refuses("\"id\": \"vfp/b\"", "\"id\": \"vfp/a\"", "duplicate id");
  refuses("\"level\": \"recommended\"", "\"level\": \"optional\"", "level");
  refuses("1111111111111111111111111111111111111111111111111111111111111111", "11", "sha256");
  refuses("voxrig-manifest/1", "voxrig-manifest/2", "schema");
  refuses("\"cases\": [", "\"cases\": {\"x\": [", "");  // invalid JSON
  refuses("\"id\": \"vfp/b\"", "\"id\": \"vfp b\"", "id");
}

}  // namespace
}  // namespace voxrig::conform
