// Validation, VOX0 payload rules (docs/spec/vfp.md step 6): each single violation is
// rejected with exactly its code. The header sourceHash is recomputed over the broken payload,
// so the payload rule, not the hash, is what fails.
#include "prop_gen_common.h"
#include "prop_gen_vfp.h"
#include "vfp_rules.h"

namespace voxrig::props {
namespace {

std::vector<Rule> vox0_rules() {
  return {
      {"vox0.truncated", [](RuleCase& c) { return truncated_payload(c, "VOX0", 10); }},
      {"vox0.bad_version", [](RuleCase& c) { return bad_payload_byte(c, "VOX0", 0); }},
      {"vox0.reserved",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) {
           Bytes& p = vox0_of(r).payload;
           if (one_in(2))
             p[1] = uint8_t(uniform<int>(1, 256));
           else
             put_u16(p, 10, uint16_t(uniform<int>(1, 65536)));
         });
       }},
      {"vox0.palette_count",
       [](RuleCase& c) {
         return raw_edit(c, [](RawVfp& r) {
           put_u16(vox0_of(r).payload, 2, one_in(2) ? 0 : uint16_t(uniform<int>(257, 65536)));
         });
       }},
      {"vox0.zero_size",
       [](RuleCase& c) {
         return raw_edit(
             c, [](RawVfp& r) { put_u16(vox0_of(r).payload, 4 + 2 * uniform<size_t>(0, 3), 0); });
       }},
      {"vox0.limit.voxels",
       [](RuleCase& c) {
         return limit_below(c, &Limits::vox0_voxels, c.model.vox0()->voxels.size());
       }},
      {"vox0.length",
       [](RuleCase& c) {
         return raw_edit(c, [&c](RawVfp& r) {
           Bytes& p = vox0_of(r).payload;
           const size_t n = c.model.vox0()->voxels.size();
           if (one_in(2))
             p.resize(p.size() - uniform<size_t>(1, n + 1));
           else
             p.resize(p.size() + uniform<size_t>(1, 9), 0);
         });
       }},
      {"vox0.palette_index",
       [](RuleCase& c) -> std::optional<Bytes> {
         const Vox0& v = *c.model.vox0();
         if (v.palette.size() >= 256) return std::nullopt;
         return raw_edit(c, [&v](RawVfp& r) {
           Bytes& p = vox0_of(r).payload;
           p[12 + 4 * v.palette.size() + uniform<size_t>(0, v.voxels.size())] =
               uint8_t(one_in(2) ? v.palette.size() : uniform<size_t>(v.palette.size(), 256));
         });
       }},
  };
}

}  // namespace

VOXRIG_PROP(VfpValidation, Vox0RulesRejectWithTheirCode, 600, ()) {
  check_rules(vox0_rules(), *gen_vfp_file());
}

}  // namespace voxrig::props
