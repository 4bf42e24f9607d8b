// Validation, rig rules (vfp-rig; docs/vfp-check-order.md step 8): each single violation of a
// SKEL / VSKN / ANIM rule is rejected with exactly its code. Model-level breaks are rebound
// (so no hash is the first failure) unless the rule is about a hash.
#include "gen_common.h"
#include "gen_vfp.h"
#include "vfp_rules.h"

namespace voxrig::props {
namespace {

std::vector<Rule> rig_rules() {
  return {
      {"rig.duplicate_section", [](RuleCase& c) -> std::optional<Bytes> {
         RawVfp r = c.raw();
         const char* tags[] = {"SKEL", "VSKN", "ANIM"};
         const RawSection copy =
             r.sections[size_t(r.find(tags[uniform<size_t>(0, r.find("ANIM") >= 0 ? 3 : 2)]))];
         r.sections.insert(r.sections.begin() + long(uniform<size_t>(0, r.sections.size() + 1)), copy);
         return r.bytes(); }},
      {"rig.section_header", [](RuleCase& c) -> std::optional<Bytes> {
         RawVfp r = c.raw();
         const char* tags[] = {"SKEL", "VSKN", "ANIM"};
         RawSection& s = r.sections[size_t(r.find(tags[uniform<size_t>(0, r.find("ANIM") >= 0 ? 3 : 2)]))];
         switch (uniform<int>(0, 3)) {
           case 0: s.chunk_id = uniform<int32_t>(0, INT32_MAX); break;
           case 1: s.codec = uint8_t(uniform<int>(1, 256)); break;
           default: s.flags = kSectionRequired; break;
         }
         return r.bytes(); }},
      {"rig.incomplete", [](RuleCase& c) -> std::optional<Bytes> {
         RawVfp r = c.raw();
         r.sections.erase(r.sections.begin() + r.find(one_in(2) ? "SKEL" : "VSKN"));
         return r.bytes(); }},
      {"vfp.section.unknown_required", [](RuleCase& c) -> std::optional<Bytes> {
         c.profile = Profile::VfpStatic;  // D11: to vfp-static a REQUIRED rig section is unknown
         RawVfp r = c.raw();
         r.sections[size_t(r.find(one_in(2) ? "SKEL" : "VSKN"))].flags = kSectionRequired;
         return r.bytes(); }},
      // ---- SKEL ----
      {"skel.truncated", [](RuleCase& c) { return payload_edit(c, "SKEL", [](Bytes& p) {
         p.resize(uniform<size_t>(0, p.size())); return true; }); }},
      {"skel.bad_version", [](RuleCase& c) { return payload_edit(c, "SKEL", [](Bytes& p) {
         p[0] = uint8_t(1 + uniform<int>(1, 256)); return true; }); }},
      {"skel.reserved", [](RuleCase& c) { return payload_edit(c, "SKEL", [&c](Bytes& p) {
         const Skel& s = *c.model.skel();
         const size_t at = one_in(3) ? 1 : skel_joint_offset(s, uniform<size_t>(0, s.joints.size())) + 45 + uniform<size_t>(0, 3);
         p[at] = uint8_t(uniform<int>(1, 256)); return true; }); }},
      {"skel.no_joints", [](RuleCase& c) { return payload_edit(c, "SKEL", [](Bytes& p) {
         p[2] = p[3] = 0; return true; }); }},
      {"skel.limit.joints", [](RuleCase& c) -> std::optional<Bytes> {
         c.limits.skel_joints = c.model.skel()->joints.size() - 1; return c.bytes; }},
      {"skel.base_source_hash", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         m.skel()->base_source_hash[uniform<size_t>(0, 32)] ^= 0x20; return true; }, false); }},
      {"skel.joint_order", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         auto& j = m.skel()->joints;
         if (j.size() < 2) return false;
         const size_t i = uniform<size_t>(1, j.size());
         j[i].id = one_in(2) ? j[i - 1].id : uint16_t(j[i - 1].id - uniform<uint16_t>(0, j[i - 1].id + 1));
         return true; }); }},
      {"skel.non_finite", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         *any_float_of(any_of(m.skel()->joints).bind) = non_finite(); return true; }); }},
      {"skel.non_unit_rotation", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         make_non_unit(any_of(m.skel()->joints).bind.r); return true; }); }},
      {"skel.bad_utf8", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         any_of(m.skel()->joints).name = bad_utf8_name(255); return true; }); }},
      {"skel.trailing_bytes", [](RuleCase& c) { return payload_edit(c, "SKEL", [](Bytes& p) {
         const Bytes junk = bytes_of(uniform<size_t>(1, 47)); p.insert(p.end(), junk.begin(), junk.end());
         return true; }); }},
      {"skel.parent_missing", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         Skel& s = *m.skel();
         int16_t p = one_in(3) ? int16_t(uniform<int>(-32768, -1)) : int16_t(uniform<int>(0, 32768));
         while (p >= 0 && has_id(s, p)) p = int16_t(p == 32767 ? -2 : p + 1);
         any_of(s.joints).parent = p; return true; }); }},
      {"skel.parent_cycle", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         SkelJoint& j = any_of(m.skel()->joints);
         if (j.id > 32767) return false;
         j.parent = int16_t(j.id); return true; }); }},
      // ---- VSKN ----
      {"vskn.truncated", [](RuleCase& c) { return payload_edit(c, "VSKN", [](Bytes& p) {
         p.resize(uniform<size_t>(0, 10)); return true; }); }},
      {"vskn.bad_version", [](RuleCase& c) { return payload_edit(c, "VSKN", [](Bytes& p) {
         p[0] = uint8_t(1 + uniform<int>(1, 256)); return true; }); }},
      {"vskn.bad_encoding", [](RuleCase& c) { return payload_edit(c, "VSKN", [](Bytes& p) {
         p[1] = uint8_t(1 + uniform<int>(1, 256)); return true; }); }},
      {"vskn.default_joint_missing", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         m.vskn()->default_joint = missing_id(*m.skel()); return true; }); }},
      {"vskn.reserved", [](RuleCase& c) { return payload_edit(c, "VSKN", [](Bytes& p) {
         p[4 + uniform<size_t>(0, 2)] = uint8_t(uniform<int>(1, 256)); return true; }); }},
      {"vskn.length", [](RuleCase& c) { return payload_edit(c, "VSKN", [](Bytes& p) {
         if (p.size() > 74 && one_in(2)) p.resize(p.size() - uniform<size_t>(1, p.size() - 73));
         else p.resize(p.size() + uniform<size_t>(1, 12), 0);
         return true; }); }},
      {"vskn.base_source_hash", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         m.vskn()->base_source_hash[uniform<size_t>(0, 32)] ^= 1; return true; }, false); }},
      {"vskn.skeleton_hash", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         m.vskn()->skeleton_hash[uniform<size_t>(0, 32)] ^= 1; return true; }, false); }},
      {"vskn.offset_order", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         auto& b = m.vskn()->bindings;
         if (b.empty()) return false;
         const size_t i = uniform<size_t>(0, b.size());
         b.insert(b.begin() + long(i) + 1, b[i]); return true; }); }},
      {"vskn.offset_range", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         const Skel& s = *m.skel();
         Vskn& v = *m.vskn();
         for (const SkelJoint& j : s.joints) {
           if (j.id == v.default_joint) continue;
           const uint64_t n = m.vox0()->voxels.size();
           v.bindings.push_back({uint32_t(one_in(2) ? n : uniform<uint64_t>(n, 1ull << 32)), j.id});
           return true;
         }
         return false; }); }},
      {"vskn.empty_voxel", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         const auto& b = m.vskn()->bindings;
         if (b.empty()) return false;
         m.vox0()->voxels[any_of(m.vskn()->bindings).voxel_offset] = 0; return true; }); }},
      {"vskn.joint_missing", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         if (m.vskn()->bindings.empty()) return false;
         any_of(m.vskn()->bindings).joint = missing_id(*m.skel()); return true; }); }},
      {"vskn.redundant_binding", [](RuleCase& c) { return model_edit(c, [](VfpFile& m) {
         if (m.vskn()->bindings.empty()) return false;
         any_of(m.vskn()->bindings).joint = m.vskn()->default_joint; return true; }); }},
  };
}

}  // namespace

VOXRIG_PROP(VfpValidation, RigRulesRejectWithTheirCode, 600, ()) {
  check_rules(rig_rules(), *gen_vfp_file(VfpGenOptions{VfpGenOptions::Rig::Always}));
}

}  // namespace voxrig::props
