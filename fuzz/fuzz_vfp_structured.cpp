// Fuzz target: VFP with a structure-aware mutator. LLVMFuzzerCustomMutator (fuzz_common.h
// mutate_vfp) mutates inside one section and repairs the framing afterwards — section lengths and
// count, SKEL/VSKN/ANIM counts, sourceHash, baseSourceHash, skeletonHash — so that mutated files
// get past the framing and hash checks and reach the SKEL/VSKN/ANIM semantic validators.
// The checks are the whole-file VFP oracle with round trips (check_vfp_file, deep).
#include "fuzz_common.h"

namespace {
void check_deep(voxrig::fuzz::View bytes) { voxrig::fuzz::check_vfp_file(bytes, /*deep=*/true); }
}  // namespace

VOXRIG_STRUCTURED_FUZZ_TARGET(mutate_vfp, check_deep)
