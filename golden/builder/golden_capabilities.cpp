// Pose and mesh plans -> manifest entries (golden_capabilities.h).
//
// Pose plan: {"id", "of": READER_CASE | "model": NAME, "profile"?, "rule", "level", "tags"?,
//   "note"?, "clips"?, "policies"?, "modes"?, "times"?, "auto_times"? (default true),
//   "rejects"?: [{"clip", "t", "error"}], "hand"?: [{"clip", "t", "policy"?, "mode"?,
//   "joint", "model": [16 numbers]}]}.
// Mesh plan: {"id", "of" | "model" | "all": "vfp"|"kv6", "profiles"?, "rule", "level", ...}.
// Both take "rules": {"obeys": [...], "breaks": [...]} (golden/rules.json IDs) for every case.
#include "golden_capabilities.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

#include "voxrig/conform/capability_protocol.h"
#include "voxrig/sha256.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig::golden {
namespace {

using conform::CapabilityModel;
using conform::PoseQuery;
using nlohmann::json;
using nlohmann::ordered_json;

std::string number_text(double v) {
  char buf[40];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v + 0.0);
  return std::string(buf, end);
}

std::vector<std::string> strings(const json& spec, const char* key,
                                 std::vector<std::string> fallback) {
  if (!spec.contains(key)) return fallback;
  std::vector<std::string> r;
  for (const auto& v : spec[key]) r.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return r;
}

// One plan being expanded: where its cases go and what resolves their rules.
struct Expansion {
  const Sources::Plan& plan;
  const conform::RuleCatalogue& catalogue;
  CapabilityCorpus& cc;
};

// The bytes a plan runs on, and their manifest path and format.
struct Subject {
  std::string path, format;
  std::vector<uint8_t> bytes;
  std::vector<std::string> accepting;  // profiles whose declared verdict is accept
};

bool subject_of(Sources& s, const json& spec, const std::string& id, Subject& out,
                CapabilityCorpus& cc) {
  if (spec.contains("of")) {
    const std::string of = spec["of"].get<std::string>();
    std::vector<std::string> errs;
    if (!build_case(s, of, errs)) {
      cc.errors.push_back(id + ": 'of' case " + of + " does not build");
      return false;
    }
    const CaseDef& d = s.cases[of];
    out.format = d.format;
    out.path = "files/" + d.id + "." + extension_of(d.format);
    out.bytes = d.bytes;
    for (const auto& e : d.expect)
      if (e.accept) out.accepting.push_back(e.profile);
    return true;
  }
  if (spec.contains("model")) {
    const std::string rel = "sources/vfp/models/" + spec["model"].get<std::string>() + ".json";
    auto text = slurp(s.root + "/" + rel);
    if (!text) {
      cc.errors.push_back(id + ": cannot read " + rel);
      return false;
    }
    auto model = compile_vfp_json(
        std::string_view(reinterpret_cast<const char*>(text->data()), text->size()), Limits{});
    auto bytes = model.ok() ? encode_vfp(*model) : Result<std::vector<uint8_t>>(model.error());
    if (!bytes.ok()) {
      cc.errors.push_back(id + ": " + rel + " does not compile: " + bytes.error().to_text());
      return false;
    }
    out.format = "vfp";
    out.path = "files/" + id + ".vfp";
    out.bytes = std::move(*bytes);
    out.accepting = {"vfp-static", "vfp-rig"};
    cc.files[out.path] = out.bytes;
    return true;
  }
  cc.errors.push_back(id + ": a plan needs 'of' or 'model'");
  return false;
}

// The manifest's "rules" of one expanded case: the plan's lists plus, for a reject, the rules
// enforcing its code. A case without any rule is a source error.
ordered_json case_rules(const Expansion& x, const std::string& id, const std::string& error) {
  ordered_json out = resolved_rules_json(
      x.catalogue, id, error.empty() ? std::vector<std::string>{} : std::vector{error},
      x.plan.rules, x.cc.errors);
  if (out["breaks"].empty() && out["obeys"].empty())
    x.cc.errors.push_back(id + ": no rule (give the plan \"rules\")");
  return out;
}

ordered_json common(const Expansion& x, const Subject& subj, const std::string& id,
                    const std::string& profile, const std::string& error = "") {
  const json& spec = x.plan.spec;
  ordered_json e;
  e["id"] = id;
  e["path"] = subj.path;
  e["sha256"] = to_hex(sha256(subj.bytes));
  e["format"] = subj.format;
  e["profile"] = profile;
  e["tags"] = spec.value("tags", json::array());
  e["rule"] = spec.value("rule", std::string());
  e["rules"] = case_rules(x, id, error);
  e["level"] = spec.value("level", std::string("required"));
  e["source"] = x.plan.source;
  if (spec.contains("note")) e["note"] = spec["note"];
  return e;
}

