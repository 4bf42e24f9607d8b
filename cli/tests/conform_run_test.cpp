// voxrig conform end to end, without the codec: fake readers (shell scripts written here) that
// crash, hang, print garbage or answer right, run by the real process pool over a tiny corpus
// built in a temporary directory.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_test_support.h"
#include "commands.h"
#include "voxrig/conform/process_pool.h"
#include "voxrig/sha256.h"

namespace voxrig::cli {
namespace {

namespace fs = std::filesystem;
using conform::PoolOptions;
using conform::ProcessJob;
using conform::run_processes;
using conform::RunOutcome;
using conform::shell_command;

class TempDir {
 public:
  TempDir() {
    std::string templ = testing::TempDir() + "voxrig-conform-test-XXXXXX";
    path_ = ::mkdtemp(templ.data()) ? templ : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

void put(const std::string& path, const std::string& text, bool executable = false) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
  if (executable) ::chmod(path.c_str(), 0755);
}

std::string get(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<RunOutcome> run_all(const std::vector<ProcessJob>& jobs, PoolOptions opt = {}) {
  std::vector<RunOutcome> out(jobs.size());
  EXPECT_TRUE(run_processes(jobs, opt, [&](size_t i, RunOutcome&& r) { out[i] = std::move(r); }));
  return out;
}

ProcessJob sh(const std::string& script) { return {{"/bin/sh", "-c", script}}; }

// True once `pid` is gone or a zombie (reaped or not by whoever adopted it).
bool dead(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) return true;
    std::string line;
    std::getline(stat, line);
    const size_t paren = line.rfind(')');
    if (paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z')
      return true;
    ::usleep(10000);
  }
  return false;
}

TEST(ConformPool, CapturesOutputAndExitStatus) {
  auto r = run_all({sh("echo out; echo err >&2; exit 1"),
                    sh("printf '%s' \"$0\""),
                    {shell_command("printf '[%s]'", {"a b", "$HOME", "*"})}});
  EXPECT_TRUE(r[0].started);
  EXPECT_EQ(r[0].exit_code, 1);
  EXPECT_EQ(r[0].signal, 0);
  EXPECT_EQ(r[0].out, "out\n");
  EXPECT_EQ(r[0].err, "err\n");
  EXPECT_EQ(r[1].exit_code, 0);
  // Arguments reach the reader verbatim: no word splitting, no expansion.
  EXPECT_EQ(r[2].out, "[a b][$HOME][*]");
}

TEST(ConformPool, SignalsAreReported) {
  auto r = run_all({sh("kill -SEGV $$"), sh("kill -ABRT $$")});
  EXPECT_EQ(r[0].signal, SIGSEGV);
  EXPECT_EQ(r[0].exit_code, -1);
  EXPECT_FALSE(r[0].timed_out);
  EXPECT_EQ(r[1].signal, SIGABRT);
}

TEST(ConformPool, TimeoutKillsTheWholeProcessGroup) {
  TempDir tmp;
  const std::string pidfile = tmp / "pid";
  PoolOptions opt;
  opt.timeout_seconds = 0.3;
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_all({sh("sleep 30 & echo $! > " + pidfile + "; echo started; wait")}, opt);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r[0].timed_out);
  EXPECT_EQ(r[0].signal, 0);  // the runner's kill is a timeout, not a crash
  EXPECT_EQ(r[0].out, "started\n");
  EXPECT_LT(took, 5.0);
  const pid_t grandchild = std::atoi(get(pidfile).c_str());
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(dead(grandchild));
}

TEST(ConformPool, ABackgroundChildHoldingStdoutDoesNotStallTheRun) {
  PoolOptions opt;
  opt.timeout_seconds = 20;
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_all({sh("sleep 30 & echo done")}, opt);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(r[0].timed_out);
  EXPECT_EQ(r[0].exit_code, 0);
  EXPECT_EQ(r[0].out, "done\n");
  EXPECT_LT(took, 5.0);
}

TEST(ConformPool, OutputBeyondTheCapKillsTheRun) {
  PoolOptions opt;
  opt.max_stdout = 1 << 16;
  opt.max_stderr = 100;
  auto r =
      run_all({sh("while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done"),
               sh("i=0; while [ $i -lt 100 ]; do echo eeeeeeeeee >&2; i=$((i+1)); done; echo ok")},
              opt);
  EXPECT_TRUE(r[0].output_overflow);
  EXPECT_EQ(r[0].out.size(), size_t{1} << 16);
  EXPECT_FALSE(r[1].output_overflow);  // stderr is truncated, not fatal
  EXPECT_EQ(r[1].err.size(), 100u);
  EXPECT_EQ(r[1].out, "ok\n");
}

TEST(ConformPool, MissingProgramIsNotStarted) {
  auto r = run_all({{{"/nonexistent/reader", "dump"}}, sh("exit 0")});
  EXPECT_FALSE(r[0].started);
  EXPECT_NE(r[0].spawn_error.find("/nonexistent/reader"), std::string::npos);
  EXPECT_TRUE(r[1].started);
}

TEST(ConformPool, RunsInParallel) {
  std::vector<ProcessJob> jobs(8, sh("sleep 0.3"));
  PoolOptions opt;
  opt.parallel = 8;
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_all(jobs, opt);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& o : r) EXPECT_EQ(o.exit_code, 0);
  EXPECT_LT(took, 2.0);  // 2.4 s one at a time
}

// ---- voxrig conform over a fake corpus ----------------------------------------------------------

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

class ConformCommand : public testing::Test {
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
        R"({"schema": "voxrig-manifest/1", "suite": "voxrig", "suite_version": "9.8.7", "cases": [)";
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

