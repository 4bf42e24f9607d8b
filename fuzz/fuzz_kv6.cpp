// Fuzz target: a standalone KV6 file (the seed's `kv6` target, made stricter). Under rkc-strict
// and rkc-compat: no internal error, offsets inside the file, strict accepting implies compat
// accepting the same model, validate_kv6 agreeing with decode_kv6; an accepted file re-encodes
// to a prefix of itself (everything after the tables / palette is dropped, nothing else changes)
// exactly when validate_kv6 warns kv6.trailing_bytes, and the output decodes to an equal model.
#include <algorithm>
#include <optional>

#include "fuzz_common.h"
#include "voxrig/kv6.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::View in(data, size);
  std::optional<Kv6> strict_model;
  for (Profile p : {Profile::RkcStrict, Profile::RkcCompat}) {
    auto r = decode_kv6(in, 0, fuzz::options(p));
    auto v = validate_kv6(in, fuzz::options(p));
    VOXRIG_FUZZ_CHECK(r.ok() == v.ok(), "validate_kv6 and decode_kv6 disagree");
    if (!fuzz::ok_or_checked(r, 0, size)) {
      VOXRIG_FUZZ_CHECK(!strict_model, "rkc-strict accepts what rkc-compat rejects");
      VOXRIG_FUZZ_CHECK(v.error().code == r.error().code, "validate_kv6 reports another code");
      continue;
    }
    const Kv6& m = r.value();
    if (strict_model) VOXRIG_FUZZ_CHECK(*strict_model == m, "strict and compat models differ");
    strict_model = m;
    VOXRIG_FUZZ_CHECK(m.xlen.size() == m.xsiz && m.ylen.size() == size_t{m.xsiz} * m.ysiz);
    const fuzz::Bytes enc = fuzz::must(encode_kv6(m), "encode_kv6 of a decoded KV6");
    VOXRIG_FUZZ_CHECK(fuzz::is_prefix(enc, in), "KV6 re-encode is not a prefix of the input");
    const bool trailing = std::any_of(v.value().begin(), v.value().end(), [](const Warning& w) {
      return w.code == WarningCode::Kv6TrailingBytes;
    });
    VOXRIG_FUZZ_CHECK(trailing == (enc.size() < size), "kv6.trailing_bytes warning wrong");
    fuzz::check_warnings(v.value(), size);
    auto again = decode_kv6(enc, 0, fuzz::options(p));
    VOXRIG_FUZZ_CHECK(again.ok() && again.value() == m, "KV6 round trip changed the model");
    const std::string dump = dump_kv6(m);
    fuzz::check_dump_bound(dump, size);
    VOXRIG_FUZZ_CHECK(dump_kv6(again.value()) == dump, "dump differs after round trip");
  }
  return 0;
}
