// voxrig conform: runs a reader (the built-in reference by default) over the golden corpus
// (conformance.md "The reader protocol"). The judging lives in the library
// (voxrig/conform/conform.h); this file plans the runs, drives the process pool and writes the
// reports.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "conform_corpus.h"
#include "gen_corpus.h"
#include "voxrig/conform/conform.h"
#include "voxrig/conform/process_pool.h"

namespace voxrig::cli {
namespace {

using namespace voxrig::conform;
namespace fs = std::filesystem;

constexpr std::string_view kUsage =
    "usage: voxrig conform [--reader 'COMMAND'] [--profile P ...] [--golden DIR] [--jobs N]\n"
    "                      [--timeout SEC] [--codes strict|loose] [--expected-failures FILE]\n"
    "                      [--update-expected] [--writer] [--junit FILE] [--report FILE.json]\n"
    "                      [--filter SUBSTR] [--level required|all] [--html FILE]\n"
    "Runs a reader over the golden corpus and compares its verdicts and dumps with the\n"
    "manifest (golden/README.md). The manifest's SHA-256 hashes are checked first.\n"
    "  --reader CMD        shell command; run as `CMD dump --profile P FILE` (and, with --writer,\n"
    "                      `CMD roundtrip|canonicalize --profile P IN OUT`). Default: this voxrig\n"
    "  --profile P         vfp-static | vfp-rig | rkc-strict | rkc-compat; repeatable\n"
    "                      (default: all four; profiles that do not apply to a case are skipped)\n"
    "  --golden DIR        the corpus (default: $VOXRIG_GOLDEN, the installed corpus, the source\n"
    "                      tree's golden/)\n"
    "  --jobs N            parallel reader runs (default: the number of CPUs)\n"
    "  --timeout SEC       per run; the reader's process group is killed (default: 10)\n"
    "  --codes loose       check accept/reject only, not error codes (reported as loose)\n"
    "  --expected-failures FILE   `CASE_ID PROFILE [CHECK]  # reason` per line: listed failures\n"
    "                      are xfail; a listed case that passes fails the run\n"
    "  --update-expected   rewrite FILE with the current failures\n"
    "  --writer            also check roundtrip and canonicalize output bytes\n"
    "  --compile           also check `CMD compile IN.json OUT.vfp` (the compile cases)\n"
    "  --pose              also check `CMD pose --profile P --clip C --t T [--policy] [--mode]\n"
    "                      FILE` (model matrices, D19 tolerance)\n"
    "  --mesh              also check `CMD mesh --profile P FILE` (quads, by properties)\n"
    "  --no-dump           skip the reader cases (a compiler, player or mesher on its own)\n"
    "  --junit FILE        JUnit XML (one testsuite per profile)\n"
    "  --report FILE.json  JSON report: versions, manifest hash, reader, per-case verdicts, "
    "timing\n"
    "  --html FILE         one self-contained HTML page: summary, spec section x profile matrix,\n"
    "                      filters, per case rules, expectation, outcome, dump diff, hex context\n"
    "  --filter SUBSTR     only cases whose id contains SUBSTR; repeatable (any of them)\n"
    "  --level all         recommended cases count too (default: reported, not counted)\n"
    "  --generated N       instead of the golden corpus: generate N seeded cases (voxrig gen,\n"
    "                      1 in 4 negative) into a temporary corpus and run on that; the seed is\n"
    "                      printed, and on a failure the corpus is kept and the first failing "
    "case\n"
    "                      is named with the command that regenerates it\n"
    "  --seed S            generator seed (default 1); --format F: vfp|rkc|kv6|rvc|kfa|all (all)\n"
    "  --size small|medium generated file size (default small)\n"
    "The summary on stdout ends with `N passed, N failed`.\n"
    "Before running, a --reader that cannot be started (the shell says not found / not\n"
    "executable) fails at once with exit 2, and --junit/--report/--update-expected paths that\n"
    "cannot be written fail at once with exit 3.\n"
    "Exit: 0 nothing failed, 4 a case failed, crashed or timed out (or the corpus does not match\n"
    "its manifest), 2 usage, 3 I/O.\n";

constexpr std::string_view kAllProfiles[] = {"vfp-static", "vfp-rig", "rkc-strict", "rkc-compat"};

struct Options {
  std::optional<std::string> reader;
  std::vector<std::string> profiles;
  std::optional<std::string> golden;
  unsigned jobs = 0;
  double timeout = 10;
  CodeMode codes = CodeMode::Strict;
  std::optional<std::string> expected_failures;
  bool update_expected = false;
  bool writer = false;
  bool compile = false, pose = false, mesh = false, dump = true;
  std::optional<std::string> junit, report, html;
  std::vector<std::string> filters;  // --filter, any of them (none: every case)
  bool level_all = false;
  std::optional<uint64_t> generated;  // --generated N
  GenCorpusOptions gen;
};

constexpr std::string_view kCodesChoices[] = {"strict", "loose"};
constexpr std::string_view kLevelChoices[] = {"required", "all"};

constexpr OptionSpec kOptions[] = {{"--reader", true},
                                   {"--profile", true, kProfileChoices, true},
                                   {"--golden", true},
                                   {"--jobs", true},
                                   {"--timeout", true},
                                   {"--codes", true, kCodesChoices},
                                   {"--expected-failures", true},
                                   {"--junit", true},
                                   {"--report", true},
                                   {"--html", true},
                                   {"--filter", true},
                                   {"--level", true, kLevelChoices},
                                   {"--generated", true},
                                   {"--seed", true},
                                   {"--format", true, kGenFormatChoices, true},
                                   {"--size", true, kGenSizeChoices},
                                   {"--update-expected", false},
                                   {"--writer", false},
                                   {"--compile", false},
                                   {"--pose", false},
                                   {"--mesh", false},
                                   {"--no-dump", false}};

// Single-valued options: the last one given wins. Returns kExitOk or kExitUsage.
int parse_options(const Args& args, Options& o) {
  if (!args.positional.empty()) {
    std::cerr << "voxrig conform: unexpected argument '" << args.positional[0]
              << "' (see --help)\n";
    return kExitUsage;
  }
  for (const auto& [name, value] : args.options) {
    if (name == "--profile") {
      std::string_view rest = value;
      while (true) {  // "--profile a,b" is accepted as well as repeated options
        const size_t comma = rest.find(',');
        std::string p(rest.substr(0, comma));
        if (!profile_from_string(p)) {
          std::cerr << "voxrig conform: unknown profile '" << p
                    << "' (expected vfp-static, vfp-rig, rkc-strict or rkc-compat)\n";
          return kExitUsage;
        }
        bool dup = false;
        for (const auto& q : o.profiles) dup |= q == p;
        if (!dup) o.profiles.push_back(p);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
      }
    }
  }
  if (o.profiles.empty())
    for (auto p : kAllProfiles) o.profiles.emplace_back(p);
  o.reader = args.last("--reader");
  if (o.reader && o.reader->find_first_not_of(" \t") == std::string::npos) {
    std::cerr << "voxrig conform: --reader needs a command\n";
    return kExitUsage;
  }
  o.golden = args.last("--golden");
  if (auto j = args.last("--jobs")) {
    char* end = nullptr;
    const long n = std::strtol(j->c_str(), &end, 10);
    if (j->empty() || *end || n < 1 || n > 64) {
      std::cerr << "voxrig conform: --jobs takes a number from 1 to 64\n";
      return kExitUsage;
    }
    o.jobs = static_cast<unsigned>(n);
  }
  if (auto t = args.last("--timeout")) {
    char* end = nullptr;
    const double v = std::strtod(t->c_str(), &end);
    if (t->empty() || *end || !(v > 0) || v > 86400) {
      std::cerr << "voxrig conform: --timeout takes seconds (> 0)\n";
      return kExitUsage;
    }
    o.timeout = v;
  }
  if (auto c = args.last("--codes")) {
    if (*c == "strict")
      o.codes = CodeMode::Strict;
    else if (*c == "loose")
      o.codes = CodeMode::Loose;
    else {
      std::cerr << "voxrig conform: --codes takes strict or loose\n";
      return kExitUsage;
    }
  }
  if (auto l = args.last("--level")) {
    if (*l == "all")
      o.level_all = true;
    else if (*l != "required") {
      std::cerr << "voxrig conform: --level takes required or all\n";
      return kExitUsage;
    }
  }
  o.expected_failures = args.last("--expected-failures");
  o.update_expected = args.has("--update-expected");
  if (o.update_expected && !o.expected_failures) {
    std::cerr << "voxrig conform: --update-expected needs --expected-failures FILE\n";
    return kExitUsage;
  }
  o.writer = args.has("--writer");
  o.compile = args.has("--compile");
  o.pose = args.has("--pose");
  o.mesh = args.has("--mesh");
  o.dump = !args.has("--no-dump");
  if (!o.dump && !o.compile && !o.pose && !o.mesh) {
    std::cerr << "voxrig conform: --no-dump needs --compile, --pose or --mesh\n";
    return kExitUsage;
  }
  o.junit = args.last("--junit");
  o.report = args.last("--report");
  o.html = args.last("--html");
  for (const auto& [name, value] : args.options)
    if (name == "--filter") o.filters.push_back(value);
  if (auto g = args.last("--generated")) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(g->c_str(), &end, 10);
    if (g->empty() || *end || (*g)[0] == '-' || n < 1 || n > 10000000) {
      std::cerr << "voxrig conform: --generated takes a number of cases (1 to 10000000)\n";
      return kExitUsage;
    }
    if (o.golden) {
      std::cerr << "voxrig conform: --generated and --golden exclude each other\n";
      return kExitUsage;
    }
    o.generated = n;
    if (int rc = parse_generated_options(args, o.gen, "conform"); rc != kExitOk) return rc;
    o.gen.count = n;
    o.gen.negative_every = 4;
    o.gen.progress = n >= 1000;
  } else if (args.has("--seed") || args.has("--format") || args.has("--size")) {
    std::cerr << "voxrig conform: --seed, --format and --size go with --generated N\n";
    return kExitUsage;
  }
  return kExitOk;
}

// Whether --filter selects a case id: no filter, or the id contains one of them.
bool selected(const Options& o, const std::string& id) {
  if (o.filters.empty()) return true;
  for (const auto& f : o.filters)
    if (id.find(f) != std::string::npos) return true;
  return false;
}

// One planned reader run.
struct Planned {
  const ManifestCase* c = nullptr;
  const ManifestExpect* e = nullptr;
  Check check = Check::Dump;
  std::string out_path;                 // writer checks: where the reader writes
  const CapabilityCase* cap = nullptr;  // compile / pose / mesh
  const std::string& id() const { return cap ? cap->id : c->id; }
  const std::string& profile() const { return cap ? cap->profile : e->profile; }
};

// Progress on stderr: rewritten in place on a terminal, one line per 10% otherwise.
class Progress {
 public:
  explicit Progress(size_t total) : total_(total), tty_(::isatty(2) == 1) {}
  void step(const Planned& p) {
    ++done_;
    std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + p.id() +
                       " " + p.profile();
    if (p.check != Check::Dump) line += " " + std::string(to_string(p.check));
    if (tty_) {
      std::cerr << "\r\x1b[K" << line << std::flush;
      return;
    }
    const size_t decile = done_ * 10 / total_;
    if (decile != last_decile_) {
      last_decile_ = decile;
      std::cerr << line << "\n";
    }
  }
  void finish() {
    if (tty_) std::cerr << "\r\x1b[K" << std::flush;
  }

