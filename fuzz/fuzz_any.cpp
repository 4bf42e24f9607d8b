// Fuzz target: the whole-file dispatch of any_format.h (what the CLI and the conformance runner
// call), under every profile. Invariants: validate_any's error and dump_any's verdict agree (same
// code); detect_format agrees with the report; a successful roundtrip implies an accepted file
// and, for VFP, gives back the input bytes (D1); canonicalize_any succeeds whenever roundtrip_any
// does and its output reads back; no internal error anywhere.
#include "fuzz_common.h"
#include "voxrig/any_format.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::View in(data, size);
  const Limits limits = fuzz::fuzz_limits();
  for (Profile p : {Profile::VfpStatic, Profile::VfpRig, Profile::RkcStrict, Profile::RkcCompat}) {
    const ValidationReport rep = validate_any(in, p, limits);
    VOXRIG_FUZZ_CHECK(rep.format == detect_format(in), "validate_any reports another format");
    VOXRIG_FUZZ_CHECK((to_string(rep.format) == "unknown") == (rep.format == Format::Unknown),
                      "a detected format without a name");
    auto dump = dump_any(in, p, limits);
    VOXRIG_FUZZ_CHECK(dump.ok() == !rep.error.has_value(), "dump_any and validate_any disagree");
    if (!fuzz::ok_or_checked(dump, 0, size)) {
      VOXRIG_FUZZ_CHECK(dump.error().code == rep.error->code, "dump_any reports another code");
      continue;
    }
    fuzz::check_dump_bound(dump.value(), size);
    auto rt = roundtrip_any(in, p, limits);
    if (!fuzz::ok_or_checked(rt, 0, size)) continue;
    if (rep.format == Format::Vfp) VOXRIG_FUZZ_CHECK(fuzz::same_bytes(rt.value(), in), "D1");
    auto canon = canonicalize_any(in, p, limits);
    VOXRIG_FUZZ_CHECK(canon.ok(), "canonicalize_any fails where roundtrip_any succeeds");
    const ValidationReport again = validate_any(canon.value(), p, limits);
    VOXRIG_FUZZ_CHECK(!again.error.has_value(),
                      "canonical output rejected: " + (again.error ? again.error->to_text() : ""));
  }
  return 0;
}
