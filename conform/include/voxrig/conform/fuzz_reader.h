// voxrig/conform/fuzz_reader.h — the engine of `voxrig fuzz-reader` (docs/spec/protocols.md):
// differential fuzzing of a third-party reader against the reference.
//
// Each execution takes one seed file (golden or generated), applies a chain of 1..max_chain
// mutations (the caller's named mutators: the structure-aware ones of voxrig::testing and a
// plain byte mutator), and has both sides judge the result under one profile: the reference in
// process (dump_any), the reader through a FuzzRunner (a process per input with conform's
// timeout / crash / output rules, or an in-process testee). The reader's outcome is judged by
// judge_dump against the reference's answer, exactly as `voxrig conform` judges a golden case,
// so a finding written as a case fails conform the same way.
//
// Reproducible: execution i's seed file and chain depend only on (options.seed, i), never on
// timing or --jobs; `seed` + `runs` replays a run exactly. The caller does the I/O of the
// results (fuzz_reader_write.cpp renders them); fuzz_reader() itself spawns through the runner
// only. Safe on any reader output (bounded by the runner) and any seed bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "voxrig/conform/conform.h"
#include "voxrig/conform/process_pool.h"
#include "voxrig/conform/run.h"
#include "voxrig/conform/testee_loader.h"
#include "voxrig/profile.h"

