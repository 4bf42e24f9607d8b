// Validation, ANIM rules (vfp-rig): each single violation is rejected with exactly its code.
#include "prop_gen_vfp.h"
#include "vfp_rules.h"

namespace voxrig::props {
namespace {

std::vector<Rule> anim_rules() {
  return {
      {"anim.truncated", [](RuleCase& c) { return truncated_payload(c, "ANIM"); }},
      {"anim.bad_version", [](RuleCase& c) { return bad_payload_byte(c, "ANIM", 0); }},
      {"anim.reserved",
       [](RuleCase& c) {
         return payload_edit(c, "ANIM", [&c](Bytes& p) {
           const AnimOffsets o = anim_offsets(*c.model.anim());
           std::vector<size_t> at{1};
           for (size_t k = 0; k < o.clips.size(); ++k) {
             for (size_t i = 9; i < 12; ++i) at.push_back(o.clips[k] + i);      // clip pad
             for (size_t t : o.tracks[k]) at.insert(at.end(), {t + 2, t + 3});  // track reserved
           }
           p[any_of(at)] = uint8_t(uniform<int>(1, 256));
           return true;
         });
       }},
      {"anim.limit.clips",
       [](RuleCase& c) -> std::optional<Bytes> {
         if (c.model.anim() == nullptr || c.model.anim()->clips.empty()) return std::nullopt;
         return limit_below(c, &Limits::anim_clips, c.model.anim()->clips.size());
       }},
      hash_rule(
          "anim.base_source_hash",
          [](VfpFile& m) { return m.anim() ? &m.anim()->base_source_hash : nullptr; }, 4),
      hash_rule(
          "anim.skeleton_hash",
          [](VfpFile& m) { return m.anim() ? &m.anim()->skeleton_hash : nullptr; }, 4),
      {"anim.clip_order",
       [](RuleCase& c) {
         return anim_edit(c, [](Anim& a, const Skel&) {
           if (a.clips.size() < 2) return false;
           const size_t i = uniform<size_t>(1, a.clips.size());
           a.clips[i].id =
               uint16_t(a.clips[i - 1].id - uniform<uint16_t>(0, a.clips[i - 1].id + 1));
           return true;
         });
       }},
      {"anim.bad_utf8",
       [](RuleCase& c) {
         return anim_edit(c, [](Anim& a, const Skel&) {
           if (a.clips.empty()) return false;
           any_of(a.clips).name = bad_utf8_name(255);
           return true;
         });
       }},
      {"anim.track_order",
       [](RuleCase& c) {
         return anim_edit(c, [](Anim& a, const Skel&) {
           if (a.clips.empty()) return false;
           AnimClip& clip = any_of(a.clips);
           if (clip.tracks.empty()) return false;
           const size_t i = uniform<size_t>(0, clip.tracks.size());
           clip.tracks.insert(clip.tracks.begin() + long(i) + 1, clip.tracks[i]);
           return true;
         });
       }},
      {"anim.joint_missing",
       [](RuleCase& c) {
         return anim_edit(c, [](Anim& a, const Skel& s) {
           for (AnimClip& clip : a.clips) {
             if (clip.tracks.empty()) continue;
             const size_t n = clip.tracks.size();
             uint32_t id = n >= 2 ? clip.tracks[n - 2].joint + 1u : 0u;
             id += uniform<uint32_t>(0, 65536 - id);
             while (id <= 65535 && has_id(s, id)) ++id;
             if (id > 65535) return false;
             clip.tracks[n - 1].joint = uint16_t(id);
             return true;
           }
           return false;
         });
       }},
      {"anim.no_keys",
       [](RuleCase& c) {
         return track_edit(c, [](AnimTrack& t) {
           t.keys.clear();
           return true;
         });
       }},
      {"anim.limit.keys_per_track",
       [](RuleCase& c) -> std::optional<Bytes> {
         const Anim* a = c.model.anim();
         size_t most = 0;
         for (const AnimClip& clip : a ? a->clips : std::vector<AnimClip>{})
           for (const AnimTrack& t : clip.tracks) most = std::max(most, t.keys.size());
         if (most == 0) return std::nullopt;
         return limit_below(c, &Limits::anim_keys_per_track, most);
       }},
      {"anim.limit.keys_total",
       [](RuleCase& c) -> std::optional<Bytes> {
         const size_t total = c.model.anim() ? total_keys(*c.model.anim()) : 0;
         if (total == 0) return std::nullopt;
         return limit_below(c, &Limits::anim_keys_total, total);
       }},
      {"anim.key_time_order",
       [](RuleCase& c) {
         return track_edit(c, [](AnimTrack& t) {
           if (t.keys.size() < 2) return false;
           const size_t i = uniform<size_t>(1, t.keys.size());
           const uint32_t prev = t.keys[i - 1].time_ms;
           t.keys[i].time_ms = prev - uint32_t(uniform<uint64_t>(0, uint64_t{prev} + 1));
           return true;
         });
       }},
      {"anim.key_time_range",
       [](RuleCase& c) {
         return anim_edit(c, [](Anim& a, const Skel&) {
           for (AnimClip& clip : a.clips) {
             if (clip.tracks.empty() || clip.duration_ms == UINT32_MAX) continue;
             any_of(clip.tracks).keys.back().time_ms =  // the boundary half of the time
                 one_in(2)
                     ? clip.duration_ms + 1
                     : uint32_t(uniform<uint64_t>(uint64_t{clip.duration_ms} + 1, 1ull << 32));
             return true;
           }
           return false;
         });
       }},
      {"anim.non_finite",
       [](RuleCase& c) {
         return track_edit(c, [](AnimTrack& t) {
           *any_float_of(any_of(t.keys).trs) = non_finite();
           return true;
         });
       }},
      {"anim.non_unit_rotation",
       [](RuleCase& c) {
         return track_edit(c, [](AnimTrack& t) {
           make_non_unit(any_of(t.keys).trs.r);
           return true;
         });
       }},
      {"anim.trailing_bytes", [](RuleCase& c) { return trailing_payload(c, "ANIM", 50); }},
  };
}

}  // namespace

VOXRIG_PROP(VfpValidation, AnimRulesRejectWithTheirCode, 800, ()) {
  VfpGenOptions o;
  o.rig = VfpGenOptions::Rig::Always;
  check_rules(anim_rules(), *gen_vfp_file(o));
}

}  // namespace voxrig::props
