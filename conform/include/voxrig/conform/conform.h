// voxrig/conform/conform.h — the judging half of `voxrig conform` (docs/spec/protocols.md#the-reader-protocol).
//
// Everything here is pure: no file access, no processes, no printing. A run (run.h) reads the
// golden corpus (corpus.h), sends requests to the reader under test (by default through
// process_pool.h, the one part of the library that spawns processes) and hands what it saw to
// these functions, which decide verdicts and render the summary, the JUnit XML and the JSON
// report. Keeping the judging here makes it testable without spawning anything and lets another
// harness (a CTest driver, an IDE plugin) reuse it.
//
// Reader output is untrusted: every function below is safe on arbitrary bytes (bounded nesting,
// invalid UTF-8 repaired before it reaches XML or JSON output) and never throws.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/conform/rules.h"

namespace voxrig::conform {

// ---- JSON dumps compared as values ------------------------------------------------------------

/// What compare_dump_json found.
enum class JsonCompare {
  Equal,            ///< same JSON value under the rules below
  Differ,           ///< both parse; `path` names the first difference
  ExpectedInvalid,  ///< the expected (golden) text does not parse: a corpus bug
  ActualInvalid,    ///< the reader's text does not parse, or nests deeper than kMaxJsonDepth
};

/// Deepest nesting compare_dump_json accepts (dumps nest fewer than 10 levels).
inline constexpr size_t kMaxJsonDepth = 256;
/// Most values one document may hold: bounds the tree a hostile reader can make us build
/// (dumps digest large arrays, so real ones hold far fewer).
inline constexpr size_t kMaxJsonValues = size_t{1} << 20;

/// The outcome of a comparison, with the first differing JSON path ("$.sections[2].flags") and
/// a one-line human explanation. For the invalid outcomes `detail` is the parser's message.
struct JsonDiff {
  JsonCompare outcome = JsonCompare::Equal;
  std::string path;
  std::string detail;
};

/// Compares two JSON documents as values (docs/spec/protocols.md, docs/spec/dump.md#D17):
/// - object keys in any order; a duplicate key makes a document invalid;
/// - arrays element by element (a length difference is reported before element differences);
/// - the expected document's spelling types each number: an integer literal (no '.', no
///   exponent) must be matched by an integer literal of exactly the same value (any size);
///   any other expected number is a binary32 field: both texts are rounded directly to binary32
///   (never through double) and compared by bit pattern, so -0.0 != 0.0 and 1 == 1.0;
/// - strings byte for byte, so "f32:0x7FC00000" and "f32:0x7FC00001" (NaN payloads) differ.
/// Differences are searched in the expected document's key order; the first one is reported.
/// Safe on untrusted input; allocates a tree of both documents (bounded by kMaxJsonDepth and
/// kMaxJsonValues; a document over either bound is invalid).
JsonDiff compare_dump_json(std::string_view expected, std::string_view actual);

/// The binary32 bit pattern a JSON number text rounds to (round-to-nearest-even, directly from
/// the decimal text), or nullopt when `text` is not a JSON number. Overflow gives infinity.
std::optional<uint32_t> json_number_f32_bits(std::string_view text);

/// The "error" string of a reader's rejection output `{"error": "<code>", ...}` (other keys are
/// ignored). nullopt when `text` is not exactly one JSON object with a string "error".
std::optional<std::string> rejection_code(std::string_view text);

// ---- what a check expects and what the reader did ----------------------------------------------

/// Which operation a result checks: the reader protocol's dump, an optional writer check, or a
/// capability (docs/spec/protocols.md: compile, pose, mesh).
enum class Check { Dump, Roundtrip, Canonicalize, Compile, Pose, Mesh };
/// "dump", "roundtrip", "canonicalize", "compile", "pose", "mesh".
std::string_view to_string(Check c);
std::optional<Check> check_from_string(std::string_view s);

/// A golden case's level: required cases fail a run; recommended ones only with --recommended.
enum class Level { Required, Recommended };
std::string_view to_string(Level l);

/// The adoption ladder (golden/README.md "Levels"): each rung runs the checks of the one below and
/// more. Verdicts: accept / reject and the error code of every reader case, no dump compared;
/// Dumps: the canonical dump too; Writers: roundtrip and canonicalize bytes too; Capabilities:
/// compile, pose and mesh too. None: not even the reader cases ran (--no-dump).
enum class ConformanceLevel { None, Verdicts, Dumps, Writers, Capabilities };
/// "none", "verdicts", "dumps", "writers", "capabilities".
std::string_view to_string(ConformanceLevel l);
std::optional<ConformanceLevel> conformance_level_from_string(std::string_view s);

/// --codes strict (error codes compared) or loose (accept/reject only).
enum class CodeMode { Strict, Loose };
std::string_view to_string(CodeMode m);

/// How one run of the reader ended, as the process runner observed it.
struct RunOutcome {
  bool started = true;           ///< false: the command could not be started (`spawn_error`)
  bool timed_out = false;        ///< killed by the runner after the per-case timeout
  bool output_overflow = false;  ///< stdout or stderr exceeded the capture cap; killed
  int exit_code = -1;            ///< exit status when it exited normally, else -1
  int signal = 0;                ///< terminating signal when killed by one (not by the runner)
  std::string out;               ///< captured stdout (bounded by the runner)
  std::string err;               ///< captured stderr (bounded by the runner)
  std::string spawn_error;
  /// Persistent protocol (serve.h): why the worker's answer to this request was unusable (it
  /// exited or closed stdout before answering, or answered a line that is not the answer
  /// object); judged as a crash. Empty otherwise.
  std::string protocol_error;
  double seconds = 0;
};

/// What the manifest expects of `COMMAND dump --profile P FILE`.
struct DumpExpectation {
  bool accept = true;
  std::string error;      ///< reject: the code
  std::string_view dump;  ///< accept: the expected dump text (owned by the caller)
};

/// What the manifest expects of a writer operation: the bytes it produces, or an error code.
struct WriterExpectation {
  bool error = false;
  std::string code;                ///< error: the code the writer must report
  std::span<const uint8_t> bytes;  ///< otherwise: the exact output (owned by the caller)
};

/// Verdict of one (case, profile, check). Only Fail/Crash/Timeout/Xpass can fail a run.
enum class Verdict {
  Pass,     ///< matched
  Loose,    ///< accept/reject matched but the error code differed; --codes loose
  Fail,     ///< accept/reject mismatch, dump mismatch, wrong error code, wrong writer bytes
  Crash,    ///< signal, exit code other than 0/1, invalid JSON, protocol violation, no start
  Timeout,  ///< did not finish within the timeout
  Xfail,    ///< Fail/Crash/Timeout, but listed in the expected-failure file
  Xpass,    ///< listed in the expected-failure file but passed: the list must shrink
};
/// "pass", "loose", "fail", "crash", "timeout", "xfail", "xpass".
std::string_view to_string(Verdict v);

/// A verdict with the reason a person reads ("rejected with skel.cycle, expected ...").
struct Judgement {
  Verdict verdict = Verdict::Pass;
  std::string reason;
};

/// Judges a dump run. Crash/timeout/protocol problems first, then accept/reject, then the code
/// (strict) or the dump (compare_dump_json). A dump mismatch names the first differing path.
Judgement judge_dump(const DumpExpectation& expect, const RunOutcome& run, CodeMode codes);

/// Judges a dump run on accept / reject and the error code alone (the ladder's first rung): the
/// same as judge_dump except that stdout of an accepting run is not read.
Judgement judge_verdict(const DumpExpectation& expect, const RunOutcome& run, CodeMode codes);

/// Judges a writer run: exit 0 with `produced` (the OUT file; nullopt if absent) equal to the
/// expected bytes, or exit 1 with the expected error code (compared only in strict mode).
Judgement judge_writer(const WriterExpectation& expect, const RunOutcome& run,
                       const std::optional<std::vector<uint8_t>>& produced, CodeMode codes);

// ---- results, expected failures, tallies --------------------------------------------------------

struct ManifestCase;  // below: the golden manifest
struct ManifestExpect;

/// A rule a result exercises, as reports show it (voxrig/conform/rules.h).
struct RuleNote {
  std::string id;
  RuleRelation relation = RuleRelation::Obeys;
  std::string summary;  ///< "" when the corpus has no catalogue
  std::string section;  ///< "docs/spec/rig.md#SKEL-8" (the rule's anchor), or ""
};

/// One judged (case, profile, check).
struct CaseResult {
  std::string id;
  std::string profile;
  Check check = Check::Dump;
  Level level = Level::Required;
  Verdict verdict = Verdict::Pass;
  Verdict observed = Verdict::Pass;  ///< the verdict before the expected-failure list applied
  /// Dump results: judge_verdict()'s verdict on the same run (accept / reject and code alone), so
  /// a run that compares dumps still tells whether it reached the verdicts rung.
  Verdict accept_reject = Verdict::Pass;
  std::string reason;
  std::string expected;     ///< "accept" / "reject skel.parent_missing" / "bytes" ...
  std::string stderr_tail;  ///< last lines of the reader's stderr on failures (bounded)
  int exit_code = -1;
  int signal = 0;
  double seconds = 0;
  bool counted = true;        ///< false: a recommended case, not counted (no --recommended)
  std::string listed_reason;  ///< the expected-failure entry's comment, when listed
  // What the case is about (describe_case) and, for failures, where (add_failure_context):
  std::string capability = "reader";  ///< "reader", "writer"; other capabilities add their own
  std::string path;                   ///< the case file, relative to the golden directory
  std::vector<RuleNote> rules;        ///< resolved rules, breaking ones first
  /// An accepted case the reader rejected: the rules enforcing the reader's error code (what
  /// the reader thinks the file breaks), as the text summary's rules line names them.
  std::vector<RuleNote> reader_code_rules;
  std::string section;                ///< the first rule's anchor; failures group by it ("" = none)
  int64_t offset = -1;                ///< the file offset `hex_context` is centred on, or -1
  std::string hex_context;            ///< a short hex dump around `offset` (failures only)
  std::string output_head;            ///< the start of the reader's stdout (failures only, bounded)
  std::string quality;                ///< mesh: "N quads (reference M)"; never affects the verdict
};

/// Fills `path`, `rules` (with summaries and sections from `catalogue`, when given) and
/// `section` from the manifest case: the rules that enforce `e`'s expected error code come first
/// and name the section, then the other broken rules, then the obeyed ones. `e` may be null.
void describe_case(CaseResult& r, const ManifestCase& c, const ManifestExpect* e,
                   const RuleCatalogue* catalogue);

struct CapabilityCase;  // below: a compile, pose or mesh case

/// The same for a capability case: `capability` ("compile", "pose", "mesh"), `path` and the
/// case's resolved rules (the ones enforcing an expected reject code first), so a failing pose,
/// mesh or compile case names its rules and spec section like a reader case. Never fails.
void describe_case(CaseResult& r, const CapabilityCase& c, const RuleCatalogue* catalogue);

/// The offset a failure's hex context is centred on: for an expected reject, where the reference
/// reports the error (manifest); for a reader that rejected, the `offset` it printed, if any;
/// otherwise the case's first recorded mutation. -1 when there is none. `reader_stdout` is
/// untrusted (parsed with the bounded rejection parser only).
int64_t context_offset(const ManifestCase& c, const ManifestExpect& e,
                       std::string_view reader_stdout);

/// Up to 16 bytes around `offset` as `0x00000079  00 00 [01] 00 ...  |..?.|`, the byte at
/// `offset` in brackets ("[EOF]" past the end). Safe on any input; allocates the line only.
std::string hex_context(std::span<const uint8_t> bytes, uint64_t offset);

/// Sets `offset`, `hex_context` (from the case file `bytes`) and `output_head` of a failed
/// result. Does nothing for passes.
void add_failure_context(CaseResult& r, const ManifestCase& c, const ManifestExpect& e,
                         const RunOutcome& run, std::span<const uint8_t> bytes);

/// One line of an expected-failure file: `CASE_ID PROFILE [CHECK]  # reason`.
struct ExpectedFailure {
  std::string id;
  std::string profile;
  Check check = Check::Dump;
  std::string reason;
};

/// A parsed expected-failure file. `problems` holds one message per malformed line
/// ("line 3: unknown profile 'vfp'"); a caller treats any problem as a usage error.
struct ExpectedFailureList {
  std::vector<ExpectedFailure> entries;
  std::vector<std::string> problems;
};

/// Parses an expected-failure file: blank lines and `#` comments ignored; each entry is a case
/// id, a profile name and an optional check name (default dump), then an optional `# reason`.
/// Duplicate entries are problems. Safe on any text.
ExpectedFailureList parse_expected_failures(std::string_view text);

/// Applies the list (first setting every result's `observed` to its verdict): a listed result that
/// failed (Fail/Crash/Timeout) becomes Xfail, a listed one that passed (Pass/Loose) becomes Xpass.
/// Returns the entries that matched no result (stale lines, or items this run did not execute).
std::vector<ExpectedFailure> apply_expected_failures(std::vector<CaseResult>& results,
                                                     const ExpectedFailureList& list);

/// The text of an updated expected-failure file: `kept` (entries for items this run did not
/// execute, preserved with their reasons) plus every result that did not pass (Fail, Crash,
/// Timeout, Xfail), with its current reason; sorted, with a header comment.
std::string render_expected_failures(const std::vector<CaseResult>& results,
                                     const std::vector<ExpectedFailure>& kept);

/// Counts of one group of results (counted or not counted).
struct Tally {
  size_t pass = 0, loose = 0, fail = 0, crash = 0, timeout = 0, xfail = 0, xpass = 0;
  size_t passed() const { return pass + loose; }
  /// Everything that makes a run fail: fail + crash + timeout + xpass.
  size_t failed() const { return fail + crash + timeout + xpass; }
  void add(Verdict v);
};

/// Tallies of a run: counted results (required, or all with --recommended) and the others.
struct Summary {
  Tally counted;
  Tally recommended;   ///< recommended cases without --recommended: reported, not counted
  size_t skipped = 0;  ///< (case, profile) pairs whose profile does not apply, filtered checks
  ConformanceLevel level_run = ConformanceLevel::Dumps;      ///< see level_of_run()
  ConformanceLevel level_reached = ConformanceLevel::Dumps;  ///< see level_reached()
};
Summary summarize(const std::vector<CaseResult>& results, size_t skipped);

struct RunInfo;
/// The highest rung of the ladder whose checks the run made (from `info`'s dump, dump_content,
/// writer and capabilities).
ConformanceLevel level_of_run(const RunInfo& info);
/// The highest rung, at most level_of_run(), whose counted results all passed before the
/// expected-failure list applied (pass or loose; a listed failure does not reach a rung).
ConformanceLevel level_reached(const RunInfo& info, const std::vector<CaseResult>& results);
/// What makes a run partial although its rung was reached: "2 of 4 profiles", "filtered",
/// "codes loose". Empty for a run over the whole corpus.
std::vector<std::string> partial_run_notes(const RunInfo& info);

// ---- reports -----------------------------------------------------------------------------------

/// What a run was: printed at the top of the summary and stored in both report files.
struct RunInfo {
  std::string suite;
  std::string suite_version;
  std::string spec_version;    ///< the manifest's: the docs/spec version the corpus checks
  std::string corpus_version;  ///< the manifest's: the golden corpus version ("" if absent)
  std::string manifest_sha256;
  std::string golden_dir;
  std::string reader;
  std::vector<std::string> profiles;
  CodeMode codes = CodeMode::Strict;
  bool count_recommended = false;  ///< --recommended: recommended cases count too
  bool writer = false;
  bool dump = true;                       ///< false: --no-dump (reader cases not run)
  bool dump_content = true;               ///< false: --level verdicts (dumps not compared)
  std::vector<std::string> capabilities;  ///< "compile", "pose", "mesh" as claimed
  std::string filter;  ///< the --filter substrings, space-separated (ids have no spaces), or ""
  std::string expected_failures;  ///< the file, or ""
  unsigned jobs = 1;
  double timeout_seconds = 0;
  double seconds = 0;  ///< wall time of the whole run
  /// How requests reached the reader: "serve" (the persistent protocol), "oneshot" (a process
  /// per request) or "" (a caller's own transport).
  std::string protocol;
  std::string protocol_note;  ///< why serve was not used (the hello problem), or ""
  std::vector<std::string> claimed_profiles;    ///< what the reader's hello claims ([]: nothing)
  std::vector<std::string> unclaimed_profiles;  ///< left out because the reader does not claim them
};

/// The header lines printed before running: suite, manifest hash, reader, profiles, modes.
std::string header_text(const RunInfo& info);

/// The progress line after result `r`, the `done`th of `total`, `seconds` into the run:
/// "[done/total R/s ] ID PROFILE" and, for a check other than dump, " CHECK" (no newline).
std::string progress_text(size_t done, size_t total, double seconds, const CaseResult& r);

/// The end-of-run summary for stdout: one line per counted non-pass, the recommended group, the
/// counts, and last the line exactly "N passed, N failed" (failed = fail+crash+timeout+xpass
/// of counted results; the run fails iff it is not 0).
std::string summary_text(const RunInfo& info, const std::vector<CaseResult>& results,
                         const Summary& summary);

/// JUnit XML: <testsuites> with one <testsuite> per profile (in `info.profiles` order), one
/// <testcase> per result (name = case id, plus " [roundtrip]"/" [canonicalize]" for writer
/// checks). Fail/Xpass give <failure>, Crash/Timeout give <error>, Xfail and uncounted
/// non-passes give <skipped>. Text is repaired to UTF-8 and stripped of characters XML forbids.
std::string junit_xml(const RunInfo& info, const std::vector<CaseResult>& results);

/// The JSON report (schema "voxrig-conform-report/2"): run info, the conformance level
/// {"run", "reached", "partial": [...]}, "cases" (required | all), summary counts and one object
/// per result {id, profile, check, level, counted, verdict, reason, expected, exit_code,
/// signal, time_ms, stderr_tail?, listed_reason?}. Deterministic for the same input.
std::string report_json(const RunInfo& info, const std::vector<CaseResult>& results,
                        const Summary& summary);

/// `conform --html`: one self-contained HTML page (inline CSS and JS, nothing loaded from the
/// network) embedding report_json(): counts, a spec-section x profile matrix, filters (failed,
/// capability, section, profile, id) and per result its rules, expectation, outcome, dump diff
/// and hex context. Reader text is escaped so it cannot end the embedding script block.
/// Rows render in pages, so the page stays usable with tens of thousands of results.
std::string report_html(const RunInfo& info, const std::vector<CaseResult>& results,
                        const Summary& summary);

// ---- capabilities: compile, pose, mesh (docs/spec/protocols.md) ----

/// A column-major 4x4 model matrix (element (r, c) at [c * 4 + r]).
using Matrix16 = std::array<double, 16>;

/// D19's matrix tolerance: |got - want| <= kPoseAbsTolerance + kPoseRelTolerance * |want|.
inline constexpr double kPoseAbsTolerance = 1e-6;
inline constexpr double kPoseRelTolerance = 1e-5;

/// What a pose case expects: the matrices (accept) or an error code.
struct PoseExpectation {
  bool accept = true;
  std::string error;
  std::span<const Matrix16> model;  ///< owned by the caller
};

/// Judges `COMMAND pose ...`: exit 0 with {"model": [[16 numbers], ...]} holding exactly one
/// matrix per expected joint, each element within D19's tolerance (the failure names the first
/// joint and element that differ, with row and column), or exit 1 with the expected code.
/// Safe on any output.
Judgement judge_pose(const PoseExpectation& expect, const RunOutcome& run, CodeMode codes);

/// The exposed faces of a model as the mesh protocol defines them: VFP (decoded under a VFP
/// profile; with a rig under vfp-rig, a face is also exposed toward a voxel of another joint) or
/// KV6 (the stored vis bits, D22). Built from the file by mesh_faces() (the golden builder), or
/// from the reference mesh a manifest stores (capability_protocol.h, a run).
struct MeshFaces {
  uint32_t size[3] = {0, 0, 0};
  /// One entry per exposed face, in scan order (z, y, x, then -x +x -y +y -z +z).
  struct Face {
    uint32_t x, y, z;
    uint8_t dir;  ///< 0 -x, 1 +x, 2 -y, 3 +y, 4 -z, 5 +z
    uint16_t joint;
    uint32_t color;
  };
  std::vector<Face> faces;
};

/// The exposed faces of `file` under `profile`, or nullopt with `*problem` set when the file
/// does not decode (a corpus bug for an accepted mesh case). Allocates O(faces).
std::optional<MeshFaces> mesh_faces(std::span<const uint8_t> file, std::string_view profile,
                                    std::string* problem);

/// Judges `COMMAND mesh --profile P FILE` by properties: every quad's box is one voxel thick
/// along its normal and inside the grid; every covered face is exposed, with that joint and
/// colour; no face is covered twice; every exposed face is covered. A failure names the first
/// bad quad or the first uncovered face. `quality` receives "N quads (reference M)".
Judgement judge_mesh(const MeshFaces& faces, size_t reference_quads, const RunOutcome& run,
                     std::string* quality);

/// Judges `COMMAND compile IN.json OUT.vfp`: judge_writer, plus on an expected reject the JSON
/// path the manifest records (`json_path`, may be empty): a different path is reported in the
/// reason and turns a pass into Fail only when `check_path` (--recommended).
Judgement judge_compile(const WriterExpectation& expect, const std::string& json_path,
                        bool check_path, const RunOutcome& run,
                        const std::optional<std::vector<uint8_t>>& produced, CodeMode codes);

// ---- the golden manifest (docs/manifest-schema.md) ---------------------------------------------

/// A writer expectation as the manifest spells it.
struct WriterSpec {
  enum class Kind { Absent, Same, Path, Error };
  Kind kind = Kind::Absent;
  std::string value;  ///< Path: the file (relative to the golden dir); Error: the code
};

/// One profile's expectation of a case.
struct ManifestExpect {
  std::string profile;
  bool accept = true;
  std::string error;    ///< reject
  int64_t offset = -1;  ///< reject: where the reference reports the error (context only), or -1
  std::string dump;     ///< accept: path relative to the golden dir
  WriterSpec roundtrip;
  WriterSpec canonicalize;
};

struct ManifestCase {
  std::string id;
  std::string path;
  std::string sha256;  ///< lower-case hex
  std::string format;
  std::string rule;
  std::vector<RuleRef> rules;    ///< resolved at regen (rules.h); empty in old manifests
  int64_t mutation_offset = -1;  ///< the first recorded mutation's offset, or -1
  Level level = Level::Required;
  std::vector<std::string> tags;
  std::vector<ManifestExpect>
      expect;  ///< in profile order vfp-static, vfp-rig, rkc-strict, rkc-compat

