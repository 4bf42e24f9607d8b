// voxrig rules: the rule catalogue (golden/rules.json) and its coverage by the golden corpus.
// The catalogue and coverage logic live in voxrig/conform/rules.h; this file finds the corpus,
// reads the manifest's resolved per-case rules and prints.
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "golden_dir.h"
#include "voxrig/conform/conform.h"
#include "voxrig/error.h"

namespace voxrig::cli {
namespace {

using namespace voxrig::conform;

constexpr std::string_view kUsage =
    "usage: voxrig rules [--golden DIR] [--coverage [--json] [--all]] [--check] [--markdown]\n"
    "                    [ID ...]\n"
    "The rule catalogue: every normative statement of docs/spec/ (the protocols\n"
    "included), with a stable ID, its section, a summary and the error codes\n"
    "that enforce it (golden/rules.json; docs/rules.md is generated from it).\n"
    "  (no option)   one line per rule: ID, section, summary (ID ...: only those rules)\n"
    "  --coverage    per rule, the golden cases that obey and break it, then the totals and\n"
    "                the problems (a case with no rule or an unknown ID, a rule with no\n"
    "                breaking case that does not say why, an error code no rule lists)\n"
    "  --json        with --coverage: the same as JSON (voxrig-rule-coverage/1), every case\n"
    "  --all         with --coverage: name every case (default: the first 8 per list)\n"
    "  --check       exit 4 when the coverage has a problem (CTest rules_coverage)\n"
    "  --markdown    print docs/rules.md\n"
    "  --golden DIR  the corpus holding rules.json and manifest.json (default: as conform)\n"
    "Exit: 0 ok, 2 usage, 3 the catalogue or manifest cannot be read, 4 --check found a "
    "problem.\n";

constexpr OptionSpec kOptions[] = {{"--golden", true}, {"--coverage", false},
                                   {"--json", false},  {"--all", false},
                                   {"--check", false}, {"--markdown", false}};

// Every (case, rules) of the manifest: reader cases and compile cases.
bool manifest_rules(const std::string& path, std::vector<CaseRules>& out) {
  auto text = read_file(path, {.quiet = true});
  if (!text) {
    std::cerr << "voxrig rules: cannot read " << path << "\n";
    return false;
  }
  std::string problem;
  const auto m = parse_manifest(as_text(*text), &problem);
  if (!m) {
    std::cerr << "voxrig rules: " << path << " is not a valid manifest: " << problem << "\n";
    return false;
  }
  for (const auto& c : m->cases) out.push_back({c.id, c.rules});
  for (const auto& c : m->capability_cases)
    if (c.check == Check::Compile) out.push_back({c.id, c.rules});
  return true;
}

int run(const Args& args) {
  const bool coverage = args.has("--coverage"), check = args.has("--check");
  if ((args.has("--json") || args.has("--all")) && !coverage) {
    std::cerr << "voxrig rules: --json and --all go with --coverage\n";
    return kExitUsage;
  }
  if (args.has("--markdown") && (coverage || check || !args.positional.empty())) {
    std::cerr << "voxrig rules: --markdown prints the whole catalogue; it takes no other option\n";
    return kExitUsage;
  }
  std::vector<std::string> tried;
  const auto dir = find_golden(args.last("--golden"), tried);
  if (!dir) {
    std::cerr << "voxrig rules: no golden corpus found; tried:\n";
    for (const auto& t : tried) std::cerr << "  " << t << "\n";
    return kExitIo;
  }
  const std::string rules_path = *dir + "/rules.json";
  auto text = read_file(rules_path, {.quiet = true});
  if (!text) {
    std::cerr << "voxrig rules: cannot read " << rules_path << "\n";
    return kExitIo;
  }
  std::string problem;
  auto catalogue = parse_rules(as_text(*text), &problem);
  if (!catalogue) {
    std::cerr << "voxrig rules: " << rules_path << ": " << problem << "\n";
    return kExitIo;
  }
  for (const auto& id : args.positional)
    if (!catalogue->find(id)) {
      std::cerr << "voxrig rules: unknown rule ID '" << id << "' (voxrig rules lists them)\n";
      return kExitUsage;
    }
  if (args.has("--markdown")) {
    std::cout << rules_markdown(*catalogue);
    return kExitOk;
  }
  if (!coverage && !check && args.positional.empty()) {
    for (const Rule& r : catalogue->rules)
      std::cout << r.id << "\t" << RuleCatalogue::where(r) << "\t" << r.summary << "\n";
    return kExitOk;
  }
  std::vector<CaseRules> cases;
  if (!manifest_rules(*dir + "/manifest.json", cases)) return kExitIo;
  std::vector<std::string> codes;
  for_each_error_code([&](ErrorCode, uint16_t, std::string_view code, Category cat) {
    if (cat != Category::Internal) codes.emplace_back(code);
  });
  CoverageReport rep = rule_coverage(*catalogue, cases, codes);
  if (!args.positional.empty()) {  // only the named rules (problems stay whole)
    std::erase_if(rep.rules, [&](const RuleCoverage& rc) {
      for (const auto& id : args.positional)
        if (rc.rule->id == id) return false;
      return true;
    });
  }
  if (coverage || !args.positional.empty())
    std::cout << (args.has("--json") ? coverage_json(rep)
                                     : coverage_text(rep, args.has("--all") ? SIZE_MAX : 8));
  else
    std::cout << "rules: " << rep.rule_count << ", with an obeying case: " << rep.with_obeying
              << ", with a breaking case: " << rep.with_breaking
              << ", justified unbreakable: " << rep.unbreakable << "\n";
  if (check) {
    for (const auto& p : rep.problems) std::cerr << "voxrig rules: " << p << "\n";
    if (!rep.problems.empty()) {
      std::cerr << "voxrig rules: " << rep.problems.size() << " coverage problem(s)\n";
      return kExitFailed;
    }
    std::cerr << "voxrig rules: coverage check passed (" << cases.size() << " cases)\n";
  }
  return kExitOk;
}

}  // namespace

extern const Command kRules{"rules", "the rule catalogue and its coverage by the golden corpus",
                            kUsage, kOptions, run};

}  // namespace voxrig::cli
