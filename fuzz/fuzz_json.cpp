// Fuzz target: the JSON compiler (compile_vfp_json). Checks: no internal error, error offsets
// inside the text; a compiled model is what its contract promises: encode_vfp writes it, and
// the bytes decode under vfp-rig to an equal model (every hash bound) and under vfp-static too,
// and go through the whole-file VFP oracle (fuzz_common.h check_vfp_file).
#include <string_view>

#include "fuzz_common.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = compile_vfp_json(text, fuzz::fuzz_limits());
  if (!fuzz::ok_or_checked(r, 0, size)) return 0;
  const VfpFile& model = r.value();
  const fuzz::Bytes bytes = fuzz::must(encode_vfp(model), "encode_vfp of a compiled model");
  auto rig = decode_vfp(bytes, fuzz::options(Profile::VfpRig));
  VOXRIG_FUZZ_CHECK(
      rig.ok(), "compiled file rejected by vfp-rig: " + (rig.ok() ? "" : rig.error().to_text()));
  VOXRIG_FUZZ_CHECK(rig.value() == model, "compiled model differs from its decoded bytes");
  VfpFile rebound = model;
  rebind(rebound);
  VOXRIG_FUZZ_CHECK(rebound == model, "the compiler left a hash unbound");
  fuzz::check_vfp_file(bytes, /*deep=*/false);
  return 0;
}
