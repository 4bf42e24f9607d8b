// The pieces of build_corpus() (golden_corpus.h): reader and compile cases as manifest entries.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "golden_corpus.h"
#include "golden_sources.h"
#include "voxrig/conform/rules.h"

namespace voxrig::golden {

/// A build in progress: its output, the catalogue that resolves each case's rules and the
/// expected/ file already written for each (case, output bytes).
struct Build {
  BuiltCorpus out;
  conform::RuleCatalogue rules;
  std::map<std::string, std::string> expected_by_content;  ///< case id + sha -> expected/ path
};

/// The manifest entry of a built reader case: its file, and per profile the declared verdict
/// checked against the reference, with the reference's dump and writer outputs for accepts.
nlohmann::ordered_json run_case(CaseDef& d, Sources& s, Build& g);

/// The manifest entry of a compile case: the input text, the declared outcome checked against
/// the reference compiler, and its output bytes for accepts.
nlohmann::ordered_json run_compile_case(const CompileCase& c, Sources& s, Build& g);

/// A negative case is its valid base with one rule broken (docs/spec/protocols.md#the-corpus), so
/// the base obeys every rule its derived cases break (unless it breaks that rule itself).
/// Rewrites each case's "obeys" in catalogue order.
void add_base_obeys(const Build& g, nlohmann::ordered_json& cases);

}  // namespace voxrig::golden
