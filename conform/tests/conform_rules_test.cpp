// voxrig/conform/rules.h: the rule catalogue, case -> rule resolution and the coverage check.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "voxrig/conform/rules.h"

namespace voxrig::conform {
namespace {

constexpr std::string_view kCatalogue = R"({"schema": "voxrig-rules/1", "rules": [
  {"id": "SKEL-3", "spec": "docs/spec/rig.md", "section": "SKEL rules", "summary": "reserved = 0",
   "codes": ["skel.reserved"]},
  {"id": "FP-1", "spec": "docs/spec/vfp.md", "section": "Reserved fields", "summary": "= 0 fields are 0",
   "codes": ["skel.reserved", "vox0.reserved"]},
  {"id": "FP-6", "spec": "docs/spec/rig.md", "section": "Valid edge cases", "summary": "edge cases",
   "codes": [], "unbreakable": "permissive"},
  {"id": "D11", "spec": "docs/spec/vfp.md", "section": "The steps of a file", "summary": "rig step 5",
   "codes": []}
]})";

RuleCatalogue catalogue() {
  std::string problem;
  auto c = parse_rules(kCatalogue, &problem);
  EXPECT_TRUE(c) << problem;
  return c ? *c : RuleCatalogue{};
}

TEST(ConformRules, ParsesTheCatalogue) {
  const RuleCatalogue c = catalogue();
  ASSERT_EQ(c.rules.size(), 4u);
  ASSERT_NE(c.find("FP-1"), nullptr);
  EXPECT_EQ(c.find("FP-1")->codes.size(), 2u);
  EXPECT_EQ(c.find("FP-6")->unbreakable, "permissive");
  EXPECT_EQ(RuleCatalogue::where(*c.find("SKEL-3")), "docs/spec/rig.md#SKEL-3");
  EXPECT_EQ(c.find("NOPE"), nullptr);
}

TEST(ConformRules, RejectsDuplicateIdsAndMissingKeys) {
  std::string problem;
  EXPECT_FALSE(parse_rules(R"({"schema": "voxrig-rules/1", "rules": [
    {"id": "A", "spec": "s", "section": "x", "summary": "y", "codes": []},
    {"id": "A", "spec": "s", "section": "x", "summary": "y", "codes": []}]})",
                           &problem));
  EXPECT_NE(problem.find("rule A: duplicate id"), std::string::npos) << problem;
  EXPECT_FALSE(parse_rules(
      R"({"schema": "voxrig-rules/1", "rules": [{"id": "A", "spec": "s", "section": "x", "codes": []}]})",
      &problem));
  EXPECT_NE(problem.find("missing \"summary\""), std::string::npos) << problem;
  EXPECT_FALSE(parse_rules("{", &problem));
  EXPECT_FALSE(parse_rules(R"({"schema": "voxrig-rules/2", "rules": []})", &problem));
}

TEST(ConformRules, ResolvesCodesToEveryRuleListingThem) {
  const RuleCatalogue c = catalogue();
  std::vector<std::string> unknown;
  auto refs = resolve_case_rules(c, {"skel.reserved"}, {"FP-6", "SKEL-3"}, {"D11"}, &unknown);
  ASSERT_EQ(refs.size(), 4u);  // catalogue order; an explicit obeys of a broken rule is dropped
  EXPECT_EQ(refs[0].id, "SKEL-3");
  EXPECT_EQ(refs[0].relation, RuleRelation::Breaks);
  EXPECT_EQ(refs[1].id, "FP-1");
  EXPECT_EQ(refs[1].relation, RuleRelation::Breaks);
  EXPECT_EQ(refs[2].id, "FP-6");
  EXPECT_EQ(refs[2].relation, RuleRelation::Obeys);
  EXPECT_EQ(refs[3].id, "D11");
  EXPECT_EQ(refs[3].relation, RuleRelation::Breaks);
  EXPECT_TRUE(unknown.empty());
  refs = resolve_case_rules(c, {"anim.reserved"}, {"NOPE"}, {}, &unknown);
  EXPECT_TRUE(refs.empty());
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0], "NOPE");
}

TEST(ConformRules, CoverageNamesEveryProblem) {
  const RuleCatalogue c = catalogue();
  std::vector<CaseRules> cases = {
      {"vfp/skel/reserved", {{"SKEL-3", RuleRelation::Breaks}, {"FP-1", RuleRelation::Breaks}}},
      {"vfp/rig/base", {{"SKEL-3", RuleRelation::Obeys}}},
      {"vfp/orphan", {}},
      {"vfp/ghost", {{"GHOST-1", RuleRelation::Obeys}}},
  };
  const auto rep = rule_coverage(c, cases, {"skel.reserved", "vox0.reserved", "vskn.reserved"});
  EXPECT_EQ(rep.with_breaking, 2u);
  EXPECT_EQ(rep.with_obeying, 1u);
  EXPECT_EQ(rep.unbreakable, 1u);  // FP-6
  auto has = [&](std::string_view text) {
    for (const auto& p : rep.problems)
      if (p.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("case vfp/orphan resolves to no rule"));
  EXPECT_TRUE(has("case vfp/ghost names unknown rule GHOST-1"));
  EXPECT_TRUE(has("rule D11 has no breaking case"));
  EXPECT_FALSE(has("rule FP-6"));  // it says why
  EXPECT_TRUE(has("error code vskn.reserved is enforced by no rule"));
  EXPECT_EQ(rep.problems.size(), 4u);
  const std::string text = coverage_text(rep, 8);
  EXPECT_NE(text.find("SKEL-3  [docs/spec/rig.md#SKEL-3]  reserved = 0\n    obeys (1): vfp/rig/base\n"
                      "    breaks (1): vfp/skel/reserved\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("rules: 4, with an obeying case: 1, with a breaking case: 2, justified "
                      "unbreakable: 1\n"),
            std::string::npos);
  const std::string js = coverage_json(rep);
  EXPECT_NE(js.find(R"("id": "FP-1", "spec": "docs/spec/vfp.md", "section": "Reserved fields")"),
            std::string::npos)
      << js;
}

TEST(ConformRules, MarkdownHasOneTablePerSection) {
  const std::string md = rules_markdown(catalogue());
  EXPECT_NE(md.find("## docs/spec/rig.md\n\n### SKEL rules\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| FP-6 | edge cases | - | permissive |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| FP-1 | = 0 fields are 0 | `skel.reserved`, `vox0.reserved` |  |\n"),
            std::string::npos);
}

}  // namespace
}  // namespace voxrig::conform
