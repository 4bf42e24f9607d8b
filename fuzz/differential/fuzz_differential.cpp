// Fuzz target fuzz_differential: the reference and an in-process testee (voxrig/testee.h) on
// the same inputs, coverage-guided (the testee is instrumented too when it is built with
// -fsanitize=fuzzer-no-link), aborting with both outcomes on the first disagreement.
//
// Not in fuzz/targets.txt: it needs a testee library, so the smoke run, ClusterFuzzLite and the
// fuzz-regress CTests (which run every listed target on its own) leave it out.
// `scripts/fuzz.sh differential LIB [SECONDS]` runs it. Environment:
//   VOXRIG_TESTEE          the testee shared library (required)
//   VOXRIG_TESTEE_PROFILE  vfp-static (default), vfp-rig, rkc-strict or rkc-compat
//   VOXRIG_TESTEE_CODES    strict (default: error codes compared) or loose
// A disagreement is judged exactly as `voxrig conform` / `voxrig fuzz-reader` judge one
// (voxrig/conform/fuzz_reader.h classify), so the crashing input is a ready golden-case candidate:
// `voxrig fuzz-reader --testee LIB` (or `conform`) reproduces and minimizes it.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "fuzz_common.h"
#include "voxrig/conform/fuzz_reader.h"
#include "voxrig/conform/testee_loader.h"

namespace {

using namespace voxrig;

struct State {
  std::unique_ptr<conform::Testee> testee;
  Profile profile = Profile::VfpStatic;
  conform::CodeMode codes = conform::CodeMode::Strict;
  conform::FuzzRunner runner;
};

State& state() {
  static State s;
  return s;
}

[[noreturn]] void usage_error(const std::string& what) {
  std::fprintf(stderr, "fuzz_differential: %s\n", what.c_str());
  std::exit(2);
}

std::string snippet(const std::string& s) {
  return s.size() <= 2000 ? s : s.substr(0, 2000) + "...";
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  State& s = state();
  const char* lib = std::getenv("VOXRIG_TESTEE");
  if (lib == nullptr || *lib == '\0')
    usage_error("set VOXRIG_TESTEE to a testee shared library (voxrig/testee.h)");
  std::string error;
  s.testee = conform::Testee::load(lib, &error);
  if (!s.testee) usage_error(error);
  if (const char* p = std::getenv("VOXRIG_TESTEE_PROFILE"); p != nullptr && *p != '\0') {
    auto profile = profile_from_string(p);
    if (!profile) usage_error(std::string("unknown VOXRIG_TESTEE_PROFILE '") + p + "'");
    s.profile = *profile;
  }
  if (const char* c = std::getenv("VOXRIG_TESTEE_CODES"); c != nullptr && *c != '\0') {
    if (std::strcmp(c, "loose") == 0)
      s.codes = conform::CodeMode::Loose;
    else if (std::strcmp(c, "strict") != 0)
      usage_error(std::string("VOXRIG_TESTEE_CODES takes strict or loose, got '") + c + "'");
  }
  s.runner = conform::testee_runner(*s.testee, s.profile);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  const Profile p = state().profile;
  if (p == Profile::VfpStatic || p == Profile::VfpRig)
    return voxrig::fuzz::mutate_vfp(data, size, max_size, seed);
  return seed % 4 == 0 ? voxrig::fuzz::mutate_rvc(data, size, max_size, seed)
                       : voxrig::fuzz::mutate_rkc(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  State& s = state();
  const conform::FuzzBytes input(data, data + size);
  // Another family's file under this profile is file.unknown_format (D7; golden cases
  // unknown/family/*): its mutations teach nothing, so they are skipped.
  if (!conform::profile_applies(input, s.profile)) return 0;
  const conform::ReferenceAnswer ref = conform::reference_answer(input, s.profile);
  conform::RunOutcome run = std::move(s.runner({input})[0]);
  std::string reason;
  const auto cls = conform::classify(ref, run, s.codes, &reason);
  if (!cls) return 0;
  std::fprintf(stderr,
               "\n==voxrig-differential== DISAGREE under %s: %s\n"
               "==voxrig-differential== class: %s (suggested case %s)\n"
               "==voxrig-differential== reference: %s\n"
               "==voxrig-differential== testee %s: %s%s\n",
               std::string(to_string(s.profile)).c_str(), reason.c_str(), cls->key().c_str(),
               conform::class_case_id(*cls, s.profile).c_str(),
               ref.accept ? snippet(ref.dump).c_str() : ("reject " + ref.code).c_str(),
               s.testee->path().c_str(), snippet(run.out).c_str(), snippet(run.err).c_str());
  std::fflush(stderr);
  std::abort();
}
