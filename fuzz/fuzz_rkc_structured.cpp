// Fuzz target: RKCH with a structure-aware mutator. LLVMFuzzerCustomMutator (fuzz_common.h
// mutate_rkc) mutates inside one chunk — an embedded KV6 or RVC blob (RVC through the library's
// writer, so deflated payloads are edited inflated), a CLPS record with its skeletal counts
// repaired against the bone count, BONS recounted with parents in range — and fixes every chunk,
// blob and body length, so that mutated files reach the cross-reference checks (attachment
// indices, parents, cycles) and the embedded decoders. Checks: check_rkc_file.
#include "fuzz_common.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  return voxrig::fuzz::mutate_rkc(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxrig::fuzz::check_rkc_file({data, size});
  return 0;
}
