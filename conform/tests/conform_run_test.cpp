// voxrig/conform/run.h: whole runs through run_conformance(). A fake corpus built here with a
// fake reader (a shell script whose case files say what to do: answer right, answer wrong, crash,
// hang, print garbage) through the real process transport; and a slice of the golden corpus with
// the reference as an in-process reader and with readers given one deliberate bug.
#include "voxrig/conform/run.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "temp_dir.h"
#include "voxrig/any_format.h"
#include "voxrig/conform/corpus.h"
#include "voxrig/sha256.h"

namespace voxrig::conform {
namespace {

namespace fs = std::filesystem;

void put(const std::string& path, const std::string& text, bool executable = false) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
  if (executable) ::chmod(path.c_str(), 0755);
}

std::string sha_of(std::string_view s) {
  return to_hex(sha256({reinterpret_cast<const uint8_t*>(s.data()), s.size()}));
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The reader under test: the case file's first four bytes say what to do.
constexpr const char* kFakeReader = R"SH(#!/bin/sh
op="$1"; in="$4"; out="$5"
case "$op" in
  roundtrip) cp "$in" "$out"; exit 0 ;;
  canonicalize) printf 'X' > "$out"; exit 0 ;;
esac
what=$(head -c 4 "$in")
case "$what" in
  ACPT) tail -c +5 "$in"; exit 0 ;;
  REJ:) printf '{"error": "%s", "offset": 0}\n' "$(tail -c +5 "$in")"; exit 1 ;;
  SEGV) echo "about to crash" >&2; kill -SEGV $$ ;;
  HANG) sleep 30 ;;
  JUNK) echo 'Segmentation fault (core dumped)'; exit 0 ;;
esac
exit 7
)SH";

struct FakeCase {
  std::string id, content, level;
  std::string expect;  // JSON of the "expect" object
};

class ConformRun : public ::testing::Test {
 protected:
  void SetUp() override {
    reader_ = tmp_ / "reader.sh";
    put(reader_, kFakeReader, true);
    const std::string dump = R"({"n": 2, "x": 1.0})";
    put(tmp_ / "golden/dumps/ok.json", dump);
    put(tmp_ / "golden/dumps/zero.json", R"({"x": 0.0})");
    put(tmp_ / "golden/expected/ok.canon", "ACPT" + dump);
    const std::string ok_expect =
        R"({"verdict": "accept", "dump": "dumps/ok.json", "roundtrip": "same",)"
        R"( "canonicalize": "expected/ok.canon"})";
    cases_ = {
        {"t/accept_ok", "ACPT{\"x\": 1.0, \"n\": 2}", "required",
         R"({"vfp-static": )" + ok_expect + R"(, "vfp-rig": )" + ok_expect + "}"},
        {"t/accept_wrong", "ACPT{\"x\": -0.0}", "required",
         R"({"vfp-rig": {"verdict": "accept", "dump": "dumps/zero.json"}})"},
        {"t/reject_ok", "REJ:skel.cycle", "required",
         R"({"vfp-rig": {"verdict": "reject", "error": "skel.cycle"}})"},
        {"t/reject_code", "REJ:skel.other", "required",
         R"({"vfp-rig": {"verdict": "reject", "error": "skel.cycle"}})"},
        {"t/crash", "SEGV", "required",
         R"({"vfp-rig": {"verdict": "accept", "dump": "dumps/ok.json"}})"},
        {"t/hang", "HANG", "required", R"({"vfp-rig": {"verdict": "reject", "error": "x.y"}})"},
        {"t/junk", "JUNK", "required",
         R"({"vfp-rig": {"verdict": "accept", "dump": "dumps/ok.json"}})"},
        {"t/rec", "REJ:vfp.limit.sections", "recommended",
         R"({"vfp-rig": {"verdict": "accept", "dump": "dumps/ok.json"}})"},
    };
    std::string manifest =
        R"({"schema": "voxrig-manifest/1", "suite": "voxrig", "suite_version": "9.8.7", )"
        R"("spec_version": "4.5", "corpus_version": "6.7", "cases": [)";
    for (size_t i = 0; i < cases_.size(); ++i) {
      const FakeCase& c = cases_[i];
      const std::string rel = "files/" + c.id + ".bin";
      put(tmp_ / ("golden/" + rel), c.content);
      const auto digest =
          sha256({reinterpret_cast<const uint8_t*>(c.content.data()), c.content.size()});
      manifest += (i ? ",\n" : "\n") + std::string(R"({"id": ")") + c.id + R"(", "path": ")" + rel +
                  R"(", "sha256": ")" + to_hex(digest) + R"(", "format": "vfp", "level": ")" +
                  c.level + R"(", "expect": )" + c.expect + "}";
    }
    manifest += "]}\n";
    put(tmp_ / "golden/manifest.json", manifest);
  }

  // Runs the fake reader (timeout 2 s) over the fake corpus with `profiles`, after `adjust`.
  RunResult run(std::vector<std::string> profiles,
                const std::function<void(RunOptions&)>& adjust = {}) {
    RunOptions o;
    o.golden_dir = tmp_ / "golden";
    o.reader_argv = shell_command(reader_, {});
    o.reader_name = reader_;
    o.protocol = ReaderProtocol::OneShot;  // the one-shot protocol's rules (serve: serve_faults.sh)
    // Long enough for a shell start on a busy 2-core CI host; only t/hang waits it out.
    o.timeout_seconds = 2.0;
    o.profiles = std::move(profiles);
    if (adjust) adjust(o);
    RunProgress progress;
    progress.judged = [&](size_t done, size_t total, const CaseResult&) {
      last_progress_ = std::to_string(done) + "/" + std::to_string(total);
    };
    RunResult r = run_conformance(o, progress);
    text_ = summary_text(r.info, r.results, r.summary);
    return r;
  }

  std::string last_line() const {
    std::string s = text_;
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s.substr(s.rfind('\n') + 1);
  }

  TempDir tmp_;
  std::string reader_, text_, last_progress_;
  std::vector<FakeCase> cases_;
};

