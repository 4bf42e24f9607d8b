// A whole fuzz-reader run around the loop (voxrig/conform/fuzz_reader.h): corpus, seed files,
// runner, and writing what was found.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "voxrig/conform/corpus.h"
#include "voxrig/conform/fuzz_reader.h"
#include "voxrig/conform/serve.h"

namespace voxrig::conform {
namespace {

namespace fs = std::filesystem;

std::string make_temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/voxrig-fuzz-reader-XXXXXX";
  return ::mkdtemp(templ.data()) ? templ : "";
}

// The golden files the profile applies to (and the filter selects), then the extra seeds.
std::vector<FuzzSeed> seed_files(const Corpus& corpus, const FuzzReaderRun& run) {
  std::vector<FuzzSeed> seeds;
  const std::string profile(to_string(run.options.profile));
  for (const auto& c : corpus.manifest.cases) {
    if (c.find(profile) == nullptr || c.id.find(run.filter) == std::string::npos) continue;
    if (auto bytes = read_regular_file(corpus.file(c.path)))
      seeds.push_back({"golden:" + c.id, std::move(*bytes)});
  }
  seeds.insert(seeds.end(), run.extra_seeds.begin(), run.extra_seeds.end());
  seeds.insert(seeds.end(), run.deep_seeds.begin(), run.deep_seeds.end());
  return seeds;
}

// Every breaker on every deep seed (the last seeds), breaker-major, so the first executions
// break each rule once at its first position before any rule is broken twice.
std::vector<std::pair<size_t, size_t>> directed_plan(const FuzzReaderRun& run, size_t seeds) {
  std::vector<std::pair<size_t, size_t>> plan;
  const size_t first_deep = seeds - run.deep_seeds.size();
  for (size_t b = 0; b < run.breakers.size(); ++b)
    for (size_t s = first_deep; s < seeds; ++s) plan.emplace_back(s, run.mutators.size() + b);
  return plan;
}

// Error code -> the catalogue's rules listing it.
std::map<std::string, std::vector<std::string>> code_rules(const Corpus& corpus) {
  std::map<std::string, std::vector<std::string>> out;
  if (corpus.rules)
    for (const Rule& r : corpus.rules->rules)
      for (const std::string& code : r.codes) out[code].push_back(r.id);
  return out;
}

FuzzRunInfo run_info(const FuzzReaderRun& run, size_t seeds) {
  FuzzRunInfo info;
  info.reader = run.testee ? "testee:" + run.testee->path() : run.command;
  info.profile = run.options.profile;
  info.codes = run.options.codes;
  info.seed = run.options.seed;
  info.runs = run.options.runs;
  info.seconds = run.options.seconds;
  info.jobs = run.testee ? 1 : run.jobs;  // the ABI promises a testee one call at a time
  info.seeds = seeds;
  for (const auto& m : run.mutators) info.mutators.push_back(m.name);
  info.expected = run.expected;
  info.breakable = run.breakable;
  info.unbreakable = run.unbreakable;
  return info;
}

// Removes the process runner's work directory whatever way the run ends.
struct WorkDir {
  std::string path;
  ~WorkDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

}  // namespace

FuzzReaderOutcome run_fuzz_reader(const FuzzReaderRun& run) {
  FuzzReaderOutcome out;
  Corpus corpus;
  const CorpusStatus loaded = load_corpus(run.golden_dir, corpus, out.problems);
  if (loaded != CorpusStatus::Ok) {
    out.status =
        loaded == CorpusStatus::Mismatch ? FuzzRunStatus::CorpusMismatch : FuzzRunStatus::IoError;
    return out;
  }
  out.seeds = seed_files(corpus, run);
  if (out.seeds.empty()) {
    out.status = FuzzRunStatus::NoSeeds;
    return out;
  }
  out.info = run_info(run, out.seeds.size());
  FuzzOptions o = run.options;
  out.mutators = run.mutators;
  out.mutators.insert(out.mutators.end(), run.breakers.begin(), run.breakers.end());
  o.random_mutators = run.mutators.size();
  o.directed = directed_plan(run, out.seeds.size());
  o.code_rules = code_rules(corpus);
  WorkDir work;
  FuzzRunner runner;
  if (run.testee) {
    runner = testee_runner(*run.testee, o.profile);
    out.info.protocol = "testee";
    o.batch = 64;
  } else {
    if ((work.path = make_temp_dir()).empty()) {
      out.status = FuzzRunStatus::IoError;
      out.problems.push_back("cannot create a temporary directory");
      return out;
    }
    PoolOptions pool;
    pool.parallel = run.jobs;
    pool.timeout_seconds = run.timeout_seconds;
    ServeHello hello;
    std::shared_ptr<ReaderTransport> transport =
        reader_transport(shell_command(run.command, {}), run.protocol, pool,
                         run.hello_timeout_seconds, &hello);
    if (!transport) {
      out.status = FuzzRunStatus::NoServe;
      out.problems.push_back("the reader does not answer `serve`: " + hello.problem);
      return out;
    }
    out.info.protocol = hello.ok ? "serve" : "oneshot";
    runner = process_runner(std::move(transport), o.profile, work.path);
    o.batch = size_t(run.jobs) * 4;
  }
  if (run.started) run.started(out.info);
  out.result = fuzz_reader(out.seeds, out.mutators, runner, o);
  return out;
}

std::string write_fuzz_output(const std::string& dir, const FuzzReaderOutcome& outcome) {
  std::error_code ec;
  for (const FuzzOutputFile& f :
       fuzz_output_files(outcome.info, outcome.result, outcome.seeds, outcome.mutators)) {
    const fs::path p = fs::path(dir) / f.path;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream file(p, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(f.bytes.data()), std::streamsize(f.bytes.size()));
    file.close();
    if (!file) return "cannot write " + p.string() + ": " + std::strerror(errno ? errno : EIO);
  }
  return "";
}

}  // namespace voxrig::conform
