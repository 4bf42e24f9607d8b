// voxrig/conform/serve.h: both sides of voxrig-serve/1 (docs/spec/protocols.md, "Persistent
// protocol (serve)"). The runner's side against a fake reader (fixtures/fake_serve_reader.sh)
// that answers, hangs, crashes or prints garbage on request: each fault is the verdict of the
// request in flight, the worker is restarted, and the run goes on. The reader's side
// (serve_loop) on request lines given as a string.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "temp_dir.h"
#include "voxrig/conform/serve.h"

namespace voxrig::conform {
namespace {

// The fake reader's argv before "serve": STARTS collects one line per process it starts.
std::vector<std::string> fake_reader(const TempDir& dir) {
  return {"/bin/sh", VOXRIG_FAKE_SERVE_READER, dir / "starts"};
}

size_t starts(const TempDir& dir) {
  std::ifstream in(dir / "starts");
  size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

ReaderRequest dump(const std::string& what) {
  return {Check::Dump, {"dump", "--profile", "vfp-rig", what}};
}

std::vector<RunOutcome> run_all(ReaderTransport& t, const std::vector<ReaderRequest>& requests) {
  std::vector<RunOutcome> out(requests.size());
  EXPECT_TRUE(t.run(requests, [&](size_t i, RunOutcome&& r) { out[i] = std::move(r); }));
  return out;
}

// "pid 123 ok\n" -> "123": which process answered.
std::string pid_of(const RunOutcome& r) {
  const size_t a = r.out.find(' '), b = r.out.find(' ', a + 1);
  return a == std::string::npos || b == std::string::npos ? "" : r.out.substr(a + 1, b - a - 1);
}

TEST(ConformServe, HelloNamesOpsAndProfiles) {
  TempDir dir;
  const ServeHello h = probe_serve(fake_reader(dir), 10);
  ASSERT_TRUE(h.ok) << h.problem;
  EXPECT_EQ(h.ops, std::vector<std::string>{"dump"});
  EXPECT_EQ(h.profiles, std::vector<std::string>{"vfp-rig"});
  EXPECT_EQ(starts(dir), 1u);
}

// Without --profile a run takes the claimed profiles only; no hello, or a hello claiming
// none, runs every profile.
TEST(ConformServe, HelloClaimsDecideTheProfilesRun) {
  ServeHello h;
  EXPECT_TRUE(h.claims("rkc-strict"));  // no hello
  h.ok = true;
  EXPECT_TRUE(h.claims("rkc-strict"));  // a hello claiming none
  h.profiles = {"vfp-static", "vfp-rig"};
  EXPECT_TRUE(h.claims("vfp-rig"));
  EXPECT_FALSE(h.claims("rkc-strict"));
  EXPECT_FALSE(h.claims("vfp"));
}

TEST(ConformServe, AReaderWithoutServeFailsHelloWithAReason) {
  const ServeHello h = probe_serve({"/bin/sh", "-c", "echo 'usage: r dump' >&2; exit 2", "sh"}, 10);
  EXPECT_FALSE(h.ok);
  EXPECT_NE(h.problem.find("exit 2"), std::string::npos) << h.problem;
}

TEST(ConformServe, OneProcessAnswersEveryRequestInTurn) {
  TempDir dir;
  PoolOptions pool;
  pool.timeout_seconds = 10;
  auto t = serve_transport(fake_reader(dir), probe_serve(fake_reader(dir), 10), pool, 10);
  const auto r = run_all(*t, {dump("first"), dump("second"), dump("third")});
  for (const RunOutcome& o : r) {
    EXPECT_TRUE(o.started);
    EXPECT_EQ(o.exit_code, 0);
    EXPECT_TRUE(o.protocol_error.empty()) << o.protocol_error;
  }
  EXPECT_EQ(r[0].out.substr(r[0].out.size() - 6), "first\n");
  EXPECT_EQ(r[2].out.substr(r[2].out.size() - 6), "third\n");
  EXPECT_EQ(pid_of(r[0]), pid_of(r[2]));  // the same process: persistent
  EXPECT_EQ(starts(dir), 2u);             // the probe's and the worker's
}

TEST(ConformServe, AnOpHelloDidNotListRunsOneShot) {
  TempDir dir;
  auto t = serve_transport(fake_reader(dir), probe_serve(fake_reader(dir), 10), PoolOptions{}, 10);
  const auto r = run_all(*t, {{Check::Roundtrip, {"roundtrip", "--profile", "vfp-rig", "a", "b"}}});
  EXPECT_EQ(r[0].exit_code, 0);
  EXPECT_EQ(r[0].out, "oneshot roundtrip --profile vfp-rig a b\n");
}

TEST(ConformServe, FaultsAreTheRequestsInFlightAndTheWorkerRestarts) {
  TempDir dir;
  PoolOptions pool;
  pool.timeout_seconds = 1;
  auto t = serve_transport(fake_reader(dir), probe_serve(fake_reader(dir), 10), pool, 10);
  const auto r = run_all(*t, {dump("a"), dump("hang"), dump("b"), dump("crash"), dump("c"),
                              dump("garbage"), dump("d")});
  EXPECT_TRUE(r[1].timed_out);
  EXPECT_EQ(r[3].signal, 11);
  EXPECT_NE(r[3].err.find("dying"), std::string::npos) << r[3].err;  // stderr of the case
  EXPECT_NE(r[5].protocol_error.find("this is not JSON"), std::string::npos) << r[5].protocol_error;
  for (size_t i : {0, 2, 4, 6}) {
    EXPECT_EQ(r[i].exit_code, 0) << i;
    EXPECT_FALSE(r[i].timed_out) << i;
    EXPECT_TRUE(r[i].protocol_error.empty()) << i << ": " << r[i].protocol_error;
  }
  // Each fault killed its worker: the next request was answered by a new process.
  EXPECT_NE(pid_of(r[0]), pid_of(r[2]));
  EXPECT_NE(pid_of(r[2]), pid_of(r[4]));
  EXPECT_NE(pid_of(r[4]), pid_of(r[6]));
  EXPECT_EQ(starts(dir), 5u);  // the probe, the first worker and three restarts
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ConformServeLoop, AnswersHelloRequestsAndBadLines) {
  std::istringstream in(
      "{\"id\": 0, \"op\": \"hello\", \"protocol\": \"voxrig-serve/1\"}\n"
      "{\"id\": 1, \"op\": \"dump\", \"args\": [\"--profile\", \"vfp-rig\", \"/f.vfp\"]}\n"
      "not json\n"
      "{\"id\": 3, \"op\": \"dump\", \"args\": [1]}\n");
  std::ostringstream out;
  std::vector<std::vector<std::string>> seen;
  const int rc = serve_loop(in, out, {"dump", "pose"}, {"vfp-rig"}, [&](const auto& args) {
    seen.push_back(args);
    return ServeAnswer{1, "{\"error\": \"x\"}\n", "why\n"};
  });
  EXPECT_EQ(rc, 0);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 4u) << out.str();
  EXPECT_EQ(lines[0],
            "{\"id\":0,\"ops\":[\"dump\",\"pose\"],\"profiles\":[\"vfp-rig\"],"
            "\"protocol\":\"voxrig-serve/1\"}");
  EXPECT_EQ(
      lines[1],
      "{\"exit\":1,\"id\":1,\"stderr\":\"why\\n\",\"stdout\":\"{\\\"error\\\": \\\"x\\\"}\\n\"}");
  EXPECT_EQ(seen,
            (std::vector<std::vector<std::string>>{{"dump", "--profile", "vfp-rig", "/f.vfp"}}));
  EXPECT_NE(lines[2].find("\"id\":null"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("\"exit\":2"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find("\"id\":3"), std::string::npos) << lines[3];
  EXPECT_NE(lines[3].find("not an array of strings"), std::string::npos) << lines[3];
}

}  // namespace
}  // namespace voxrig::conform