TEST_F(ConformRun, VerdictsAndSummary) {
  RunResult r = run({"vfp-rig", "vfp-static"});
  ASSERT_EQ(r.status, RunStatus::Completed);
  EXPECT_FALSE(r.passed());
  // pass: accept_ok x2, reject_ok; fail: accept_wrong, reject_code; crash: crash, junk;
  // timeout: hang. t/rec fails but is recommended: reported, not counted.
  EXPECT_EQ(last_line(), "3 passed, 5 failed") << text_;
  EXPECT_EQ(r.summary.counted.crash, 2u);
  EXPECT_EQ(r.summary.counted.timeout, 1u);
  EXPECT_EQ(r.summary.skipped, 7u);  // 7 cases lack vfp-static
  EXPECT_EQ(last_progress_, "9/9");
  EXPECT_TRUE(has(header_text(r.info), "suite voxrig 9.8.7, voxrig spec 4.5, golden corpus 6.7, manifest sha256 ")) << text_;
  EXPECT_TRUE(has(text_, "FAIL    t/accept_wrong  vfp-rig  dump: dump differs at $.x")) << text_;
  EXPECT_TRUE(has(
      text_, "FAIL    t/reject_code  vfp-rig  dump: rejected with skel.other, expected skel.cycle"))
      << text_;
  // The fake reader runs under `sh -c`, whose exit status reports the signal as 128 + 11.
  EXPECT_TRUE(
      has(text_,
          "CRASH   t/crash  vfp-rig  dump: exit code 139 (a shell's report of signal 11, SIGSEGV)"))
      << text_;
  EXPECT_TRUE(has(text_, "CRASH   t/junk  vfp-rig  dump: exit 0 with invalid JSON")) << text_;
  EXPECT_TRUE(has(text_, "TIMEOUT t/hang  vfp-rig  dump: timed out")) << text_;
  EXPECT_TRUE(has(text_, "recommended: 0 passed, 1 failed")) << text_;

  r = run({"vfp-rig"}, [](RunOptions& o) { o.count_recommended = true; });
  EXPECT_EQ(last_line(), "2 passed, 6 failed") << text_;
}

