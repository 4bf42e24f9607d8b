// Fuzz target: a whole VFP 1.3 file through decode_vfp under vfp-static and vfp-rig.
// Checks (fuzz_common.h check_vfp_file): no internal error, error offsets inside the file,
// vfp-rig accepting implies vfp-static accepting with the same section headers, parse ->
// serialize byte-exact under both profiles (D1), rebind a no-op on an accepted rig, dump
// deterministic.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  voxrig::fuzz::check_vfp_file({data, size}, /*deep=*/false);
  return 0;
}
