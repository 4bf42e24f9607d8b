// VFP round trips (docs/spec/writers.md#D1): byte-exact parse -> serialize under both profiles, parse after
// serialize gives the model back, canonicalize is idempotent and only reorders.
#include <algorithm>
#include <cstring>

#include "prop_gen_common.h"
#include "prop_gen_vfp.h"
#include "prop_support.h"
#include "vfp_mutate.h"
#include "voxrig/any_format.h"
#include "voxrig/testing/le_bytes.h"
#include "voxrig/vfp.h"

namespace voxrig::props {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes encode_ok(const VfpFile& f) {
  auto e = encode_vfp(f);
  if (!e.ok()) RC_FAIL("encode_vfp failed: " + e.error().to_text());
  return std::move(e).value();
}

VfpFile decode_ok(const Bytes& b, Profile p) {
  auto d = decode_vfp(b, DecodeOptions{p, Limits{}});
  if (!d.ok()) RC_FAIL("decode_vfp failed: " + d.error().to_text());
  return std::move(d).value();
}

bool is_rig_tag(const SectionTag& t) {
  return t == make_tag("SKEL") || t == make_tag("VSKN") || t == make_tag("ANIM");
}

// What vfp-static decodes a model to: rig bodies become their payload bytes.
VfpFile as_static(VfpFile f) {
  for (Section& s : f.sections) {
    if (const auto* k = std::get_if<Skel>(&s.body))
      s.body = RawPayload{encode_skel(*k).value()};
    else if (const auto* v = std::get_if<Vskn>(&s.body))
      s.body = RawPayload{encode_vskn(*v)};
    else if (const auto* a = std::get_if<Anim>(&s.body))
      s.body = RawPayload{encode_anim(*a).value()};
  }
  return f;
}

// Canonical class of a tag (D1): 0 VOX0, 1 caches, 2 SKEL, 3 VSKN, 4 ANIM, 5 anything else.
int tag_class(const SectionTag& t) {
  if (t == make_tag("VOX0")) return 0;
  if (is_cache_tag(t)) return 1;
  if (t == make_tag("SKEL")) return 2;
  if (t == make_tag("VSKN")) return 3;
  if (t == make_tag("ANIM")) return 4;
  return 5;
}

}  // namespace

VOXRIG_PROP(VfpRoundTrip, ByteExactUnderBothProfiles, 1500, ()) {
  const VfpFile f = *gen_vfp_file();
  const Bytes written = encode_ok(f);
  // Half of the inputs are spelled in ways the writer does not choose by itself.
  const Bytes bytes =
      choose("respelled", [written] { return one_in(2) ? respell_vfp(written) : written; });
  record("vfp", bytes);
  constexpr Profile kProfiles[] = {Profile::VfpRig, Profile::VfpStatic};
  check_fixed_point(
      bytes, kProfiles, [](const Bytes& b, Profile p) { return encode_ok(decode_ok(b, p)); },
      [](const Bytes& b, Profile p) { return roundtrip_any(b, p, Limits{}); });
}

VOXRIG_PROP(VfpRoundTrip, DecodeAfterEncodeGivesTheModel, 1500, ()) {
  const VfpFile f = *gen_vfp_file();
  const Bytes bytes = encode_ok(f);
  record("vfp", bytes);
  RC_ASSERT(decode_ok(bytes, Profile::VfpRig) == f);
  RC_ASSERT(decode_ok(bytes, Profile::VfpStatic) == as_static(f));
}

VOXRIG_PROP(VfpRoundTrip, HeaderFieldsAreKept, 600, ()) {
  const VfpFile f = *gen_vfp_file();
  const Bytes bytes = encode_ok(f);
  record("vfp", bytes);
  RC_ASSERT(bytes.size() >= 44u);
  RC_ASSERT(std::memcmp(bytes.data(), "VFP\0", 4) == 0);
  RC_ASSERT(bytes[4] == 1);
  RC_ASSERT(bytes[5] == f.version_minor);
  const uint32_t count = testing::le_u32(bytes, 8);
  RC_ASSERT(count == f.sections.size());
}

VOXRIG_PROP(VfpCanonical, IdempotentAndOnlyReorders, 1500, ()) {
  const VfpFile f = *gen_vfp_file();
  const Bytes bytes = encode_ok(f);
  record("vfp", bytes);
  const VfpFile c = canonicalized(f);
  RC_ASSERT(canonicalized(c) == c);
  RC_ASSERT(c.version_minor == f.version_minor);
  RC_ASSERT(c.sections.size() == f.sections.size());
  // Classes ascend; inside a class the input order is kept (a stable sort by class).
  std::vector<Section> expect = f.sections;
  std::stable_sort(expect.begin(), expect.end(), [](const Section& a, const Section& b) {
    return tag_class(a.header.tag) < tag_class(b.header.tag);
  });
  RC_ASSERT(c.sections == expect);
  // Same through the byte API, under both profiles.
  for (Profile p : {Profile::VfpRig, Profile::VfpStatic}) {
    RC_LOG() << "profile " << to_string(p) << "\n";
    auto once = canonicalize_any(bytes, p, Limits{});
    VOXRIG_RC_OK(once);
    VOXRIG_RC_SAME_BYTES(once.value(), encode_ok(c));
    auto twice = canonicalize_any(once.value(), p, Limits{});
    VOXRIG_RC_OK(twice);
    VOXRIG_RC_SAME_BYTES(twice.value(), once.value());
  }
}

VOXRIG_PROP(VfpPreservation, UnknownSectionsKeepPayloadAndPosition, 1500, ()) {
  const VfpFile f = *gen_vfp_file();
  const Bytes bytes = encode_ok(f);
  record("vfp", bytes);
  for (Profile p : {Profile::VfpRig, Profile::VfpStatic}) {
    RC_LOG() << "profile " << to_string(p) << "\n";
    const VfpFile d = decode_ok(bytes, p);
    RC_ASSERT(d.sections.size() == f.sections.size());
    for (size_t i = 0; i < f.sections.size(); ++i) {
      const Section& s = f.sections[i];
      // Decoded bodies are checked elsewhere; everything kept as bytes is checked here.
      if (s.header.tag == make_tag("VOX0") || (p == Profile::VfpRig && is_rig_tag(s.header.tag)))
        continue;
      RC_LOG() << "section " << i << " under " << to_string(p) << "\n";
      RC_ASSERT(d.sections[i].header == s.header);
      RC_ASSERT(d.sections[i] == as_static(VfpFile{3, {s}}).sections[0]);
    }
  }
  // Canonicalization keeps the unknown sections' relative order, after every known class.
  std::vector<Section> unknown_in, unknown_out;
  for (const Section& s : f.sections)
    if (tag_class(s.header.tag) == 5) unknown_in.push_back(s);
  const VfpFile c = canonicalized(f);
  for (const Section& s : c.sections)
    if (tag_class(s.header.tag) == 5) unknown_out.push_back(s);
  RC_ASSERT(unknown_out == unknown_in);
  RC_ASSERT(std::equal(unknown_out.rbegin(), unknown_out.rend(), c.sections.rbegin()));
}

}  // namespace voxrig::props
