// The capability cases of the golden corpus (docs/spec/protocols.md):
// pose and mesh plans from golden/sources (format "pose" / "mesh") expanded into manifest
// entries, with the reference's expectations (pose: evaluate_models_f64 / the RKCH solve; mesh:
// the reference quad count, after checking the reference's own mesh with the judge).
// golden/README.md ("Capability cases") is the author's guide.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "golden_sources.h"
#include "voxrig/conform/rules.h"

namespace voxrig::golden {

/// What expanding the plans produced.
struct CapabilityCorpus {
  nlohmann::ordered_json pose = nlohmann::ordered_json::array();
  nlohmann::ordered_json mesh = nlohmann::ordered_json::array();
  std::map<std::string, std::vector<uint8_t>> files;  ///< by path relative to golden/
  std::vector<std::string> mismatches;  ///< the reference disagrees with a hand value / itself
  std::vector<std::string> errors;      ///< a plan is malformed
  size_t pose_accept = 0, pose_reject = 0, mesh_cases = 0;
};

/// A case's manifest "rules" {"breaks": [...], "obeys": [...]}: conform::resolve_case_rules of
/// its expected error codes and its source's explicit lists. Appends to `errors` one line per ID
/// the catalogue lacks ("ID: unknown rule ID ..."). Reader, compile and capability cases alike.
nlohmann::ordered_json resolved_rules_json(const conform::RuleCatalogue& catalogue,
                                           const std::string& id,
                                           const std::vector<std::string>& codes,
                                           const RuleLists& lists,
                                           std::vector<std::string>& errors);

/// Expands every plan of `s` (reader cases are built on demand). Deterministic. Each case's
/// "rules" are resolved against `rules` (voxrig/conform/rules.h) from its plan's explicit lists
/// and, for a reject, its error code; a case left without any rule, or a rule ID the catalogue
/// lacks, is an error.
CapabilityCorpus build_capability_cases(Sources& s, const conform::RuleCatalogue& rules);

}  // namespace voxrig::golden
