// The RKCH breakers (voxrig/testing/rule_breakers.h): one model edit per rule of
// docs/spec/rkch.md that a bone, attachment or clip value can break, at a chosen element.
#include "rule_breakers_internal.h"
#include "voxrig/rkc.h"

namespace voxrig::testing::detail {
namespace {

constexpr size_t kDeepBone = 3, kDeepClip = 5;

Bone* bone_at(Character& c, BreakAt pos) {
  return c.bones.empty() ? nullptr : &c.bones[break_index(pos, c.bones.size(), kDeepBone)];
}

// The first attachment of `kind` on the chosen bone, or nullptr.
Attachment* attachment_at(Character& c, BreakAt pos, AttachmentKind kind) {
  Bone* b = bone_at(c, pos);
  if (!b) return nullptr;
  for (Attachment& a : b->attachments)
    if (a.kind == kind) return &a;
  return nullptr;
}

SkeletalClip* skeletal_at(Character& c, BreakAt pos) {
  if (c.clips.empty()) return nullptr;
  return std::get_if<SkeletalClip>(&c.clips[break_index(pos, c.clips.size(), kDeepClip)].data);
}

using Edit = bool (*)(Character&, BreakAt);

struct RkcBreaker {
  const char* rule;
  const char* variant;  // "" or what tells two breakers of one rule apart
  Edit edit;
};

const RkcBreaker kRkcBreakers[] = {
    {"RKC-BONS-3", "static",
     [](Character& c, BreakAt p) {
       Attachment* a = attachment_at(c, p, AttachmentKind::Static);
       return a && (a->index = uint32_t(c.meshes.size()), true);
     }},
    {"RKC-BONS-3", "clip",
     [](Character& c, BreakAt p) {
       Attachment* a = attachment_at(c, p, AttachmentKind::Clip);
       return a && (a->index = uint32_t(c.voxel_clips.size()) + 7, true);
     }},
    {"RKC-BONS-4", "",
     [](Character& c, BreakAt p) {
       Bone* b = bone_at(c, p);
       return b && (b->hinge.parent = int32_t(c.bones.size()), true);
     }},
    {"RKC-BONS-5", "",
     [](Character& c, BreakAt p) {  // a child of the bone closes a cycle; none: itself
       if (c.bones.empty()) return false;
       const size_t k = break_index(p, c.bones.size(), kDeepBone);
       int32_t parent = int32_t(k);
       for (size_t i = 0; i < c.bones.size(); ++i)
         if (c.bones[i].hinge.parent == int32_t(k)) parent = int32_t(i);
       c.bones[k].hinge.parent = parent;
       return true;
     }},
    {"RKC-CLPS-1", "",
     [](Character& c, BreakAt p) {  // numhin one past the bone count, frames to match
       SkeletalClip* s = skeletal_at(c, p);
       if (!s) return false;
       s->numhin = uint32_t(c.bones.size()) + 1;
       s->frames.assign(size_t{s->frame_count} * s->numhin, BoneXform{});
       return true;
     }},
    {"DIFF-2", "",
     [](Character& c, BreakAt p) {
       Bone* b = bone_at(c, p);
       return b && (b->name += "\xED\xA0\x80", true);  // a UTF-16 surrogate: never valid UTF-8
     }},
};

}  // namespace

std::vector<std::string> rkc_breakable() {
  std::vector<std::string> ids;
  for (const RkcBreaker& b : kRkcBreakers)
    if (ids.empty() || ids.back() != b.rule) ids.push_back(b.rule);
  return ids;
}

std::vector<conform::FuzzMutator> rkc_breakers() {
  std::vector<conform::FuzzMutator> out;
  for (BreakAt pos : kBreakPositions)
    for (const RkcBreaker& b : kRkcBreakers) {
      out.push_back(breaker_mutator(b.rule, b.variant, pos, [b, pos](std::span<const uint8_t> in) {
        auto ch = decode_rkc(in, DecodeOptions{Profile::RkcStrict, Limits{}});
        if (!ch.ok()) return conform::FuzzBytes{};
        Character c = std::move(ch).value();
        if (!b.edit(c, pos)) return conform::FuzzBytes{};
        auto bytes = encode_rkc(c);
        return bytes.ok() ? std::move(bytes).value() : conform::FuzzBytes{};
      }));
    }
  return out;
}

}  // namespace voxrig::testing::detail
