// Validation, rig presence and SKEL rules (vfp-rig; docs/spec/vfp.md step 8 a-d): each
// single violation is rejected with exactly its code. Model-level breaks are rebound (so no hash
// is the first failure) unless the rule is about a hash.
#include "prop_gen_common.h"
#include "prop_gen_vfp.h"
#include "vfp_rules.h"

namespace voxrig::props {
namespace {

std::vector<Rule> rig_rules() {
  return {
      {"rig.duplicate_section",
       [](RuleCase& c) -> std::optional<Bytes> {
         RawVfp r = c.raw();
         const char* tags[] = {"SKEL", "VSKN", "ANIM"};
         const RawSection copy =
             r.sections[size_t(r.find(tags[uniform<size_t>(0, r.find("ANIM") >= 0 ? 3 : 2)]))];
         r.sections.insert(r.sections.begin() + long(uniform<size_t>(0, r.sections.size() + 1)),
                           copy);
         return r.bytes();
       }},
      {"rig.section_header",
       [](RuleCase& c) -> std::optional<Bytes> {
         RawVfp r = c.raw();
         const char* tags[] = {"SKEL", "VSKN", "ANIM"};
         RawSection& s =
             r.sections[size_t(r.find(tags[uniform<size_t>(0, r.find("ANIM") >= 0 ? 3 : 2)]))];
         switch (uniform<int>(0, 3)) {
           case 0:
             s.chunk_id = uniform<int32_t>(0, INT32_MAX);
             break;
           case 1:
             s.codec = uint8_t(uniform<int>(1, 256));
             break;
           default:
             s.flags = kSectionRequired;
             break;
         }
         return r.bytes();
       }},
      {"rig.incomplete",
       [](RuleCase& c) -> std::optional<Bytes> {
         RawVfp r = c.raw();
         r.sections.erase(r.sections.begin() + r.find(one_in(2) ? "SKEL" : "VSKN"));
         return r.bytes();
       }},
      {"vfp.section.unknown_required",
       [](RuleCase& c) -> std::optional<Bytes> {
         c.profile = Profile::VfpStatic;  // D11: to vfp-static a REQUIRED rig section is unknown
         RawVfp r = c.raw();
         r.sections[size_t(r.find(one_in(2) ? "SKEL" : "VSKN"))].flags = kSectionRequired;
         return r.bytes();
       }},
      // ---- SKEL ----
      {"skel.truncated", [](RuleCase& c) { return truncated_payload(c, "SKEL"); }},
      {"skel.bad_version", [](RuleCase& c) { return bad_payload_byte(c, "SKEL", 0); }},
      {"skel.reserved",
       [](RuleCase& c) {
         return payload_edit(c, "SKEL", [&c](Bytes& p) {
           const Skel& s = *c.model.skel();
           const size_t at = one_in(3) ? 1
                                       : skel_joint_offset(s, uniform<size_t>(0, s.joints.size())) +
                                             45 + uniform<size_t>(0, 3);
           p[at] = uint8_t(uniform<int>(1, 256));
           return true;
         });
       }},
      {"skel.no_joints",
       [](RuleCase& c) {
         return payload_edit(c, "SKEL", [](Bytes& p) {
           p[2] = p[3] = 0;
           return true;
         });
       }},
      {"skel.limit.joints",
       [](RuleCase& c) {
         return limit_below(c, &Limits::skel_joints, c.model.skel()->joints.size());
       }},
      hash_rule(
          "skel.base_source_hash", [](VfpFile& m) { return &m.skel()->base_source_hash; }, 0x20),
      {"skel.joint_order",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           auto& j = m.skel()->joints;
           if (j.size() < 2) return false;
           const size_t i = uniform<size_t>(1, j.size());
           j[i].id = one_in(2) ? j[i - 1].id
                               : uint16_t(j[i - 1].id - uniform<uint16_t>(0, j[i - 1].id + 1));
           return true;
         });
       }},
      {"skel.non_finite",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           *any_float_of(any_of(m.skel()->joints).bind) = non_finite();
           return true;
         });
       }},
      {"skel.non_unit_rotation",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           make_non_unit(any_of(m.skel()->joints).bind.r);
           return true;
         });
       }},
      {"skel.bad_utf8",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           any_of(m.skel()->joints).name = bad_utf8_name(255);
           return true;
         });
       }},
      {"skel.trailing_bytes", [](RuleCase& c) { return trailing_payload(c, "SKEL", 47); }},
      {"skel.parent_missing",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           Skel& s = *m.skel();
           int16_t p =
               one_in(3) ? int16_t(uniform<int>(-32768, -1)) : int16_t(uniform<int>(0, 32768));
           while (p >= 0 && has_id(s, p)) p = int16_t(p == 32767 ? -2 : p + 1);
           any_of(s.joints).parent = p;
           return true;
         });
       }},
      {"skel.parent_cycle",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           SkelJoint& j = any_of(m.skel()->joints);
           if (j.id > 32767) return false;
           j.parent = int16_t(j.id);
           return true;
         });
       }},
  };
}

}  // namespace

VOXRIG_PROP(VfpValidation, RigAndSkelRulesRejectWithTheirCode, 600, ()) {
  check_rules(rig_rules(), *gen_vfp_file(VfpGenOptions{VfpGenOptions::Rig::Always}));
}

}  // namespace voxrig::props
