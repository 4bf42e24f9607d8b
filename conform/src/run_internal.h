// The pieces of run_conformance() (voxrig/conform/run.h): the plan of one run and the judging of
// one planned request against the corpus.
#pragma once

#include <string>
#include <vector>

#include "voxrig/conform/corpus.h"
#include "voxrig/conform/run.h"

namespace voxrig::conform::detail {

/// One planned request: the case and expectation it checks.
struct Planned {
  const ManifestCase* c = nullptr;  ///< reader cases
  const ManifestExpect* e = nullptr;
  Check check = Check::Dump;
  std::string out_path;                 ///< writer / compile: where the reader writes
  const CapabilityCase* cap = nullptr;  ///< compile / pose / mesh
  const std::string& id() const { return cap ? cap->id : c->id; }
  const std::string& profile() const { return cap ? cap->profile : e->profile; }
};

/// The requests of a run, in plan order, and the (case, profile) pairs and checks left out.
struct Plan {
  std::vector<Planned> planned;
  std::vector<ReaderRequest> requests;  ///< requests[i] checks planned[i]
  size_t skipped = 0;
};

/// For each selected case, each requested profile that applies: the dump request and, with
/// checks.writer, the writer requests the manifest records an expectation for; then the
/// capability cases the checks claim (compile under any profile selection, pose / mesh under
/// their own profile). Writer and compile outputs are named under `tmp`.
Plan make_plan(const Corpus& corpus, const RunOptions& o, const std::vector<std::string>& profiles,
               const std::string& tmp);

/// Judges one answer and fills the whole result (verdict, reason, expectation, rules, failure
/// context). Reads the expected files of the corpus and the reader's output file (then removes
/// it).
CaseResult judge_planned(const Corpus& corpus, const RunOptions& o, const Planned& p,
                         const RunOutcome& run);

/// The expected-failure entries that matched no result: kept when the corpus has such a check
/// (this run just did not select it), stale otherwise.
void reconcile_expected_failures(const Corpus& corpus, std::vector<ExpectedFailure> unmatched,
                                 RunResult& r);

}  // namespace voxrig::conform::detail
