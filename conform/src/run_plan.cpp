// Planning a run and reconciling the expected-failure list with it (run_internal.h).
#include <algorithm>

#include "run_internal.h"

namespace voxrig::conform::detail {
namespace {

// Whether the filters select a case id: no filter, or the id contains one of them.
bool selected(const RunOptions& o, const std::string& id) {
  if (o.filters.empty()) return true;
  for (const auto& f : o.filters)
    if (id.find(f) != std::string::npos) return true;
  return false;
}

void plan_reader_cases(const Corpus& corpus, const RunOptions& o,
                       const std::vector<std::string>& profiles, const std::string& tmp,
                       Plan& plan) {
  for (const auto& c : corpus.manifest.cases) {
    if (!selected(o, c.id)) continue;
    const std::string file = corpus.file(c.path);
    for (const auto& profile : profiles) {
      const ManifestExpect* e = c.find(profile);
      if (!e) {
        ++plan.skipped;
        continue;
      }
      plan.planned.push_back({&c, e, Check::Dump, ""});
      plan.requests.push_back({Check::Dump, {"dump", "--profile", profile, file}});
      if (!o.checks.writer || !e->accept) continue;
      for (Check check : {Check::Roundtrip, Check::Canonicalize}) {
        const WriterSpec& w = check == Check::Roundtrip ? e->roundtrip : e->canonicalize;
        if (w.kind == WriterSpec::Kind::Absent) {
          ++plan.skipped;
          continue;
        }
        const std::string out = tmp + "/" + std::to_string(plan.planned.size()) + ".out";
        plan.planned.push_back({&c, e, check, out});
        plan.requests.push_back(
            {check, {std::string(to_string(check)), "--profile", profile, file, out}});
      }
    }
  }
}

// The protocol request of a capability case.
std::vector<std::string> capability_args(const CapabilityCase& c, const std::string& file,
                                         const std::string& out) {
  if (c.check == Check::Compile) return {"compile", file, out};
  if (c.check == Check::Mesh) return {"mesh", "--profile", c.profile, file};
  std::vector<std::string> a = {"pose", "--profile", c.profile, "--clip", c.clip, "--t", c.t};
  if (!c.policy.empty()) a.insert(a.end(), {"--policy", c.policy});
  if (!c.mode.empty()) a.insert(a.end(), {"--mode", c.mode});
  a.push_back(file);
  return a;
}

void plan_capability_cases(const Corpus& corpus, const RunOptions& o,
                           const std::vector<std::string>& profiles, const std::string& tmp,
                           Plan& plan) {
  for (const auto& c : corpus.manifest.capability_cases) {
    const bool on = c.check == Check::Compile ? o.checks.compile
                    : c.check == Check::Pose  ? o.checks.pose
                                              : o.checks.mesh;
    if (!on || !selected(o, c.id)) continue;
    if (c.check != Check::Compile &&
        std::find(profiles.begin(), profiles.end(), c.profile) == profiles.end()) {
      ++plan.skipped;
      continue;
    }
    Planned p;
    p.cap = &c;
    p.check = c.check;
    if (c.check == Check::Compile)
      p.out_path = tmp + "/" + std::to_string(plan.planned.size()) + ".vfp";
    plan.requests.push_back({c.check, capability_args(c, corpus.file(c.path), p.out_path)});
    plan.planned.push_back(p);
  }
}

bool is_capability(Check c) { return c == Check::Compile || c == Check::Pose || c == Check::Mesh; }

// Whether the corpus has the check an expected-failure entry names.
bool corpus_has(const Corpus& corpus, const ExpectedFailure& e) {
  if (is_capability(e.check)) {
    for (const auto& cc : corpus.manifest.capability_cases)
      if (cc.id == e.id && cc.check == e.check && cc.profile == e.profile) return true;
  }
  const ManifestCase* c = nullptr;
  for (const auto& mc : corpus.manifest.cases)
    if (mc.id == e.id) c = &mc;
  const ManifestExpect* me = c ? c->find(e.profile) : nullptr;
  if (!me) return false;
  if (e.check == Check::Dump) return true;
  const WriterSpec& w = e.check == Check::Roundtrip ? me->roundtrip : me->canonicalize;
  return me->accept && w.kind != WriterSpec::Kind::Absent;
}

}  // namespace

Plan make_plan(const Corpus& corpus, const RunOptions& o, const std::vector<std::string>& profiles,
               const std::string& tmp) {
  Plan plan;
  if (o.checks.dump) plan_reader_cases(corpus, o, profiles, tmp, plan);
  plan_capability_cases(corpus, o, profiles, tmp, plan);
  return plan;
}

void reconcile_expected_failures(const Corpus& corpus, std::vector<ExpectedFailure> unmatched,
                                 RunResult& r) {
  for (auto& e : unmatched) (corpus_has(corpus, e) ? r.kept : r.stale).push_back(std::move(e));
}

}  // namespace voxrig::conform::detail