  // Runs `voxrig conform --golden G --reader R --timeout 0.3 ARGS...`; captures stdout/stderr.
  int conform(std::vector<std::string> args, bool with_golden = true) {
    std::vector<std::string> argv = {"voxrig", "conform", "--reader", reader_, "--timeout", "0.3"};
    if (with_golden) {
      argv.push_back("--golden");
      argv.push_back(tmp_ / "golden");
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return run_captured(std::move(argv), out_, err_);
  }

  std::string last_line() const {
    std::string s = out_;
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s.substr(s.rfind('\n') + 1);
  }

  TempDir tmp_;
  std::string reader_, out_, err_;
  std::vector<FakeCase> cases_;
};

TEST_F(ConformCommand, VerdictsSummaryAndExitCode) {
  EXPECT_EQ(conform({"--profile", "vfp-rig", "--profile", "vfp-static"}), kExitFailed) << err_;
  // pass: accept_ok x2, reject_ok; fail: accept_wrong, reject_code; crash: crash, junk;
  // timeout: hang. t/rec fails but is recommended: reported, not counted.
  EXPECT_EQ(last_line(), "3 passed, 5 failed") << out_;
  EXPECT_NE(out_.find("suite voxrig 9.8.7, manifest sha256 "), std::string::npos) << out_;
  EXPECT_NE(out_.find("crash: 2\n"), std::string::npos) << out_;
  EXPECT_NE(out_.find("timeout: 1\n"), std::string::npos) << out_;
  EXPECT_NE(out_.find("skipped: 7\n"), std::string::npos) << out_;  // 7 cases lack vfp-static
  EXPECT_NE(out_.find("FAIL    t/accept_wrong  vfp-rig  dump: dump differs at $.x"),
            std::string::npos)
      << out_;
  EXPECT_NE(
      out_.find(
          "FAIL    t/reject_code  vfp-rig  dump: rejected with skel.other, expected skel.cycle"),
      std::string::npos)
      << out_;
  // The fake reader runs under `sh -c`, whose exit status reports the signal as 128 + 11.
  EXPECT_NE(
      out_.find(
          "CRASH   t/crash  vfp-rig  dump: exit code 139 (a shell's report of signal 11, SIGSEGV)"),
      std::string::npos)
      << out_;
  EXPECT_NE(out_.find("CRASH   t/junk  vfp-rig  dump: exit 0 with invalid JSON"), std::string::npos)
      << out_;
  EXPECT_NE(out_.find("TIMEOUT t/hang  vfp-rig  dump: timed out"), std::string::npos) << out_;
  EXPECT_NE(out_.find("recommended: 0 passed, 1 failed"), std::string::npos) << out_;
  EXPECT_NE(err_.find("/9] "), std::string::npos) << err_;  // progress lines, not a TTY

  EXPECT_EQ(conform({"--profile", "vfp-rig", "--level", "all"}), kExitFailed);
  EXPECT_EQ(last_line(), "2 passed, 6 failed") << out_;
}

TEST_F(ConformCommand, LooseCodesAndFilter) {
  EXPECT_EQ(conform({"--filter", "reject", "--codes", "loose"}), kExitOk) << out_ << err_;
  EXPECT_EQ(last_line(), "2 passed, 0 failed") << out_;
  EXPECT_NE(out_.find("loose: 1 (accept/reject matched, error code differed"), std::string::npos)
      << out_;
  EXPECT_NE(out_.find("skipped: 6\n"), std::string::npos) << out_;  // 2 cases x 3 other profiles
  EXPECT_EQ(conform({"--filter", "reject"}), kExitFailed);
  EXPECT_EQ(last_line(), "1 passed, 1 failed") << out_;
}

TEST_F(ConformCommand, ExpectedFailuresShrinkOnly) {
  const std::string list = tmp_ / "xfail.txt";
  EXPECT_EQ(conform({"--expected-failures", list}), kExitIo);  // no such file
  EXPECT_EQ(conform({"--expected-failures", list, "--update-expected"}), kExitOk) << err_;
  const std::string text = get(list);
  EXPECT_NE(text.find("t/crash vfp-rig  # crash: exit code 139 (a shell's report of signal 11"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("t/hang vfp-rig  # timeout: "), std::string::npos) << text;
  EXPECT_EQ(text.find("t/accept_ok"), std::string::npos) << text;

  EXPECT_EQ(conform({"--expected-failures", list}), kExitOk) << out_;
  EXPECT_EQ(last_line(), "3 passed, 0 failed") << out_;
  EXPECT_NE(out_.find("xfail: 5\n"), std::string::npos) << out_;

  // A listed case that passes fails the run.
  put(list, text + "t/reject_ok vfp-rig # was broken once\n");
  EXPECT_EQ(conform({"--expected-failures", list, "--filter", "reject"}), kExitFailed);
  EXPECT_EQ(last_line(), "0 passed, 1 failed") << out_;  // reject_code xfail, reject_ok xpass
  EXPECT_NE(out_.find("XPASS   t/reject_ok  vfp-rig"), std::string::npos) << out_;
  // Updating with a filter keeps the entries of cases it did not run and drops the xpass.
  EXPECT_EQ(conform({"--expected-failures", list, "--filter", "reject", "--update-expected"}),
            kExitOk);
  const std::string updated = get(list);
  EXPECT_EQ(updated.find("t/reject_ok"), std::string::npos) << updated;
  EXPECT_NE(updated.find("t/crash vfp-rig"), std::string::npos) << updated;

  // Malformed lists are usage errors; stale ids are reported.
  put(list, "t/crash vfp-rigg\n");
  EXPECT_EQ(conform({"--expected-failures", list}), kExitUsage);
  EXPECT_NE(err_.find("line 1: unknown profile"), std::string::npos) << err_;
  put(list, "t/gone vfp-rig\n");
  EXPECT_EQ(conform({"--expected-failures", list, "--filter", "reject_ok"}), kExitOk);
  EXPECT_NE(err_.find("t/gone"), std::string::npos) << err_;
}

TEST_F(ConformCommand, WriterChecks) {
  EXPECT_EQ(conform({"--filter", "accept_ok", "--writer"}), kExitFailed);
  // dump x2 and roundtrip ("same") x2 pass; canonicalize writes "X" instead of the file.
  EXPECT_EQ(last_line(), "4 passed, 2 failed") << out_;
  EXPECT_NE(out_.find("t/accept_ok  vfp-rig  canonicalize: output differs at byte 0"),
            std::string::npos)
      << out_;
}

TEST_F(ConformCommand, JUnitAndJsonReport) {
  const std::string junit = tmp_ / "out/junit.xml", report = tmp_ / "report.json";
  fs::create_directories(tmp_ / "out");
  EXPECT_EQ(conform({"--junit", junit, "--report", report, "--profile", "vfp-rig"}), kExitFailed);
  const std::string x = get(junit);
  EXPECT_TRUE(x.starts_with("<?xml")) << x;
  EXPECT_NE(
      x.find("<testsuite name=\"vfp-rig\" tests=\"8\" failures=\"2\" errors=\"3\" skipped=\"1\""),
      std::string::npos)
      << x;
  EXPECT_NE(x.find("about to crash"), std::string::npos);  // stderr tail in the error body
  nlohmann::json j = nlohmann::json::parse(get(report));
  EXPECT_EQ(j["suite_version"], "9.8.7");
  EXPECT_EQ(j["manifest_sha256"].get<std::string>().size(), 64u);
  EXPECT_EQ(j["reader"], reader_);
  EXPECT_EQ(j["results"].size(), 8u);
  EXPECT_EQ(j["summary"]["counted"]["failed"], 5);
  EXPECT_EQ(conform({"--junit", tmp_ / "no/such/dir/j.xml", "--filter", "reject_ok"}), kExitIo);
}

TEST_F(ConformCommand, ManifestIsVerifiedBeforeAnythingRuns) {
  put(tmp_ / "golden/files/t/reject_ok.bin", "REJ:skel.cyclf");
  EXPECT_EQ(conform({}), kExitFailed);
  EXPECT_NE(err_.find("case t/reject_ok: files/t/reject_ok.bin does not match the manifest"),
            std::string::npos)
      << err_;
  EXPECT_EQ(out_.find("passed"), std::string::npos) << out_;  // nothing ran
  fs::remove(tmp_ / "golden/files/t/reject_ok.bin");
  EXPECT_EQ(conform({}), kExitIo);
  fs::remove(tmp_ / "golden/manifest.json");
  EXPECT_EQ(conform({}), kExitIo);
  EXPECT_NE(err_.find("no manifest.json there"), std::string::npos) << err_;  // one line
}

TEST_F(ConformCommand, GoldenFromTheEnvironmentAndUsageErrors) {
  ::setenv("VOXRIG_GOLDEN", (tmp_ / "golden").c_str(), 1);
  EXPECT_EQ(conform({"--filter", "reject_ok"}, false), kExitOk) << err_;
  ::unsetenv("VOXRIG_GOLDEN");
  EXPECT_EQ(last_line(), "1 passed, 0 failed");
  EXPECT_EQ(conform({"--filter", "no-such-case"}), kExitUsage);
  EXPECT_EQ(conform({"--profile", "vfp"}), kExitUsage);
  EXPECT_EQ(conform({"--codes", "medium"}), kExitUsage);
  EXPECT_EQ(conform({"--jobs", "0"}), kExitUsage);
  EXPECT_EQ(conform({"--timeout", "-1"}), kExitUsage);
  EXPECT_EQ(conform({"--update-expected"}), kExitUsage);
  EXPECT_EQ(conform({"stray"}), kExitUsage);
}

}  // namespace
}  // namespace voxrig::cli
