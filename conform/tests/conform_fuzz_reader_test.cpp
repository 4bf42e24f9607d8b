// voxrig/conform/fuzz_reader.h: classes, reproducible plans, the loop with a fake reader (the
// reference with one planted difference, run in process), minimization and what gets written. The
// planted differences and the expected classes below are chosen by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

#include "voxrig/conform/fuzz_reader.h"

namespace voxrig::conform {
namespace {

FuzzBytes golden_file(const std::string& rel) {
  std::ifstream f(std::string(VOXRIG_SOURCE_DIR) + "/golden/files/" + rel, std::ios::binary);
  return FuzzBytes(std::istreambuf_iterator<char>(f), {});
}

RunOutcome said(int exit_code, std::string out) {
  RunOutcome r;
  r.exit_code = exit_code;
  r.out = std::move(out);
  return r;
}

ReferenceAnswer accepts(std::string dump) { return {true, "", std::move(dump)}; }
ReferenceAnswer rejects(std::string code) { return {false, std::move(code), ""}; }

TEST(FuzzReaderClassify, KindsExpectedGotAndPath) {
  std::string why;
  auto c = classify(rejects("vox0.length"), said(0, "{}"), CodeMode::Strict, &why);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->key(), "verdict reject vox0.length / accept");
  c = classify(accepts("{}"), said(1, R"({"error": "vox0.length"})"), CodeMode::Strict, &why);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->key(), "verdict accept / reject vox0.length");
  c = classify(rejects("vox0.length"), said(1, R"({"error": "vox0.reserved"})"), CodeMode::Strict,
               &why);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->key(), "code reject vox0.length / reject vox0.reserved");
  EXPECT_FALSE(classify(rejects("vox0.length"), said(1, R"({"error": "vox0.reserved"})"),
                        CodeMode::Loose, &why));
  c = classify(accepts(R"({"a": [1, 2]})"), said(0, R"({"a": [1, 3]})"), CodeMode::Strict, &why);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->key(), "dump accept / accept $.a[1]");
  c = classify(accepts("{}"), said(0, "not json"), CodeMode::Strict, &why);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "crash");
  RunOutcome t;
  t.timed_out = true;
  c = classify(accepts("{}"), t, CodeMode::Strict, &why);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "timeout");
  EXPECT_FALSE(classify(accepts(R"({"a": 1.0})"), said(0, R"({"a": 1})"), CodeMode::Strict, &why));
  EXPECT_EQ(class_case_id(*c, Profile::VfpRig).rfind("fuzz/vfp-rig/timeout_", 0), 0u);
}

TEST(FuzzReaderClassify, OnlyTheProfilesFamilyIsJudged) {
  const FuzzBytes rkch{'R', 'K', 'C', 'H', 0x40, 0, 0, 0}, vfp{'V', 'F', 'P', 0, 1, 3, 0, 0},
      junk{'x', 'y'};
  EXPECT_FALSE(profile_applies(rkch, Profile::VfpStatic));
  EXPECT_TRUE(profile_applies(rkch, Profile::RkcCompat));
  EXPECT_TRUE(profile_applies(vfp, Profile::VfpRig));
  EXPECT_FALSE(profile_applies(vfp, Profile::RkcStrict));
  EXPECT_TRUE(profile_applies(junk, Profile::VfpStatic));
  EXPECT_TRUE(profile_applies(junk, Profile::RkcStrict));
}

TEST(FuzzReaderPlan, DependsOnlyOnSeedAndExecution) {
  size_t a = 0, b = 0;
  std::vector<FuzzStep> ca, cb;
  plan_execution(7, 123, 50, 3, 4, &a, &ca);
  plan_execution(7, 123, 50, 3, 4, &b, &cb);
  EXPECT_EQ(a, b);
  ASSERT_EQ(ca.size(), cb.size());
  for (size_t i = 0; i < ca.size(); ++i) EXPECT_EQ(ca[i].seed, cb[i].seed);
  EXPECT_GE(ca.size(), 1u);
  EXPECT_LE(ca.size(), 4u);
  plan_execution(8, 123, 50, 3, 4, &b, &cb);
  EXPECT_FALSE(a == b && ca[0].seed == cb[0].seed);
}

/// A "reader" that is the reference except that it accepts what the reference rejects with
/// vox0.palette_index (dumping "{}"), and reports every other rejection correctly.
FuzzRunner planted_reader(Profile p) {
  return [p](const std::vector<FuzzBytes>& inputs) {
    std::vector<RunOutcome> out;
    for (const FuzzBytes& in : inputs) {
      ReferenceAnswer a = reference_answer(in, p);
      if (a.accept)
        out.push_back(said(0, a.dump));
      else if (a.code == "vox0.palette_index")
        out.push_back(said(0, "{}"));
      else
        out.push_back(said(1, "{\"error\": \"" + a.code + "\"}"));
    }
    return out;
  };
}

