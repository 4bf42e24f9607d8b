// voxrig/conform/rules.h — the rule catalogue (golden/rules.json) and what the golden cases say
// about it.
//
// Every normative statement of docs/spec/ (the protocols included) has a
// stable ID (VFP-SKEL-3 style, D8 for the numbered decisions), its spec section, a one-line
// summary, the error codes that enforce it (errors.def) and, where no file can break it, why.
// A golden case's rules are resolved once, at `voxrig golden regen`: every rule that lists one
// of the case's expected error codes is broken by it, plus the rules its source names
// explicitly (`"rules": {"obeys": [...], "breaks": [...]}`). The manifest carries the result;
// conform reports, `voxrig rules --coverage` and docs/rules.md read it from there.
//
// Pure: no file access, no printing. Safe on untrusted text (parse errors are reported, never
// thrown); allocations are proportional to the input.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace voxrig::conform {

/// One catalogue entry.
struct Rule {
  std::string id;                  ///< stable, e.g. "SKEL-7", "RKC-BONS-2", "D8"
  std::string spec;                ///< the spec file holding its anchor: "docs/spec/rig.md"
  std::string section;             ///< the spec section, e.g. "Voxel Rig v1: SKEL"
  std::string summary;             ///< one line
  std::vector<std::string> codes;  ///< error codes that enforce it (may be empty)
  std::string unbreakable;         ///< non-empty: why no golden case can break it
};

/// The whole catalogue, in file order.
struct RuleCatalogue {
  std::vector<Rule> rules;
  /// The rule with this id, or nullptr.
  const Rule* find(std::string_view id) const;
  /// "docs/spec/rig.md#SKEL-8": the rule's anchor in its spec file, as every report cites it
  /// (and groups failures by it).
  static std::string where(const Rule& r) { return r.spec + "#" + r.id; }
};

/// Parses golden/rules.json (schema "voxrig-rules/1"). Duplicate or empty ids, missing keys and
/// non-string codes are errors: returns nullopt and sets `*problem` to one line naming the rule.
std::optional<RuleCatalogue> parse_rules(std::string_view text, std::string* problem);

/// Whether a case obeys a rule (its file is valid under it) or breaks it.
enum class RuleRelation { Obeys, Breaks };
/// "obeys", "breaks".
std::string_view to_string(RuleRelation r);

/// One resolved (rule, relation) of a case.
struct RuleRef {
  std::string id;
  RuleRelation relation = RuleRelation::Obeys;
};

/// Resolves a case's rules: every rule listing one of `codes` (the case's expected error codes
/// under all its profiles, writer errors included) plus `explicit_breaks` are Breaks; then
/// `explicit_obeys` that are not already broken are Obeys. Catalogue order, no duplicates.
/// Ids in the explicit lists that the catalogue lacks are appended to `*unknown` and skipped.
std::vector<RuleRef> resolve_case_rules(const RuleCatalogue& catalogue,
                                        const std::vector<std::string>& codes,
                                        const std::vector<std::string>& explicit_obeys,
                                        const std::vector<std::string>& explicit_breaks,
                                        std::vector<std::string>* unknown);

/// A case id with its resolved rules (reader cases and compile cases alike).
struct CaseRules {
  std::string id;
  std::vector<RuleRef> rules;
};

/// Per rule, the cases that obey and break it.
struct RuleCoverage {
  const Rule* rule = nullptr;
  std::vector<std::string> obeying, breaking;
};

/// The problems a coverage check reports (each one line).
struct CoverageReport {
  std::vector<RuleCoverage> rules;  ///< catalogue order
  std::vector<std::string> problems;
  size_t rule_count = 0;  ///< rules in the catalogue (totals stay whole when `rules` is cut)
  size_t with_obeying = 0, with_breaking = 0;
  size_t unbreakable = 0;  ///< rules without a breaking case whose catalogue entry says why
};

/// Coverage of `cases` over the catalogue. Problems: a case with no rule, a case naming an id
/// the catalogue lacks, a rule with no breaking case that does not say why it cannot have one,
/// a rule with `unbreakable` and a breaking case (the reason is stale), and a code in
/// `known_codes` (errors.def, internal codes excluded by the caller) that no rule lists or a
/// rule code that is not in it.
CoverageReport rule_coverage(const RuleCatalogue& catalogue, const std::vector<CaseRules>& cases,
                             const std::vector<std::string>& known_codes);

/// docs/rules.md: one table per spec file and section (id, summary, codes, why unbreakable).
std::string rules_markdown(const RuleCatalogue& catalogue);

/// `voxrig rules --coverage`: per rule its obeying and breaking cases (at most `max_list`
/// named, then "+N more"), then the totals and the problems.
std::string coverage_text(const CoverageReport& report, size_t max_list);

/// The same as JSON (schema "voxrig-rule-coverage/1"), every case listed.
std::string coverage_json(const CoverageReport& report);

}  // namespace voxrig::conform
