// voxrig/testing/fuzz_inputs.h — what differential fuzzing of a reader (`voxrig fuzz-reader`,
// voxrig/conform/fuzz_reader.h) mutates with and starts from, beyond the golden files: the fuzz
// targets' structure-aware mutators and a plain byte mutator, the structural reductions used
// while minimizing, and generated seed files.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "voxrig/conform/fuzz_reader.h"
#include "voxrig/profile.h"

namespace voxrig::testing {

/// The mutators for `profile`'s family: "vfp-structure" and "vfp-stale-hashes" (mutate_vfp with
/// and without rebinding the hashes) for the VFP profiles, "rkc-structure" and "rvc-structure"
/// for the RKCH ones, and "bytes" (mutate_plain_bytes) for both. Deterministic in their seeds.
std::vector<conform::FuzzMutator> reader_mutators(Profile profile);

/// Minimization's structural step: `in` with one section / chunk dropped, lengths and counts
/// recomputed (for VFP once with the hashes rebound and once as they were). Empty for an input
/// that does not split, and for RVC.
std::vector<conform::FuzzBytes> drop_one_part(std::span<const uint8_t> in);

/// `per_format` generated files (gen.h, small, 1 in 4 negative) of each format of `profile`'s
/// family (VFP; or RKCH, KV6, RVC, KFA), case i seeded from (`seed`, i). Origins read
/// "gen:vfp:seed=0x...[:negative]".
std::vector<conform::FuzzSeed> generated_seeds(Profile profile, uint64_t seed, uint64_t per_format);

}  // namespace voxrig::testing
