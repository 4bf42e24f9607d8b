// Fuzz target: a KFA file (the seed's `kfa` target, made stricter; H3). The same rules apply
// under every profile, so both give the same verdict and model. Checks: no internal error,
// offsets inside the file; an accepted file re-encodes to a prefix of itself (only bytes after
// seq are dropped) exactly when validate_kfa warns kfa.trailing_bytes, the output decodes to an
// equal model, and the accepted hinges have parents in range and no cycles.
#include <algorithm>

#include "fuzz_common.h"
#include "voxrig/kfa.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::View in(data, size);
  auto r = decode_kfa(in, fuzz::options(Profile::RkcStrict));
  auto c = decode_kfa(in, fuzz::options(Profile::RkcCompat));
  auto v = validate_kfa(in, fuzz::options(Profile::RkcStrict));
  VOXRIG_FUZZ_CHECK(r.ok() == c.ok() && r.ok() == v.ok(), "KFA verdicts disagree");
  if (!fuzz::ok_or_checked(r, 0, size)) {
    VOXRIG_FUZZ_CHECK(c.error().code == r.error().code && v.error().code == r.error().code);
    return 0;
  }
  const Kfa& m = r.value();
  VOXRIG_FUZZ_CHECK(c.value() == m, "KFA model depends on the profile");
  fuzz::check_warnings(v.value(), size);
  const size_t n = m.hinges.size();
  VOXRIG_FUZZ_CHECK(m.frames.size() == size_t{m.frame_count} * n, "frames not rectangular");
  for (size_t i = 0; i < n; ++i) {  // every parent chain reaches a root within n hops
    int64_t k = int64_t(i);
    for (size_t hops = 0; k != -1; ++hops) {
      VOXRIG_FUZZ_CHECK(hops <= n && k >= 0 && size_t(k) < n, "accepted a bad parent chain");
      k = m.hinges[size_t(k)].parent;
    }
  }
  const fuzz::Bytes enc = fuzz::must(encode_kfa(m), "encode_kfa of a decoded KFA");
  VOXRIG_FUZZ_CHECK(fuzz::is_prefix(enc, in), "KFA re-encode is not a prefix of the input");
  const bool trailing = std::any_of(v.value().begin(), v.value().end(), [](const Warning& w) {
    return w.code == WarningCode::KfaTrailingBytes;
  });
  VOXRIG_FUZZ_CHECK(trailing == (enc.size() < size), "kfa.trailing_bytes warning wrong");
  auto again = decode_kfa(enc, fuzz::options(Profile::RkcStrict));
  VOXRIG_FUZZ_CHECK(again.ok() && again.value() == m, "KFA round trip changed the model");
  const std::string dump = dump_kfa(m);
  fuzz::check_dump_bound(dump, size);
  VOXRIG_FUZZ_CHECK(dump_kfa(again.value()) == dump, "dump differs after round trip");
  return 0;
}
