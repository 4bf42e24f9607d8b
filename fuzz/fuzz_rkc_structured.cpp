// Fuzz target: RKCH with a structure-aware mutator. LLVMFuzzerCustomMutator (fuzz_common.h
// mutate_rkc) mutates inside one chunk — an embedded KV6 or RVC blob (RVC through the library's
// writer, so deflated payloads are edited inflated), a CLPS record with its skeletal counts
// repaired against the bone count, BONS recounted with parents in range — and fixes every chunk,
// blob and body length, so that mutated files reach the cross-reference checks (attachment
// indices, parents, cycles) and the embedded decoders. Checks: check_rkc_file.
#include "fuzz_common.h"

VOXRIG_STRUCTURED_FUZZ_TARGET(mutate_rkc, voxrig::fuzz::check_rkc_file)
