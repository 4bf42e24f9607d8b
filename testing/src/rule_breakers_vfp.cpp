// The VFP rig breakers (voxrig/testing/rule_breakers.h): one model edit per rule of
// docs/spec/rig.md that a value inside SKEL / VSKN / ANIM can break, at a chosen element.
#include <cmath>
#include <limits>
#include <type_traits>

#include "rule_breakers_internal.h"
#include "voxrig/vfp.h"

namespace voxrig::testing::detail {
namespace {

constexpr size_t kDeepJoint = 3, kDeepRecord = 6, kDeepKey = 4, kDeepClip = 5, kDeepTrack = 2;
constexpr uint16_t kNoSuchJoint = 31999;  // the deep seed's ids are multiples of 10 up to 100

size_t at(BreakAt pos, size_t n, size_t deep) { return break_index(pos, n, deep); }

// An order rule needs a predecessor: index 0 is broken against element 1 instead.
template <class T, class Get>
bool break_order(std::vector<T>& v, size_t i, Get get) {
  if (v.size() < 2) return false;
  if (i == 0) get(v[0]) = get(v[1]);
  else get(v[i]) = get(v[i - 1]);
  return true;
}

AnimClip* clip_at(VfpFile& f, BreakAt pos) {
  Anim* a = f.anim();
  return a && !a->clips.empty() ? &a->clips[at(pos, a->clips.size(), kDeepClip)] : nullptr;
}
AnimTrack* track_at(VfpFile& f, BreakAt pos) {
  AnimClip* c = clip_at(f, pos);
  return c && !c->tracks.empty() ? &c->tracks[at(pos, c->tracks.size(), kDeepTrack)] : nullptr;
}
AnimKey* key_at(VfpFile& f, BreakAt pos) {
  AnimTrack* t = track_at(f, pos);
  return t && !t->keys.empty() ? &t->keys[at(pos, t->keys.size(), kDeepKey)] : nullptr;
}
SkelJoint* joint_at(VfpFile& f, BreakAt pos) {
  Skel* s = f.skel();
  return s && !s->joints.empty() ? &s->joints[at(pos, s->joints.size(), kDeepJoint)] : nullptr;
}
VsknBinding* record_at(VfpFile& f, BreakAt pos) {
  Vskn* v = f.vskn();
  return v && !v->bindings.empty() ? &v->bindings[at(pos, v->bindings.size(), kDeepRecord)]
                                   : nullptr;
}

const std::string kBadUtf8 = "\xC0\xAF";  // an overlong '/': never valid UTF-8 (FP-5)

// Joint k's parent becomes a joint whose ancestry passes through k: a cycle through joint k.
bool parent_cycle(VfpFile& f, BreakAt pos) {
  Skel* s = f.skel();
  if (!s || s->joints.empty()) return false;
  const size_t k = at(pos, s->joints.size(), kDeepJoint);
  const uint16_t self = s->joints[k].id;
  for (const SkelJoint& j : s->joints)  // a child of k closes a two-cycle; none: k itself
    if (j.parent == int16_t(self) && j.id <= 32767) {
      s->joints[k].parent = int16_t(j.id);
      return true;
    }
  if (self > 32767) return false;
  s->joints[k].parent = int16_t(self);
  return true;
}

// The deep seed's voxel k is empty when k % 7 == 3 (deep_seeds); find one that no record holds.
bool record_on_empty_voxel(VfpFile& f, BreakAt pos) {
  Vskn* v = f.vskn();
  const Vox0* g = f.vox0();
  if (!v || !g || v->bindings.empty()) return false;
  const size_t k = at(pos, v->bindings.size(), kDeepRecord);
  // Stay between the neighbouring records, so the order (VSKN-9) still holds.
  const uint64_t lo = k == 0 ? 0 : uint64_t{v->bindings[k - 1].voxel_offset} + 1;
  const uint64_t hi = k + 1 < v->bindings.size() ? uint64_t{v->bindings[k + 1].voxel_offset}
                                                 : uint64_t{g->voxels.size()};
  for (uint64_t x = lo; x < hi && x < g->voxels.size(); ++x)
    if (g->voxels[x] == 0) {
      v->bindings[k].voxel_offset = uint32_t(x);
      return true;
    }
  return false;
}

// One bit of a stored hash flipped: the section's payload is intact, its binding no longer holds.
template <class Member>
struct SectionOf;
template <class S, class T>
struct SectionOf<T S::*> {
  static S* in(VfpFile& f) {
    if constexpr (std::is_same_v<S, Skel>) return f.skel();
    else if constexpr (std::is_same_v<S, Vskn>) return f.vskn();
    else return f.anim();
  }
};
template <auto Hash, size_t Byte, uint8_t Bit>
bool flip_hash(VfpFile& f, BreakAt) {
  auto* s = SectionOf<decltype(Hash)>::in(f);
  return s && ((s->*Hash)[Byte] ^= Bit, true);
}

using Edit = bool (*)(VfpFile&, BreakAt);

struct VfpBreaker {
  const char* rule;
  Edit edit;
  bool rebind = true;  // false: the edit is the hash itself, which rebind() would repair
  bool positional = true;  // false: one value per file, broken once (at "deep")
};

const VfpBreaker kVfpBreakers[] = {
    {"SKEL-6",
     [](VfpFile& f, BreakAt p) {
       Skel* s = f.skel();
       return s && break_order(s->joints, at(p, s->joints.size(), kDeepJoint),
                               [](SkelJoint& j) -> uint16_t& { return j.id; });
     }},
    {"SKEL-7",
     [](VfpFile& f, BreakAt p) {
       SkelJoint* j = joint_at(f, p);
       return j && (j->parent = int16_t(kNoSuchJoint), true);
     }},
    {"SKEL-8", parent_cycle},
    {"SKEL-9",
     [](VfpFile& f, BreakAt p) {
       SkelJoint* j = joint_at(f, p);
       return j && (j->bind.r = {0.5f, 0.5f, 0.5f, 0.9f}, true);
     }},
    {"SKEL-10",
     [](VfpFile& f, BreakAt p) {
       SkelJoint* j = joint_at(f, p);
       return j && (j->bind.t.y = std::numeric_limits<float>::infinity(), true);
     }},
    {"SKEL-11",
     [](VfpFile& f, BreakAt p) {
       SkelJoint* j = joint_at(f, p);
       return j && (j->name += kBadUtf8, true);
     }},
    {"SKEL-5", flip_hash<&Skel::base_source_hash, 31, 1>, false, false},
    {"VSKN-6", flip_hash<&Vskn::base_source_hash, 0, 1>, false, false},
    {"VSKN-7", flip_hash<&Vskn::skeleton_hash, 17, 0x80>, false, false},
    {"VSKN-8",
     [](VfpFile& f, BreakAt) {
       Vskn* v = f.vskn();
       return v && (v->default_joint = kNoSuchJoint, true);
     },
     true, false},
    {"VSKN-9",
     [](VfpFile& f, BreakAt p) {
       Vskn* v = f.vskn();
       return v && break_order(v->bindings, at(p, v->bindings.size(), kDeepRecord),
                               [](VsknBinding& b) -> uint32_t& { return b.voxel_offset; });
     }},
    {"VSKN-10",
     [](VfpFile& f, BreakAt) {  // only the last record can leave the grid and keep the order
       Vskn* v = f.vskn();
       const Vox0* g = f.vox0();
       return v && g && !v->bindings.empty() &&
              (v->bindings.back().voxel_offset = uint32_t(g->voxels.size()), true);
     },
     true, false},
    {"VSKN-11", record_on_empty_voxel},
    {"VSKN-12",
     [](VfpFile& f, BreakAt p) {
       VsknBinding* b = record_at(f, p);
       return b && (b->joint = kNoSuchJoint, true);
     }},
    {"VSKN-13",
     [](VfpFile& f, BreakAt p) {
       VsknBinding* b = record_at(f, p);
       return b && (b->joint = f.vskn()->default_joint, true);
     }},
    {"ANIM-4", flip_hash<&Anim::base_source_hash, 5, 4>, false, false},
    {"ANIM-5", flip_hash<&Anim::skeleton_hash, 30, 2>, false, false},
    {"ANIM-6",
     [](VfpFile& f, BreakAt p) {
       Anim* a = f.anim();
       return a && break_order(a->clips, at(p, a->clips.size(), kDeepClip),
                               [](AnimClip& c) -> uint16_t& { return c.id; });
     }},
    {"ANIM-7",
     [](VfpFile& f, BreakAt p) {
       AnimClip* c = clip_at(f, p);
       return c && (c->name = kBadUtf8 + c->name, true);
     }},
    {"ANIM-8",
     [](VfpFile& f, BreakAt p) {
       AnimClip* c = clip_at(f, p);
       return c && break_order(c->tracks, at(p, c->tracks.size(), kDeepTrack),
                               [](AnimTrack& t) -> uint16_t& { return t.joint; });
     }},
    {"ANIM-9",
     [](VfpFile& f, BreakAt p) {  // the last track of a clip keeps the track order
       AnimClip* c = clip_at(f, p);
       return c && !c->tracks.empty() && (c->tracks.back().joint = kNoSuchJoint, true);
     }},
    {"ANIM-10",
     [](VfpFile& f, BreakAt p) {
       AnimTrack* t = track_at(f, p);
       return t && (t->keys.clear(), true);
     }},
    {"ANIM-11",
     [](VfpFile& f, BreakAt p) {
       AnimTrack* t = track_at(f, p);
       return t && break_order(t->keys, at(p, t->keys.size(), kDeepKey),
                               [](AnimKey& k) -> uint32_t& { return k.time_ms; });
     }},
    {"ANIM-12",
     [](VfpFile& f, BreakAt p) {  // the last key of a track can pass durationMs in order
       AnimClip* c = clip_at(f, p);
       AnimTrack* t = track_at(f, p);
       return c && t && !t->keys.empty() && c->duration_ms < UINT32_MAX &&
              (t->keys.back().time_ms = c->duration_ms + 1, true);
     }},
    {"ANIM-13",
     [](VfpFile& f, BreakAt p) {
       AnimKey* k = key_at(f, p);
       return k && (k->trs.s.x = std::numeric_limits<float>::quiet_NaN(), true);
     }},
    {"ANIM-14",
     [](VfpFile& f, BreakAt p) {
       AnimKey* k = key_at(f, p);
       return k && (k->trs.r = {0, 0, 0, 1.01f}, true);
     }},
};

}  // namespace

std::vector<std::string> vfp_breakable() {
  std::vector<std::string> ids;
  for (const VfpBreaker& b : kVfpBreakers) ids.push_back(b.rule);
  return ids;
}

std::vector<conform::FuzzMutator> vfp_breakers() {
  std::vector<conform::FuzzMutator> out;
  for (BreakAt pos : kBreakPositions)
    for (const VfpBreaker& b : kVfpBreakers) {
      if (!b.positional && pos != BreakAt::Deep) continue;
      out.push_back(breaker_mutator(b.rule, "", pos, [b, pos](std::span<const uint8_t> in) {
        auto file = decode_vfp(in, DecodeOptions{Profile::VfpRig, Limits{}});
        if (!file.ok()) return conform::FuzzBytes{};
        VfpFile f = std::move(file).value();
        if (!b.edit(f, pos)) return conform::FuzzBytes{};
        if (b.rebind) rebind(f);
        auto bytes = encode_vfp(f);
        return bytes.ok() ? std::move(bytes).value() : conform::FuzzBytes{};
      }));
    }
  return out;
}

}  // namespace voxrig::testing::detail