/// Writes byte (seed % 256) at position (seed >> 8) % size.
std::vector<FuzzMutator> poke() {
  return {{"poke", [](std::span<const uint8_t> in, uint64_t seed) {
             FuzzBytes b(in.begin(), in.end());
             if (!b.empty()) b[(seed >> 8) % b.size()] = uint8_t(seed);
             return b;
           }}};
}

TEST(FuzzReaderLoop, FindsMinimizesDeduplicatesAndReproduces) {
  // A valid 1x1x1 file whose one voxel is index 1 of a 2-entry palette: poking the voxel to 2+
  // gives vox0.palette_index (the payload is checked before the hash).
  const std::vector<FuzzSeed> seeds{{"golden:vfp/min/static", golden_file("vfp/min/static.vfp")}};
  ASSERT_FALSE(seeds[0].bytes.empty());
  FuzzOptions o;
  o.profile = Profile::VfpStatic;
  o.runs = 3000;
  o.seconds = 0;
  o.seed = 42;
  const FuzzResult r = fuzz_reader(seeds, poke(), planted_reader(o.profile), o);
  EXPECT_EQ(r.execs, 3000u);
  ASSERT_EQ(r.findings.size(), 1u);
  const FuzzFinding& f = r.findings[0];
  EXPECT_EQ(f.cls.key(), "verdict reject vox0.palette_index / accept");
  EXPECT_GT(f.hits, 1u);
  EXPECT_FALSE(f.reference.accept);
  EXPECT_EQ(f.reference.code, "vox0.palette_index");
  EXPECT_LE(f.input.size(), f.chained.size());
  EXPECT_EQ(f.chain.size(), 1u);  // one poke suffices, so the chain is shortened to one
  EXPECT_EQ(apply_chain(seeds[0].bytes, f.chain, poke(), o.max_input), f.chained);

  // The same seed and runs give the same result; the class is skipped when listed as known.
  const FuzzResult again = fuzz_reader(seeds, poke(), planted_reader(o.profile), o);
  ASSERT_EQ(again.findings.size(), 1u);
  EXPECT_EQ(again.findings[0].exec, f.exec);
  EXPECT_EQ(again.findings[0].input, f.input);
  o.known.insert(f.id);
  const FuzzResult known = fuzz_reader(seeds, poke(), planted_reader(o.profile), o);
  EXPECT_TRUE(known.findings.empty());
  EXPECT_EQ(known.known_hits, f.hits);

  // An honest reader (the reference itself) gives no class.
  FuzzRunner honest = [&](const std::vector<FuzzBytes>& inputs) {
    std::vector<RunOutcome> out;
    for (const FuzzBytes& in : inputs) {
      ReferenceAnswer a = reference_answer(in, o.profile);
      out.push_back(a.accept ? said(0, a.dump) : said(1, "{\"error\": \"" + a.code + "\"}"));
    }
    return out;
  };
  o.known.clear();
  o.runs = 500;
  EXPECT_TRUE(fuzz_reader(seeds, poke(), honest, o).findings.empty());
}

