// Judging one planned request of a run against the corpus (run_internal.h): read what the
// manifest expects, hand it with the reader's answer to the judges of conform.h, and describe the
// result for the reports.
#include <filesystem>

#include <algorithm>

#include "run_internal.h"
#include "voxrig/conform/capability_protocol.h"

namespace voxrig::conform::detail {
namespace {

std::string_view as_text(const std::vector<uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

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

const WriterSpec& writer_spec(const Planned& p) {
  return p.check == Check::Roundtrip ? p.e->roundtrip : p.e->canonicalize;
}

std::string describe(const Planned& p) {
  if (p.cap) return describe_capability(*p.cap);
  if (p.check == Check::Dump) return p.e->accept ? "accept" : "reject " + p.e->error;
  const WriterSpec& w = writer_spec(p);
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

// The file a writer or compile request wrote, removed once read.
std::optional<std::vector<uint8_t>> take_output(const std::string& path) {
  auto produced = read_regular_file(path);
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return produced;
}

Judgement judge_capability(const Corpus& corpus, const RunOptions& o, const Planned& p,
                           const RunOutcome& run, std::string* quality) {
  const CapabilityCase& c = *p.cap;
  if (c.check == Check::Pose) return judge_pose({c.accept, c.error, c.model}, run, o.codes);
  if (c.check == Check::Mesh) {  // judged from the reference mesh the manifest stores
    auto text = read_regular_file(corpus.file(c.output));
    if (!text) return {Verdict::Fail, "cannot read the golden file " + c.output};
    std::string problem;
    auto faces = mesh_faces_from_reference(as_text(*text), &problem);
    if (!faces) return {Verdict::Fail, c.output + " (corpus bug): " + problem};
    return judge_mesh(*faces, c.reference_quads, run, quality);
  }
  std::vector<uint8_t> expected;
  if (c.accept) {
    auto bytes = read_regular_file(corpus.file(c.output));
    if (!bytes) return {Verdict::Fail, "cannot read the golden file " + c.output};
    expected = std::move(*bytes);
  }
  const auto produced = take_output(p.out_path);
  WriterExpectation we;
  we.error = !c.accept;
  we.code = c.error;
  we.bytes = expected;
  return judge_compile(we, c.json_path, o.count_recommended, run, produced, o.codes);
}

Judgement judge_reader(const Corpus& corpus, const Planned& p, const RunOutcome& run,
                       const RunChecks& checks, CodeMode codes) {
  if (p.check == Check::Dump) {
    const DumpExpectation verdict_only{p.e->accept, p.e->error, ""};
    if (!checks.dump_content) return judge_verdict(verdict_only, run, codes);
    std::optional<std::vector<uint8_t>> dump;
    if (p.e->accept && !(dump = read_regular_file(corpus.file(p.e->dump))))
      return {Verdict::Fail, "cannot read the golden dump " + p.e->dump};
    return judge_dump({p.e->accept, p.e->error, dump ? as_text(*dump) : ""}, run, codes);
  }
  const WriterSpec& w = writer_spec(p);
  std::vector<uint8_t> expected;
  if (w.kind == WriterSpec::Kind::Same || w.kind == WriterSpec::Kind::Path) {
    const std::string path = corpus.file(w.kind == WriterSpec::Kind::Same ? p.c->path : w.value);
    auto bytes = read_regular_file(path);
    if (!bytes) return {Verdict::Fail, "cannot read the golden file " + path};
    expected = std::move(*bytes);
  }
  const auto produced = take_output(p.out_path);
  WriterExpectation we;
  we.error = w.kind == WriterSpec::Kind::Error;
  we.code = we.error ? w.value : "";
  we.bytes = expected;
  return judge_writer(we, run, produced, codes);
}

}  // namespace

CaseResult judge_planned(const Corpus& corpus, const RunOptions& o, const Planned& p,
                         const RunOutcome& run) {
  CaseResult r;
  r.id = p.id();
  r.profile = p.profile();
  r.check = p.check;
  r.level = p.cap ? p.cap->level : p.c->level;
  r.counted = r.level == Level::Required || o.count_recommended;
  r.expected = describe(p);
  Judgement j = p.cap ? judge_capability(corpus, o, p, run, &r.quality)
                      : judge_reader(corpus, p, run, o.checks, o.codes);
  r.verdict = j.verdict;
  // The verdicts rung of a run that compares dumps: only a failed dump needs judging again.
  r.accept_reject = p.check != Check::Dump || !o.checks.dump_content ||
                            j.verdict == Verdict::Pass || j.verdict == Verdict::Loose
                        ? j.verdict
                        : judge_verdict({p.e->accept, p.e->error, ""}, run, o.codes).verdict;
  r.reason = std::move(j.reason);
  if (r.verdict != Verdict::Pass) r.stderr_tail = tail(run.err);
  r.exit_code = run.exit_code;
  r.signal = run.signal;
  r.seconds = run.seconds;
  const RuleCatalogue* rules = corpus.rules ? &*corpus.rules : nullptr;
  if (p.cap) {
    // Capability cases carry their resolved rules like reader cases (no hex context: their
    // failures are about the testee's output, not a file offset).
    describe_case(r, *p.cap, rules);
    return r;
  }
  describe_case(r, *p.c, p.e, rules);
  if (p.check != Check::Dump) r.capability = "writer";
  if (rules && r.verdict == Verdict::Fail && p.e->accept && run.exit_code == 1)
    if (const auto code = rejection_code(run.out))
      for (const Rule& rule : rules->rules)
        if (std::find(rule.codes.begin(), rule.codes.end(), *code) != rule.codes.end())
          r.reader_code_rules.push_back(
              {rule.id, RuleRelation::Breaks, rule.summary, RuleCatalogue::where(rule)});
  if (r.verdict != Verdict::Pass && r.verdict != Verdict::Loose) {
    const auto bytes = read_regular_file(corpus.file(p.c->path));
    add_failure_context(r, *p.c, *p.e, run, bytes ? *bytes : std::vector<uint8_t>{});
  }
  return r;
}

}  // namespace voxrig::conform::detail