ordered_json matrices(const std::vector<Mat4d>& m) {
  ordered_json a = ordered_json::array();
  for (const auto& x : m) {
    ordered_json row = ordered_json::array();
    // 12 significant digits: 1e-12 relative, far inside D19's 1e-5 (and a smaller manifest).
    for (double v : x) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.12g", v + 0.0);
      row.push_back(std::stod(buf));
    }
    a.push_back(row);
  }
  return a;
}

// Times at and around every key of a VFP clip, plus the edges of both time modes.
std::vector<double> vfp_times(const AnimClip& c) {
  std::set<double> keys = {0.0, double(c.duration_ms)};
  for (const auto& t : c.tracks)
    for (const auto& k : t.keys) keys.insert(k.time_ms);
  std::set<double> out;
  for (double k : keys)
    for (double d : {-0.5, 0.0, 0.25}) out.insert(k + d);
  const double d = c.duration_ms;
  for (double t : {-250.0, -1.5 * d - 0.25, 2.5 * d + 0.25, 1e9 + 0.5, -1e9 - 0.75}) out.insert(t);
  return {out.begin(), out.end()};
}

// Times across an RKCH seq: at and around every entry, loop boundaries, the i32 wrap (D21).
std::vector<double> rkc_times(const SkeletalClip& c) {
  std::set<double> out = {-1, 0};
  int64_t last = 0;
  for (const auto& s : c.seq) {
    for (int d : {-1, 0, 1}) out.insert(double(s.tim) + d);
    last = std::max<int64_t>(last, s.tim);
  }
  for (int64_t t : {2 * last + 3, 5 * last + 7, int64_t(2147483646), int64_t(2147483647),
                    int64_t(2147483648), int64_t(4294967295)})
    out.insert(double(t));
  return {out.begin(), out.end()};
}

PoseQuery pose_query(const std::string& clip, double t, const std::string& policy,
                     const std::string& mode) {
  return {clip, t,
          policy == "step"    ? SamplePolicy::Step
          : policy == "slerp" ? SamplePolicy::Slerp
                              : SamplePolicy::Linear,
          mode == "loop" ? TimeMode::Loop : TimeMode::Clamp};
}

// One pose plan being expanded: its subject decoded under the plan's profile.
struct PosePlan {
  const Expansion& x;
  Subject subj;
  std::string id, profile;
  bool vfp = false;
  CapabilityModel model;
};

// One pose case: the reference's matrices for an accept, or the declared reject checked.
void emit_pose(const PosePlan& pp, const std::string& clip, double t, const std::string& policy,
               const std::string& mode, const std::string& want_error) {
  CapabilityCorpus& cc = pp.x.cc;
  const std::string t_text = std::isfinite(t) ? number_text(t)
                                              : (std::isnan(t) ? "nan"
                                                 : t > 0       ? "inf"
                                                               : "-inf");
  std::string cid = pp.id + "/" + clip;
  if (pp.vfp) cid += "/" + policy + "/" + mode;
  cid += "/t" + t_text;
  ordered_json e = common(pp.x, pp.subj, cid, pp.profile, want_error);
  e["clip"] = clip;
  e["t"] = t_text;
  if (pp.vfp) {
    e["policy"] = policy;
    e["mode"] = mode;
  }
  auto r = conform::pose_models(pp.model, pose_query(clip, t, policy, mode));
  ordered_json x;
  if (!want_error.empty()) {
    x["verdict"] = "reject";
    x["error"] = want_error;
    if (r.ok() || to_string(r.error().code) != want_error)
      cc.mismatches.push_back(cid + " [pose]: declared reject " + want_error + ", reference " +
                              (r.ok() ? std::string("poses") : r.error().to_text()));
    ++cc.pose_reject;
  } else if (!r.ok()) {
    cc.mismatches.push_back(cid + " [pose]: the reference rejects: " + r.error().to_text());
    return;
  } else {
    x["verdict"] = "accept";
    x["model"] = matrices(*r);
    ++cc.pose_accept;
  }
  e["expect"] = x;
  cc.pose.push_back(e);
}