// The adoption ladder: the rung a run makes up, the rung it reached, and the verdicts rung
// judging accept / reject and code without reading an accepting reader's stdout.
TEST_F(ConformRun, AdoptionLadder) {
  auto only = [](std::vector<std::string> filters, ConformanceLevel level) {
    return [filters, level](RunOptions& o) {
      o.filters = filters;
      o.checks = checks_for_level(level);
    };
  };
  // Dumps: the wrong dump fails, but every verdict is right, so the verdicts rung is reached.
  RunResult r = run({"vfp-rig"}, only({"accept_", "reject_ok"}, ConformanceLevel::Dumps));
  EXPECT_EQ(last_line(), "2 passed, 1 failed") << text_;
  EXPECT_EQ(r.summary.level_run, ConformanceLevel::Dumps);
  EXPECT_EQ(r.summary.level_reached, ConformanceLevel::Verdicts);
  EXPECT_TRUE(has(text_, "\nlevel reached: verdicts (run: dumps; next: dumps; partial: 1 of 4 "
                         "profiles, filtered)\n"))
      << text_;
  const auto j = nlohmann::json::parse(report_json(r.info, r.results, r.summary));
  EXPECT_EQ(j["schema"], "voxrig-conform-report/2");
  EXPECT_EQ(j["level"]["run"], "dumps");
  EXPECT_EQ(j["level"]["reached"], "verdicts");
  EXPECT_EQ(j["level"]["partial"], nlohmann::json::array({"1 of 4 profiles", "filtered"}));
  EXPECT_EQ(j["cases"], "required");

  // Verdicts: the same cases pass, and so does a reader printing junk for an accepted file.
  r = run({"vfp-rig"}, only({"accept_", "reject_ok", "junk"}, ConformanceLevel::Verdicts));
  EXPECT_TRUE(r.passed()) << text_;
  EXPECT_EQ(last_line(), "4 passed, 0 failed") << text_;
  EXPECT_EQ(r.summary.level_run, ConformanceLevel::Verdicts);
  EXPECT_EQ(r.summary.level_reached, ConformanceLevel::Verdicts);
  EXPECT_TRUE(has(header_text(r.info), "level: verdicts")) << header_text(r.info);
  // ... but a wrong code or a crash is still a failure there, and no rung is reached.
  r = run({"vfp-rig"}, only({"reject_code", "crash"}, ConformanceLevel::Verdicts));
  EXPECT_EQ(last_line(), "0 passed, 2 failed") << text_;
  EXPECT_EQ(r.summary.level_reached, ConformanceLevel::None);
  EXPECT_TRUE(has(text_, "\nlevel reached: none (run: verdicts; next: verdicts;")) << text_;

  // Writers: the fake reader's canonicalize writes the wrong bytes: dumps reached, not writers.
  r = run({"vfp-rig"}, only({"accept_ok"}, ConformanceLevel::Writers));
  EXPECT_EQ(r.summary.level_run, ConformanceLevel::Writers);
  EXPECT_EQ(r.summary.level_reached, ConformanceLevel::Dumps) << text_;
  // A listed failure does not reach a rung, although the run passes.
  r = run({"vfp-rig"}, [](RunOptions& o) {
    o.filters = {"accept_ok"};
    o.checks = checks_for_level(ConformanceLevel::Writers);
    o.expected_failures = parse_expected_failures("t/accept_ok vfp-rig canonicalize\n");
  });
  EXPECT_TRUE(r.passed()) << text_;
  EXPECT_EQ(r.summary.level_reached, ConformanceLevel::Dumps) << text_;
}

TEST_F(ConformRun, LooseCodesAndFilter) {
  auto loose = [](RunOptions& o) {
    o.filters = {"reject"};
    o.codes = CodeMode::Loose;
  };
  RunResult r = run({}, loose);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(last_line(), "2 passed, 0 failed") << text_;
  EXPECT_EQ(r.summary.counted.loose, 1u);
  EXPECT_EQ(r.summary.skipped, 6u);  // 2 cases x 3 other profiles
  r = run({}, [](RunOptions& o) { o.filters = {"reject"}; });
  EXPECT_EQ(last_line(), "1 passed, 1 failed") << text_;
  r = run({}, [](RunOptions& o) { o.filters = {"no-such-case"}; });
  EXPECT_EQ(r.status, RunStatus::NothingToRun);
}

