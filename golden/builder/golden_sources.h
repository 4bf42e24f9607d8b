// golden_sources.h — the golden case sources: loading, checking and building case bytes.
//
// A case source (golden/sources/<dir>/<name>.json) is {"format": F, "cases": [CASE...]}; every
// CASE declares by hand its id, rule, level, tags and expected verdict per profile, and exactly
// one way to make its bytes (model / base+mutations / hex / character / kv6 / kfa / rvc).
// Compile cases (format "vfp-json") declare a JSON compile input and the compiler's verdict.
// golden/README.md ("Case sources") is the author's guide.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace voxrig::golden {

/// What the writer (roundtrip / canonicalize) must produce for an accepted case.
struct WriterExpect {
  enum class Kind { Same, Differs, Case, Bytes, Error } kind = Kind::Same;
  std::string case_id;         ///< Kind::Case: must equal that case's file
  std::vector<uint8_t> bytes;  ///< Kind::Bytes
  std::string error;           ///< Kind::Error: the writer's error code
};

/// The declared outcome under one profile.
struct ProfileExpect {
  std::string profile;
  bool accept = true;
  std::string error;  ///< reject only
  WriterExpect roundtrip, canonicalize;
};

/// The rule IDs (golden/rules.json) a case source names explicitly, beyond those its expected
/// error codes give.
struct RuleLists {
  std::vector<std::string> obeys, breaks;
};

/// One reader case.
struct CaseDef {
  std::string id, format, rule, level, source, note;
  std::vector<std::string> tags;
  std::vector<ProfileExpect> expect;  ///< in the format's profile order
  RuleLists rules;                    ///< the source's "rules"
  nlohmann::json spec;                ///< the whole source object (builder keys)
  // filled by build_case
  bool built = false, building = false;
  std::vector<uint8_t> bytes;
  std::string derived_from, compile_input;
  nlohmann::ordered_json mutations = nlohmann::ordered_json::array();
};

/// One JSON-compiler case.
struct CompileCase {
  std::string id, rule, level, source, note;
  std::vector<std::string> tags;
  std::string text;        ///< the JSON compile input, byte for byte
  std::string from_model;  ///< "sources/vfp/models/x.json" when the text is a model file
  bool accept = true;
  std::string error;
  std::string output_case;  ///< accept: the output must equal this reader case's file
  RuleLists rules;          ///< the source's "rules"
  std::string json_path;    ///< reject: the JSON path the compiler reports, when declared
};

/// Everything under golden/sources.
struct Sources {
  std::string root;                      ///< the golden directory
  std::map<std::string, CaseDef> cases;  ///< by id (sorted)
  std::map<std::string, CompileCase> compile_cases;
  /// Capability case plans (sources with format "pose" or "mesh"), expanded by
  /// golden_capabilities.cpp: {format, source file, the case object}.
  struct Plan {
    std::string format, source;
    nlohmann::json spec;
    RuleLists rules;  ///< the plan's "rules", given to every case it expands to
  };
  std::vector<Plan> capability_plans;
};

/// The profiles a format's cases declare, in manifest order.
std::vector<std::string> profiles_of(const std::string& format);
/// File extension of a format ("vfp", "rkc", ..., "bin" for unknown).
std::string extension_of(const std::string& format);

/// Loads and checks every source under `golden_dir`/sources (files sorted by name). Appends
/// one message per problem to `errors` (duplicate id, missing key, unknown error code, ...).
Sources load_sources(const std::string& golden_dir, std::vector<std::string>& errors);

/// Builds the bytes of case `id` (and, recursively, of its base). Returns false and appends a
/// message to `errors` when the builder fails.
bool build_case(Sources& s, const std::string& id, std::vector<std::string>& errors);

/// Reads a whole file as bytes; nullopt when it cannot be read.
std::optional<std::vector<uint8_t>> slurp(const std::string& path);

}  // namespace voxrig::golden
