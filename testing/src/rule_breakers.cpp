// The declared breakable rules and the breakers of voxrig/testing/rule_breakers.h, per profile.
#include "voxrig/testing/rule_breakers.h"

#include <fstream>
#include <iterator>

#include "rule_breakers_internal.h"
#include "voxrig/conform/rules.h"

namespace voxrig::testing {

std::string_view to_string(BreakAt at) {
  switch (at) {
    case BreakAt::First: return "first";
    case BreakAt::Middle: return "middle";
    case BreakAt::Last: return "last";
    case BreakAt::Deep: return "deep";
  }
  return "?";
}

namespace {

bool vfp_profile(Profile p) { return p == Profile::VfpStatic || p == Profile::VfpRig; }
bool rkc_profile(Profile p) { return p == Profile::RkcStrict || p == Profile::RkcCompat; }

using Reason = std::pair<const char*, const char*>;

// Why the coded rules of vfp.md / rig.md without a breaker have none. A rule is here because a
// value inside one element cannot break it (framing, versions, reserved fields the writers
// always write canonically), or because another rule's breaker already produces its code.
const Reason kVfpLeftOut[] = {
    {"VFP-HDR-2", "vfp.header.bad_magic is a VFP-only decoder's code: through the reader "
                  "protocol another magic is file.unknown_format, broken as D7"},
    {"FP-1", "its codes are VFP-HDR-5's, VFP-SEC-5's and VOX0-3's, whose breakers credit it"},
    {"FP-4", "its code is VFP-SEC-9's, whose breaker credits it"},
    {"D10", "its codes are SKEL-2's, VSKN-2's, VSKN-3's and ANIM-2's (golden cases break them)"},
};
// Rig rules, left out under vfp-rig only (under vfp-static every rig rule is out of scope).
const Reason kRigLeftOut[] = {
    {"RIG-1", "a duplicate rig section is a section-level edit (vfp-structure mutator, golden)"},
    {"RIG-2", "rig section headers are written canonically by encode_vfp; no element position"},
    {"RIG-3", "a missing SKEL / VSKN is a section-level edit (vfp-structure mutator, golden)"},
    {"SKEL-1", "truncation is framing, not a value the model holds (vfp-structure mutator)"},
    {"SKEL-2", "the writer always writes version 1 (golden cases break it)"},
    {"SKEL-3", "the writer always writes zero reserved / pad bytes (golden cases break it)"},
    {"SKEL-4", "an empty joint table has no element position (golden case skel/no_joints)"},
    {"SKEL-12", "the writer never writes trailing payload bytes (vfp-structure mutator)"},
    {"VSKN-1", "truncation is framing (vfp-structure mutator)"},
    {"VSKN-2", "the writer always writes version 1 (golden cases break it)"},
    {"VSKN-3", "the writer always writes encoding 1 (golden cases break it)"},
    {"VSKN-4", "the writer always writes a zero reserved field (golden cases break it)"},
    {"VSKN-5", "the payload length is framing (vfp-structure mutator)"},
    {"ANIM-1", "truncation is framing (vfp-structure mutator)"},
    {"ANIM-2", "the writer always writes version 1 (golden cases break it)"},
    {"ANIM-3", "the writer always writes zero reserved / pad bytes (golden cases break it)"},
    {"ANIM-15", "the writer never writes trailing payload bytes (vfp-structure mutator)"},
    {"FP-5", "its codes are SKEL-11's and ANIM-7's, whose breakers credit it"},
    {"D15", "its codes are SKEL-9's and ANIM-14's, whose breakers credit it"},
};
const Reason kRkcLeftOut[] = {
    {"RKC-HDR-1", "the magic is the header, not an element (golden, rkc-structure mutator)"},
    {"RKC-HDR-2", "the writer always writes version 3 (golden cases break it)"},
    {"RKC-SCAN-1", "truncation is framing (rkc-structure mutator)"},
    {"RKC-SCAN-4", "a missing chunk is a chunk-level edit (golden cases)"},
    {"RKC-BONS-2", "the model's AttachmentKind holds only 0 and 1 (golden cases break it)"},
    {"DIFF-1", "its codes are RKC-BONS-3..5's, whose breakers credit it"},
    {"DIFF-3", "a writer rule: no reader input breaks it"},
};
const Reason kRkcShared[] = {
    {"D8", "its codes are RVC-13's and RVC-14's (rkc-strict only), whose breakers credit it"},
    {"KFA-1", "kfa.bad_magic is a KFA-only decoder's code: through the reader protocol another "
              "magic is file.unknown_format (D7); KFA is never nested"},
};
// Frame decode is part of the verdict under rkc-strict only (D8).
constexpr const char* kParseOnly =
    "rkc-compat gives the seed's parse-only verdict: clips are not frame-decoded (D8)";
const Reason kCompatLeftOut[] = {
    {"DIFF-2", "rkc-compat repairs a name that is not UTF-8 (accepts it)"},
    {"RVC-13", kParseOnly},
    {"RVC-14", kParseOnly},
    {"RVC-15", kParseOnly},
    {"D9", "under rkc-compat run tables that disagree are a warning, and its other codes are "
           "RVC-10's and KFA-3/4's, whose breakers credit it"},
};

const char* const kRigSpec = "docs/spec/rig.md";

// The format family a rule belongs to: its spec file, or for limits.md its codes' prefix.
enum class Family { Vfp, Rig, Rkc, None };
Family family_of(const conform::Rule& r) {
  if (r.spec == "docs/spec/vfp.md") return Family::Vfp;
  if (r.spec == kRigSpec) return Family::Rig;
  for (const char* s : {"rkch.md", "rvc.md", "kv6.md", "kfa.md"})
    if (r.spec == std::string("docs/spec/") + s) return Family::Rkc;
  if (r.spec != "docs/spec/limits.md" || r.codes.empty()) return Family::None;
  const std::string& c = r.codes[0];
  if (c.starts_with("vfp.") || c.starts_with("vox0.")) return Family::Vfp;
  if (c.starts_with("skel.") || c.starts_with("vskn.") || c.starts_with("anim.")) return Family::Rig;
  return Family::Rkc;
}

bool in_scope(Family f, Profile p) {
  switch (f) {
    case Family::Vfp: return vfp_profile(p);
    case Family::Rig: return p == Profile::VfpRig;
    case Family::Rkc: return rkc_profile(p);
    case Family::None: return false;
  }
  return false;
}

const char* explicit_reason(const std::string& id, Profile p) {
  auto find = [&](std::span<const Reason> table) -> const char* {
    for (const auto& [rule, why] : table)
      if (id == rule) return why;
    return nullptr;
  };
  if (vfp_profile(p))
    if (const char* why = find(kVfpLeftOut)) return why;
  if (p == Profile::VfpRig)
    if (const char* why = find(kRigLeftOut)) return why;
  if (rkc_profile(p)) {
    if (const char* why = find(kRkcLeftOut)) return why;
    if (const char* why = find(kRkcShared)) return why;
    if (p == Profile::RkcCompat)
      if (const char* why = find(kCompatLeftOut)) return why;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> breakable_rules(Profile profile) {
  if (vfp_profile(profile)) {
    std::vector<std::string> ids = detail::vfp_framing_breakable();
    if (profile == Profile::VfpRig)
      for (std::string& id : detail::vfp_breakable()) ids.push_back(std::move(id));
    for (std::string& id : detail::limit_breakable(profile)) ids.push_back(std::move(id));
    return ids;
  }
  if (!rkc_profile(profile)) return {};
  std::vector<std::string> ids = detail::rkc_breakable();
  if (profile == Profile::RkcCompat)  // rkc-compat repairs a bad name instead (DIFF-2)
    std::erase(ids, std::string("DIFF-2"));
  for (const std::vector<std::string>& family :
       {detail::rvc_breakable(profile), detail::kv6_breakable(profile), detail::kfa_breakable(),
        detail::limit_breakable(profile)})
    ids.insert(ids.end(), family.begin(), family.end());
  return ids;
}

std::vector<std::pair<std::string, std::string>> unbreakable_rules(
    Profile profile, const conform::RuleCatalogue& catalogue) {
  const std::vector<std::string> breakable = breakable_rules(profile);
  std::vector<std::pair<std::string, std::string>> out;
  for (const conform::Rule& r : catalogue.rules) {
    if (std::find(breakable.begin(), breakable.end(), r.id) != breakable.end()) continue;
    const Family family = family_of(r);
    std::string why;
    if (const char* given = explicit_reason(r.id, profile)) why = given;
    else if (!r.unbreakable.empty()) why = "no file breaks it: " + r.unbreakable;
    else if (family == Family::Rig && profile == Profile::VfpStatic)
      why = "out of vfp-static's scope: rig sections are unknown sections there (PROF-1)";
    else if (family != Family::None && !in_scope(family, profile))
      why = "a rule of the other format family (" + r.spec + ")";
    else if (family == Family::None)
      why = "a rule of " + r.spec + ", not a reader's verdict on one file; codes it shares are "
            "credited through the format's own rules";
    else if (r.codes.empty())
      why = "no error code of its own: no reader verdict can show it";
    else
      why = std::string(kUndecided) + ": no breaker and no reason (rule_breakers.cpp)";
    out.emplace_back(r.id, std::move(why));
  }
  return out;
}

std::vector<conform::FuzzMutator> rule_breakers(Profile profile) {
  if (vfp_profile(profile)) {
    std::vector<conform::FuzzMutator> m = detail::vfp_framing_breakers(profile);
    if (profile == Profile::VfpRig)
      for (conform::FuzzMutator& b : detail::vfp_breakers()) m.push_back(std::move(b));
    for (conform::FuzzMutator& b : detail::limit_breakers(profile)) m.push_back(std::move(b));
    return m;
  }
  if (!rkc_profile(profile)) return {};
  std::vector<conform::FuzzMutator> m = detail::rkc_breakers();
  if (profile == Profile::RkcCompat)
    std::erase_if(m, [](const conform::FuzzMutator& b) { return b.rules[0] == "DIFF-2"; });
  for (std::vector<conform::FuzzMutator> family :
       {detail::rvc_breakers(profile), detail::kv6_breakers(profile), detail::kfa_breakers(),
        detail::limit_breakers(profile)})
    for (conform::FuzzMutator& b : family) m.push_back(std::move(b));
  return m;
}

void add_rule_breakers(conform::FuzzReaderRun& run) {
  const Profile p = run.options.profile;
  run.breakers = rule_breakers(p);
  // Each deep seed once as it is, first: a reader that mishandles long arrays in a valid file
  // (the 6th clip, the 9th key) shows it in the dump, which no breaker's rejection can.
  if (!run.breakers.empty())
    run.breakers.insert(run.breakers.begin(),
                        {"deep-seed-as-is",
                         [](std::span<const uint8_t> in, uint64_t) {
                           return conform::FuzzBytes(in.begin(), in.end());
                         },
                         {}});
  run.deep_seeds = run.breakers.empty() ? std::vector<conform::FuzzSeed>{} : deep_seeds(p);
  run.breakable = breakable_rules(p);
  // The catalogue beside the corpus; without one, the report lists no rule as not breakable.
  std::ifstream in(run.golden_dir + "/rules.json", std::ios::binary);
  const std::string text(std::istreambuf_iterator<char>(in), {});
  std::string problem;
  if (auto catalogue = conform::parse_rules(text, &problem))
    run.unbreakable = unbreakable_rules(p, *catalogue);
}

}  // namespace voxrig::testing
