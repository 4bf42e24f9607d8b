// voxrig/testing/gen.h — deterministic seeded generators of valid files (and of negative files
// whose expected verdict is known from the mutation itself), for `voxrig gen` and `voxrig conform
// --generated` (docs/spec/protocols.md).
//
// Reproducibility: every choice comes from GenRng (xoshiro256** seeded through splitmix64) with
// explicit integer arithmetic — no <random> distributions, no libm — so one seed gives the same
// model on every platform and standard library. The only bytes that can depend on the build are
// deflated RVC chunks (rvc_from_frames deflates with zlib per docs/spec/rvc.md#D4; zlib's output for
// those fixed parameters has been stable across releases, but it is zlib's, not ours).
//
// Nothing here does I/O. Expected verdicts of negative cases are declared by hand in the
// mutation tables of gen_vfp.cpp / gen_rkc.cpp, never taken from the reference.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/error.h"
#include "voxrig/profile.h"

namespace voxrig::gen {

/// xoshiro256** (Blackman & Vigna), state seeded by four splitmix64 outputs of the seed.
class GenRng {
 public:
  explicit GenRng(uint64_t seed);
  /// The next 64 raw bits.
  uint64_t next();
  /// Uniform-ish integer in [0, n) as next() % n (n == 0 gives 0). The modulo bias is part of
  /// the documented definition, so every implementation derives the same value.
  uint32_t below(uint32_t n);
  /// Integer in [lo, hi] (inclusive; hi >= lo).
  int32_t range(int32_t lo, int32_t hi);
  /// True with probability num/den (below(den) < num).
  bool chance(uint32_t num, uint32_t den);

 private:
  uint64_t s_[4];
};

/// splitmix64 step: the seed mixer (also used to derive per-case seeds).
uint64_t splitmix64(uint64_t& state);

/// The generated formats.
enum class GenFormat { Vfp, Rkc, Kv6, Rvc, Kfa };
/// "vfp", "rkc", "kv6", "rvc", "kfa".
std::string_view to_string(GenFormat f);
/// Inverse of to_string; nullopt for anything else.
std::optional<GenFormat> gen_format_from_string(std::string_view s);

/// Small (default): grids up to 4^3, a handful of joints/bones/keys; files of a few hundred
/// bytes. Medium: grids up to 12^3, up to 12 joints, more clips and keys (a few KiB).
enum class GenSize { Small, Medium };

/// One primitive mutation step, in the manifest's MUTATION form (docs/manifest-schema.md):
/// op is set_u8 / set_u16 / set_i32 / set_u32 / set_bytes / truncate / append.
struct GenMutation {
  std::string op;
  uint64_t offset = 0;
  std::string field;           ///< the field's path, e.g. "BONS/bone[1]/attachment[0]/index"
  int64_t value = 0;           ///< set_*: the new value; truncate: the length kept
  std::vector<uint8_t> bytes;  ///< set_bytes / append
};

/// The declared outcome of one profile.
struct GenExpect {
  Profile profile = Profile::VfpRig;
  bool accept = true;
  ErrorCode error = ErrorCode::InternalBug;  ///< reject only
};

/// One generated case: the bytes and what every profile of its format must say about them.
struct GenCase {
  GenFormat format = GenFormat::Vfp;
  std::vector<uint8_t> bytes;
  bool negative = false;
  std::string kind;               ///< "valid" or the mutation kind ("vfp.section_tag_lower", ...)
  std::string rule;               ///< the spec rule the case exercises
  std::string description;        ///< what the valid base holds ("rigged: 3 joints, 2 clips, ...")
  std::vector<GenExpect> expect;  ///< every profile of the format, in manifest order
  std::vector<GenMutation> mutations;
};

/// One entry of a mutation table (for documentation, tests and `voxrig gen --list`).
struct GenMutationKind {
  GenFormat format;
  std::string_view name;
  std::string_view rule;
  /// Expected code per profile (first = vfp-static / rkc-strict, second = vfp-rig / rkc-compat);
  /// nullopt = that profile accepts the mutated file.
  std::optional<ErrorCode> first, second;
};

/// Every negative mutation kind of every format, as declared.
std::vector<GenMutationKind> mutation_kinds();

/// Generates one case from `seed`. Valid cases are accepted by both profiles of the format and
/// round-trip per docs/spec/writers.md#D1; a negative case is a valid case of the same seed with one
/// mutation from the format's table applied (chosen by the seed among the kinds that apply to
/// that file). Deterministic: the same arguments give the same bytes. Never fails.
GenCase generate_case(GenFormat format, uint64_t seed, GenSize size, bool negative);

/// The seed of case `index` of a run with seed `run_seed` (splitmix64 of both), so any case of
/// a run can be regenerated alone.
uint64_t case_seed(uint64_t run_seed, uint64_t index);

// ---- per-format entry points (gen_vfp.cpp, gen_rkc.cpp) ----
GenCase generate_vfp(GenRng& rng, GenSize size, bool negative);
GenCase generate_rkc(GenRng& rng, GenSize size, bool negative);
GenCase generate_kv6(GenRng& rng, GenSize size, bool negative);
GenCase generate_rvc(GenRng& rng, GenSize size, bool negative);
GenCase generate_kfa(GenRng& rng, GenSize size, bool negative);

}  // namespace voxrig::gen
