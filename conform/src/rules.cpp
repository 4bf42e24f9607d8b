// The rule catalogue: parsing golden/rules.json, resolving a case's rules, coverage, and the
// generated docs/rules.md. One home for "which rule does this case exercise".
#include "voxrig/conform/rules.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "voxrig/json_out.h"

namespace voxrig::conform {
namespace {

using json = nlohmann::json;

struct Problem {
  std::string message;
};

std::string text_field(const json& o, const char* key, const std::string& where, bool required) {
  auto it = o.find(key);
  if (it == o.end()) {
    if (required) throw Problem{where + ": missing \"" + key + "\""};
    return "";
  }
  if (!it->is_string()) throw Problem{where + ": \"" + key + "\" must be a string"};
  return it->get<std::string>();
}

// Markdown table cells: a '|' would end the cell.
std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string list_cases(const std::vector<std::string>& ids, size_t max_list) {
  if (ids.empty()) return "-";
  std::string out;
  for (size_t i = 0; i < ids.size() && i < max_list; ++i) out += (i ? " " : "") + ids[i];
  if (ids.size() > max_list) out += " +" + std::to_string(ids.size() - max_list) + " more";
  return out;
}

}  // namespace

const Rule* RuleCatalogue::find(std::string_view id) const {
  for (const Rule& r : rules)
    if (r.id == id) return &r;
  return nullptr;
}

std::string_view to_string(RuleRelation r) {
  return r == RuleRelation::Breaks ? "breaks" : "obeys";
}

std::optional<RuleCatalogue> parse_rules(std::string_view text, std::string* problem) {
  try {
    const json doc = json::parse(text.begin(), text.end());
    if (!doc.is_object()) throw Problem{"the rule catalogue must be a JSON object"};
    const std::string schema = text_field(doc, "schema", "rules", true);
    if (schema != "voxrig-rules/1")
      throw Problem{"unsupported rule catalogue schema \"" + schema +
                    "\" (expected voxrig-rules/1)"};
    auto list = doc.find("rules");
    if (list == doc.end() || !list->is_array()) throw Problem{"rules: \"rules\" must be an array"};
    RuleCatalogue cat;
    std::set<std::string> ids;
    for (size_t i = 0; i < list->size(); ++i) {
      const json& o = (*list)[i];
      std::string where = "rules[" + std::to_string(i) + "]";
      if (!o.is_object()) throw Problem{where + ": must be an object"};
      Rule r;
      r.id = text_field(o, "id", where, true);
      if (r.id.empty() || r.id.find_first_of(" \t\r\n,") != std::string::npos)
        throw Problem{where + ": \"id\" must be non-empty, without spaces or commas"};
      where = "rule " + r.id;
      if (!ids.insert(r.id).second) throw Problem{where + ": duplicate id"};
      r.spec = text_field(o, "spec", where, true);
      r.section = text_field(o, "section", where, true);
      r.summary = text_field(o, "summary", where, true);
      r.unbreakable = text_field(o, "unbreakable", where, false);
      auto codes = o.find("codes");
      if (codes == o.end() || !codes->is_array())
        throw Problem{where + ": \"codes\" must be an array"};
      for (const auto& c : *codes) {
        if (!c.is_string()) throw Problem{where + ": \"codes\" holds strings only"};
        r.codes.push_back(c.get<std::string>());
      }
      cat.rules.push_back(std::move(r));
    }
    return cat;
  } catch (const Problem& p) {
    if (problem) *problem = p.message;
  } catch (const std::exception& e) {
    if (problem) *problem = std::string("rule catalogue is not valid JSON: ") + e.what();
  }
  return std::nullopt;
}

std::vector<RuleRef> resolve_case_rules(const RuleCatalogue& catalogue,
                                        const std::vector<std::string>& codes,
                                        const std::vector<std::string>& explicit_obeys,
                                        const std::vector<std::string>& explicit_breaks,
                                        std::vector<std::string>* unknown) {
  std::set<std::string> breaks, obeys;
  for (const auto& id : explicit_breaks) {
    if (catalogue.find(id))
      breaks.insert(id);
    else if (unknown)
      unknown->push_back(id);
  }
  for (const auto& id : explicit_obeys) {
    if (catalogue.find(id))
      obeys.insert(id);
    else if (unknown)
      unknown->push_back(id);
  }
  for (const Rule& r : catalogue.rules)
    for (const auto& c : r.codes)
      if (std::find(codes.begin(), codes.end(), c) != codes.end()) breaks.insert(r.id);
  std::vector<RuleRef> out;
  for (const Rule& r : catalogue.rules) {
    if (breaks.count(r.id))
      out.push_back({r.id, RuleRelation::Breaks});
    else if (obeys.count(r.id))
      out.push_back({r.id, RuleRelation::Obeys});
  }
  return out;
}

CoverageReport rule_coverage(const RuleCatalogue& catalogue, const std::vector<CaseRules>& cases,
                             const std::vector<std::string>& known_codes) {
  CoverageReport rep;
  std::map<std::string, size_t> index;
  for (const Rule& r : catalogue.rules) {
    index[r.id] = rep.rules.size();
    rep.rules.push_back({&r, {}, {}});
  }
  for (const CaseRules& c : cases) {
    if (c.rules.empty())
      rep.problems.push_back("case " + c.id +
                             " resolves to no rule: declare \"rules\": {\"obeys\": [...]} in its "
                             "source (or an error code a rule lists)");
    for (const RuleRef& ref : c.rules) {
      auto it = index.find(ref.id);
      if (it == index.end()) {
        rep.problems.push_back("case " + c.id + " names unknown rule " + ref.id);
        continue;
      }
      RuleCoverage& rc = rep.rules[it->second];
      (ref.relation == RuleRelation::Breaks ? rc.breaking : rc.obeying).push_back(c.id);
    }
  }
  std::set<std::string> listed;
  rep.rule_count = rep.rules.size();
  for (const RuleCoverage& rc : rep.rules) {
    rep.with_obeying += !rc.obeying.empty();
    rep.with_breaking += !rc.breaking.empty();
    if (rc.breaking.empty()) {
      if (rc.rule->unbreakable.empty())
        rep.problems.push_back("rule " + rc.rule->id +
                               " has no breaking case and the catalogue does not say why "
                               "(add a case that breaks it, or \"unbreakable\": \"why\")");
      else
        ++rep.unbreakable;
    }
    for (const auto& c : rc.rule->codes) {
      listed.insert(c);
      if (std::find(known_codes.begin(), known_codes.end(), c) == known_codes.end())
        rep.problems.push_back("rule " + rc.rule->id + " lists " + c +
                               ", which is not an error code (errors.def)");
    }
  }
  for (const auto& c : known_codes)
    if (!listed.count(c)) rep.problems.push_back("error code " + c + " is enforced by no rule");
  return rep;
}

std::string rules_markdown(const RuleCatalogue& catalogue) {
  std::string out =
      "# Rule catalogue\n\n"
      "Generated from `golden/rules.json` by `voxrig rules --markdown` (CTest `rules_doc_in_sync`);"
      " do not edit by hand.\n\n"
      "Every normative statement of `docs/spec/` (the protocols included) has a stable ID (the "
      "anchor of the statement in its file). A golden case obeys or breaks rules: it breaks every "
      "rule that lists one of its expected error codes, plus those its source names in "
      "`\"rules\"`; `voxrig rules --coverage` lists the cases of each rule. A rule without a "
      "breaking case says why none can exist.\n";
  std::string spec, section;
  for (const Rule& r : catalogue.rules) {
    if (r.spec != spec) {
      spec = r.spec;
      section.clear();
      out += "\n## " + spec + "\n";
    }
    if (r.section != section) {
      section = r.section;
      out += "\n### " + section +
             "\n\n| id | rule | codes | no breaking case because |\n"
             "|---|---|---|---|\n";
    }
    std::string codes;
    for (const auto& c : r.codes) codes += (codes.empty() ? "`" : ", `") + c + "`";
    out += "| " + r.id + " | " + cell(r.summary) + " | " + (codes.empty() ? "-" : codes) + " | " +
           (r.unbreakable.empty() ? "" : cell(r.unbreakable)) + " |\n";
  }
  return out;
}

std::string coverage_text(const CoverageReport& report, size_t max_list) {
  std::string out;
  for (const RuleCoverage& rc : report.rules) {
    out += rc.rule->id + "  [" + RuleCatalogue::where(*rc.rule) + "]  " + rc.rule->summary + "\n";
    out += "    obeys (" + std::to_string(rc.obeying.size()) +
           "): " + list_cases(rc.obeying, max_list) + "\n";
    out += "    breaks (" + std::to_string(rc.breaking.size()) +
           "): " + list_cases(rc.breaking, max_list);
    if (rc.breaking.empty() && !rc.rule->unbreakable.empty())
      out += "  (cannot be broken: " + rc.rule->unbreakable + ")";
    out += "\n";
  }
  out += "rules: " + std::to_string(report.rule_count) +
         ", with an obeying case: " + std::to_string(report.with_obeying) +
         ", with a breaking case: " + std::to_string(report.with_breaking) +
         ", justified unbreakable: " + std::to_string(report.unbreakable) + "\n";
  for (const auto& p : report.problems) out += "problem: " + p + "\n";
  out += "problems: " + std::to_string(report.problems.size()) + "\n";
  return out;
}

std::string coverage_json(const CoverageReport& report) {
  auto ids = [](const std::vector<std::string>& v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_quote(v[i]);
    return out + "]";
  };
  std::string out = "{\n  \"schema\": \"voxrig-rule-coverage/1\",\n  \"rules\": [";
  for (size_t i = 0; i < report.rules.size(); ++i) {
    const RuleCoverage& rc = report.rules[i];
    out += i ? ",\n    " : "\n    ";
    out += "{\"id\": " + json_quote(rc.rule->id) + ", \"spec\": " + json_quote(rc.rule->spec) +
           ", \"section\": " + json_quote(rc.rule->section) +
           ", \"summary\": " + json_quote(rc.rule->summary) + ", \"obeying\": " + ids(rc.obeying) +
           ", \"breaking\": " + ids(rc.breaking);
    if (!rc.rule->unbreakable.empty())
      out += ", \"unbreakable\": " + json_quote(rc.rule->unbreakable);
    out += "}";
  }
  out += "\n  ],\n  \"totals\": {\"rules\": " + std::to_string(report.rule_count) +
         ", \"with_obeying\": " + std::to_string(report.with_obeying) +
         ", \"with_breaking\": " + std::to_string(report.with_breaking) +
         ", \"unbreakable\": " + std::to_string(report.unbreakable) +
         "},\n  \"problems\": " + ids(report.problems) + "\n}\n";
  return out;
}

}  // namespace voxrig::conform