TEST_F(ConformRun, ExpectedFailuresShrinkOnly) {
  RunResult r = run({});
  const std::string text = render_expected_failures(r.results, r.kept);
  EXPECT_TRUE(has(text, "t/crash vfp-rig  # crash: exit code 139 (a shell's report of signal 11"))
      << text;
  EXPECT_TRUE(has(text, "t/hang vfp-rig  # timeout: ")) << text;
  EXPECT_FALSE(has(text, "t/accept_ok")) << text;

  auto listed = [](const std::string& list, std::vector<std::string> filters = {}) {
    return [list, filters](RunOptions& o) {
      o.expected_failures = parse_expected_failures(list);
      o.filters = filters;
    };
  };
  r = run({}, listed(text));
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(last_line(), "3 passed, 0 failed") << text_;
  EXPECT_EQ(r.summary.counted.xfail, 5u);

  // A listed case that passes fails the run.
  const std::string more = text + "t/reject_ok vfp-rig # was broken once\n";
  r = run({}, listed(more, {"reject"}));
  EXPECT_EQ(last_line(), "0 passed, 1 failed") << text_;  // reject_code xfail, reject_ok xpass
  EXPECT_TRUE(has(text_, "XPASS   t/reject_ok  vfp-rig")) << text_;
  // The new list keeps the entries of cases this run did not select and drops the xpass.
  const std::string updated = render_expected_failures(r.results, r.kept);
  EXPECT_FALSE(has(updated, "t/reject_ok")) << updated;
  EXPECT_TRUE(has(updated, "t/crash vfp-rig")) << updated;

  r = run({}, listed("t/gone vfp-rig\n", {"reject_ok"}));
  EXPECT_TRUE(r.passed());
  ASSERT_EQ(r.stale.size(), 1u);
  EXPECT_EQ(r.stale[0].id, "t/gone");
}

TEST_F(ConformRun, WriterChecks) {
  RunResult r = run({}, [](RunOptions& o) {
    o.filters = {"accept_ok"};
    o.checks.writer = true;
  });
  // dump x2 and roundtrip ("same") x2 pass; canonicalize writes "X" instead of the file.
  EXPECT_EQ(last_line(), "4 passed, 2 failed") << text_;
  EXPECT_TRUE(has(text_, "t/accept_ok  vfp-rig  canonicalize: output differs at byte 0")) << text_;
}

TEST_F(ConformRun, JUnitAndJsonReport) {
  const RunResult r = run({"vfp-rig"});
  const std::string x = junit_xml(r.info, r.results);
  EXPECT_TRUE(x.starts_with("<?xml")) << x;
  EXPECT_TRUE(
      has(x, "<testsuite name=\"vfp-rig\" tests=\"8\" failures=\"2\" errors=\"3\" skipped=\"1\""))
      << x;
  EXPECT_TRUE(has(x, "about to crash"));  // stderr tail in the error body
  const nlohmann::json j = nlohmann::json::parse(report_json(r.info, r.results, r.summary));
  EXPECT_EQ(j["suite_version"], "9.8.7");
  EXPECT_EQ(j["spec_version"], "4.5");  // the manifest's versions, not the judge's
  EXPECT_EQ(j["corpus_version"], "6.7");
  EXPECT_TRUE(has(x, "<property name=\"spec_version\" value=\"4.5\"/>")) << x;
  EXPECT_EQ(j["manifest_sha256"].get<std::string>().size(), 64u);
  EXPECT_EQ(j["reader"], reader_);
  EXPECT_EQ(j["results"].size(), 8u);
  EXPECT_EQ(j["summary"]["counted"]["failed"], 5);
}

TEST_F(ConformRun, ManifestIsVerifiedBeforeAnythingRuns) {
  put(tmp_ / "golden/files/t/reject_ok.bin", "REJ:skel.cyclf");
  RunResult r = run({});
  EXPECT_EQ(r.status, RunStatus::CorpusMismatch);
  ASSERT_FALSE(r.problems.empty());
  EXPECT_EQ(r.problems[0],
            "case t/reject_ok: files/t/reject_ok.bin does not match the manifest (manifest "
            "sha256 " +
                sha_of("REJ:skel.cycle") + ", file " + sha_of("REJ:skel.cyclf") + ")");
  EXPECT_TRUE(r.results.empty());
  fs::remove(tmp_ / "golden/files/t/reject_ok.bin");
  EXPECT_EQ(run({}).status, RunStatus::IoError);
  fs::remove(tmp_ / "golden/manifest.json");
  EXPECT_EQ(run({}).status, RunStatus::IoError);
}

TEST_F(ConformRun, AReaderThatCannotStartIsFoundByTheProbe) {
  const RunResult r = run({}, [](RunOptions& o) {
    o.reader_argv = shell_command("/nonexistent/reader", {});
    o.probe_reader = true;
  });
  EXPECT_EQ(r.status, RunStatus::ReaderNotStarted);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_TRUE(has(r.problems[0], "/nonexistent/reader")) << r.problems[0];
  EXPECT_TRUE(r.results.empty());
}

