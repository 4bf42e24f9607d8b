// Failures that explain themselves: rules, spec section, file and hex context in the summary,
// JUnit XML, JSON report and HTML page.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "voxrig/conform/conform.h"

namespace voxrig::conform {
namespace {

RuleCatalogue catalogue() {
  std::string problem;
  auto c = parse_rules(R"({"schema": "voxrig-rules/1", "rules": [
    {"id": "VFP-HDR-7", "spec": "docs/spec/vfp.md", "section": "File header",
     "summary": "sourceHash = SHA-256 of VOX0", "codes": ["vfp.source_hash"]},
    {"id": "VFP-SEC-7", "spec": "docs/spec/vfp.md", "section": "Section kinds",
     "summary": "unknown REQUIRED is rejected", "codes": ["vfp.section.unknown_required"]},
    {"id": "FP-7", "spec": "docs/spec/vfp.md", "section": "The steps of a file", "summary": "check order",
     "codes": [], "unbreakable": "order"}]})",
                       &problem);
  EXPECT_TRUE(c) << problem;
  return *c;
}

ManifestCase two_profile_case() {
  ManifestCase c;
  c.id = "vfp/rig/required_and_hash";
  c.path = "files/vfp/rig/required_and_hash.vfp";
  c.rules = {{"VFP-HDR-7", RuleRelation::Breaks},
             {"VFP-SEC-7", RuleRelation::Breaks},
             {"FP-7", RuleRelation::Obeys}};
  c.mutation_offset = 3;
  ManifestExpect st{"vfp-static", false, "vfp.section.unknown_required", 5, "", {}, {}};
  ManifestExpect rig{"vfp-rig", false, "vfp.source_hash", -1, "", {}, {}};
  c.expect = {st, rig};
  return c;
}

TEST(ConformContext, TheProfilesCodeNamesTheSection) {
  const RuleCatalogue cat = catalogue();
  const ManifestCase c = two_profile_case();
  CaseResult r;
  describe_case(r, c, c.find("vfp-static"), &cat);
  EXPECT_EQ(r.path, c.path);
  ASSERT_EQ(r.rules.size(), 3u);
  EXPECT_EQ(r.rules[0].id, "VFP-SEC-7");  // enforces vfp-static's code
  EXPECT_EQ(r.rules[1].id, "VFP-HDR-7");
  EXPECT_EQ(r.rules[2].id, "FP-7");
  EXPECT_EQ(r.rules[2].relation, RuleRelation::Obeys);
  EXPECT_EQ(r.section, "docs/spec/vfp.md#VFP-SEC-7");
  describe_case(r, c, c.find("vfp-rig"), &cat);
  EXPECT_EQ(r.rules[0].id, "VFP-HDR-7");
  EXPECT_EQ(r.section, "docs/spec/vfp.md#VFP-HDR-7");
  describe_case(r, c, c.find("vfp-rig"), nullptr);  // no catalogue: ids, no section
  EXPECT_EQ(r.rules.size(), 3u);
  EXPECT_EQ(r.section, "");
}

TEST(ConformContext, OffsetComesFromTheManifestThenTheReaderThenTheMutation) {
  const ManifestCase c = two_profile_case();
  EXPECT_EQ(context_offset(c, *c.find("vfp-static"), ""), 5);  // the reference's offset
  EXPECT_EQ(context_offset(c, *c.find("vfp-rig"), R"({"error": "x", "offset": 9})"), 9);
  EXPECT_EQ(context_offset(c, *c.find("vfp-rig"), "garbage"), 3);  // first mutation
  EXPECT_EQ(context_offset(c, *c.find("vfp-rig"), R"({"error": "x", "offset": -4})"), 3);
}

TEST(ConformContext, HexContextMarksTheByte) {
  std::vector<uint8_t> b(40);
  for (size_t i = 0; i < b.size(); ++i) b[i] = uint8_t(i + 0x41);
  EXPECT_EQ(hex_context(b, 10),
            "0x00000002  43 44 45 46 47 48 49 4a [4b] 4c 4d 4e 4f 50 51 52  "
            "|CDEFGHIJKLMNOPQR|  (offset 10 of 40)");
  EXPECT_EQ(hex_context(b, 0).substr(0, 20), "0x00000000  [41] 42 ");
  const std::string eof = hex_context(b, 40);
  EXPECT_NE(eof.find("67 68 [EOF]"), std::string::npos) << eof;
  EXPECT_NE(hex_context({}, 7).find("[EOF]"), std::string::npos);  // empty file, no crash
}