// The clips a plan poses (the subject's, or the plan's "clips") with their automatic times.
// False after a source error when the subject has none.
bool pose_clips(const PosePlan& pp, std::vector<std::pair<std::string, std::vector<double>>>& out) {
  const json& spec = pp.x.plan.spec;
  const bool auto_times = spec.value("auto_times", true);
  if (auto* f = std::get_if<VfpFile>(&pp.model)) {
    if (!f->anim()) {
      pp.x.cc.errors.push_back(pp.id + ": the subject has no clips");
      return false;
    }
    for (const auto& c : f->anim()->clips)
      out.push_back({std::to_string(c.id), auto_times ? vfp_times(c) : std::vector<double>{}});
  } else if (auto* c = std::get_if<Character>(&pp.model)) {
    for (size_t i = 0; i < c->clips.size(); ++i)
      if (auto* sk = std::get_if<SkeletalClip>(&c->clips[i].data))
        out.push_back({std::to_string(i), auto_times ? rkc_times(*sk) : std::vector<double>{}});
  }
  if (spec.contains("clips")) {
    const auto only = strings(spec, "clips", {});
    std::erase_if(out, [&](const auto& c) {
      return std::find(only.begin(), only.end(), c.first) == only.end();
    });
  }
  return true;
}

// Values computed by hand: the reference must agree within D19's tolerance.
void check_hand_values(const PosePlan& pp) {
  CapabilityCorpus& cc = pp.x.cc;
  for (const auto& h : pp.x.plan.spec.value("hand", json::array())) {
    const std::string clip = h.at("clip").get<std::string>();
    const double t = std::stod(h.at("t").get<std::string>());
    auto r =
        conform::pose_models(pp.model, pose_query(clip, t, h.value("policy", std::string("linear")),
                                                  h.value("mode", std::string("clamp"))));
    const size_t joint = h.at("joint").get<size_t>();
    const std::string where = pp.id + " hand value (clip " + clip + ", t " + number_text(t) +
                              ", joint " + std::to_string(joint) + ")";
    if (!r.ok() || joint >= r->size()) {
      cc.mismatches.push_back(where + ": the reference gives no such matrix");
      continue;
    }
    for (size_t e = 0; e < 16; ++e) {
      const double want = h.at("model")[e].get<double>(), got = (*r)[joint][e];
      if (!(std::fabs(got - want) <=
            conform::kPoseAbsTolerance + conform::kPoseRelTolerance * std::fabs(want))) {
        cc.mismatches.push_back(where + " element " + std::to_string(e) + ": by hand " +
                                number_text(want) + ", reference " + number_text(got));
        break;
      }
    }
  }
}

void expand_pose(Sources& s, const Expansion& x) {
  const json& spec = x.plan.spec;
  const std::string id = spec["id"].get<std::string>();
  Subject subj;
  if (!subject_of(s, spec, id, subj, x.cc)) return;
  const bool vfp = subj.format == "vfp";
  const std::string profile = spec.value("profile", std::string(vfp ? "vfp-rig" : "rkc-strict"));
  auto p = profile_from_string(profile);
  auto model = p ? conform::decode_for_capability(subj.bytes, *p)
                 : Result<CapabilityModel>(error_at(ErrorCode::InternalBug, 0, "", "profile"));
  if (!model.ok()) {
    x.cc.errors.push_back(id + ": the subject does not decode under " + profile + ": " +
                          model.error().to_text());
    return;
  }
  const PosePlan pp{x, std::move(subj), id, profile, vfp, std::move(*model)};
  std::vector<std::pair<std::string, std::vector<double>>> clips;
  if (!pose_clips(pp, clips)) return;
  const auto policies =
      vfp ? strings(spec, "policies", {"step", "linear", "slerp"}) : std::vector<std::string>{""};
  const auto modes = vfp ? strings(spec, "modes", {"clamp", "loop"}) : std::vector<std::string>{""};
  std::vector<double> extra;
  for (const auto& t : strings(spec, "times", {})) extra.push_back(std::stod(t));
  for (const auto& [clip, times] : clips) {
    std::set<double> ts(times.begin(), times.end());
    ts.insert(extra.begin(), extra.end());
    for (const auto& policy : policies)
      for (const auto& mode : modes)
        for (double t : ts) emit_pose(pp, clip, t, policy, mode, "");
  }
  for (const auto& r : spec.value("rejects", json::array())) {
    const std::string t = r.at("t").get<std::string>();
    emit_pose(pp, r.at("clip").get<std::string>(), std::strtod(t.c_str(), nullptr),
              vfp ? "linear" : "", vfp ? "clamp" : "", r.at("error").get<std::string>());
  }
  check_hand_values(pp);
}