TEST_F(ConformRun, LocateGolden) {
  std::vector<std::string> tried;
  const CorpusCandidate defaults[] = {{tmp_ / "nowhere", "installed"},
                                      {tmp_ / "golden", "source tree"}};
  ::unsetenv("VOXRIG_GOLDEN");
  EXPECT_EQ(locate_golden(std::nullopt, defaults, tried), tmp_ / "golden");
  EXPECT_EQ(tried.size(), 2u);
  ::setenv("VOXRIG_GOLDEN", (tmp_ / "nowhere").c_str(), 1);
  EXPECT_EQ(locate_golden(std::nullopt, defaults, tried), std::nullopt);
  ::unsetenv("VOXRIG_GOLDEN");
  EXPECT_EQ(tried.back(), tmp_ / "nowhere" + " ($VOXRIG_GOLDEN)");
  EXPECT_EQ(locate_golden(tmp_ / "golden/files", defaults, tried), std::nullopt);
}

// ---- a slice of the golden corpus, the reader in process --------------------------------------

// The reference as an in-process reader (dump, roundtrip, canonicalize of the reader protocol),
// with optional planted bugs: every rejection reported with one code, or canonicalize output
// missing its last byte.
class ReferenceInProcess final : public ReaderTransport {
 public:
  std::string every_reject_as;
  bool short_canonicalize = false;

  bool run(std::span<const ReaderRequest> requests,
           const std::function<void(size_t, RunOutcome&&)>& done) override {
    for (size_t i = 0; i < requests.size(); ++i) done(i, answer(requests[i].args));
    return true;
  }

 private:
  RunOutcome answer(const std::vector<std::string>& a) const {
    const Profile profile = *profile_from_string(a.at(2));
    const std::vector<uint8_t> in = *read_regular_file(a.at(3));
    if (a[0] == "dump") {
      const auto dump = dump_any(in, profile, Limits{});
      if (dump.ok()) return exited(0, *dump);
      const std::string code =
          every_reject_as.empty() ? std::string(to_string(dump.error().code)) : every_reject_as;
      return exited(1, "{\"error\": \"" + code + "\"}\n");
    }
    auto out = a[0] == "roundtrip" ? roundtrip_any(in, profile, Limits{})
                                   : canonicalize_any(in, profile, Limits{});
    if (!out.ok())
      return exited(1, "{\"error\": \"" + std::string(to_string(out.error().code)) + "\"}\n");
    if (a[0] == "canonicalize" && short_canonicalize) out->pop_back();
    std::ofstream(a.at(4), std::ios::binary)
        .write(reinterpret_cast<const char*>(out->data()), std::streamsize(out->size()));
    return exited(0, "");
  }
  static RunOutcome exited(int code, std::string out) {
    RunOutcome o;
    o.exit_code = code;
    o.out = std::move(out);
    return o;
  }
};

// vfp/section/ (counted by hand from the manifest): 27 cases under vfp-static and vfp-rig =
// 54 dump checks, 18 accepts and 36 rejects (12 of them vfp.section.bad_tag); with --writer a
// roundtrip and a canonicalize check per accept = 36 writer checks.
RunResult golden_slice(std::shared_ptr<ReaderTransport> reader, CodeMode codes) {
  RunOptions o;
  o.golden_dir = std::string(VOXRIG_SOURCE_DIR) + "/golden";
  o.transport = std::move(reader);
  o.profiles = {"vfp-static", "vfp-rig"};
  o.filters = {"vfp/section/"};
  o.checks.writer = true;
  o.codes = codes;
  return run_conformance(o);
}

TEST(ConformRunGolden, TheReferencePassesAndPlantedBugsAreCounted) {
  auto reader = std::make_shared<ReferenceInProcess>();
  RunResult r = golden_slice(reader, CodeMode::Strict);
  ASSERT_EQ(r.status, RunStatus::Completed) << (r.problems.empty() ? "" : r.problems[0]);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.results.size(), 92u);
  EXPECT_EQ(r.summary.counted.pass, 92u);

  reader->every_reject_as = "vfp.section.bad_tag";
  r = golden_slice(reader, CodeMode::Strict);
  EXPECT_EQ(r.summary.counted.pass, 66u);
  EXPECT_EQ(r.summary.counted.fail, 26u);
  r = golden_slice(reader, CodeMode::Loose);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.summary.counted.loose, 26u);

  reader->every_reject_as.clear();
  reader->short_canonicalize = true;
  r = golden_slice(reader, CodeMode::Strict);
  EXPECT_EQ(r.summary.counted.fail, 18u);
  for (const CaseResult& c : r.results)
    if (c.verdict == Verdict::Fail) {
      EXPECT_EQ(c.check, Check::Canonicalize) << c.id;
    }
}

}  // namespace
}  // namespace voxrig::conform