std::vector<CaseResult> failed_run() {
  const RuleCatalogue cat = catalogue();
  const ManifestCase c = two_profile_case();
  CaseResult fail;
  fail.id = c.id;
  fail.profile = "vfp-static";
  fail.verdict = fail.observed = Verdict::Fail;
  fail.reason = "accepted, expected reject with vfp.section.unknown_required";
  fail.expected = "reject vfp.section.unknown_required";
  describe_case(fail, c, c.find("vfp-static"), &cat);
  RunOutcome run;
  run.exit_code = 0;
  run.out = "{\"schema\": \"</script><!--\"}";
  add_failure_context(fail, c, *c.find("vfp-static"), run, std::vector<uint8_t>(12, 0xAB));
  CaseResult pass = fail;
  pass.profile = "vfp-rig";
  pass.verdict = pass.observed = Verdict::Pass;
  pass.hex_context.clear();
  pass.output_head.clear();
  pass.offset = -1;
  return {fail, pass};
}

RunInfo info() {
  RunInfo i;
  i.suite = "voxrig";
  i.suite_version = "0.1.0";
  i.manifest_sha256 = std::string(64, 'a');
  i.golden_dir = "/g";
  i.reader = "./r";
  i.profiles = {"vfp-static", "vfp-rig"};
  return i;
}

// An accepted case the reader rejected names the rules of the reader's code, and no
// summary line is longer than 200 characters.
TEST(ConformContext, RulesLineNamesTheReadersCodeAndLinesStayShort) {
  auto rs = failed_run();
  rs[0].rules = {{"FP-7", RuleRelation::Obeys, "check order", "docs/spec/vfp.md#FP-7"}};
  rs[0].reader_code_rules = {{"SKEL-8", RuleRelation::Breaks, "no parent cycle", "docs/spec/rig.md#SKEL-8"}};
  rs[0].reason = "rejected with skel.parent_cycle, expected accept " + std::string(300, 'x');
  const std::string text = summary_text(info(), rs, summarize(rs, 0));
  EXPECT_NE(text.find("        rules: the reader's error code is that of SKEL-8 (no parent "
                      "cycle)\n"),
            std::string::npos)
      << text;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    EXPECT_LE(nl - at, 200u) << text.substr(at, nl - at);
    at = nl + 1;
  }
}

TEST(ConformContext, SummaryGroupsBySectionWithRuleFileAndHex) {
  const auto rs = failed_run();
  EXPECT_EQ(rs[0].offset, 5);
  const std::string text = summary_text(info(), rs, summarize(rs, 0));
  EXPECT_NE(text.find("-- docs/spec/vfp.md#VFP-SEC-7: 1 failed\n"
                      "FAIL    vfp/rig/required_and_hash  vfp-static  dump: accepted, expected "
                      "reject with vfp.section.unknown_required\n"
                      "        rules: breaks VFP-SEC-7 (unknown REQUIRED is rejected); "
                      "VFP-HDR-7 (sourceHash = SHA-256 of VOX0)\n"
                      "        spec:  docs/spec/vfp.md#VFP-SEC-7\n"
                      "        file:  /g/files/vfp/rig/required_and_hash.vfp\n"
                      "        at:    0x00000000  ab ab ab ab ab [ab] ab"),
            std::string::npos)
      << text;
}

TEST(ConformContext, JUnitAndJsonCarryTheContext) {
  const auto rs = failed_run();
  const std::string x = junit_xml(info(), rs);
  EXPECT_NE(x.find("<property name=\"rules\" value=\"VFP-SEC-7 VFP-HDR-7 FP-7\"/>"),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("<property name=\"spec_section\" value=\"docs/spec/vfp.md#VFP-SEC-7\"/>"),
            std::string::npos);
  EXPECT_NE(x.find("<property name=\"offset\" value=\"5\"/>"), std::string::npos);
  EXPECT_NE(x.find("message=\"accepted, expected reject with vfp.section.unknown_required "
                   "[rules: VFP-SEC-7 VFP-HDR-7 FP-7; spec: docs/spec/vfp.md#VFP-SEC-7; "
                   "file: files/vfp/rig/required_and_hash.vfp]\""),
            std::string::npos);
  const auto j = nlohmann::json::parse(report_json(info(), rs, summarize(rs, 0)));
  const auto& r0 = j["results"][0];
  EXPECT_EQ(r0["section"], "docs/spec/vfp.md#VFP-SEC-7");
  EXPECT_EQ(r0["path"], "files/vfp/rig/required_and_hash.vfp");
  EXPECT_EQ(r0["capability"], "reader");
  EXPECT_EQ(r0["offset"], 5);
  EXPECT_EQ(r0["rules"][0]["id"], "VFP-SEC-7");
  EXPECT_EQ(r0["rules"][0]["relation"], "breaks");
  EXPECT_TRUE(r0.contains("hex_context"));
  EXPECT_EQ(j["summary"]["failed_by_section"]["docs/spec/vfp.md#VFP-SEC-7"], 1);
  EXPECT_FALSE(j["results"][1].contains("hex_context"));  // passes carry no context
}

