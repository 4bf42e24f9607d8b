// voxrig/testing/rule_breakers.h: every breaker breaks the rule it names (the reference rejects
// its output with a code that rule lists in golden/rules.json) at every position the deep seed
// has, positions differ, and every coded rule of rig.md / rkch.md is declared either breakable
// or left out with a reason.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "voxrig/conform/rules.h"
#include "voxrig/testing/rule_breakers.h"

namespace voxrig::testing {
namespace {

const conform::RuleCatalogue& catalogue() {
  static const conform::RuleCatalogue cat = [] {
    std::ifstream f(std::string(VOXRIG_SOURCE_DIR) + "/golden/rules.json");
    const std::string text(std::istreambuf_iterator<char>(f), {});
    std::string problem;
    auto c = conform::parse_rules(text, &problem);
    EXPECT_TRUE(c) << problem;
    return c.value_or(conform::RuleCatalogue{});
  }();
  return cat;
}

bool lists(const std::string& rule, const std::string& code) {
  const conform::Rule* r = catalogue().find(rule);
  return r && std::find(r->codes.begin(), r->codes.end(), code) != r->codes.end();
}

constexpr Profile kProfiles[] = {Profile::VfpRig, Profile::RkcStrict, Profile::RkcCompat};

TEST(RuleBreakers, DeepSeedsAreValidAndLong) {
  for (Profile p : kProfiles) {
    const auto seeds = deep_seeds(p);
    ASSERT_EQ(seeds.size(), 1u) << to_string(p);
    EXPECT_TRUE(conform::reference_answer(seeds[0].bytes, p).accept) << to_string(p);
  }
}

TEST(RuleBreakers, EachBreaksItsRuleAtEveryPosition) {
  for (Profile p : kProfiles) {
    const auto seed = deep_seeds(p).at(0).bytes;
    std::set<std::string> reached;
    for (const conform::FuzzMutator& m : rule_breakers(p)) {
      ASSERT_EQ(m.rules.size(), 1u) << m.name;
      const conform::FuzzBytes out = m.apply(seed, 0);
      ASSERT_FALSE(out.empty()) << m.name << " does not apply to the deep seed";
      const auto ref = conform::reference_answer(out, p);
      ASSERT_FALSE(ref.accept) << m.name << " left a valid file";
      EXPECT_TRUE(lists(m.rules[0], ref.code)) << m.name << " broke " << ref.code << " instead";
      reached.insert(m.rules[0]);
    }
    const auto breakable = breakable_rules(p);
    EXPECT_EQ(reached, std::set<std::string>(breakable.begin(), breakable.end())) << to_string(p);
  }
}

TEST(RuleBreakers, PositionsAreDifferentElements) {
  const auto seed = deep_seeds(Profile::VfpRig).at(0).bytes;
  std::map<std::string, conform::FuzzBytes> out;
  for (const conform::FuzzMutator& m : rule_breakers(Profile::VfpRig))
    if (m.rules[0] == "ANIM-11" || m.rules[0] == "SKEL-7" || m.rules[0] == "VSKN-12")
      out[m.name] = m.apply(seed, 0);
  ASSERT_EQ(out.size(), 12u);
  for (const char* r : {"ANIM-11", "SKEL-7", "VSKN-12"}) {
    std::set<conform::FuzzBytes> distinct;
    for (const char* at : {"first", "middle", "last", "deep"})
      distinct.insert(out[std::string("break:") + r + "@" + at]);
    EXPECT_EQ(distinct.size(), 4u) << r;
  }
}

// A new coded rule in rig.md or rkch.md must get a breaker or a declared reason.
TEST(RuleBreakers, EveryCodedRuleIsDeclared) {
  for (Profile p : kProfiles) {
    std::set<std::string> declared;
    for (const std::string& id : breakable_rules(p)) {
      EXPECT_TRUE(catalogue().find(id)) << id;
      EXPECT_TRUE(declared.insert(id).second) << id;
    }
    for (const auto& [id, why] : unbreakable_rules(p)) {
      EXPECT_TRUE(catalogue().find(id)) << id;
      EXPECT_FALSE(why.empty()) << id;
      EXPECT_TRUE(declared.insert(id).second) << id << " is both breakable and left out";
    }
    const std::string spec =
        p == Profile::VfpRig ? "docs/spec/rig.md" : "docs/spec/rkch.md";
    for (const conform::Rule& r : catalogue().rules) {
      if (r.spec != spec || r.codes.empty()) continue;
      EXPECT_TRUE(declared.count(r.id)) << r.id << " (" << to_string(p) << ") is undeclared";
    }
  }
}

}  // namespace
}  // namespace voxrig::testing
