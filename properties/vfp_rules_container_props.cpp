// Validation, container and VOX0 rules: each single violation is rejected with exactly its code
// (docs/vfp-check-order.md steps 1-7). Also: vfp-static accepts every file whose container and
// VOX0 are valid, whatever its rig sections hold.
#include "gen_common.h"
#include "gen_vfp.h"
#include "vfp_rules.h"

namespace voxrig::props {
namespace {

using Edit = std::function<void(RawVfp&)>;

std::optional<Bytes> raw_edit(const RuleCase& c, const Edit& edit) {
  RawVfp r = c.raw();
  edit(r);
  return r.bytes();
}

RawSection& vox0(RawVfp& r) { return r.sections[size_t(r.find("VOX0"))]; }
RawSection& any_section(RawVfp& r) { return r.sections[uniform<size_t>(0, r.sections.size())]; }

void put_u16(Bytes& b, size_t at, uint16_t v) {
  b[at] = uint8_t(v);
  b[at + 1] = uint8_t(v >> 8);
}

RawSection extra(const char* tag_or_null, uint8_t codec, uint8_t flags) {
  RawSection s;
  const auto t = tag_or_null ? std::array<char, 4>{tag_or_null[0], tag_or_null[1], tag_or_null[2],
                                                  tag_or_null[3]}
                             : vfp_tag_except({"VOX0", "SKEL", "VSKN", "ANIM", "MSH0", "PMSH",
                                               "RND0", "PRVW", "ANM0"});
  std::copy(t.begin(), t.end(), s.tag.begin());
  s.codec = codec;
  s.flags = flags;
  s.payload = some_bytes(8);
  return s;
}

void insert_anywhere(RawVfp& r, RawSection s) {
  r.sections.insert(r.sections.begin() + long(uniform<size_t>(0, r.sections.size() + 1)), std::move(s));
}

std::vector<Rule> container_rules() {
  return {
      {"vfp.header.truncated", [](RuleCase& c) -> std::optional<Bytes> {
         return Bytes(c.bytes.begin(), c.bytes.begin() + long(uniform<size_t>(0, 44)));
       }},
      {"vfp.header.bad_magic", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         r.magic[uniform<size_t>(0, 4)] ^= uint8_t(uniform<int>(1, 256)); }); }},
      {"vfp.header.version_major", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         r.major = uint8_t(1 + uniform<int>(1, 256)); }); }},
      {"vfp.header.flags", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         r.flags = uint16_t(uniform<int>(1, 65536)); }); }},
      {"vfp.limit.sections", [](RuleCase& c) -> std::optional<Bytes> {
         c.limits.vfp_sections = c.model.sections.size() - 1;
         return c.bytes;
       }},
      {"vfp.section.truncated", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         r.count = uint32_t(r.sections.size() + uniform<size_t>(1, 5)); }); }},
      {"vfp.section.bad_tag", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         const uint8_t bad[] = {0, ' ', 'a', 'z', '-', 0x80, 0xFF, '@', '[', '/', ':'};
         any_section(r).tag[uniform<size_t>(0, 4)] = bad[uniform<size_t>(0, sizeof bad)]; }); }},
      {"vfp.section.bad_chunk_id", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         any_section(r).chunk_id = uniform<int32_t>(INT32_MIN, -1); }); }},
      {"vfp.section.reserved_flags", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         any_section(r).flags |= uint8_t(uniform<int>(1, 128) << 1); }); }},
      {"vfp.section.reserved", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         any_section(r).reserved = uint16_t(uniform<int>(1, 65536)); }); }},
      {"vfp.section.payload_truncated", [](RuleCase& c) -> std::optional<Bytes> {
         const size_t last = c.model.sections.size() - 1;
         const size_t len = c.raw().sections[last].payload.size();
         if (len == 0) return std::nullopt;
         return Bytes(c.bytes.begin(), c.bytes.end() - long(uniform<size_t>(1, len + 1)));
       }},
      {"vfp.trailing_bytes", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         r.trailing = bytes_of(uniform<size_t>(1, 40)); }); }},
      {"vfp.vox0.duplicate", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         insert_anywhere(r, vox0(r)); }); }},
      {"vfp.vox0.missing", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         vox0(r).tag[3] = uint8_t(uniform<int>('A', 'Z' + 1)); }); }},
      {"vfp.vox0.bad_chunk_id", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         vox0(r).chunk_id = uniform<int32_t>(0, INT32_MAX); }); }},
      {"vfp.vox0.bad_codec", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         vox0(r).codec = uint8_t(uniform<int>(1, 256)); }); }},
      {"vfp.vox0.not_required", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         vox0(r).flags = 0; }); }},
      {"vfp.section.unknown_required", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         insert_anywhere(r, extra(nullptr, uint8_t(uniform<int>(0, 256)), kSectionRequired)); }); }},
      {"vfp.section.unsupported_codec", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         const char* caches[] = {"MSH0", "PMSH", "RND0", "PRVW", "ANM0"};
         insert_anywhere(r, extra(caches[uniform<size_t>(0, 5)], uint8_t(uniform<int>(1, 256)),
                                  kSectionRequired)); }); }},
      {"vfp.source_hash", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         Sha256 h = sha256(vox0(r).payload);
         h[uniform<size_t>(0, 32)] ^= uint8_t(uniform<int>(1, 256));
         r.hash = h; }); }},
      // ---- VOX0 payload (header hash recomputed over the broken payload) ----
      {"vox0.truncated", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         vox0(r).payload.resize(uniform<size_t>(0, 10)); }); }},
      {"vox0.bad_version", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         vox0(r).payload[0] = uint8_t(1 + uniform<int>(1, 256)); }); }},
      {"vox0.reserved", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         Bytes& p = vox0(r).payload;
         if (one_in(2)) p[1] = uint8_t(uniform<int>(1, 256));
         else put_u16(p, 10, uint16_t(uniform<int>(1, 65536))); }); }},
      {"vox0.palette_count", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         put_u16(vox0(r).payload, 2, one_in(2) ? 0 : uint16_t(uniform<int>(257, 65536))); }); }},
      {"vox0.zero_size", [](RuleCase& c) { return raw_edit(c, [](RawVfp& r) {
         put_u16(vox0(r).payload, 4 + 2 * uniform<size_t>(0, 3), 0); }); }},
      {"vox0.limit.voxels", [](RuleCase& c) -> std::optional<Bytes> {
         c.limits.vox0_voxels = c.model.vox0()->voxels.size() - 1;
         return c.bytes;
       }},
      {"vox0.length", [](RuleCase& c) { return raw_edit(c, [&c](RawVfp& r) {
         Bytes& p = vox0(r).payload;
         const size_t n = c.model.vox0()->voxels.size();
         if (one_in(2)) p.resize(p.size() - uniform<size_t>(1, n + 1));
         else p.resize(p.size() + uniform<size_t>(1, 9), 0); }); }},
      {"vox0.palette_index", [](RuleCase& c) -> std::optional<Bytes> {
         const Vox0& v = *c.model.vox0();
         if (v.palette.size() >= 256) return std::nullopt;
         return raw_edit(c, [&v](RawVfp& r) {
           Bytes& p = vox0(r).payload;
           p[12 + 4 * v.palette.size() + uniform<size_t>(0, v.voxels.size())] =
               uint8_t(one_in(2) ? v.palette.size() : uniform<size_t>(v.palette.size(), 256));
         });
       }},
  };
}

}  // namespace

VOXRIG_PROP(VfpValidation, ContainerAndVox0RulesRejectWithTheirCode, 600, ()) {
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
      RawSection s = extra(tags[uniform<size_t>(0, 3)], one_in(3) ? uint8_t(uniform<int>(0, 256)) : 0, 0);
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
