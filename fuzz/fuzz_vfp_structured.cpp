// Fuzz target: VFP with a structure-aware mutator. LLVMFuzzerCustomMutator (fuzz_common.h
// mutate_vfp) mutates inside one section and repairs the framing afterwards — section lengths and
// count, SKEL/VSKN/ANIM counts, sourceHash, baseSourceHash, skeletonHash — so that mutated files
// get past the framing and hash checks and reach the SKEL/VSKN/ANIM semantic validators.
// The checks are the whole-file VFP oracle with round trips (check_vfp_file, deep).
#include "fuzz_common.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  return voxrig::fuzz::mutate_vfp(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxrig::fuzz::check_vfp_file({data, size}, /*deep=*/true);
  return 0;
}
