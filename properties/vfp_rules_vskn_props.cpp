// Validation, VSKN rules (vfp-rig; docs/spec/vfp.md step 8d): each single violation is
// rejected with exactly its code. Model-level breaks are rebound (so no hash is the first
// failure) unless the rule is about a hash.
#include "prop_gen_common.h"
#include "prop_gen_vfp.h"
#include "vfp_rules.h"

namespace voxrig::props {
namespace {

std::vector<Rule> vskn_rules() {
  return {
      {"vskn.truncated", [](RuleCase& c) { return truncated_payload(c, "VSKN", 10); }},
      {"vskn.bad_version", [](RuleCase& c) { return bad_payload_byte(c, "VSKN", 0); }},
      {"vskn.bad_encoding", [](RuleCase& c) { return bad_payload_byte(c, "VSKN", 1); }},
      {"vskn.default_joint_missing",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           m.vskn()->default_joint = missing_id(*m.skel());
           return true;
         });
       }},
      {"vskn.reserved",
       [](RuleCase& c) {
         return payload_edit(c, "VSKN", [](Bytes& p) {
           p[4 + uniform<size_t>(0, 2)] = uint8_t(uniform<int>(1, 256));
           return true;
         });
       }},
      {"vskn.length",
       [](RuleCase& c) {
         return payload_edit(c, "VSKN", [](Bytes& p) {
           if (p.size() > 74 && one_in(2))
             p.resize(p.size() - uniform<size_t>(1, p.size() - 73));
           else
             p.resize(p.size() + uniform<size_t>(1, 12), 0);
           return true;
         });
       }},
      hash_rule(
          "vskn.base_source_hash", [](VfpFile& m) { return &m.vskn()->base_source_hash; }, 1),
      hash_rule(
          "vskn.skeleton_hash", [](VfpFile& m) { return &m.vskn()->skeleton_hash; }, 1),
      {"vskn.offset_order",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           auto& b = m.vskn()->bindings;
           if (b.empty()) return false;
           const size_t i = uniform<size_t>(0, b.size());
           b.insert(b.begin() + long(i) + 1, b[i]);
           return true;
         });
       }},
      {"vskn.offset_range",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           const Skel& s = *m.skel();
           Vskn& v = *m.vskn();
           for (const SkelJoint& j : s.joints) {
             if (j.id == v.default_joint) continue;
             const uint64_t n = m.vox0()->voxels.size();
             v.bindings.push_back(
                 {uint32_t(one_in(2) ? n : uniform<uint64_t>(n, 1ull << 32)), j.id});
             return true;
           }
           return false;
         });
       }},
      {"vskn.empty_voxel",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           const auto& b = m.vskn()->bindings;
           if (b.empty()) return false;
           m.vox0()->voxels[any_of(m.vskn()->bindings).voxel_offset] = 0;
           return true;
         });
       }},
      {"vskn.joint_missing",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           if (m.vskn()->bindings.empty()) return false;
           any_of(m.vskn()->bindings).joint = missing_id(*m.skel());
           return true;
         });
       }},
      {"vskn.redundant_binding",
       [](RuleCase& c) {
         return model_edit(c, [](VfpFile& m) {
           if (m.vskn()->bindings.empty()) return false;
           any_of(m.vskn()->bindings).joint = m.vskn()->default_joint;
           return true;
         });
       }},
  };
}

}  // namespace

VOXRIG_PROP(VfpValidation, VsknRulesRejectWithTheirCode, 600, ()) {
  check_rules(vskn_rules(), *gen_vfp_file(VfpGenOptions{VfpGenOptions::Rig::Always}));
}

}  // namespace voxrig::props