// Capability cases (compile, pose, mesh) carry their manifest rules into every report, and the
// summary groups their failures by capability and section.
TEST(ConformContext, CapabilityCasesNameTheirRulesGroupedByCapability) {
  std::string problem;
  const auto cat = parse_rules(R"({"schema": "voxrig-rules/1", "rules": [
    {"id": "EVAL-1", "spec": "docs/spec/evaluation.md", "section": "Pose at time t",
     "summary": "sample each track", "codes": [], "unbreakable": "evaluation"},
    {"id": "CONF-7", "spec": "docs/spec/protocols.md", "section": "The player protocol",
     "summary": "pose protocol", "codes": ["eval.bad_clip"], "unbreakable": "protocol"}]})",
                               &problem);
  ASSERT_TRUE(cat) << problem;
  CapabilityCase accept;
  accept.check = Check::Pose;
  accept.id = "pose/x/0/slerp/loop/t5";
  accept.path = "files/pose/x.vfp";
  accept.profile = "vfp-rig";
  accept.rules = {{"EVAL-1", RuleRelation::Obeys}, {"CONF-7", RuleRelation::Obeys}};
  CapabilityCase reject = accept;
  reject.id = "pose/x/9/linear/clamp/t0";
  reject.accept = false;
  reject.error = "eval.bad_clip";
  reject.rules = {{"CONF-7", RuleRelation::Breaks}, {"EVAL-1", RuleRelation::Obeys}};
  std::vector<CaseResult> rs(2);
  for (size_t i = 0; i < 2; ++i) {
    const CapabilityCase& c = i ? reject : accept;
    rs[i].id = c.id;
    rs[i].profile = c.profile;
    rs[i].check = Check::Pose;
    rs[i].verdict = Verdict::Fail;
    rs[i].reason = "joint 1 element (0,0) differs";
    describe_case(rs[i], c, &*cat);
  }
  EXPECT_EQ(rs[0].capability, "pose");
  EXPECT_EQ(rs[0].path, "files/pose/x.vfp");
  ASSERT_EQ(rs[0].rules.size(), 2u);
  EXPECT_EQ(rs[0].section, "docs/spec/evaluation.md#EVAL-1");  // catalogue order
  ASSERT_EQ(rs[1].rules.size(), 2u);
  EXPECT_EQ(rs[1].rules[0].id, "CONF-7");  // enforces the expected reject code: first
  EXPECT_EQ(rs[1].section, "docs/spec/protocols.md#CONF-7");
  const std::string text = summary_text(info(), rs, summarize(rs, 0));
  EXPECT_NE(text.find("-- pose, docs/spec/evaluation.md#EVAL-1: 1 failed\n"
                      "FAIL    pose/x/0/slerp/loop/t5  vfp-rig  pose: joint 1 element (0,0) "
                      "differs\n"
                      "        rules: obeys EVAL-1; CONF-7\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("-- pose, docs/spec/protocols.md#CONF-7: 1 failed\n"),
            std::string::npos);
  const std::string x = junit_xml(info(), rs);
  EXPECT_NE(x.find("<testsuite name=\"pose vfp-rig\""), std::string::npos) << x;
  EXPECT_NE(x.find("<property name=\"rules\" value=\"EVAL-1 CONF-7\"/>"), std::string::npos);
  const auto j = nlohmann::json::parse(report_json(info(), rs, summarize(rs, 0)));
  EXPECT_EQ(j["results"][1]["capability"], "pose");
  EXPECT_EQ(j["results"][1]["rules"][0]["id"], "CONF-7");
  EXPECT_EQ(j["results"][1]["rules"][0]["relation"], "breaks");
}

TEST(ConformContext, HtmlIsSelfContainedAndReaderTextCannotEscape) {
  const auto rs = failed_run();
  const std::string h = report_html(info(), rs, summarize(rs, 0));
  EXPECT_EQ(h.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(h.find("</script><!--"), std::string::npos);  // the reader's text, escaped
  EXPECT_NE(h.find("\\u003c/script>\\u003c!--"), std::string::npos);
  EXPECT_EQ(h.find("http://"), std::string::npos);
  EXPECT_EQ(h.find("https://"), std::string::npos);
  EXPECT_EQ(h.find(" src="), std::string::npos);
  // The embedded block is the JSON report, parseable as is.
  const size_t a = h.find("id=\"report-data\">") + 17, b = h.find("</script>", a);
  ASSERT_NE(b, std::string::npos);
  const auto j = nlohmann::json::parse(h.substr(a, b - a));
  EXPECT_EQ(j["summary"]["counted"]["failed"], 1);
}

}  // namespace
}  // namespace voxrig::conform
