// voxrig conform: runs a reader (the built-in reference by default) over the golden corpus
// (docs/spec/protocols.md#the-reader-protocol). The run is the library's run_conformance()
// (voxrig/conform/run.h); this file parses the options, prints the progress and the summary,
// writes the reports and maps the result to an exit code.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "golden_dir.h"
#include "option_values.h"
#include "voxrig/conform/run.h"

namespace voxrig::cli {
namespace {

using namespace voxrig::conform;
namespace fs = std::filesystem;

constexpr std::string_view kUsage =
    "usage: voxrig conform [--reader 'COMMAND'] [--level verdicts|dumps|writers|capabilities]\n"
    "                      [--profile P ...] [--golden DIR] [--jobs N] [--timeout SEC]\n"
    "                      [--codes strict|loose] [--recommended] [--filter SUBSTR ...]\n"
    "                      [--writer] [--compile] [--pose] [--mesh] [--no-dump]\n"
    "                      [--expected-failures FILE] [--update-expected]\n"
    "                      [--junit FILE] [--report FILE.json] [--html FILE]\n"
    "                      [--generated N [--seed S] [--format F] [--size small|medium]]\n"
    "                      [--protocol auto|serve|oneshot]\n"
    "Runs a reader over the golden corpus and compares its verdicts and dumps with the\n"
    "manifest (golden/README.md). The manifest's SHA-256 hashes are checked first.\n"
    "  --reader CMD        shell command; run as `CMD dump --profile P FILE` (and, with --writer,\n"
    "                      `CMD roundtrip|canonicalize --profile P IN OUT`). Default: this voxrig\n"
    "  --level L           the adoption ladder, each rung adding checks to the one below:\n"
    "                      verdicts      accept / reject and the error code; the dump is not read\n"
    "                      dumps         + the canonical JSON dump (the default)\n"
    "                      writers       + roundtrip / canonicalize bytes (--writer)\n"
    "                      capabilities  + compile, pose and mesh (--compile --pose --mesh)\n"
    "                      The summary, reports and the CI action name the rung reached.\n"
    "  --profile P         vfp-static | vfp-rig | rkc-strict | rkc-compat; repeatable\n"
    "                      (default: all four, or those a serve reader's hello claims; profiles\n"
    "                      that do not apply to a case are skipped)\n"
    "  --golden DIR        the corpus (default: $VOXRIG_GOLDEN, the installed corpus, the source\n"
    "                      tree's golden/)\n"
    "  --jobs N            parallel reader runs (default: the number of CPUs)\n"
    "  --protocol P        auto (default): use `CMD serve` (one process per worker, JSON lines;\n"
    "                      docs/spec/protocols.md) when it answers hello within 20 s, else one\n"
    "                      process per run; serve: require it (exit 2 if not); oneshot: never\n"
    "  --timeout SEC       per run; the reader's process group is killed (default: 10)\n"
    "  --codes loose       check accept/reject only, not error codes (reported as loose)\n"
    "  --recommended       recommended cases count too (default: reported, not counted)\n"
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
    "  --report FILE.json  JSON report: versions, manifest hash, reader, level, per-case\n"
    "                      verdicts, timing\n"
    "  --html FILE         one self-contained HTML page: level, summary, spec section x profile\n"
    "                      matrix, filters, per case rules, expectation, outcome, dump diff, hex\n"
    "  --filter SUBSTR     only cases whose id contains SUBSTR; repeatable (any of them)\n"
    "  --generated N       instead of the golden corpus: generate N seeded cases (voxrig gen,\n"
    "                      1 in 4 negative) into a temporary corpus and run on that; the seed is\n"
    "                      printed, and on a failure the corpus is kept and the first failing\n"
    "                      case is named with the command that regenerates it\n"
    "  --seed S            generator seed (default 1); --format F: vfp|rkc|kv6|rvc|kfa|all (all)\n"
    "  --size small|medium generated file size (default small)\n"
    "Paths (the reader command, --golden, reports) are relative to the current directory.\n"
    "The summary on stdout ends with `level reached: L (...)` and `N passed, N failed`.\n"
    "Before running, a --reader that cannot be started (the shell says not found / not\n"
    "executable) fails at once with exit 2, and --junit/--report/--update-expected paths that\n"
    "cannot be written fail at once with exit 3.\n"
    "Exit: 0 nothing failed, 4 a case failed, crashed or timed out (or the corpus does not match\n"
    "its manifest), 2 usage, 3 I/O.\n";

struct Options {
  RunOptions run;
  std::optional<std::string> reader, golden, expected_failures;
  bool update_expected = false;
  std::optional<std::string> junit, report, html;
  std::optional<uint64_t> generated;  // --generated N
  gen::GenCorpusOptions gen;
  bool gen_progress = false;
};

constexpr std::string_view kCodesChoices[] = {"strict", "loose"};
constexpr std::string_view kLevelChoices[] = {"verdicts", "dumps", "writers", "capabilities"};

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
                                   {"--protocol", true, kProtocolChoices},
                                   {"--generated", true},
                                   {"--seed", true},
                                   {"--format", true, kGenFormatChoices, true},
                                   {"--size", true, kGenSizeChoices},
                                   {"--recommended", false},
                                   {"--update-expected", false},
                                   {"--writer", false},
                                   {"--compile", false},
                                   {"--pose", false},
                                   {"--mesh", false},
                                   {"--no-dump", false}};

// "--profile a,b" is accepted as well as repeated options (parse_args checked every name).
void parse_profiles(const Args& args, std::vector<std::string>& profiles) {
  for (const auto& [name, value] : args.options) {
    if (name != "--profile") continue;
    for (std::string_view rest = value;;) {
      const size_t comma = rest.find(',');
      std::string p(rest.substr(0, comma));
      if (std::find(profiles.begin(), profiles.end(), p) == profiles.end()) profiles.push_back(p);
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
}

// --generated N with --seed, --format, --size. Returns kExitOk or kExitUsage.
int parse_generated(const Args& args, Options& o) {
  auto g = args.last("--generated");
  if (!g) {
    if (!args.has("--seed") && !args.has("--format") && !args.has("--size")) return kExitOk;
    std::cerr << "voxrig conform: --seed, --format and --size go with --generated N\n";
    return kExitUsage;
  }
  uint64_t n = 0;
  if (!number_option(args, "conform", "--generated", 1, 10000000, n)) return kExitUsage;
  if (o.golden) {
    std::cerr << "voxrig conform: --generated and --golden exclude each other\n";
    return kExitUsage;
  }
  o.generated = n;
  if (int rc = parse_generated_options(args, o.gen, "conform"); rc != kExitOk) return rc;
  o.gen.count = n;
  o.gen.negative_every = 4;
  o.gen_progress = n >= 1000;
  return kExitOk;
}

// Single-valued options: the last one given wins. Returns kExitOk or kExitUsage.
int parse_options(const Args& args, Options& o) {
  if (!args.positional.empty()) {
    std::cerr << "voxrig conform: unexpected argument '" << args.positional[0]
              << "' (see --help)\n";
    return kExitUsage;
  }
  RunOptions& run = o.run;
  parse_profiles(args, run.profiles);
  o.reader = args.last("--reader");
  if (o.reader && o.reader->find_first_not_of(" \t") == std::string::npos) {
    std::cerr << "voxrig conform: --reader needs a command\n";
    return kExitUsage;
  }
  o.golden = args.last("--golden");
  uint64_t jobs = 0;
  if (!number_option(args, "conform", "--jobs", 1, 64, jobs) ||
      !seconds_option(args, "conform", "--timeout", 0.001, 86400, run.timeout_seconds))
    return kExitUsage;
  run.jobs = unsigned(jobs);
  run.codes = args.last("--codes") == "loose" ? CodeMode::Loose : CodeMode::Strict;
  run.count_recommended = args.has("--recommended");
  run.protocol = protocol_option(args);
  o.expected_failures = args.last("--expected-failures");
  o.update_expected = args.has("--update-expected");
  if (o.update_expected && !o.expected_failures) {
    std::cerr << "voxrig conform: --update-expected needs --expected-failures FILE\n";
    return kExitUsage;
  }
  // --level sets a rung's checks; the single flags add to them.
  run.checks = checks_for_level(
      conformance_level_from_string(args.last("--level").value_or("dumps")).value());
  if (args.has("--no-dump")) run.checks.dump = false;
  run.checks.writer |= args.has("--writer");
  run.checks.compile |= args.has("--compile");
  run.checks.pose |= args.has("--pose");
  run.checks.mesh |= args.has("--mesh");
  if (!run.checks.dump && !run.checks.compile && !run.checks.pose && !run.checks.mesh) {
    std::cerr << "voxrig conform: --no-dump needs --compile, --pose or --mesh\n";
    return kExitUsage;
  }
  o.junit = args.last("--junit");
  o.report = args.last("--report");
  o.html = args.last("--html");
  for (const auto& [name, value] : args.options)
    if (name == "--filter") run.filters.push_back(value);
  return parse_generated(args, o);
}

// Progress on stderr: rewritten in place on a terminal, one line per 10% otherwise.
class Progress {
 public:
  Progress() : tty_(::isatty(2) == 1), start_(std::chrono::steady_clock::now()) {}
  void step(size_t done, size_t total, const CaseResult& r) {
    const std::string line = progress_text(
        done, total,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(), r);
    if (tty_) {
      std::cerr << "\r\x1b[K" << line << std::flush;
      return;
    }
    const size_t decile = done * 10 / total;
    if (decile != last_decile_) {
      last_decile_ = decile;
      std::cerr << line << "\n";
    }
  }
  void finish() {
    if (tty_) std::cerr << "\r\x1b[K" << std::flush;
  }

 private:
  size_t last_decile_ = 0;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
};

std::string make_temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/voxrig-generated-XXXXXX";
  return ::mkdtemp(templ.data()) ? templ : "";
}

// --generated: writes a temporary corpus with `voxrig gen`'s code and points the run at it.
// Returns kExitOk (also when the generator and the reference disagree: conform reports those
// cases) or kExitIo.
int generate(Options& o, std::string& dir, std::vector<std::string>& ids) {
  if ((dir = make_temp_dir()).empty()) {
    std::cerr << "voxrig conform: cannot create a temporary directory\n";
    return kExitIo;
  }
  const int rc = write_generated(dir, o.gen, o.gen_progress, ids);
  if (rc == kExitIo) return rc;
  std::cout << "voxrig conform: generated " << *o.generated << " case(s), seed " << o.gen.seed
            << ", format "
            << (o.gen.all_formats ? std::string("all")
                                  : std::string(gen::to_string(o.gen.formats[0])))
            << ", 1 in 4 negative, in " << dir << "\n";
  if (rc != kExitOk)
    std::cout << "voxrig conform: the generator and the reference disagree (see stderr); "
                 "conform will report those cases\n";
  o.golden = dir;
  return kExitOk;
}

// After a generated run: the corpus goes when it passed, else it is kept and the first failing
// case is named with the command that regenerates it.
void finish_generated(const Options& o, const RunResult& r, const std::string& dir,
                      const std::vector<std::string>& ids) {
  std::error_code ec;
  if (r.passed()) {
    fs::remove_all(dir, ec);
    return;
  }
  for (const auto& c : r.results) {  // results are in plan order = case index order
    if (c.verdict == Verdict::Pass || c.verdict == Verdict::Loose || c.verdict == Verdict::Xfail ||
        !c.counted)
      continue;
    const uint64_t index = uint64_t(std::find(ids.begin(), ids.end(), c.id) - ids.begin());
    std::cout << "first failing generated case: " << c.id << " (" << c.profile << ", "
              << to_string(c.check) << "): " << c.reason << "\n"
              << "  regenerate it: "
              << gen::gen_regen_command(o.gen, index < ids.size() ? index : 0, "DIR") << "\n";
    break;
  }
  std::cout << "generated corpus kept in " << dir << " (seed " << o.gen.seed
            << "; rerun: voxrig conform --golden " << dir << ")\n";
}

// The corpus directory and the expected-failure list, into `o.run`. Returns kExitOk, kExitIo
// or kExitUsage.
int prepare(Options& o) {
  std::vector<std::string> tried;
  auto dir = find_golden(o.golden, tried);
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
  o.run.golden_dir = *dir;
  if (!o.expected_failures) return kExitOk;
  const std::string& path = *o.expected_failures;
  std::optional<std::vector<uint8_t>> text;
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (exists && !(text = read_file(path, {.quiet = true}))) {
    std::cerr << "voxrig conform: cannot read " << path << "\n";
    return kExitIo;
  }
  if (!exists && !o.update_expected) {
    std::cerr << "voxrig conform: cannot read " << path
              << " (use --update-expected to create it)\n";
    return kExitIo;
  }
  o.run.expected_failures = parse_expected_failures(text ? as_text(*text) : "");
  o.run.expected_failures_path = path;
  for (const auto& p : o.run.expected_failures.problems)
    std::cerr << "voxrig conform: " << path << ": " << p << "\n";
  return o.run.expected_failures.problems.empty() ? kExitOk : kExitUsage;
}

// The exit code of a run that did not complete, after its one line.
int not_completed(const Options& o, const RunResult& r) {
  switch (r.status) {
    case RunStatus::CorpusMismatch:
      print_corpus_problems(r.problems);
      return kExitFailed;
    case RunStatus::IoError:
      print_corpus_problems(r.problems);
      return kExitIo;
    case RunStatus::NothingToRun:
      print_corpus_problems(r.problems);
      return kExitUsage;
    case RunStatus::ReaderNotStarted:
      std::cerr << "voxrig conform: --reader '" << (o.reader ? *o.reader : o.run.reader_name)
                << "' cannot be started (" << r.problems.front() << "); nothing was run\n";
      return kExitUsage;
    case RunStatus::Interrupted:
      std::cerr << "voxrig conform: interrupted\n";
      return 130;
    case RunStatus::Completed:
      break;
  }
  return kExitOk;
}

// Writes the requested reports and, with --update-expected, the new list. Returns the exit code.
int write_outputs(const Options& o, const RunResult& r) {
  int exit = r.passed() ? kExitOk : kExitFailed;
  auto write_text = [&](const std::string& path, const std::string& text) {
    if (!write_file(path, text)) exit = kExitIo;
  };
  if (o.junit) write_text(*o.junit, junit_xml(r.info, r.results));
  if (o.report) write_text(*o.report, report_json(r.info, r.results, r.summary));
  if (o.html) write_text(*o.html, report_html(r.info, r.results, r.summary));
  for (const auto& e : r.stale)
    std::cerr << "voxrig conform: " << *o.expected_failures << ": '" << e.id << " " << e.profile
              << " " << to_string(e.check) << "' is not a check of this corpus (stale entry"
              << (o.update_expected ? ", dropped" : "") << ")\n";
  if (!o.update_expected) return exit;
  const std::string text = render_expected_failures(r.results, r.kept);
  write_text(*o.expected_failures, text);
  std::cerr << "voxrig conform: rewrote " << *o.expected_failures << " ("
            << parse_expected_failures(text).entries.size() << " entries)\n";
  return exit == kExitFailed ? kExitOk : exit;  // every current failure is now listed
}

int run(const Args& args) {
  Options o;
  if (int rc = parse_options(args, o); rc != kExitOk) return rc;
  // Output paths are checked before the run, not after it.
  for (const auto* out : {&o.junit, &o.report})
    if (*out && !check_writable(**out)) return kExitIo;
  if (o.update_expected && !check_writable(*o.expected_failures)) return kExitIo;
  std::string gen_dir;
  std::vector<std::string> gen_ids;
  if (o.generated)
    if (int rc = generate(o, gen_dir, gen_ids); rc != kExitOk) return rc;
  if (int rc = prepare(o); rc != kExitOk) return rc;

  const std::string self = self_executable();
  o.run.reader_argv = o.reader ? shell_command(*o.reader, {}) : std::vector<std::string>{self};
  o.run.reader_name = o.reader ? *o.reader : "built-in reference reader (" + self + ")";
  o.run.probe_reader = o.reader.has_value();
  Progress progress;
  RunProgress callbacks;
  callbacks.started = [](const RunInfo& info) { std::cout << header_text(info) << std::flush; };
  callbacks.judged = [&](size_t done, size_t total, const CaseResult& r) {
    progress.step(done, total, r);
  };
  const RunResult r = run_conformance(o.run, callbacks);
  progress.finish();
  if (r.status != RunStatus::Completed) return not_completed(o, r);
  std::cout << summary_text(r.info, r.results, r.summary) << std::flush;
  if (!gen_dir.empty()) finish_generated(o, r, gen_dir, gen_ids);
  return write_outputs(o, r);
}

}  // namespace

extern const Command kConform{"conform", "run a reader over the golden corpus (conformance)",
                              kUsage, kOptions, run};

}  // namespace voxrig::cli
