// voxrig/testing/rule_breakers.h — rule-directed mutations for `voxrig fuzz-reader`: for each
// rule of the catalogue (golden/rules.json) that a positional edit can break, a breaker that
// breaks exactly that rule at a chosen element (first, middle, last or a deep one: the 5th key of
// a long track, the 4th joint, the 7th VSKN record, the 4th bone, the 6th clip) of a seed file.
//
// Why model edits: a breaker decodes the seed with the reference into its plain model structs
// (vfp_model.h, rkc_model.h), changes one value, and writes it back with the library's writer
// (encode_vfp / encode_rkc), which never validates semantics; for VFP it then rebinds every hash
// (voxrig::rebind) unless the rule is the hash itself. So the edited file keeps every length,
// count and hash right and reaches the one check the breaker aims at. The reference's answer, not
// the breaker, decides which rule an input broke (fuzz-reader credits the rules listing the
// reference's error code), so a breaker that misses is visible as a rule never reached.
//
// Deterministic; safe on any seed bytes (a seed the reference cannot decode, or one without the
// element, gives no input).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/conform/fuzz_reader.h"
#include "voxrig/conform/rules.h"
#include "voxrig/profile.h"

namespace voxrig::testing {

/// Where in an array a breaker strikes. Deep is the array's own deep index (joint 3, VSKN record
/// 6, key 4, clip 5, bone 3), clamped to the last element.
enum class BreakAt { First, Middle, Last, Deep };
/// "first", "middle", "last", "deep".
std::string_view to_string(BreakAt at);
inline constexpr BreakAt kBreakPositions[] = {BreakAt::Deep, BreakAt::Last, BreakAt::Middle,
                                              BreakAt::First};

/// The rules rule_breakers(profile) can break, in catalogue order of their spec sections. This
/// is the declared "breakable" list the report's never-reached list is measured against.
std::vector<std::string> breakable_rules(Profile profile);

/// Why each rule of `catalogue` that breakable_rules(profile) leaves out has no breaker, in
/// catalogue order: {rule id, reason}. Together with breakable_rules this is total over the
/// catalogue. A rule of the profile's own family with an error code needs a reason declared in
/// rule_breakers.cpp; one without gets a reason starting with kUndecided (a unit test fails).
std::vector<std::pair<std::string, std::string>> unbreakable_rules(
    Profile profile, const conform::RuleCatalogue& catalogue);
/// The prefix of the reason given to a rule nobody decided about.
inline constexpr std::string_view kUndecided = "undecided";

/// One FuzzMutator per breaker and position ("break:ANIM-11@deep"), its `rules` naming the rule
/// it aims at. apply(seed, _) ignores the seed value and returns the broken file, or no bytes
/// when the seed does not decode under `profile` or lacks the element. Empty for profiles
/// without breakers (vfp-static has the header / section / VOX0 ones only: rig rules are out of
/// its scope, D11).
std::vector<conform::FuzzMutator> rule_breakers(Profile profile);

/// Valid seed files with deep positions for the profile's family, built with the writers and
/// checked against the reference at creation (a seed it would reject is dropped): VFP: a 6x6x6
/// grid, 10 joints (a chain of 6 and branches), ~40 VSKN records, 8 ANIM clips of 6 tracks x 9
/// keys, 5 sections (the 3rd unknown); RKCH: a medium generated character's meshes under 8
/// chained bones (a Static and a Clip attachment each), 7 skeletal clips and 7 voxel clips, and
/// that voxel clip standalone (12 frames, keys and deltas), an 8x6 KV6 of 96 voxels (also the
/// RKCH meshes) and a KFA of 8 hinges. Origins read "deep:vfp", "deep:rkc", "deep:rvc",
/// "deep:kv6", "deep:kfa".
std::vector<conform::FuzzSeed> deep_seeds(Profile profile);

/// Sets `run`'s breakers (rule_breakers, after "deep-seed-as-is", which runs each deep seed
/// unchanged), deep seeds and breakable / unbreakable lists for its profile (what
/// `voxrig fuzz-reader` does unless --breakers off). The unbreakable list is measured against
/// `run.golden_dir`/rules.json, so set golden_dir first.
void add_rule_breakers(conform::FuzzReaderRun& run);

}  // namespace voxrig::testing
