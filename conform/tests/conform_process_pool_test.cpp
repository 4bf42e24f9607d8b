// voxrig/conform/process_pool.h: fake readers (shell scripts) that crash, hang, flood their
// output or answer, run by the real process pool: exit status, signals, timeouts that kill the
// whole process group, output caps, parallelism.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "temp_dir.h"
#include "voxrig/conform/process_pool.h"

namespace voxrig::conform {
namespace {

namespace fs = std::filesystem;

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
  opt.timeout_seconds = 1.0;  // room for the shell to print "started" on a busy host
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

}  // namespace
}  // namespace voxrig::conform
