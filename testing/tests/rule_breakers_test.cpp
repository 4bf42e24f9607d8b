// voxrig/testing/rule_breakers.h: every breaker breaks the rule it names (the reference rejects
// its output with a code that rule lists in golden/rules.json) at every position the deep seed
// has, positions differ, and every rule of the catalogue is declared either breakable or left
// out with a reason, under every profile.
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

constexpr Profile kProfiles[] = {Profile::VfpStatic, Profile::VfpRig, Profile::RkcStrict,
                                 Profile::RkcCompat};

TEST(RuleBreakers, DeepSeedsAreValidAndLong) {
  for (Profile p : kProfiles) {
    const auto seeds = deep_seeds(p);
    const bool vfp = p == Profile::VfpStatic || p == Profile::VfpRig;
    ASSERT_EQ(seeds.size(), vfp ? 1u : 4u) << to_string(p);
    for (const conform::FuzzSeed& s : seeds)
      EXPECT_TRUE(conform::reference_answer(s.bytes, p).accept) << to_string(p) << s.origin;
  }
}

TEST(RuleBreakers, EachBreaksItsRuleAtEveryPosition) {
  for (Profile p : kProfiles) {
    const auto seeds = deep_seeds(p);
    std::set<std::string> reached;
    for (const conform::FuzzMutator& m : rule_breakers(p)) {
      ASSERT_EQ(m.rules.size(), 1u) << m.name;
      size_t applied = 0;  // a breaker of one format gives nothing on another format's seed
      for (const conform::FuzzSeed& s : seeds) {
        const conform::FuzzBytes out = m.apply(s.bytes, 0);
        if (out.empty()) continue;
        ++applied;
        const auto ref = conform::reference_answer(out, p);
        ASSERT_FALSE(ref.accept) << m.name << " left a valid file from " << s.origin;
        EXPECT_TRUE(lists(m.rules[0], ref.code))
            << m.name << " broke " << ref.code << " instead, on " << s.origin;
      }
      EXPECT_GT(applied, 0u) << m.name << " applies to no deep seed";
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

// Totality: every rule of the catalogue is either breakable under the profile or declared not
// breakable with a reason, never both, and a new rule without a decision fails here.
TEST(RuleBreakers, EveryRuleOfTheCatalogueIsDecided) {
  ASSERT_GT(catalogue().rules.size(), 200u);
  for (Profile p : kProfiles) {
    std::set<std::string> declared;
    for (const std::string& id : breakable_rules(p)) {
      EXPECT_TRUE(catalogue().find(id)) << id;
      EXPECT_TRUE(declared.insert(id).second) << id;
    }
    for (const auto& [id, why] : unbreakable_rules(p, catalogue())) {
      EXPECT_TRUE(catalogue().find(id)) << id;
      EXPECT_FALSE(why.empty()) << id;
      EXPECT_FALSE(why.starts_with(kUndecided)) << id << " (" << to_string(p) << "): " << why;
      EXPECT_TRUE(declared.insert(id).second) << id << " is both breakable and left out";
    }
    for (const conform::Rule& r : catalogue().rules)
      EXPECT_TRUE(declared.count(r.id)) << r.id << " (" << to_string(p) << ") is undeclared";
  }
}

// The header, the 3rd of 5 sections and a deep voxel are different edits of the deep seed.
TEST(RuleBreakers, FramingPositionsAreDifferentElements) {
  const auto seed = deep_seeds(Profile::VfpStatic).at(0).bytes;
  for (const char* r : {"VFP-SEC-2", "VFP-SEC-6", "VOX0-7"}) {
    std::set<conform::FuzzBytes> distinct;
    for (const conform::FuzzMutator& m : rule_breakers(Profile::VfpStatic))
      if (m.rules[0] == r) distinct.insert(m.apply(seed, 0));
    EXPECT_EQ(distinct.size(), 4u) << r;
  }
}

}  // namespace
}  // namespace voxrig::testing
