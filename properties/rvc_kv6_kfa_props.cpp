// Round trips of the formats RKCH embeds: RVC is byte-exact for every valid file (encoded chunks
// are kept, D1/D3), KV6 and KFA through their canonical writers; stored variants of one RVC clip
// all decode to the same animation.
#include "prop_gen_common.h"
#include "prop_gen_rkc.h"
#include "prop_support.h"

namespace voxrig::props {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr Profile kProfiles[] = {Profile::RkcStrict, Profile::RkcCompat};

RvcClip decode_rvc_ok(const Bytes& b, Profile p) {
  auto d = decode_rvc(b, 0, DecodeOptions{p, Limits{}});
  if (!d.ok()) RC_FAIL("decode_rvc failed: " + d.error().to_text());
  return std::move(d).value();
}

RvcDecoded frames_ok(const RvcClip& c) {
  auto d = decode_rvc_frames(c, Limits{});
  if (!d.ok()) RC_FAIL("decode_rvc_frames failed: " + d.error().to_text());
  return std::move(d).value();
}

template <class R>
auto value_ok(R r, const char* what) {
  if (!r.ok()) RC_FAIL(std::string(what) + " failed: " + r.error().to_text());
  return std::move(r).value();
}

// KV6 and KFA through their canonical writers: the model's bytes decode to the model under both
// profiles and re-encode to the same bytes. `ext` names the counterexample file and the calls.
template <class Model, class Encode, class Decode>
void canonical_round_trip(const Model& m, const std::string& ext, Encode encode, Decode decode) {
  const Bytes bytes = value_ok(encode(m), ("encode_" + ext).c_str());
  record(ext, bytes);
  for (Profile p : kProfiles) {
    RC_LOG() << "profile " << to_string(p) << "\n";
    const Model d = value_ok(decode(bytes, DecodeOptions{p, Limits{}}), ("decode_" + ext).c_str());
    RC_ASSERT(d == m);
    VOXRIG_RC_SAME_BYTES(value_ok(encode(d), ("encode_" + ext).c_str()), bytes);
  }
}

}  // namespace

VOXRIG_PROP(RvcRoundTrip, BuiltClipsAreByteExact, 1000, ()) {
  const RvcClip clip = *gen_rvc_clip();
  const Bytes bytes = value_ok(encode_rvc(clip), "encode_rvc");
  record("rvc", bytes);
  for (Profile p : kProfiles) {
    RC_LOG() << "profile " << to_string(p) << "\n";
    const RvcClip d = decode_rvc_ok(bytes, p);
    RC_ASSERT(d == clip);
    RC_ASSERT(d.meta == clip.meta);
    RC_ASSERT(d.frames == clip.frames);
    RC_ASSERT(d.durations == clip.durations);
    VOXRIG_RC_SAME_BYTES(value_ok(encode_rvc(d), "encode_rvc"), bytes);
  }
}

VOXRIG_PROP(RvcRoundTrip, StoredVariantsAreByteExactAndDecodeAlike, 1500, ()) {
  const RvcClip base = *gen_rvc_clip();
  const Bytes bytes = *gen_rvc_stored_variant(base);
  record("rvc", bytes);
  const RvcDecoded want = frames_ok(base);
  for (Profile p : kProfiles) {
    RC_LOG() << "profile " << to_string(p) << "\n";
    const RvcClip d = decode_rvc_ok(bytes, p);
    const Bytes again = value_ok(encode_rvc(d), "encode_rvc");
    VOXRIG_RC_SAME_BYTES(again, bytes);
    RC_ASSERT(d.meta == base.meta);
    RC_ASSERT(d.frames == base.frames);
    RC_ASSERT(d.durations == base.durations);
    RC_ASSERT(frames_ok(d) == want);
  }
}

VOXRIG_PROP(Kv6RoundTrip, CanonicalBytesAndModel, 1000, ()) {
  canonical_round_trip(
      *gen_kv6(), "kv6", [](const Kv6& m) { return encode_kv6(m); },
      [](const Bytes& b, const DecodeOptions& o) { return decode_kv6(b, 0, o); });
}

VOXRIG_PROP(KfaRoundTrip, CanonicalBytesAndModel, 1000, ()) {
  canonical_round_trip(
      *gen_kfa(), "kfa", [](const Kfa& k) { return encode_kfa(k); },
      [](const Bytes& b, const DecodeOptions& o) { return decode_kfa(b, o); });
}

VOXRIG_PROP(RkcDump, DeterministicAndStableThroughRoundTrip, 600, ()) {
  const Character c = *gen_character();
  const Bytes bytes = value_ok(encode_rkc(c), "encode_rkc");
  record("rkc", bytes);
  const std::string dump = dump_rkc(c);
  RC_ASSERT(dump_rkc(c) == dump);
  for (Profile p : kProfiles) {
    RC_LOG() << "profile " << to_string(p) << "\n";
    const Character d = value_ok(decode_rkc(bytes, DecodeOptions{p, Limits{}}), "decode_rkc");
    RC_ASSERT(dump_rkc(d) == dump);
  }
}

}  // namespace voxrig::props
