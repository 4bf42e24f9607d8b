// Fuzz target: a whole RKCH v3 file (the seed's `rkc` target, made stricter). Under rkc-strict
// and rkc-compat: no internal error, error offsets inside the file, strict accepting implies
// compat accepting the same model, validate_rkc agreeing with decode_rkc, and the canonical
// writer's round trip (fuzz_common.h check_rkc_file) including the lossy KFA export.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxrig::fuzz::check_rkc_file({data, size});
  return 0;
}
