// Fuzz target: a standalone RVC clip, parse then frame decode (the seed's `rvc` target; H6-H9).
// Checks: no internal error, offsets inside the file; D8: rkc-strict = rkc-compat's parse +
// validate_rvc_frames (same model, same code); D1/D3: parse -> serialize is byte-exact;
// decode_rvc_frames agrees with validate_rvc_frames and yields well-shaped frames; the views
// re-encoded in memory (rvc_update_*) read back equal; playback stays in range.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxrig::fuzz::check_rvc_file({data, size});
  return 0;
}