namespace voxrig::conform {

using FuzzBytes = std::vector<uint8_t>;

/// A starting file: where it came from ("golden:vfp/rig/base", "gen:vfp:seed=0x..") and its bytes.
struct FuzzSeed {
  std::string origin;
  FuzzBytes bytes;
};

/// A named mutation: new bytes from `in` and a 64-bit seed (deterministic). Never throws. An
/// empty result means "does not apply to this input" (a rule breaker on a seed without the
/// element); such an execution is not run.
struct FuzzMutator {
  std::string name;
  std::function<FuzzBytes(std::span<const uint8_t> in, uint64_t seed)> apply;
  std::vector<std::string> rules = {};  ///< a rule breaker: the rule ids it aims at
};

/// One link of a mutation chain: which mutator, with which seed.
struct FuzzStep {
  size_t mutator = 0;
  uint64_t seed = 0;
};

/// Runs the reader under test on every input (at one profile, fixed by the runner) and returns
/// one RunOutcome per input, in order. May run them in parallel.
using FuzzRunner = std::function<std::vector<RunOutcome>(const std::vector<FuzzBytes>& inputs)>;

/// What the reference says about an input (dump_any under the profile, default limits).
struct ReferenceAnswer {
  bool accept = false;
  std::string code;  ///< reject: the error code
  std::string dump;  ///< accept: the canonical dump
};
ReferenceAnswer reference_answer(std::span<const uint8_t> bytes, Profile profile);

/// Whether the corpus ever judges a file like `bytes` under `profile`: its magic names a format
/// of the profile's family (VFP for vfp-*, RKCH / KV6 / RVC / KFA for rkc-*) or no format at
/// all (file.unknown_format under every profile). What a reader says about an RKCH file under
/// vfp-rig is unspecified (docs/spec/vfp.md#D7 passes the family's profile), so such inputs are
/// skipped, never counted as disagreements.
bool profile_applies(std::span<const uint8_t> bytes, Profile profile);

/// A disagreement's class (docs/spec/protocols.md): kind, expected, got, first differing dump path.
/// kind is "verdict" (accept/reject differ), "code" (both reject, codes differ; strict only),
/// "dump" (both accept, dumps differ), "crash" (signal, bad exit, invalid JSON or protocol
/// violation, testee failure) or "timeout".
struct FuzzClass {
  std::string kind;
  std::string expected;  ///< "accept" or "reject CODE"
  std::string got;       ///< "accept", "reject CODE", "crash", "timeout"
  std::string path;      ///< kind "dump": the first differing JSON path
  bool operator==(const FuzzClass&) const = default;
  /// The class as one line: "dump accept/accept $.sections[0].flags".
  std::string key() const;
};

/// The class of a judged disagreement, or nullopt when the reader agreed (Pass, or Loose under
/// --codes loose).
std::optional<FuzzClass> classify(const ReferenceAnswer& ref, const RunOutcome& run, CodeMode codes,
                                  std::string* reason);

/// The suggested golden case id of a class: "fuzz/<profile>/<kind>_<8 hex digits of the key>"
/// (stable across runs, so an expected-failure line keeps matching it).
std::string class_case_id(const FuzzClass& c, Profile profile);

struct FuzzOptions {
  Profile profile = Profile::VfpRig;
  CodeMode codes = CodeMode::Strict;
  uint64_t seed = 1;
  uint64_t runs = 0;                   ///< stop after this many executions (0: no limit)
  double seconds = 60;                 ///< stop after this much wall time (0: no limit)
  size_t batch = 8;                    ///< inputs handed to the runner at once (jobs x a few)
  size_t max_chain = 4;                ///< mutations per execution: 1..max_chain
  size_t max_input = size_t{1} << 20;  ///< longer mutated inputs are cut to this size
  size_t minimize_budget = 300;        ///< runner executions spent minimizing one class
  std::set<std::string> known;         ///< class case ids to skip (the expected-failure list)
  /// The first `random_mutators` mutators are the random ones plan_execution stacks (0: all).
  size_t random_mutators = 0;
  /// Rule-directed executions, run first and in order: {seed index, mutator index}, each one
  /// mutator applied once (an empty result is skipped, not counted). Then random stacking.
  std::vector<std::pair<size_t, size_t>> directed;
  /// Error code -> the catalogue rules that list it: a reference rejection with that code
  /// credits each of them in FuzzResult::rules_broken.
  std::map<std::string, std::vector<std::string>> code_rules;
  /// Structure-aware reductions of an input, tried before byte-range deletions while
  /// minimizing (the CLI: every input with one section / chunk dropped, framing repaired).
  /// Optional; each candidate should be smaller than the input.
  std::function<std::vector<FuzzBytes>(std::span<const uint8_t> in)> reduce;
  /// Called after every batch (the CLI prints progress about once a second from it).
  std::function<void(uint64_t execs, size_t classes, double elapsed)> progress;
  /// Polled between batches; true stops the run (SIGINT).
  std::function<bool()> stop;
};

/// One class found, minimized.
struct FuzzFinding {
  FuzzClass cls;
  std::string id;      ///< class_case_id
  std::string reason;  ///< judge_dump's reason on the minimized input
  uint64_t exec = 0;   ///< the execution that found it (with options.seed, reproduces it)
  size_t seed_index = 0;
  std::string seed_origin;
  std::vector<FuzzStep> chain;  ///< the shortened chain; applied to the seed it keeps the class
  FuzzBytes chained;            ///< the seed with `chain` applied
  FuzzBytes input;              ///< `chained` minimized (options.reduce, then byte-range
                                ///< deletions), keeping the class
  ReferenceAnswer reference;    ///< on `input`
  std::string reader_out;       ///< the reader's stdout on `input` (bounded snippet)
  uint64_t hits = 1;            ///< executions that hit this class
};

struct FuzzResult {
  uint64_t execs = 0;           ///< fuzzing executions (reference + reader)
  uint64_t minimize_execs = 0;  ///< reader executions spent on minimization
  uint64_t known_hits = 0;      ///< executions whose class was on the expected-failure list
  uint64_t skipped = 0;         ///< executions whose mutated input left the profile's family
  uint64_t directed_execs = 0;  ///< executions of FuzzOptions::directed (within execs)
  /// Rule id -> executions whose reference rejection code the rule lists (code_rules).
  std::map<std::string, uint64_t> rules_broken;
  double seconds = 0;
  bool interrupted = false;
  std::vector<FuzzFinding> findings;  ///< in order of discovery
};

/// The fuzzing loop. `seeds` and `mutators` must be non-empty.
FuzzResult fuzz_reader(const std::vector<FuzzSeed>& seeds, const std::vector<FuzzMutator>& mutators,
                       const FuzzRunner& runner, const FuzzOptions& options);

/// The seed index and chain of execution `exec` of a run seeded `seed` (what fuzz_reader uses).
void plan_execution(uint64_t seed, uint64_t exec, size_t seeds, size_t mutators, size_t max_chain,
                    size_t* seed_index, std::vector<FuzzStep>* chain);
/// `bytes` with every step of `chain` applied in order (each output cut to max_input).
FuzzBytes apply_chain(const FuzzBytes& bytes, const std::vector<FuzzStep>& chain,
                      const std::vector<FuzzMutator>& mutators, size_t max_input);

// ---- runners ----------------------------------------------------------------------------------

/// Sends `dump --profile P FILE` for each input through `transport` (a process per input or the
/// persistent protocol, serve.h), writing each input to a file in `work_dir` (which must exist;
/// files are overwritten and removed). A SIGINT or SIGTERM during a batch ends the batch and is
/// re-raised as SIGINT after the transport restored the caller's handler (so a handler can set
/// the `stop` flag; without one the process ends).
FuzzRunner process_runner(std::shared_ptr<ReaderTransport> transport, Profile profile,
                          std::string work_dir);

/// Calls an in-process testee; its answers become RunOutcomes as the reader protocol would
/// have produced them (accept: exit 0 + dump; reject: exit 1 + {"error": code}; testee failure:
/// exit code 70 with the failure on stderr, judged as a crash). The testee must outlive it.
FuzzRunner testee_runner(const Testee& testee, Profile profile);

// ---- results ----------------------------------------------------------------------------------

/// What the run was, for the report and the written cases.
struct FuzzRunInfo {
  std::string reader;    ///< the command or "testee:LIB"
  std::string protocol;  ///< "serve", "oneshot" or "testee"
  Profile profile = Profile::VfpRig;
  CodeMode codes = CodeMode::Strict;
  uint64_t seed = 1;
  uint64_t runs = 0;
  double seconds = 0;
  unsigned jobs = 1;
  size_t seeds = 0;
  std::vector<std::string> mutators;
  std::string expected;  ///< the expected-failure file, or ""
  std::vector<std::string> breakable;  ///< the rules the breakers aim at (declared)
  /// Rules of the profile's spec files left without a breaker: {id, why}.
  std::vector<std::pair<std::string, std::string>> unbreakable;
};

/// A file fuzz-reader writes (path relative to --out).
struct FuzzOutputFile {
  std::string path;
  FuzzBytes bytes;
};

/// Everything --out receives: report.json (schema "voxrig-fuzz-reader-report/1"),
/// expected-failures.txt (one suggested line per class), and per class
/// cases/<id>/{input.<ext>, case.json (a case-source entry: hex bytes, the reference's verdict
/// per profile of its format, marked for review), finding.json (class, chain, seed, reason)};
/// plus corpus/ — a golden directory (manifest.json, files/, dumps/) holding every finding, so
/// `voxrig conform --golden DIR/corpus --reader R` re-runs them. Deterministic for one result.
std::vector<FuzzOutputFile> fuzz_output_files(const FuzzRunInfo& info, const FuzzResult& result,
                                              const std::vector<FuzzSeed>& seeds,
                                              const std::vector<FuzzMutator>& mutators);

/// The JSON report alone (also in fuzz_output_files).
std::string fuzz_report_json(const FuzzRunInfo& info, const FuzzResult& result,
                             const std::vector<FuzzSeed>& seeds,
                             const std::vector<FuzzMutator>& mutators);

/// The breakable rules (info.breakable) the run never broke (result.rules_broken), in order.
std::vector<std::string> never_reached(const FuzzRunInfo& info, const FuzzResult& result);

/// The end-of-run summary for stdout: one block per class, then the line
/// "N executions, N classes of disagreement".
std::string fuzz_summary_text(const FuzzRunInfo& info, const FuzzResult& result);

// ---- a whole run ------------------------------------------------------------------------------

/// Everything a `voxrig fuzz-reader` run sets up around fuzz_reader().
struct FuzzReaderRun {
  std::string golden_dir;  ///< the corpus whose cases of the profile are the first seed files
  std::string filter;      ///< only golden cases whose id contains this ("": all)
  std::vector<FuzzSeed> extra_seeds;  ///< after the golden ones (e.g. generated files)
  std::vector<FuzzMutator> mutators;  ///< non-empty: the random ones
  /// Rule breakers (FuzzMutator::rules set), each run once on each of `deep_seeds` before the
  /// random stacking; `breakable` / `unbreakable` describe them for the report.
  std::vector<FuzzMutator> breakers;
  std::vector<FuzzSeed> deep_seeds;
  std::vector<std::string> breakable;
  std::vector<std::pair<std::string, std::string>> unbreakable;
  const Testee* testee = nullptr;     ///< the reader in process (one call at a time), or
  std::string command;                ///< the reader protocol's command (a process per input)
  unsigned jobs = 1;                  ///< parallel reader processes
  double timeout_seconds = 10;        ///< per reader request
  /// How requests reach the command (serve.h): Auto uses `COMMAND serve` when it answers hello.
  ReaderProtocol protocol = ReaderProtocol::Auto;
  double hello_timeout_seconds = 20;  ///< how long a serve worker may take to answer hello
  FuzzOptions options;                ///< `batch` is set here from the reader and `jobs`
  std::string expected;               ///< the expected-failure file, for the report
  /// Called once the seed files are gathered, before the first execution.
  std::function<void(const FuzzRunInfo&)> started;
};

/// How a run ended.
enum class FuzzRunStatus {
  Ran,             ///< `result` holds the run (its findings say whether the reader agreed)
  IoError,         ///< the corpus is unreadable, or no temporary directory (`problems`)
  CorpusMismatch,  ///< a case file's SHA-256 differs from the manifest's (`problems`)
  NoSeeds,         ///< no golden case of the profile matches the filter and no extra seeds
  NoServe,         ///< protocol Serve, and the command does not answer hello (`problems`)
};

struct FuzzReaderOutcome {
  FuzzRunStatus status = FuzzRunStatus::Ran;
  std::vector<std::string> problems;  ///< one line each, when not Ran
  FuzzRunInfo info;
  std::vector<FuzzSeed> seeds;
  std::vector<FuzzMutator> mutators;  ///< the random ones, then the breakers (chain indices)
  FuzzResult result;
};

/// Loads and verifies the corpus, gathers the seed files, runs fuzz_reader() through a process
/// runner (files in a temporary directory it creates and removes) or a testee runner, and
/// returns what it found. Prints nothing; signals are the caller's (options.stop).
FuzzReaderOutcome run_fuzz_reader(const FuzzReaderRun& run);

/// Writes fuzz_output_files() of `outcome` (with its own mutators) under `dir` (created as
/// needed). Returns "" or the first "cannot write PATH: reason".
std::string write_fuzz_output(const std::string& dir, const FuzzReaderOutcome& outcome);

}  // namespace voxrig::conform
