// voxrig/testing/gen_corpus.h — a generated corpus (gen.h cases) written in the golden layout
// (files/, dumps/, expected/, manifest.json; docs/manifest-schema.md), so `voxrig conform
// --golden DIR` runs it unchanged. Behind `voxrig gen` and `voxrig conform --generated`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "voxrig/testing/gen.h"

namespace voxrig::gen {

/// Which cases a generated corpus holds.
struct GenCorpusOptions {
  std::vector<GenFormat> formats;  ///< case i has formats[i % formats.size()]
  bool all_formats = false;        ///< spelled "all" on the command line
  uint64_t count = 10;
  uint64_t seed = 1;
  GenSize size = GenSize::Small;
  bool all_negative = false;      ///< --negative: every case is a negative case
  uint32_t negative_every = 0;    ///< --mix-negative K: case i is negative when i % K == K - 1
  std::optional<uint64_t> index;  ///< --index I: only case I of the run
};

/// The id of case `index` (e.g. "gen/vfp/000003-vfp.section_tag_lower").
std::string gen_case_id(const GenCase& c, uint64_t index);

/// The `voxrig gen` command that regenerates case `index` of the run alone into `out_dir`.
std::string gen_regen_command(const GenCorpusOptions& o, uint64_t index,
                              const std::string& out_dir);

/// What writing a generated corpus did.
struct GenCorpusResult {
  std::string write_error;  ///< "cannot write PATH: reason" (the first failure), or ""
  /// One line per disagreement between a generated file and the reference ("ID [PROFILE]:
  /// declared accept, the reference rejects: ..."); the corpus is written anyway.
  std::vector<std::string> mismatches;
  std::vector<std::string> ids;  ///< case ids by run index ("" for indices not generated)
};

/// Called after each case: `done` of `total` cases, the last one's id.
using GenProgress = std::function<void(uint64_t done, uint64_t total, const std::string& id)>;

/// Generates the cases and writes the corpus into `dir` (created if needed). For every profile a
/// case declares as accepted, the expected dump and writer outputs come from the reference;
/// declared verdicts never do. A file the reference rejects although the generator declares it
/// valid is still written (so conform reports it), and listed in `mismatches`.
GenCorpusResult write_generated_corpus(const std::string& dir, const GenCorpusOptions& o,
                                       const GenProgress& progress = {});

}  // namespace voxrig::gen
