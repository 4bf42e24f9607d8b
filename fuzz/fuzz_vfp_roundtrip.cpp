// Fuzz target: VFP round trips (docs/spec/writers.md#D1). For every profile that accepts the input:
// parse -> serialize gives the input bytes, parse -> serialize -> parse gives an equal model and
// an equal dump, and canonicalize is stable (the canonical bytes decode to the canonical model
// and canonicalize to themselves).
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxrig::fuzz::check_vfp_file({data, size}, /*deep=*/true);
  return 0;
}
