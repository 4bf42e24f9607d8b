// Mutators, reductions and generated seeds for differential fuzzing of a reader
// (voxrig/testing/fuzz_inputs.h).
#include "voxrig/testing/fuzz_inputs.h"

#include <cstdio>

#include "voxrig/testing/gen.h"
#include "voxrig/testing/layout.h"
#include "voxrig/testing/mutate.h"

namespace voxrig::testing {
namespace {

/// A mutator over a grown copy of the input (room for structural growth).
conform::FuzzMutator structured(std::string name, size_t (*fn)(uint8_t*, size_t, size_t, unsigned,
                                                               const ByteMutator&)) {
  return {std::move(name), [fn](std::span<const uint8_t> in, uint64_t seed) {
            conform::FuzzBytes b(in.begin(), in.end());
            b.resize(in.size() + 8192);
            const ByteMutator bytes = plain_byte_mutator(seed);
            b.resize(fn(b.data(), in.size(), b.size(), unsigned(seed), bytes));
            return b;
          }, {}};
}

}  // namespace

std::vector<conform::FuzzMutator> reader_mutators(Profile profile) {
  std::vector<conform::FuzzMutator> m;
  if (profile == Profile::VfpStatic || profile == Profile::VfpRig) {
    m.push_back(structured(
        "vfp-structure", [](uint8_t* d, size_t n, size_t max, unsigned seed, const ByteMutator& b) {
          return mutate_vfp(d, n, max, seed, b, true);
        }));
    m.push_back(structured("vfp-stale-hashes", [](uint8_t* d, size_t n, size_t max, unsigned seed,
                                                  const ByteMutator& b) {
      return mutate_vfp(d, n, max, seed, b, false);
    }));
  } else {
    m.push_back(structured(
        "rkc-structure", [](uint8_t* d, size_t n, size_t max, unsigned seed, const ByteMutator& b) {
          return mutate_rkc(d, n, max, seed, b);
        }));
    m.push_back(structured(
        "rvc-structure", [](uint8_t* d, size_t n, size_t max, unsigned seed, const ByteMutator& b) {
          return mutate_rvc(d, n, max, seed, b);
        }));
  }
  m.push_back({"bytes", [](std::span<const uint8_t> in, uint64_t seed) {
                 conform::FuzzBytes b(in.begin(), in.end());
                 b.resize(in.size() + 64);
                 b.resize(mutate_plain_bytes(b.data(), in.size(), b.size(), seed));
                 return b;
               }, {}});
  return m;
}

std::vector<conform::FuzzBytes> drop_one_part(std::span<const uint8_t> in) {
  std::vector<conform::FuzzBytes> out;
  const auto whole = split(in);
  if (!whole || whole->container == Container::Rvc) return out;
  for (size_t k = 0; k < whole->parts.size(); ++k) {
    Split s = *whole;
    s.parts.erase(s.parts.begin() + ptrdiff_t(k));
    out.push_back(join(s));
    if (s.container == Container::Vfp) {
      rebind_split(s, true);
      out.push_back(join(s));
    }
  }
  return out;
}

std::vector<conform::FuzzSeed> generated_seeds(Profile profile, uint64_t seed,
                                               uint64_t per_format) {
  std::vector<conform::FuzzSeed> seeds;
  const bool vfp = profile == Profile::VfpStatic || profile == Profile::VfpRig;
  const std::vector<gen::GenFormat> formats =
      vfp ? std::vector{gen::GenFormat::Vfp}
          : std::vector{gen::GenFormat::Rkc, gen::GenFormat::Kv6, gen::GenFormat::Rvc,
                        gen::GenFormat::Kfa};
  for (gen::GenFormat f : formats)
    for (uint64_t i = 0; i < per_format; ++i) {
      const uint64_t s = gen::case_seed(seed, i);
      const bool negative = i % 4 == 3;
      gen::GenCase g = gen::generate_case(f, s, gen::GenSize::Small, negative);
      char origin[96];
      std::snprintf(origin, sizeof origin, "gen:%s:seed=0x%llx%s",
                    std::string(gen::to_string(f)).c_str(), static_cast<unsigned long long>(s),
                    negative ? ":negative" : "");
      seeds.push_back({origin, std::move(g.bytes)});
    }
  return seeds;
}

}  // namespace voxrig::testing
