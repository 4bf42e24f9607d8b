// Fuzz target: the RKCH BONS chunk payload. rkc.h has no per-chunk entry point, so the input
// becomes the BONS payload of a minimal valid RKCH file whose other chunks are a fixed context
// (fuzz_common.h rkc_around); the file then goes through every RKCH check (check_rkc_file).
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const voxrig::fuzz::Bytes file = voxrig::fuzz::rkc_around("BONS", {data, size});
  voxrig::fuzz::check_rkc_file(file);
  return 0;
}
