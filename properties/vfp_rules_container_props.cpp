// Validation, container rules: each single violation is rejected with exactly its code
// (docs/spec/vfp.md steps 1-5 and 7). Also: vfp-static accepts every file whose container
// and VOX0 are valid, whatever its rig sections hold.
#include "prop_gen_common.h"
#include "prop_gen_vfp.h"
#include "vfp_rules.h"

namespace voxrig::props {
namespace {

std::vector<Rule> container_rules() {
  return {
      {"vfp.header.truncated",
       [](RuleCase& c) -> std::optional<Bytes> {
         return Bytes(c.bytes.begin(), c.bytes.begin() + long(uniform<size_t>(0, 44)));
       }},
      {"vfp.header.bad_magic",
       [](RuleCase& c) {
         return raw_edit(
             c, [](RawVfp& r) { r.magic[uniform<size_t>(0, 4)] ^= uint8_t(uniform<int>(1, 256)); });
       }},
      {"vfp.header.version_major",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) { r.major = uint8_t(1 + uniform<int>(1, 256)); });
       }},
      {"vfp.header.flags",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) { r.flags = uint16_t(uniform<int>(1, 65536)); });
       }},
      {"vfp.limit.sections",
       [](RuleCase& c) { return limit_below(c, &Limits::vfp_sections, c.model.sections.size()); }},
      {"vfp.section.truncated",
       [](RuleCase& c) {
         return raw_edit(
             c, [](RawVfp& r) { r.count = uint32_t(r.sections.size() + uniform<size_t>(1, 5)); });
       }},
      {"vfp.section.bad_tag",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) {
           const uint8_t bad[] = {0, ' ', 'a', 'z', '-', 0x80, 0xFF, '@', '[', '/', ':'};
           any_section(r).tag[uniform<size_t>(0, 4)] = bad[uniform<size_t>(0, sizeof bad)];
         });
       }},
      {"vfp.section.bad_chunk_id",
       [](RuleCase& c) {
         return raw_edit(
             c, [](RawVfp& r) { any_section(r).chunk_id = uniform<int32_t>(INT32_MIN, -1); });
       }},
      {"vfp.section.reserved_flags",
       [](RuleCase& c) {
         return raw_edit(
             c, [](RawVfp& r) { any_section(r).flags |= uint8_t(uniform<int>(1, 128) << 1); });
       }},
      {"vfp.section.reserved",
       [](RuleCase& c) {
         return raw_edit(
             c, [](RawVfp& r) { any_section(r).reserved = uint16_t(uniform<int>(1, 65536)); });
       }},
      {"vfp.section.payload_truncated",
       [](RuleCase& c) -> std::optional<Bytes> {
         const size_t last = c.model.sections.size() - 1;
         const size_t len = c.raw().sections[last].payload.size();
         if (len == 0) return std::nullopt;
         return Bytes(c.bytes.begin(), c.bytes.end() - long(uniform<size_t>(1, len + 1)));
       }},
      {"vfp.trailing_bytes",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) { r.trailing = bytes_of(uniform<size_t>(1, 40)); });
       }},
      {"vfp.vox0.duplicate",
       [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) { insert_anywhere(r, vox0_of(r)); }); }},
      {"vfp.vox0.missing",
       [](RuleCase& c) {
         return raw_edit(
             c, [](RawVfp& r) { vox0_of(r).tag[3] = uint8_t(uniform<int>('A', 'Z' + 1)); });
       }},
      {"vfp.vox0.bad_chunk_id",
       [](RuleCase& c) {
         return raw_edit(c,
                         [](RawVfp& r) { vox0_of(r).chunk_id = uniform<int32_t>(0, INT32_MAX); });
       }},
      {"vfp.vox0.bad_codec",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) { vox0_of(r).codec = uint8_t(uniform<int>(1, 256)); });
       }},
      {"vfp.vox0.not_required",
       [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) { vox0_of(r).flags = 0; }); }},
      {"vfp.section.unknown_required",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) {
           insert_anywhere(r, extra(nullptr, uint8_t(uniform<int>(0, 256)), kSectionRequired));
         });
       }},
      {"vfp.section.unsupported_codec",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) {
           const char* caches[] = {"MSH0", "PMSH", "RND0", "PRVW", "ANM0"};
           insert_anywhere(r, extra(caches[uniform<size_t>(0, 5)], uint8_t(uniform<int>(1, 256)),
                                    kSectionRequired));
         });
       }},
      {"vfp.source_hash",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) {
           Sha256 h = sha256(vox0_of(r).payload);
           h[uniform<size_t>(0, 32)] ^= uint8_t(uniform<int>(1, 256));
           r.hash = h;
         });
       }},
  };
}

}  // namespace

VOXRIG_PROP(VfpValidation, ContainerRulesRejectWithTheirCode, 600, ()) {
  check_rules(container_rules(), *gen_vfp_file());
}

VOXRIG_PROP(VfpValidation, StaticProfileIgnoresWhatRigSectionsHold, 1500, ()) {
  VfpGenOptions o;
  o.rig = VfpGenOptions::Rig::Never;
  const Bytes base = encode_vfp(*gen_vfp_file(o)).value();
  const Bytes donor = encode_vfp(*gen_vfp_file(VfpGenOptions{VfpGenOptions::Rig::Always})).value();
  // Rig-tagged sections (flags 0, so optional to vfp-static) with any header and any payload:
  // random bytes, or a valid rig payload with bytes changed, duplicates included.
  const Bytes bytes = choose("rig-tagged sections with any content", [base, donor] {
    RawVfp r = split_vfp(base);
    const RawVfp d = split_vfp(donor);
    for (size_t i = pick<size_t>(1, 6); i > 0; --i) {
      const char* tags[] = {"SKEL", "VSKN", "ANIM"};
      RawSection s =
          extra(tags[uniform<size_t>(0, 3)], one_in(3) ? uint8_t(uniform<int>(0, 256)) : 0, 0);
      s.chunk_id = one_in(3) ? uniform<int32_t>(-1, INT32_MAX) : -1;
      const int from = d.find(reinterpret_cast<const char*>(s.tag.data()));
      if (from >= 0 && one_in(2)) {
        s.payload = d.sections[size_t(from)].payload;
        for (size_t k = pick<size_t>(0, 4); k > 0 && !s.payload.empty(); --k)
          s.payload[uniform<size_t>(0, s.payload.size())] ^= uint8_t(uniform<int>(1, 256));
      } else {
        s.payload = some_bytes(120);
      }
      insert_anywhere(r, std::move(s));
    }
    return r.bytes();
  });
  record("vfp", bytes);
  auto st = decode_vfp(bytes, DecodeOptions{Profile::VfpStatic, {}});
  VOXRIG_RC_OK(st);
  VOXRIG_RC_SAME_BYTES(encode_vfp(st.value()).value(), bytes);
  const auto rig = decode_vfp(bytes, DecodeOptions{Profile::VfpRig, {}});
  if (!rig.ok()) RC_ASSERT(category_of(rig.error().code) != Category::Internal);
}

}  // namespace voxrig::props
