// The per-family halves of voxrig/testing/rule_breakers.h (rule_breakers_vfp.cpp,
// rule_breakers_vfp_framing.cpp, rule_breakers_rkc.cpp, rule_breakers_rvc.cpp,
// rule_breakers_kv6.cpp, rule_breakers_kfa.cpp, rule_breakers_limits.cpp,
// rule_breakers_nested.cpp), joined by rule_breakers.cpp.
#pragma once

#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "voxrig/testing/rule_breakers.h"

namespace voxrig::testing::detail {

/// The element a position names among n (n > 0): 0, n / 2, n - 1 or min(deep, n - 1).
inline size_t break_index(BreakAt pos, size_t n, size_t deep) {
  switch (pos) {
    case BreakAt::First: return 0;
    case BreakAt::Middle: return n / 2;
    case BreakAt::Last: return n - 1;
    case BreakAt::Deep: return std::min(deep, n - 1);
  }
  return 0;
}

/// The mutator "break:RULE[:VARIANT]@POS" aiming at `rule`; `apply` gets the seed's bytes.
inline conform::FuzzMutator breaker_mutator(
    const std::string& rule, const std::string& variant, BreakAt pos,
    std::function<conform::FuzzBytes(std::span<const uint8_t>)> apply) {
  return {"break:" + rule + (variant.empty() ? "" : ":" + variant) + "@" +
              std::string(to_string(pos)),
          [apply = std::move(apply)](std::span<const uint8_t> in, uint64_t) { return apply(in); },
          {rule}};
}

/// Where a breaker of a format that RKCH also embeds (RVC in VCLP, KV6 in MSHS) runs.
enum class Where { Both, Standalone, Nested };

/// What the RVC / KV6 breaker tables share (rule_breakers_nested.cpp).
struct NestedBreakerSpec {
  const char* rule;
  const char* variant;  // "" or what tells two breakers of one rule apart
  bool positional;      // true: at every position; false: once, at Deep
  bool strict_only;     // true: offered under rkc-strict only
  Where where;
};

/// `edit` applied to blob `pos` (deep: min(deep, n - 1)) of the RKCH chunk `tag`'s blob list,
/// then the chunk and the file re-framed; no bytes when `rkch` is no RKCH file, lacks the chunk,
/// or the edit gives none.
std::vector<uint8_t> break_in_blob(
    std::span<const uint8_t> rkch, std::string_view tag, BreakAt pos, size_t deep,
    const std::function<std::vector<uint8_t>(std::span<const uint8_t>)>& edit);

/// Breaker i of a table at a position, on a standalone file of its format.
using NestedApply =
    std::function<std::vector<uint8_t>(size_t, BreakAt, std::span<const uint8_t>)>;

/// The rules of `specs` offered under `profile`, each once, in table order.
std::vector<std::string> nested_breakable(std::span<const NestedBreakerSpec> specs, Profile p);

/// Per position and spec: "break:RULE[:VARIANT]@POS" on a standalone file and
/// "break:RULE:[VARIANT-]tag@POS" on blob `pos` of the RKCH chunk `tag` (deep: `deep_blob`).
std::vector<conform::FuzzMutator> nested_breakers(std::span<const NestedBreakerSpec> specs,
                                                  Profile profile, std::string_view tag,
                                                  size_t deep_blob, const NestedApply& apply);

/// The rules each family's breakers aim at, in table order.
std::vector<std::string> vfp_breakable();
std::vector<std::string> rkc_breakable();
/// One mutator per breaker and position (non-positional breakers once, at Deep).
std::vector<conform::FuzzMutator> vfp_breakers();
std::vector<conform::FuzzMutator> rkc_breakers();
/// The VFP header / section / VOX0 / limit breakers (rule_breakers_vfp_framing.cpp), for
/// vfp-static and vfp-rig (`profile` decides whether the rig hashes are rebound).
std::vector<std::string> vfp_framing_breakable();
std::vector<conform::FuzzMutator> vfp_framing_breakers(Profile profile);
/// The RVC breakers (rule_breakers_rvc.cpp), standalone and inside an RKCH VCLP; the frame-decode
/// rules only under rkc-strict (D8).
std::vector<std::string> rvc_breakable(Profile profile);
std::vector<conform::FuzzMutator> rvc_breakers(Profile profile);
/// The KV6 breakers (rule_breakers_kv6.cpp), standalone and inside an RKCH MSHS; the run tables
/// only under rkc-strict (D9).
std::vector<std::string> kv6_breakable(Profile profile);
std::vector<conform::FuzzMutator> kv6_breakers(Profile profile);
/// The KFA breakers (rule_breakers_kfa.cpp), on a standalone KFA file.
std::vector<std::string> kfa_breakable();
std::vector<conform::FuzzMutator> kfa_breakers();
/// The count-limit breakers of limits.md (rule_breakers_limits.cpp): rig counts under vfp-rig,
/// RKCH counts under rkc-*.
std::vector<std::string> limit_breakable(Profile profile);
std::vector<conform::FuzzMutator> limit_breakers(Profile profile);

}  // namespace voxrig::testing::detail
