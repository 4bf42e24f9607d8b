// The seeded generators (voxrig/testing/gen.h): valid files are accepted and round-trip (D1),
// negative files are rejected with exactly the code their mutation declares, generation is
// deterministic and seeds matter. The declared codes live in hand-written tables (gen_vfp.cpp,
// gen_rkc.cpp); this test is where the reference is checked against them.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "voxrig/any_format.h"
#include "voxrig/testing/gen.h"

namespace voxrig::gen {
namespace {

constexpr GenFormat kFormats[] = {GenFormat::Vfp, GenFormat::Rkc, GenFormat::Kv6, GenFormat::Rvc,
                                  GenFormat::Kfa};

std::string code_of(const Result<std::string>& r) {
  return r.ok() ? "accept"
                : std::string(to_string(r.error().code)) + " (" + r.error().to_text() + ")";
}

TEST(GenRng, FixedSequenceForSeed) {
  // splitmix64 / xoshiro256** reference values, computed by hand from the published algorithms
  // (splitmix64(0) first output is 0xE220A8397B1DCDAF).
  uint64_t s = 0;
  EXPECT_EQ(splitmix64(s), 0xE220A8397B1DCDAFull);
  GenRng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 16; ++i) {
    const uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= x != c.next();
  }
  EXPECT_TRUE(differs);
  GenRng r(7);
  for (int i = 0; i < 1000; ++i) {
    const int32_t v = r.range(-3, 5);
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 5);
    EXPECT_LT(r.below(10), 10u);
  }
  EXPECT_EQ(r.below(0), 0u);
}

TEST(Gen, SameSeedSameBytes) {
  for (GenFormat f : kFormats)
    for (bool neg : {false, true})
      for (uint64_t seed : {0ull, 1ull, 99ull, 0xFFFFFFFFFFFFFFFFull}) {
        const GenCase a = generate_case(f, seed, GenSize::Small, neg);
        const GenCase b = generate_case(f, seed, GenSize::Small, neg);
        EXPECT_EQ(a.bytes, b.bytes) << to_string(f) << " seed " << seed;
        EXPECT_EQ(a.kind, b.kind);
        EXPECT_FALSE(a.bytes.empty());
      }
}

TEST(Gen, DifferentSeedsDifferentFiles) {
  for (GenFormat f : kFormats) {
    std::set<std::vector<uint8_t>> seen;
    for (uint64_t seed = 0; seed < 200; ++seed)
      seen.insert(generate_case(f, case_seed(5, seed), GenSize::Small, false).bytes);
    EXPECT_EQ(seen.size(), 200u) << to_string(f);
  }
  EXPECT_NE(case_seed(1, 0), case_seed(1, 1));
  EXPECT_NE(case_seed(1, 0), case_seed(2, 0));
}

void check_valid(GenFormat f, GenSize size, uint64_t seeds) {
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    const GenCase c = generate_case(f, case_seed(11, seed), size, false);
    ASSERT_EQ(c.kind, "valid");
    ASSERT_EQ(c.expect.size(), 2u);
    EXPECT_EQ(to_string(detect_format(c.bytes)), to_string(f));
    for (const GenExpect& e : c.expect) {
      ASSERT_TRUE(e.accept);
      const auto dump = dump_any(c.bytes, e.profile, Limits{});
      ASSERT_TRUE(dump.ok()) << to_string(f) << " seed " << seed << " " << to_string(e.profile)
                             << " (" << c.description << "): " << code_of(dump);
      // D1: every generated file is in the writer's form (VFP and RVC: byte-exact for any valid
      // file; RKCH, KV6, KFA: written by the canonical writer).
      const auto rt = roundtrip_any(c.bytes, e.profile, Limits{});
      ASSERT_TRUE(rt.ok());
      EXPECT_EQ(*rt, c.bytes) << to_string(f) << " seed " << seed << " " << to_string(e.profile);
      const auto canon = canonicalize_any(c.bytes, e.profile, Limits{});
      ASSERT_TRUE(canon.ok());
      EXPECT_TRUE(dump_any(*canon, e.profile, Limits{}).ok());
    }
  }
}

TEST(Gen, ValidFilesAcceptedAndRoundTrip) {
  for (GenFormat f : kFormats) check_valid(f, GenSize::Small, 150);
}

TEST(Gen, MediumValidFilesAccepted) {
  for (GenFormat f : kFormats) check_valid(f, GenSize::Medium, 20);
}

TEST(Gen, NegativeFilesRejectedWithTheirDeclaredCode) {
  std::map<std::string, int> kinds_seen;
  for (GenFormat f : kFormats)
    for (uint64_t seed = 0; seed < 300; ++seed) {
      const GenCase c = generate_case(f, case_seed(23, seed), GenSize::Small, true);
      ASSERT_TRUE(c.negative) << to_string(f) << " seed " << seed;
      ASSERT_FALSE(c.mutations.empty());
      ++kinds_seen[c.kind];
      bool some_reject = false;
      for (const GenExpect& e : c.expect) {
        const auto dump = dump_any(c.bytes, e.profile, Limits{});
        const std::string want = e.accept ? "accept" : std::string(to_string(e.error));
        const std::string got = dump.ok() ? "accept" : std::string(to_string(dump.error().code));
        EXPECT_EQ(got, want) << to_string(f) << " seed " << seed << " kind " << c.kind << " "
                             << to_string(e.profile) << ": " << code_of(dump);
        some_reject |= !e.accept;
      }
      EXPECT_TRUE(some_reject) << c.kind;
    }
  // Every declared kind is produced by some seed.
  for (const GenMutationKind& k : mutation_kinds())
    EXPECT_GT(kinds_seen[std::string(k.name)], 0) << k.name;
}

TEST(Gen, MutationTableIsWellFormed) {
  std::set<std::string_view> names;
  for (const GenMutationKind& k : mutation_kinds()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_TRUE(k.first || k.second) << k.name << " must reject under some profile";
    EXPECT_FALSE(k.rule.empty());
  }
  EXPECT_GE(names.size(), 30u);
}

}  // namespace
}  // namespace voxrig::gen
