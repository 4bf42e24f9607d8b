// Fuzz target: a VOX0 payload through decode_vox0 (placed at file offset 60, where the first
// section's payload sits). Checks: no internal error, error offsets inside the payload, and an
// accepted payload re-encodes to exactly its bytes (encode_vox0 is the exact inverse).
#include "fuzz_common.h"
#include "voxrig/vfp.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr uint64_t kBase = 60;
  auto r = decode_vox0({data, size}, kBase, fuzz::fuzz_limits());
  if (!fuzz::ok_or_checked(r, kBase, size)) return 0;
  const Vox0& v = r.value();
  VOXRIG_FUZZ_CHECK(v.voxels.size() == size_t{v.size_x} * v.size_y * v.size_z);
  VOXRIG_FUZZ_CHECK(!v.palette.empty() && v.palette.size() <= 256);
  for (uint8_t c : v.voxels) VOXRIG_FUZZ_CHECK(c < v.palette.size());
  VOXRIG_FUZZ_CHECK(fuzz::same_bytes(encode_vox0(v), {data, size}), "VOX0 re-encode differs");
  return 0;
}
