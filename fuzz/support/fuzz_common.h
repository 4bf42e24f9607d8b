// fuzz/fuzz_common.h — what every voxrig fuzz target shares: the invariant checks (abort on a
// broken one, so libFuzzer and the replay driver both report it), the limits the targets decode
// under, a little-endian byte builder for fixed contexts, and the oracles that more than one
// target runs (a whole VFP file, a whole RKCH file).
//
// Targets call the public library only, as a user would (architecture.md). A target aborts when
//  - any error has category `internal` (a bug in the reference by definition),
//  - an error offset lies outside the bytes the decoder was given,
//  - a round trip or a cross-profile verdict breaks a rule of docs/spec/ (D1, D3, D8, D9).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/decode_options.h"
#include "voxrig/dump.h"
#include "voxrig/error.h"
#include "voxrig/limits.h"
#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/result.h"
#include "voxrig/rkc_model.h"
#include "voxrig/testing/le_bytes.h"
#include "voxrig/testing/mutate.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_model.h"

namespace voxrig::fuzz {

using Bytes = std::vector<uint8_t>;
using View = std::span<const uint8_t>;

[[noreturn]] inline void fail(const char* what, const char* file, int line,
                              const std::string& detail = {}) {
  std::fprintf(stderr, "\n==voxrig-fuzz== INVARIANT BROKEN at %s:%d: %s\n", file, line, what);
  if (!detail.empty()) std::fprintf(stderr, "==voxrig-fuzz== %s\n", detail.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace voxrig::fuzz

/// Aborts with the failed condition (and an optional detail string) when `cond` is false.
#define VOXRIG_FUZZ_CHECK(cond, ...)                                                         \
  do {                                                                                       \
    if (!(cond)) ::voxrig::fuzz::fail(#cond, __FILE__, __LINE__ __VA_OPT__(, ) __VA_ARGS__); \
  } while (0)

namespace voxrig::fuzz {

/// The defaults of docs/spec/limits.md, scaled down where one small input could legitimately make the
/// reference allocate or work a lot (the JSON compiler sizes the grid from "size"; RVC inflates
/// ~1000:1 and rebuilds every frame; a zero-width frame table counts one cell per row). The limit
/// checks are the same code at any value, so the fuzzer still reaches them, while one input stays
/// well under ~64 MiB and ~1 s, far inside libFuzzer's rss and timeout limits.
/// rvc_inflated_per_chunk stays at 64 MiB: it is a format rule (`bad`), not a resource limit.
inline Limits fuzz_limits() {
  Limits l;
  l.vox0_voxels = uint64_t{1} << 22;
  l.rkc_frame_cells = uint64_t{1} << 20;
  l.kfa_frame_cells = uint64_t{1} << 20;
  l.rvc_inflated_total = uint64_t{64} << 20;
  l.rvc_working_set = uint64_t{32} << 20;
  return l;
}

inline DecodeOptions options(Profile p) { return DecodeOptions{p, fuzz_limits()}; }

/// The per-exec output bound (docs/spec/dump.md#guarantees, Bounded): a dump of an input of
/// `input_size` bytes is at most dump_bound(input_size) = 1 MiB + 64 x input_size bytes. A dump
/// over it is a finding, even for a valid file: it is work the input's size does not justify.
inline void check_dump_bound(std::string_view dump, size_t input_size) {
  VOXRIG_FUZZ_CHECK(dump.size() <= dump_bound(input_size),
                    "dump of " + std::to_string(dump.size()) + " bytes for an input of " +
                        std::to_string(input_size) + " bytes (bound 1 MiB + 64 x input)");
}

/// Checks an error returned for input bytes that start at absolute offset `base` and are `size`
/// long: never category internal; the offset (D12: the field or read that failed) inside them;
/// the code named and documented.
inline void check_error(const Error& e, uint64_t base, size_t size) {
  VOXRIG_FUZZ_CHECK(category_of(e.code) != Category::Internal, e.to_text());
  VOXRIG_FUZZ_CHECK(e.offset >= base && e.offset <= base + size, e.to_text());
  VOXRIG_FUZZ_CHECK(!to_string(e.code).empty());
  // The stable code is the error's identity (errors.def): its name maps back to it, leads the
  // text form and its category has a name.
  VOXRIG_FUZZ_CHECK(error_code_from_string(to_string(e.code)) == e.code, e.to_text());
  VOXRIG_FUZZ_CHECK(e.to_text().rfind(to_string(e.code), 0) == 0, e.to_text());
  VOXRIG_FUZZ_CHECK(to_string(category_of(e.code)) != "internal", e.to_text());
  // Every code an input can produce is documented (errors.def: the spec section that defines it
  // and what it means), so docs/spec/errors.md and `voxrig errors CODE` explain what a user sees.
  VOXRIG_FUZZ_CHECK(!spec_section_of(e.code).empty() && !meaning_of(e.code).empty(),
                    "undocumented code: " + e.to_text());
}

/// Checks the warnings of a validator given `size` input bytes: each has a named, documented code
/// (not the "internal.bug" fallback) and an offset inside the input.
inline void check_warnings(const std::vector<Warning>& warnings, size_t size) {
  for (const Warning& w : warnings)
    VOXRIG_FUZZ_CHECK(to_string(w.code) != "internal.bug" && w.offset <= size &&
                          !spec_section_of(w.code).empty() && !meaning_of(w.code).empty(),
                      std::string(to_string(w.code)) + " at " + std::to_string(w.offset));
}

/// True when `r` holds a value; otherwise checks its error (as check_error) and returns false.
template <class T>
bool ok_or_checked(const Result<T>& r, uint64_t base, size_t size) {
  if (r.ok()) return true;
  check_error(r.error(), base, size);
  return false;
}

/// The value of a result that must not fail (a writer given a model its decoder produced).
template <class T>
const T& must(const Result<T>& r, const char* what) {
  if (!r.ok()) fail(what, __FILE__, __LINE__, r.error().to_text());
  return r.value();
}

inline bool same_bytes(const Bytes& a, View b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
inline bool is_prefix(const Bytes& a, View b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

/// Little-endian appender for the fixed contexts and containers the targets build.
using Le = testing::LeBytes;

inline uint32_t get_u32(View b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
         uint32_t(b[at + 3]) << 24;
}
inline void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

/// Deterministic choices from the front of an input (the rest is the payload).
struct Picker {
  View data;
  uint8_t take() {
    if (data.empty()) return 0;
    uint8_t v = data[0];
    data = data.subspan(1);
    return v;
  }
};

// ---- structure-aware mutators (fuzz_structure.cpp) ------------------------------------------

/// libFuzzer's byte mutator (libFuzzer provides it; replay_main.cpp a stand-in).
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

/// LLVMFuzzerCustomMutator bodies: voxrig/testing/mutate.h's mutators with LLVMFuzzerMutate as
/// the byte mutator (fuzz_structure.cpp). Each mutates inside the framing of one container, then
/// repairs the framing: mutate_vfp edits one section (payload bytes, header fields, tag, or the
/// section list), recounts SKEL/VSKN/ANIM and rebinds sourceHash / baseSourceHash / skeletonHash;
/// mutate_rkc edits one chunk (MSHS/VCLP blob lists, CLPS records with skeletal counts repaired
/// against the bone count, BONS recount with parents in range) and fixes every length;
/// mutate_rvc parses the clip and edits chunks, META, frames (colour runs repaired), TIME or
/// version through the library's writer (rvc_update_*, rvc_make_chunk), or builds a fresh valid
/// clip. Any input they cannot split gets plain LLVMFuzzerMutate. Return the new size.
size_t mutate_vfp(uint8_t* data, size_t size, size_t max_size, unsigned seed);
size_t mutate_rkc(uint8_t* data, size_t size, size_t max_size, unsigned seed);
size_t mutate_rvc(uint8_t* data, size_t size, size_t max_size, unsigned seed);

/// Defines a structure-aware target's two libFuzzer entry points: MUTATE (one of the mutators
/// above) as LLVMFuzzerCustomMutator, and CHECK (a callable taking a View) on every input. A
/// macro because libFuzzer looks the entry points up by name in each target's own object.
#define VOXRIG_STRUCTURED_FUZZ_TARGET(MUTATE, CHECK)                                         \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,     \
                                            unsigned int seed) {                             \
    return voxrig::fuzz::MUTATE(data, size, max_size, seed);                                 \
  }                                                                                          \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                  \
    CHECK(voxrig::fuzz::View(data, size));                                                   \
    return 0;                                                                                \
  }

// ---- shared oracles and contexts (fuzz_common.cpp) --------------------------------------------

/// Decodes a VFP file under both profiles and checks: no internal error; vfp-rig accepting
/// implies vfp-static accepting (a file the strict profile takes has rig sections with flags 0,
/// which the static profile keeps as unknown optional ones); parse -> serialize is byte-exact
/// (D1); the dump is deterministic. With `deep`, also: the re-decoded model equals the first,
/// and canonicalize is stable (canonical bytes decode to the canonical model and re-canonicalize
/// to themselves).
void check_vfp_file(View bytes, bool deep);

/// Decodes an RKCH file under rkc-strict and rkc-compat and checks: no internal error;
/// strict accepting implies compat accepting with the same model; validate_rkc agrees with the
/// decoder; the canonical writer succeeds (compat: or reports a repaired name too long); its
/// output decodes to an equal model, re-encodes to the same bytes (canonical output stable) and
/// dumps identically.
void check_rkc_file(View bytes);

/// The whole-clip RVC oracle (fuzz_rvc.cpp's contract).
void check_rvc_file(View bytes);

/// An RKCH file whose `tag` chunk (META, MSHS, BONS, CLPS or VCLP) has `payload` and whose
/// other chunks are a fixed valid context chosen so that the payload alone decides the verdict
/// (rkc.h has no per-chunk entry points): META and VCLP/MSHS get zero bones, BONS gets one mesh and
/// one voxel clip to point at and no CLPS, CLPS gets two bones (numhin must be 2).
Bytes rkc_around(std::string_view tag, View payload);

/// The fixed rig context of the VSKN / ANIM / mesh targets: a 4x2x2 VOX0 with three palette
/// entries and empty voxels, and a SKEL with joint ids 0, 1, 2, 7 (parents -1, 0, 1, 0).
const Vox0& fixed_vox0();
const Skel& fixed_skel();
/// The RigContext of the VSKN / ANIM targets: fixed_skel() and fixed_vox0(), with the two hashes
/// (source, then skeleton) copied from the input's own header fields at `hashes_at`, so that
/// the hash checks pass and the payload alone decides; zero hashes when the input is shorter.
RigContext fixed_rig_context(View in, size_t hashes_at);

/// A valid 1x1x1 one-frame RVC blob (v2, raw chunks) and the seed's 46-byte unit KV6
/// (voxrig/testing/mutate.h, which the structure-aware mutators live in).
using testing::tiny_rvc;
using testing::unit_kv6;

// ---- meshing and pose helpers (fuzz_common.cpp; unit faces: voxrig/testing/face_oracle.h) ---

/// A hand-built rig read from fuzz bytes for the pose target (not decoded, so every field is
/// reachable): 1-12 joints with increasing ids, parents mostly earlier joints (with `wild`, any
/// joint or a missing id), TRS inside D20's bounds (|t| <= 1e6, |s| in [1e-6, 1e6], any rotation)
/// unless `raw` (then some floats are raw bit patterns: NaN, Inf, huge), 1-3 clips of tracks with
/// 1-4 keys at increasing times within the duration, and the sample times to try.
struct RigInput {
  Skel skel;
  Anim anim;
  bool raw = false, wild = false;
  std::vector<double> times;
};
RigInput read_rig(Picker& in);
/// Per joint index: whether D20's finiteness promise applies — the inputs are inside its bounds
/// (not `raw`) and the products of the largest / smallest |scale| (bind and keys) along the
/// joint's chain stay within [1e-6, 1e6]; a deeper chain of 1e6 scales overflows binary32
/// whatever the implementation does, which D20 as written does not exclude.
std::vector<uint8_t> d20_bounded(const RigRuntime& rt, const RigInput& rig);
/// D19 exactness: the runtime's bind locals are the normalised bind TRS; Step sampling in clamp
/// mode at a key's time returns the normalised key; joints without a track keep the bind TRS.
void check_d19(const RigRuntime& rt, const RigInput& rig);
/// A hand-built RKCH skeleton + skeletal clip for the rkc_eval target: 1-8 hinges (parents
/// earlier bones or roots; `wild`: any i32), 0-4 frames of BoneXforms (numhin = bone count
/// unless wild), a 0-7 entry seq with frames, jumps (~k) and stop markers in any order, a start
/// clock and four clock advances (small, negative, near the i32 limits).
struct RkcInput {
  std::vector<Hinge> hinges;
  SkeletalClip clip;
  int32_t kfatim = 0, okfatim = 0;
  std::array<int32_t, 4> advances{};
  bool wild = false;
};
RkcInput read_rkc_rig(Picker& in);
/// True when every float of the TRS is finite.
bool finite(const Trs& x);
bool finite(const Mat4& m);

/// True when the quad stays inside one 64-voxel tile on both in-plane axes (mesh.h).
bool inside_one_tile(const Quad& q);

}  // namespace voxrig::fuzz