  /// The expectation for `profile`, or nullptr when the profile does not apply to the case.
  const ManifestExpect* find(std::string_view profile) const;
};

/// One capability case (manifest lists compile_cases, pose_cases, mesh_cases).
struct CapabilityCase {
  Check check = Check::Compile;
  std::string id, path, sha256, format, rule;
  std::vector<RuleRef> rules;  ///< resolved at regen, as ManifestCase::rules
  Level level = Level::Required;
  std::vector<std::string> tags;
  std::string profile;  ///< pose / mesh; compile cases report under "vfp-json"
  bool accept = true;
  std::string error;                  ///< reject: the code
  std::string json_path;              ///< compile reject: the JSON path, when recorded
  std::string output;  ///< compile accept: the expected bytes; mesh: the reference mesh (paths)
  std::string clip, t, policy, mode;  ///< pose request (policy / mode empty for RKCH)
  std::vector<Matrix16> model;        ///< pose accept
  size_t reference_quads = 0;         ///< mesh
};

struct Manifest {
  std::string suite;
  std::string suite_version;
  std::string spec_version;    ///< "1.0": the docs/spec version; "" in a manifest without one
  std::string corpus_version;  ///< "1.0": the golden corpus version; "" when absent
  std::vector<ManifestCase> cases;
  std::vector<CapabilityCase> capability_cases;  ///< compile, then pose, then mesh
};

/// Parses manifest.json (schema "voxrig-manifest/1"). Unknown keys are ignored (newer minor
/// additions); missing required keys, unknown profiles or verdicts, duplicate ids, and paths that
/// are absolute or contain ".." are errors. Returns nullopt and sets `*problem` to one line
/// naming the case and key. Safe on any text.
std::optional<Manifest> parse_manifest(std::string_view text, std::string* problem);

}  // namespace voxrig::conform