 private:
  size_t total_, done_ = 0, last_decile_ = 0;
  bool tty_;
};

// The last lines of stderr, at most 2 KiB, for failure details.
std::string tail(const std::string& err) {
  constexpr size_t kMax = 2048;
  if (err.size() <= kMax) return err;
  size_t start = err.size() - kMax;
  if (size_t nl = err.find('\n', start); nl != std::string::npos && nl + 1 < err.size())
    start = nl + 1;
  return err.substr(start);
}

std::string describe_capability(const CapabilityCase& c) {
  if (!c.accept) return "reject " + c.error + (c.json_path.empty() ? "" : " at " + c.json_path);
  if (c.check == Check::Compile) return "output = " + c.output;
  if (c.check == Check::Pose)
    return std::to_string(c.model.size()) + " model matrices (D19 tolerance)";
  return "a mesh covering every exposed face exactly once";
}

std::string describe(const Planned& p) {
  if (p.cap) return describe_capability(*p.cap);
  if (p.check == Check::Dump) return p.e->accept ? "accept" : "reject " + p.e->error;
  const WriterSpec& w = p.check == Check::Roundtrip ? p.e->roundtrip : p.e->canonicalize;
  switch (w.kind) {
    case WriterSpec::Kind::Same:
      return "output = input bytes";
    case WriterSpec::Kind::Path:
      return "output = " + w.value;
    case WriterSpec::Kind::Error:
      return "error " + w.value;
    case WriterSpec::Kind::Absent:
      break;
  }
  return "";
}

Judgement judge_capability(const Corpus& corpus, const Planned& p, const RunOutcome& run,
                           CodeMode codes, bool level_all, std::string* quality) {
  const CapabilityCase& c = *p.cap;
  if (c.check == Check::Pose) return judge_pose({c.accept, c.error, c.model}, run, codes);
  if (c.check == Check::Mesh) {
    auto bytes = read_file(corpus.file(c.path), kCorpusRead);
    if (!bytes) return {Verdict::Fail, "cannot read the golden file " + c.path};
    std::string problem;
    auto faces = mesh_faces(*bytes, c.profile, &problem);
    if (!faces) return {Verdict::Fail, "the golden file does not decode (corpus bug): " + problem};
    return judge_mesh(*faces, c.reference_quads, run, quality);
  }
  std::vector<uint8_t> expected;
  if (c.accept) {
    auto bytes = read_file(corpus.file(c.output), kCorpusRead);
    if (!bytes) return {Verdict::Fail, "cannot read the golden file " + c.output};
    expected = std::move(*bytes);
  }
  const std::optional<std::vector<uint8_t>> produced = read_file(p.out_path, kCorpusRead);
  std::error_code ec;
  fs::remove(p.out_path, ec);
  WriterExpectation we;
  we.error = !c.accept;
  we.code = c.error;
  we.bytes = expected;
  return judge_compile(we, c.json_path, level_all, run, produced, codes);
}

Judgement judge(const Corpus& corpus, const Planned& p, const RunOutcome& run, CodeMode codes) {
  if (p.check == Check::Dump) {
    std::optional<std::vector<uint8_t>> dump;
    if (p.e->accept && !(dump = read_file(corpus.file(p.e->dump), kCorpusRead)))
      return {Verdict::Fail, "cannot read the golden dump " + p.e->dump};
    return judge_dump({p.e->accept, p.e->error, dump ? as_text(*dump) : ""}, run, codes);
  }
  const WriterSpec& w = p.check == Check::Roundtrip ? p.e->roundtrip : p.e->canonicalize;
  std::vector<uint8_t> expected;
  if (w.kind == WriterSpec::Kind::Same || w.kind == WriterSpec::Kind::Path) {
    const std::string path = corpus.file(w.kind == WriterSpec::Kind::Same ? p.c->path : w.value);
    auto bytes = read_file(path, kCorpusRead);
    if (!bytes) return {Verdict::Fail, "cannot read the golden file " + path};
    expected = std::move(*bytes);
  }
  const std::optional<std::vector<uint8_t>> produced = read_file(p.out_path, kCorpusRead);
  std::error_code ec;
  fs::remove(p.out_path, ec);
  WriterExpectation we;
  we.error = w.kind == WriterSpec::Kind::Error;
  we.code = we.error ? w.value : "";
  we.bytes = expected;
  return judge_writer(we, run, produced, codes);
}

std::string make_temp_dir(const char* prefix = "voxrig-conform") {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/" + prefix + "-XXXXXX";
  if (!::mkdtemp(templ.data())) return "";
  return templ;
}

// Fails fast when the reader cannot be started: runs the first planned job alone; the shell
// exits 127 (not found) or 126 (not executable) before the reader ever sees an argument.
// Returns kExitOk or kExitUsage after one line naming --reader and the shell's message.
int check_reader_starts(const std::string& reader, const ProcessJob& first, double timeout) {
  PoolOptions pool;
  pool.timeout_seconds = timeout;
  RunOutcome probe;
  run_processes({first}, pool, [&](size_t, RunOutcome&& r) { probe = std::move(r); });
  if (probe.started && probe.signal == 0 && probe.exit_code != 126 && probe.exit_code != 127)
    return kExitOk;
  std::string why = probe.err.substr(0, probe.err.find('\n'));
  if (why.empty()) why = probe.started ? "exit " + std::to_string(probe.exit_code) : "spawn failed";
  std::cerr << "voxrig conform: --reader '" << reader << "' cannot be started (" << why
            << "); nothing was run\n";
  return kExitUsage;
}

int run(const Args& args) {
  Options o;
  if (int rc = parse_options(args, o); rc != kExitOk) return rc;
  const auto t0 = std::chrono::steady_clock::now();
  // Output paths are checked before the run, not after it.
  for (const auto* out : {&o.junit, &o.report})
    if (*out && !check_writable(**out)) return kExitIo;
  if (o.update_expected && !check_writable(*o.expected_failures)) return kExitIo;

  // --generated: write a temporary corpus with `voxrig gen`'s code, then run the normal path.
  std::string gen_dir;
  std::vector<std::string> gen_ids;
  if (o.generated) {
    gen_dir = make_temp_dir("voxrig-generated");
    if (gen_dir.empty()) {
      std::cerr << "voxrig conform: cannot create a temporary directory\n";
      return kExitIo;
    }
    const int rc = write_generated_corpus(gen_dir, o.gen, gen_ids);
    if (rc == kExitIo) return rc;
    std::cout << "voxrig conform: generated " << *o.generated << " case(s), seed " << o.gen.seed
              << ", format "
              << (o.gen.all_formats ? std::string("all")
                                    : std::string(gen::to_string(o.gen.formats[0])))
              << ", 1 in 4 negative, in " << gen_dir << "\n";
    if (rc != kExitOk)
      std::cout << "voxrig conform: the generator and the reference disagree (see stderr); "
                   "conform will report those cases\n";
    o.golden = gen_dir;
  }

  std::vector<std::string> tried;
  auto dir = locate_golden(o.golden, tried);
  if (!dir && o.golden) {  // the one place looked at: one line naming it
    std::cerr << "voxrig: cannot read " << *o.golden
              << ": no manifest.json there (--golden takes a corpus directory)\n";
    return kExitIo;
  }
  if (!dir) {
    std::cerr << "voxrig conform: no golden corpus (manifest.json) found; tried:\n";
    for (const auto& t : tried) std::cerr << "  " << t << "\n";
    std::cerr << "use --golden DIR or set VOXRIG_GOLDEN\n";
    return kExitIo;
  }
  Corpus corpus;
  if (int rc = load_corpus(*dir, corpus); rc != kExitOk) return rc;

  ExpectedFailureList xfails;
  if (o.expected_failures) {
    std::optional<std::vector<uint8_t>> text;
    std::error_code ec;
    const bool exists = fs::exists(*o.expected_failures, ec);
    if (exists && !(text = read_file(*o.expected_failures, kCorpusRead))) {
      std::cerr << "voxrig conform: cannot read " << *o.expected_failures << "\n";
      return kExitIo;
    }
    if (!exists && !o.update_expected) {
      std::cerr << "voxrig conform: cannot read " << *o.expected_failures
                << " (use --update-expected to create it)\n";
      return kExitIo;
    }
    xfails = parse_expected_failures(text ? as_text(*text) : "");
    for (const auto& p : xfails.problems)
      std::cerr << "voxrig conform: " << *o.expected_failures << ": " << p << "\n";
    if (!xfails.problems.empty()) return kExitUsage;
  }

  RunInfo info;
  info.suite = corpus.manifest.suite;
  info.suite_version = corpus.manifest.suite_version;
  info.manifest_sha256 = corpus.manifest_sha256;
  info.golden_dir = corpus.dir;
  const std::string self = self_executable();
  info.reader = o.reader ? *o.reader : "built-in reference reader (" + self + ")";
  info.profiles = o.profiles;
  info.codes = o.codes;
  info.level_all = o.level_all;
  info.writer = o.writer;
  for (auto [on, name] : {std::pair{o.compile, "compile"}, {o.pose, "pose"}, {o.mesh, "mesh"}})
    if (on) info.capabilities.push_back(name);
  info.dump = o.dump;
  for (const auto& f : o.filters) info.filter += (info.filter.empty() ? "" : " ") + f;
  info.expected_failures = o.expected_failures.value_or("");
  info.jobs = o.jobs ? o.jobs : available_cpus();
  info.timeout_seconds = o.timeout;
  std::cout << header_text(info) << std::flush;

  // Plan: for each case, each requested profile that applies, the dump run and, with --writer,
  // the writer runs the manifest records an expectation for.
  std::string tmp;
  if ((o.writer || o.compile) && (tmp = make_temp_dir()).empty()) {
    std::cerr << "voxrig conform: cannot create a temporary directory\n";
    return kExitIo;
  }
  std::vector<Planned> plan;
  std::vector<ProcessJob> jobs;
  size_t skipped = 0;
  auto command = [&](std::vector<std::string> args) {
    if (o.reader) return shell_command(*o.reader, args);
    args.insert(args.begin(), self);
    return args;
  };
  for (const auto& c : corpus.manifest.cases) {
    if (!o.dump) break;
    if (!selected(o, c.id)) continue;
    const std::string file = corpus.file(c.path);
    for (const auto& profile : o.profiles) {
      const ManifestExpect* e = c.find(profile);
      if (!e) {
        ++skipped;
        continue;
      }
      plan.push_back({&c, e, Check::Dump, ""});
      jobs.push_back({command({"dump", "--profile", profile, file})});
      if (!o.writer || !e->accept) continue;
      for (Check check : {Check::Roundtrip, Check::Canonicalize}) {
        const WriterSpec& w = check == Check::Roundtrip ? e->roundtrip : e->canonicalize;
        if (w.kind == WriterSpec::Kind::Absent) {
          ++skipped;
          continue;
        }
        const std::string out = tmp + "/" + std::to_string(plan.size()) + ".out";
        plan.push_back({&c, e, check, out});
        jobs.push_back({command({std::string(to_string(check)), "--profile", profile, file, out})});
      }
    }
  }
  // Capability cases: compile under any profile selection, pose / mesh under their profile.
  for (const auto& c : corpus.manifest.capability_cases) {
    const bool on = c.check == Check::Compile ? o.compile
                    : c.check == Check::Pose  ? o.pose
                                              : o.mesh;
    if (!on || !selected(o, c.id)) continue;
    const std::string file = corpus.file(c.path);
    if (c.check != Check::Compile &&
        std::find(o.profiles.begin(), o.profiles.end(), c.profile) == o.profiles.end()) {
      ++skipped;
      continue;
    }
    Planned p;
    p.cap = &c;
    p.check = c.check;
    if (c.check == Check::Compile) {
      p.out_path = tmp + "/" + std::to_string(plan.size()) + ".vfp";
      jobs.push_back({command({"compile", file, p.out_path})});
    } else if (c.check == Check::Pose) {
      std::vector<std::string> a = {"pose", "--profile", c.profile, "--clip", c.clip, "--t", c.t};
      if (!c.policy.empty()) a.insert(a.end(), {"--policy", c.policy});
      if (!c.mode.empty()) a.insert(a.end(), {"--mode", c.mode});
      a.push_back(file);
      jobs.push_back({command(a)});
    } else {
      jobs.push_back({command({"mesh", "--profile", c.profile, file})});
    }
    plan.push_back(p);
  }
  if (plan.empty()) {
    std::cerr << "voxrig conform: nothing to run (no case matches the filter and profiles)\n";
    if (!tmp.empty()) fs::remove_all(tmp);
    return kExitUsage;
  }
  if (o.reader) {
    if (int rc = check_reader_starts(*o.reader, jobs.front(), o.timeout); rc != kExitOk) {
      if (!tmp.empty()) fs::remove_all(tmp);
      return rc;
    }
  }

  std::vector<CaseResult> results(plan.size());
  Progress progress(plan.size());
  PoolOptions pool;
  pool.parallel = info.jobs;
  pool.timeout_seconds = o.timeout;
  const bool complete = run_processes(jobs, pool, [&](size_t i, RunOutcome&& run) {
    const Planned& p = plan[i];
    CaseResult& r = results[i];
    r.id = p.id();
    r.profile = p.profile();
    r.check = p.check;
    r.level = p.cap ? p.cap->level : p.c->level;
    r.counted = r.level == Level::Required || o.level_all;
    r.expected = describe(p);
    Judgement j = p.cap ? judge_capability(corpus, p, run, o.codes, o.level_all, &r.quality)
                        : judge(corpus, p, run, o.codes);
    r.verdict = j.verdict;
    r.reason = std::move(j.reason);
    if (r.verdict != Verdict::Pass) r.stderr_tail = tail(run.err);
    r.exit_code = run.exit_code;
    r.signal = run.signal;
    r.seconds = run.seconds;
    if (p.cap) {
      // Capability cases carry their resolved rules like reader cases (no hex context: their
      // failures are about the testee's output, not a file offset).
      describe_case(r, *p.cap, corpus.rules ? &*corpus.rules : nullptr);
      progress.step(p);
      return;
    }
    describe_case(r, *p.c, p.e, corpus.rules ? &*corpus.rules : nullptr);
    if (p.check != Check::Dump) r.capability = "writer";
    if (r.verdict != Verdict::Pass && r.verdict != Verdict::Loose) {
      const auto bytes = read_file(corpus.file(p.c->path), kCorpusRead);
      add_failure_context(r, *p.c, *p.e, run, bytes ? *bytes : std::vector<uint8_t>{});
    }
    progress.step(p);
  });
  progress.finish();
  if (!tmp.empty()) fs::remove_all(tmp);
  if (!complete) {
    std::cerr << "voxrig conform: interrupted\n";
    return 130;
  }

  // Entries that matched no run: kept when this run just did not select them (filter, profile,
  // no --writer), reported as stale when the corpus has no such check at all.
  std::vector<ExpectedFailure> kept;
  for (const auto& e : apply_expected_failures(results, xfails)) {
    if (e.check == Check::Compile || e.check == Check::Pose || e.check == Check::Mesh) {
      bool known = false;
      for (const auto& cc : corpus.manifest.capability_cases)
        known |= cc.id == e.id && cc.check == e.check && cc.profile == e.profile;
      if (known) {
        kept.push_back(e);
        continue;
      }
    }
    const ManifestCase* c = nullptr;
    for (const auto& mc : corpus.manifest.cases)
      if (mc.id == e.id) c = &mc;
    const ManifestExpect* me = c ? c->find(e.profile) : nullptr;
    const bool exists =
        me &&
        (e.check == Check::Dump ||
         (me->accept && (e.check == Check::Roundtrip ? me->roundtrip : me->canonicalize).kind !=
                            WriterSpec::Kind::Absent));
    if (exists) {
      kept.push_back(e);
    } else {
      std::cerr << "voxrig conform: " << *o.expected_failures << ": '" << e.id << " " << e.profile
                << " " << to_string(e.check) << "' is not a check of this corpus (stale entry"
                << (o.update_expected ? ", dropped" : "") << ")\n";
    }
  }

  info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Summary summary = summarize(results, skipped);
  std::cout << summary_text(info, results, summary) << std::flush;

  int exit = summary.counted.failed() ? kExitFailed : kExitOk;
  if (!gen_dir.empty()) {
    std::error_code ec;
    if (exit == kExitOk) {
      fs::remove_all(gen_dir, ec);
    } else {
      for (const auto& r : results) {  // results are in plan order = case index order
        if (r.verdict == Verdict::Pass || r.verdict == Verdict::Loose ||
            r.verdict == Verdict::Xfail || !r.counted)
          continue;
        uint64_t index = 0;
        for (size_t i = 0; i < gen_ids.size(); ++i)
          if (gen_ids[i] == r.id) index = i;
        std::cout << "first failing generated case: " << r.id << " (" << r.profile << ", "
                  << to_string(r.check) << "): " << r.reason << "\n"
                  << "  regenerate it: " << gen_regen_command(o.gen, index, "DIR") << "\n";
        break;
      }
      std::cout << "generated corpus kept in " << gen_dir << " (seed " << o.gen.seed
                << "; rerun: voxrig conform --golden " << gen_dir << ")\n";
    }
  }
  auto write_text = [&](const std::string& path, const std::string& text) {
    if (!write_file(path, text)) exit = kExitIo;
  };
  if (o.junit) write_text(*o.junit, junit_xml(info, results));
  if (o.report) write_text(*o.report, report_json(info, results, summary));
  if (o.html) write_text(*o.html, report_html(info, results, summary));
  if (o.update_expected) {
    const std::string text = render_expected_failures(results, kept);
    write_text(*o.expected_failures, text);
    size_t entries = 0;
    for (size_t at = 0; at < text.size();) {
      const size_t nl = text.find('\n', at);
      entries += text[at] != '#';
      at = nl == std::string::npos ? text.size() : nl + 1;
    }
    std::cerr << "voxrig conform: rewrote " << *o.expected_failures << " (" << entries
              << " entries)\n";
    if (exit == kExitFailed) exit = kExitOk;  // every current failure is now listed
  }
  return exit;
}

}  // namespace

extern const Command kConform{"conform", "run a reader over the golden corpus (conformance)",
                              kUsage, kOptions, run};

}  // namespace voxrig::cli
