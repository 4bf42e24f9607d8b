// Timing a reader against the reference on a perf corpus (voxrig/conform/bench_reader.h).
#include "voxrig/conform/bench_reader.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "voxrig/any_format.h"
#include "voxrig/conform/conform.h"
#include "voxrig/conform/process_pool.h"
#include "voxrig/conform/serve.h"
#include "voxrig/json_out.h"

namespace voxrig::conform {
namespace {

namespace fs = std::filesystem;

// One timed unit of work: returns false (and says why) when the reader did not accept the file.
using Work = std::function<bool(std::string& why)>;

struct Series {
  std::string name;
  uint64_t bytes = 0;  // per call
  bool baseline = false;
  Work work;
  std::vector<std::pair<uint64_t, double>> reps;  // (iterations, seconds) per repetition
};

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One repetition: calls work() until min_time has passed (at least `min_calls` times).
bool run_rep(Series& s, double min_time, uint64_t min_calls, std::string& why) {
  const double start = now_seconds();
  uint64_t n = 0;
  double elapsed = 0;
  while (n < min_calls || elapsed < min_time) {
    if (!s.work(why)) return false;
    ++n;
    elapsed = now_seconds() - start;
  }
  s.reps.emplace_back(n, elapsed);
  return true;
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Google Benchmark's JSON shape (what compare.py, gate.py and report.py read): one entry per
// repetition with run_name, run_type "iteration", times in ns, bytes_per_second, and
// baseline = 1 on the reference's rows (gate.py never gates those).
std::string to_json(const std::vector<Series>& all, const std::string& mode,
                    const std::string& who, const std::string& protocol) {
  std::ostringstream j;
  j << "{\n  \"context\": {\"executable\": \"voxrig bench-reader\", \"bench_reader_mode\": "
    << json_quote(mode) << ", \"reader\": " << json_quote(who)
    << ", \"protocol\": " << json_quote(protocol)
    << ", \"num_cpus\": " << std::max(1u, std::thread::hardware_concurrency())
    << ", \"library_build_type\": \"release\"},\n  \"benchmarks\": [";
  bool first = true;
  for (const Series& s : all) {
    for (size_t r = 0; r < s.reps.size(); ++r) {
      const auto [iters, secs] = s.reps[r];
      const double ns = secs * 1e9 / static_cast<double>(iters);
      j << (first ? "\n" : ",\n") << "    {\"name\": " << json_quote(s.name)
        << ", \"run_name\": " << json_quote(s.name) << ", \"run_type\": \"iteration\""
        << ", \"repetitions\": " << s.reps.size() << ", \"repetition_index\": " << r
        << ", \"threads\": 1, \"iterations\": " << iters << ", \"real_time\": "
        << number(ns)
        // Wall time for both: a reader process's CPU time is not this process's to read.
        << ", \"cpu_time\": " << number(ns) << ", \"time_unit\": \"ns\"";
      if (s.bytes != 0)
        j << ", \"bytes_per_second\": " << number(static_cast<double>(s.bytes) * 1e9 / ns);
      if (s.baseline) j << ", \"baseline\": 1";
      j << "}";
      first = false;
    }
  }
  j << "\n  ]\n}\n";
  return j.str();
}

// The reader under test as a function: one dump of case i, its stdout in `out`; false (with
// `why`) when it did not run or did not accept.
class Runner {
 public:
  Runner(const BenchReader& reader, const std::vector<BenchCase>& cases) : r_(reader), c_(cases) {}
  ~Runner() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  // The process mode needs the corpus as files and a transport. "" or the problem.
  std::string prepare(BenchStatus& status) {
    status = BenchStatus::IoError;
    if (r_.testee) return "";
    PoolOptions po;
    po.timeout_seconds = 120;
    ServeHello hello;
    transport_ = reader_transport(shell_command(r_.command, {}), r_.protocol, po, 20, &hello);
    if (!transport_) {
      status = BenchStatus::NoServe;
      return "the reader does not answer `serve`: " + hello.problem;
    }
    protocol_ = hello.ok ? "serve" : "oneshot";
    hello_ = hello;
    std::error_code ec;
    dir_ = fs::temp_directory_path(ec) / ("voxrig-bench-reader-" + std::to_string(::getpid()));
    fs::create_directories(dir_, ec);
    for (const BenchCase& c : c_) {
      std::string leaf = c.name;
      std::replace(leaf.begin(), leaf.end(), '/', '_');
      files_.push_back((dir_ / leaf).string());
      std::ofstream out(files_.back(), std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(c.bytes.data()), std::streamsize(c.bytes.size()));
      out.close();
      if (ec || !out) return "cannot write the corpus under " + dir_.string();
    }
    return "";
  }

  bool dump(size_t i, std::string& out, std::string& why) const {
    const std::string profile(to_string(c_[i].profile));
    if (r_.testee) {
      const TesteeOutcome o = r_.testee->dump(c_[i].bytes, profile);
      out = o.text;
      if (o.status == TesteeStatus::Accept) return true;
      why = std::string(to_string(o.status)) + (o.text.empty() ? "" : ": ") + o.text.substr(0, 200);
      return false;
    }
    int exit = -1;
    bool ran = false;
    const ReaderRequest request{Check::Dump, {"dump", "--profile", profile, files_[i]}};
    transport_->run({&request, 1}, [&](size_t, RunOutcome&& o) {
      ran = o.started && !o.timed_out && o.protocol_error.empty();
      out = std::move(o.out);
      exit = o.exit_code;
    });
    if (ran && exit == 0) return true;
    out.erase(std::min(out.size(), out.find_last_not_of(" \n\r\t") + 1));  // the line's end
    why = "exit " + std::to_string(exit) + (out.empty() ? "" : ": ") + out.substr(0, 200);
    return false;
  }

  const std::string& protocol() const { return protocol_; }

  bool claims(Profile profile) const { return hello_.claims(to_string(profile)); }

  // One process run of the reader command; `out` receives its stdout.
  bool run(std::vector<std::string> args, std::string& out, int& exit) const {
    PoolOptions po;
    po.timeout_seconds = 120;
    bool ran = false;
    run_processes({ProcessJob{shell_command(r_.command, args)}}, po, [&](size_t, RunOutcome&& o) {
      ran = o.started && !o.timed_out;
      out = std::move(o.out);
      exit = o.exit_code;
    });
    return ran;
  }

 private:
  const BenchReader& r_;
  const std::vector<BenchCase>& c_;
  fs::path dir_;
  std::vector<std::string> files_;
  std::shared_ptr<ReaderTransport> transport_;
  std::string protocol_ = "testee";
  ServeHello hello_;  // a testee, or a reader without serve, claims every profile
};

// The check before timing: accepted, and the same dump as the reference, compared as JSON values
// (docs/spec/protocols.md: key order and whitespace are free, numbers typed by the reference's spelling).
// "" or the problem.
std::string check(const Runner& runner, size_t i, const std::string& want) {
  std::string got, refused;
  if (!runner.dump(i, got, refused))
    return "the reader did not accept it (" + refused +
           "); --profile restricts the corpus to the profiles a reader supports";
  const JsonDiff diff = compare_dump_json(want, got);
  if (diff.outcome == JsonCompare::Equal) return "";
  return "the reader's dump differs from the reference's: " +
         (diff.path.empty() ? diff.detail : diff.path + ": " + diff.detail);
}

BenchResult failed(BenchStatus status, std::string problem) {
  return {status, std::move(problem), "", {}};
}

}  // namespace

BenchResult bench_reader(const std::vector<BenchCase>& cases, const BenchReader& reader,
                         const BenchOptions& options) {
  Runner runner(reader, cases);
  BenchStatus status = BenchStatus::Written;
  if (std::string problem = runner.prepare(status); !problem.empty())
    return failed(status, problem);
  std::vector<Series> all;
  std::set<std::string> unclaimed;
  for (size_t i = 0; i < cases.size(); ++i) {
    const BenchCase& c = cases[i];
    if (reader.claimed_only && !runner.claims(c.profile)) {
      unclaimed.insert(std::string(to_string(c.profile)));
      continue;
    }
    const auto want = dump_any(c.bytes, c.profile, Limits{});
    if (!want.ok())
      return failed(BenchStatus::CheckFailed,
                    c.name + ": the reference rejects it: " + want.error().to_text());
    if (std::string problem = check(runner, i, *want); !problem.empty())
      return failed(BenchStatus::CheckFailed,
                    c.name + " (" + std::string(to_string(c.profile)) + "): " + problem);
    all.push_back({"READER/" + c.name,
                   c.bytes.size(),
                   false,
                   [&runner, i](std::string& why) {
                     std::string out;
                     return runner.dump(i, out, why);
                   },
                   {}});
    all.push_back({"REFERENCE/" + c.name,
                   c.bytes.size(),
                   true,
                   [&c](std::string& why) {
                     auto r = dump_any(c.bytes, c.profile, Limits{});
                     if (!r.ok()) why = r.error().to_text();
                     return r.ok();
                   },
                   {}});
  }
  if (all.empty())
    return failed(BenchStatus::CheckFailed,
                  "the reader's serve hello claims none of the corpus's profiles (vfp-static, "
                  "vfp-rig, rkc-strict); --profile runs them anyway");
  if (!reader.testee)
    all.push_back({"READER/process_startup",
                   0,
                   false,
                   [&runner](std::string& why) {
                     std::string out;
                     int exit = -1;
                     const bool ok = runner.run({"--help"}, out, exit);
                     if (!ok) why = "could not run the reader";
                     return ok;
                   },
                   {}});
  const uint64_t min_calls = reader.testee ? 1 : 3;
  const size_t total = size_t(options.repetitions) * all.size();
  for (int r = 0; r < options.repetitions; ++r)
    for (size_t s = 0; s < all.size(); ++s) {
      std::string why;
      if (!run_rep(all[s], options.min_time, min_calls, why))
        return failed(BenchStatus::CheckFailed, all[s].name + " failed while timing: " + why);
      if (options.progress) options.progress(r * all.size() + s + 1, total, all[s].name);
    }
  return {BenchStatus::Written, "",
          to_json(all, reader.testee ? "testee" : "reader",
                  reader.testee ? reader.testee->path() : reader.command, runner.protocol()),
          {unclaimed.begin(), unclaimed.end()}};
}

}  // namespace voxrig::conform