void mesh_one(const Expansion& x, const Subject& subj, const std::string& id,
              const std::string& profile) {
  CapabilityCorpus& cc = x.cc;
  auto p = profile_from_string(profile);
  if (!p) return;
  auto model = conform::decode_for_capability(subj.bytes, *p);
  if (!model.ok()) return;  // "all": a case that only some profile accepts
  auto quads = conform::mesh_quads(*model, "bone-aware");
  if (!quads.ok()) {
    cc.mismatches.push_back(id +
                            " [mesh]: the reference does not mesh it: " + quads.error().to_text());
    return;
  }
  // The reference's mesh must pass the judge (a disagreement is a bug in one of them); then it
  // covers exactly the exposed faces, and conform judges a reader's mesh against it.
  std::string problem, quality;
  auto faces = conform::mesh_faces(subj.bytes, profile, &problem);
  conform::RunOutcome run;
  run.exit_code = 0;
  run.out = conform::quads_json(*quads);
  const auto j = faces ? conform::judge_mesh(*faces, quads->size(), run, &quality)
                       : conform::Judgement{conform::Verdict::Fail, problem};
  if (j.verdict != conform::Verdict::Pass)
    cc.mismatches.push_back(id + " [mesh]: the reference's own mesh fails the judge: " + j.reason);
  const uint32_t no_grid[3] = {0, 0, 0};
  const std::string mesh = conform::reference_mesh_json(faces ? faces->size : no_grid, *quads);
  const std::string mesh_path = "expected/" + id + ".mesh.json";
  cc.files[mesh_path] = std::vector<uint8_t>(mesh.begin(), mesh.end());
  ordered_json e = common(x, subj, id, profile);
  e["expect"] =
      ordered_json{{"verdict", "accept"}, {"reference_quads", quads->size()}, {"mesh", mesh_path}};
  cc.mesh.push_back(e);
  ++cc.mesh_cases;
}

void expand_mesh(Sources& s, const Expansion& x) {
  const json& spec = x.plan.spec;
  CapabilityCorpus& cc = x.cc;
  const std::string id = spec["id"].get<std::string>();
  if (spec.contains("all")) {
    // Every distinct accepted file of the format in the corpus, under each accepting profile.
    const std::string format = spec["all"].get<std::string>();
    const auto only = strings(spec, "profiles", {});
    std::set<std::string> seen;
    for (auto& [cid, d] : s.cases) {
      if (d.format != format) continue;
      std::vector<std::string> errs;
      if (!build_case(s, cid, errs)) continue;
      const std::string sha = to_hex(sha256(d.bytes));
      if (!seen.insert(sha).second) continue;
      Subject subj;
      subj.format = d.format;
      subj.path = "files/" + d.id + "." + extension_of(d.format);
      subj.bytes = d.bytes;
      for (const auto& e : d.expect)
        if (e.accept && (only.empty() || std::count(only.begin(), only.end(), e.profile)))
          mesh_one(x, subj, id + "/" + cid + "/" + e.profile, e.profile);
    }
    return;
  }
  Subject subj;
  if (!subject_of(s, spec, id, subj, cc)) return;
  for (const auto& profile : strings(spec, "profiles", subj.accepting))
    mesh_one(x, subj, id + "/" + profile, profile);
}

}  // namespace

ordered_json resolved_rules_json(const conform::RuleCatalogue& catalogue, const std::string& id,
                                 const std::vector<std::string>& codes, const RuleLists& lists,
                                 std::vector<std::string>& errors) {
  std::vector<std::string> unknown;
  const auto refs =
      conform::resolve_case_rules(catalogue, codes, lists.obeys, lists.breaks, &unknown);
  for (const auto& u : unknown)
    errors.push_back(id + ": unknown rule ID '" + u + "' (golden/rules.json)");
  ordered_json out = ordered_json::object();
  out["breaks"] = ordered_json::array();
  out["obeys"] = ordered_json::array();
  for (const auto& r : refs) out[std::string(conform::to_string(r.relation))].push_back(r.id);
  return out;
}

CapabilityCorpus build_capability_cases(Sources& s, const conform::RuleCatalogue& rules) {
  CapabilityCorpus cc;
  for (const auto& plan : s.capability_plans) {
    try {
      const Expansion x{plan, rules, cc};
      if (plan.format == "pose")
        expand_pose(s, x);
      else
        expand_mesh(s, x);
    } catch (const std::exception& e) {
      cc.errors.push_back(plan.source + " " + plan.spec.value("id", std::string("?")) + ": " +
                          e.what());
    }
  }
  auto by_id = [](const ordered_json& a, const ordered_json& b) {
    return a["id"].get<std::string>() < b["id"].get<std::string>();
  };
  std::sort(cc.pose.begin(), cc.pose.end(), by_id);
  std::sort(cc.mesh.begin(), cc.mesh.end(), by_id);
  return cc;
}

}  // namespace voxrig::golden
