// A whole conformance run (voxrig/conform/run.h): corpus -> plan -> transport -> judge ->
// expected failures -> summary.
#include "voxrig/conform/run.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "run_internal.h"
#include "voxrig/conform/serve.h"

namespace voxrig::conform {
namespace {

constexpr const char* kAllProfiles[] = {"vfp-static", "vfp-rig", "rkc-strict", "rkc-compat"};

class ProcessTransport final : public ReaderTransport {
 public:
  ProcessTransport(std::vector<std::string> reader_argv, const PoolOptions& pool)
      : reader_argv_(std::move(reader_argv)), pool_(pool) {}

  bool run(std::span<const ReaderRequest> requests,
           const std::function<void(size_t, RunOutcome&&)>& done) override {
    std::vector<ProcessJob> jobs;
    jobs.reserve(requests.size());
    for (const ReaderRequest& r : requests) {
      ProcessJob job{reader_argv_};
      job.argv.insert(job.argv.end(), r.args.begin(), r.args.end());
      jobs.push_back(std::move(job));
    }
    return run_processes(jobs, pool_, done);
  }

 private:
  std::vector<std::string> reader_argv_;
  PoolOptions pool_;
};

// A directory of its own under $TMPDIR (or /tmp) for the outputs of writer requests; "" when
// none can be made.
std::string make_temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/voxrig-conform-XXXXXX";
  return ::mkdtemp(templ.data()) ? templ : "";
}

// Removes the temporary directory whatever way the run ends.
struct TempDir {
  std::string path;
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

RunInfo run_info(const Corpus& corpus, const RunOptions& o,
                 const std::vector<std::string>& profiles) {
  RunInfo info;
  info.suite = corpus.manifest.suite;
  info.suite_version = corpus.manifest.suite_version;
  info.spec_version = corpus.manifest.spec_version;
  info.corpus_version = corpus.manifest.corpus_version;
  info.manifest_sha256 = corpus.manifest_sha256;
  info.golden_dir = corpus.dir;
  info.reader = o.reader_name;
  info.profiles = profiles;
  info.codes = o.codes;
  info.count_recommended = o.count_recommended;
  info.writer = o.checks.writer;
  for (auto [on, name] :
       {std::pair{o.checks.compile, "compile"}, {o.checks.pose, "pose"}, {o.checks.mesh, "mesh"}})
    if (on) info.capabilities.push_back(name);
  info.dump = o.checks.dump;
  info.dump_content = o.checks.dump_content;
  for (const auto& f : o.filters) info.filter += (info.filter.empty() ? "" : " ") + f;
  info.expected_failures = o.expected_failures_path;
  info.jobs = o.jobs ? o.jobs : available_cpus();
  info.timeout_seconds = o.timeout_seconds;
  return info;
}

// The probe of RunOptions::probe_reader: "" when the reader started, else why it did not.
std::string probe(ReaderTransport& transport, const ReaderRequest& first) {
  RunOutcome probe;
  transport.run({&first, 1}, [&](size_t, RunOutcome&& r) { probe = std::move(r); });
  if (probe.started && probe.signal == 0 && probe.exit_code != 126 && probe.exit_code != 127)
    return "";
  std::string why = probe.err.substr(0, probe.err.find('\n'));
  if (why.empty()) why = probe.started ? "exit " + std::to_string(probe.exit_code) : "spawn failed";
  return why;
}

RunResult stop(RunResult r, RunStatus status, std::string problem) {
  r.status = status;
  r.problems.push_back(std::move(problem));
  return r;
}

}  // namespace

std::unique_ptr<ReaderTransport> process_transport(std::vector<std::string> reader_argv,
                                                   const PoolOptions& pool) {
  return std::make_unique<ProcessTransport>(std::move(reader_argv), pool);
}

RunResult run_conformance(const RunOptions& o, const RunProgress& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r;
  Corpus corpus;
  const CorpusStatus loaded = load_corpus(o.golden_dir, corpus, r.problems);
  if (loaded != CorpusStatus::Ok) {
    r.status = loaded == CorpusStatus::Mismatch ? RunStatus::CorpusMismatch : RunStatus::IoError;
    return r;
  }
  // The transport first: a serve reader's hello says which profiles it claims.
  std::shared_ptr<ReaderTransport> transport = o.transport;
  ServeHello hello;
  if (!transport) {
    PoolOptions pool;
    pool.parallel = o.jobs ? o.jobs : available_cpus();
    pool.timeout_seconds = o.timeout_seconds;
    transport = reader_transport(o.reader_argv, o.protocol, pool, o.hello_timeout_seconds, &hello);
    if (!transport)
      return stop(std::move(r), RunStatus::ReaderNotStarted,
                  "it does not answer `serve`: " + hello.problem);
  }
  std::vector<std::string> profiles = o.profiles, unclaimed;
  if (profiles.empty())
    for (const char* p : kAllProfiles)
      (hello.claims(p) ? profiles : unclaimed).push_back(p);
  r.info = run_info(corpus, o, profiles);
  r.info.protocol = o.transport ? "" : hello.ok ? "serve" : "oneshot";
  if (!o.transport && o.protocol != ReaderProtocol::OneShot) r.info.protocol_note = hello.problem;
  r.info.claimed_profiles = hello.profiles;
  r.info.unclaimed_profiles = unclaimed;
  if (progress.started) progress.started(r.info);

  TempDir tmp;
  if ((o.checks.writer || o.checks.compile) && (tmp.path = make_temp_dir()).empty())
    return stop(std::move(r), RunStatus::IoError, "cannot create a temporary directory");
  const detail::Plan plan = detail::make_plan(corpus, o, profiles, tmp.path);
  if (plan.planned.empty())
    return stop(std::move(r), RunStatus::NothingToRun,
                "nothing to run (no case matches the filter and profiles)");
  if (o.probe_reader)
    if (std::string why = probe(*transport, plan.requests.front()); !why.empty())
      return stop(std::move(r), RunStatus::ReaderNotStarted, why);

  r.results.resize(plan.planned.size());
  size_t done = 0;
  const bool complete = transport->run(plan.requests, [&](size_t i, RunOutcome&& run) {
    r.results[i] = detail::judge_planned(corpus, o, plan.planned[i], run);
    if (progress.judged) progress.judged(++done, plan.planned.size(), r.results[i]);
  });
  if (!complete) return stop(std::move(r), RunStatus::Interrupted, "interrupted");
  detail::reconcile_expected_failures(corpus,
                                      apply_expected_failures(r.results, o.expected_failures), r);
  r.summary = summarize(r.results, plan.skipped);
  r.summary.level_run = level_of_run(r.info);
  r.summary.level_reached = level_reached(r.info, r.results);
  r.info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace voxrig::conform