// Directed executions run first, in order; one whose mutator does not apply is skipped
// without counting; then random stacking uses only the random mutators; the reference's
// rejection codes credit the rules listing them.
TEST(FuzzReaderLoop, DirectedFirstThenRandomAndRulesCounted) {
  const std::vector<FuzzSeed> seeds{{"golden:vfp/min/static", golden_file("vfp/min/static.vfp")}};
  ASSERT_FALSE(seeds[0].bytes.empty());
  std::vector<FuzzMutator> m = poke();
  // Mutator 1 aims at the palette rule: the last byte of the file is the one voxel.
  m.push_back({"break:palette", [](std::span<const uint8_t> in, uint64_t) {
                 FuzzBytes b(in.begin(), in.end());
                 b.back() = 9;
                 return b;
               }, {"VOX0-PAL"}});
  m.push_back({"never", [](std::span<const uint8_t>, uint64_t) { return FuzzBytes{}; }, {"X"}});
  FuzzOptions o;
  o.profile = Profile::VfpStatic;
  o.runs = 40;
  o.seconds = 0;
  o.random_mutators = 1;
  o.directed = {{0, 2}, {0, 1}, {0, 2}};
  o.code_rules = {{"vox0.palette_index", {"VOX0-PAL", "ALSO"}}};
  const FuzzResult r = fuzz_reader(seeds, m, planted_reader(o.profile), o);
  EXPECT_EQ(r.execs, 40u);
  EXPECT_EQ(r.directed_execs, 1u);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].exec, 0u);  // the directed execution came first
  ASSERT_EQ(r.findings[0].chain.size(), 1u);
  EXPECT_EQ(r.findings[0].chain[0].mutator, 1u);
  EXPECT_GE(r.rules_broken.at("VOX0-PAL"), 1u);
  EXPECT_EQ(r.rules_broken.at("ALSO"), r.rules_broken.at("VOX0-PAL"));
  EXPECT_EQ(r.rules_broken.count("X"), 0u);
  FuzzRunInfo info;
  info.breakable = {"VOX0-PAL", "X"};
  EXPECT_EQ(never_reached(info, r), std::vector<std::string>{"X"});
  // Random executions never stack the directed mutators: without `directed`, "never" (which
  // empties the input) is not picked, so every execution has bytes.
  o.directed.clear();
  const FuzzResult random = fuzz_reader(seeds, m, planted_reader(o.profile), o);
  EXPECT_EQ(random.directed_execs, 0u);
  for (const FuzzFinding& f : random.findings)
    for (const FuzzStep& s : f.chain) EXPECT_EQ(s.mutator, 0u);
}

TEST(FuzzReaderOutput, CorpusManifestCaseSourceAndExpectedFailureLine) {
  const std::vector<FuzzSeed> seeds{{"golden:vfp/min/static", golden_file("vfp/min/static.vfp")}};
  FuzzOptions o;
  o.profile = Profile::VfpStatic;
  o.runs = 3000;
  o.seconds = 0;
  o.seed = 42;
  const FuzzResult r = fuzz_reader(seeds, poke(), planted_reader(o.profile), o);
  ASSERT_EQ(r.findings.size(), 1u);
  FuzzRunInfo info;
  info.profile = o.profile;
  info.reader = "planted";
  const auto files = fuzz_output_files(info, r, seeds, poke());
  auto find = [&](const std::string& path) -> const FuzzOutputFile* {
    for (const auto& f : files)
      if (f.path == path) return &f;
    return nullptr;
  };
  const std::string id = r.findings[0].id;
  std::string stem = id;
  std::replace(stem.begin(), stem.end(), '/', '_');
  const auto* manifest = find("corpus/manifest.json");
  ASSERT_NE(manifest, nullptr);
  std::string problem;
  auto m = parse_manifest(std::string(manifest->bytes.begin(), manifest->bytes.end()), &problem);
  ASSERT_TRUE(m) << problem;
  ASSERT_EQ(m->cases.size(), 1u);
  EXPECT_EQ(m->spec_version, "1.0");  // the findings are judged by this spec
  EXPECT_EQ(m->cases[0].id, id);
  const ManifestExpect* e = m->cases[0].find("vfp-static");
  ASSERT_NE(e, nullptr);
  EXPECT_FALSE(e->accept);
  EXPECT_EQ(e->error, "vox0.palette_index");
  ASSERT_NE(find("corpus/" + m->cases[0].path), nullptr);
  EXPECT_EQ(find("corpus/" + m->cases[0].path)->bytes, r.findings[0].input);

  const auto* src = find("cases/" + stem + "/case.json");
  ASSERT_NE(src, nullptr);
  auto j = nlohmann::json::parse(src->bytes.begin(), src->bytes.end());
  EXPECT_EQ(j["id"], id);
  EXPECT_EQ(j["expect"]["vfp-static"], "vox0.palette_index");
  EXPECT_EQ(j["expect"]["vfp-rig"], "vox0.palette_index");
  EXPECT_TRUE(j["hex"].is_array());

  const auto* xf = find("expected-failures.txt");
  ASSERT_NE(xf, nullptr);
  const auto list = parse_expected_failures(std::string(xf->bytes.begin(), xf->bytes.end()));
  EXPECT_TRUE(list.problems.empty());
  ASSERT_EQ(list.entries.size(), 1u);
  EXPECT_EQ(list.entries[0].id, id);
  EXPECT_EQ(list.entries[0].profile, "vfp-static");
  auto report =
      nlohmann::json::parse(find("report.json")->bytes.begin(), find("report.json")->bytes.end());
  EXPECT_EQ(report["schema"], "voxrig-fuzz-reader-report/1");
  EXPECT_EQ(report["classes"].size(), 1u);
}

}  // namespace
}  // namespace voxrig::conform
