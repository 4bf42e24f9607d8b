// The declared breakable rules and the breakers of voxrig/testing/rule_breakers.h, per profile.
#include "voxrig/testing/rule_breakers.h"

#include "rule_breakers_internal.h"

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

bool rig_profile(Profile p) { return p == Profile::VfpRig; }
bool rkc_profile(Profile p) { return p == Profile::RkcStrict || p == Profile::RkcCompat; }

// Why the coded rules of rig.md / rkch.md without a breaker have none. A rule is here because a
// value inside one element cannot break it (framing, versions, reserved fields the writers
// always write canonically), or because another rule's breaker already produces its code.
const std::pair<const char*, const char*> kVfpLeftOut[] = {
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
const std::pair<const char*, const char*> kRkcLeftOut[] = {
    {"RKC-HDR-1", "the magic is the header, not an element (golden, rkc-structure mutator)"},
    {"RKC-HDR-2", "the writer always writes version 3 (golden cases break it)"},
    {"RKC-SCAN-1", "truncation is framing (rkc-structure mutator)"},
    {"RKC-SCAN-4", "a missing chunk is a chunk-level edit (golden cases)"},
    {"RKC-BONS-2", "the model's AttachmentKind holds only 0 and 1 (golden cases break it)"},
    {"DIFF-1", "its codes are RKC-BONS-3..5's, whose breakers credit it"},
    {"DIFF-3", "a writer rule: no reader input breaks it"},
};

}  // namespace

std::vector<std::string> breakable_rules(Profile profile) {
  if (rig_profile(profile)) return detail::vfp_breakable();
  if (!rkc_profile(profile)) return {};
  std::vector<std::string> ids = detail::rkc_breakable();
  if (profile == Profile::RkcCompat)  // rkc-compat repairs a bad name instead (DIFF-2)
    std::erase(ids, std::string("DIFF-2"));
  return ids;
}

std::vector<std::pair<std::string, std::string>> unbreakable_rules(Profile profile) {
  std::vector<std::pair<std::string, std::string>> out;
  if (rig_profile(profile))
    for (const auto& [id, why] : kVfpLeftOut) out.emplace_back(id, why);
  if (rkc_profile(profile))
    for (const auto& [id, why] : kRkcLeftOut) out.emplace_back(id, why);
  if (profile == Profile::RkcCompat)
    out.emplace_back("DIFF-2", "rkc-compat repairs a name that is not UTF-8 (accepts it)");
  return out;
}

std::vector<conform::FuzzMutator> rule_breakers(Profile profile) {
  if (rig_profile(profile)) return detail::vfp_breakers();
  if (!rkc_profile(profile)) return {};
  std::vector<conform::FuzzMutator> m = detail::rkc_breakers();
  if (profile == Profile::RkcCompat)
    std::erase_if(m, [](const conform::FuzzMutator& b) { return b.rules[0] == "DIFF-2"; });
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
  run.unbreakable = unbreakable_rules(p);
}

}  // namespace voxrig::testing
