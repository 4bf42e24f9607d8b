// The count-limit breakers (voxrig/testing/rule_breakers.h) that the format files leave to
// docs/spec/limits.md: a SKEL jointCount, an ANIM keyCount, an RKCH attach_count and a CLPS
// numfrm one over (or, for a product, just over) the default limit, at a chosen element.
//
// Why the layout walker: these counts sit inside payloads the writers derive from the model, so
// they are byte edits, and layout_of names every one of them wherever it is (the 33rd keyCount,
// the 4th bone's attach_count). A limit is checked when its count is read, before any table is
// sized, so nothing after the edit needs repair.
#include "rule_breakers_internal.h"
#include "voxrig/limits.h"
#include "voxrig/testing/layout.h"

namespace voxrig::testing::detail {
namespace {

struct LimitBreaker {
  const char* rule;
  bool vfp;             // true: vfp-rig; false: rkc-*
  const char* suffix;   // the field: a layout path ending with this
  size_t width;         // bytes, little-endian
  uint64_t value;
  size_t deep;          // the deep position among the matching fields
};

const LimitBreaker kLimitBreakers[] = {
    {"LIM-3", true, "/jointCount", 2, Limits{}.skel_joints + 1, 0},
    {"LIM-5", true, "/keyCount", 4, Limits{}.anim_keys_per_track + 1, 32},  // clip 6, track 3
    {"LIM-7", false, "/attach_count", 4, Limits{}.rkc_attachments_per_bone + 1, 3},
    // 2^21 + 1 frames of the seed's 8 bones: just over 2^24 frame cells.
    {"LIM-8", false, "/numfrm", 4, (Limits{}.rkc_frame_cells >> 3) + 1, 5},
};

// The offsets of the fields whose path ends with `suffix`, in file order, each once (a field
// has a path per alias prefix).
std::vector<uint64_t> offsets_of(const Layout& layout, std::string_view suffix) {
  std::vector<uint64_t> out;
  for (const Field& f : layout.fields)
    if (f.path.ends_with(suffix) && (out.empty() || out.back() < f.offset)) out.push_back(f.offset);
  return out;
}

bool applies(const LimitBreaker& b, Profile p) {
  return b.vfp ? p == Profile::VfpRig : p == Profile::RkcStrict || p == Profile::RkcCompat;
}

}  // namespace

std::vector<std::string> limit_breakable(Profile profile) {
  std::vector<std::string> ids;
  for (const LimitBreaker& b : kLimitBreakers)
    if (applies(b, profile)) ids.push_back(b.rule);
  return ids;
}

std::vector<conform::FuzzMutator> limit_breakers(Profile profile) {
  std::vector<conform::FuzzMutator> out;
  for (BreakAt pos : kBreakPositions)
    for (const LimitBreaker& b : kLimitBreakers) {
      if (!applies(b, profile) || (b.deep == 0 && pos != BreakAt::Deep)) continue;
      out.push_back(breaker_mutator(b.rule, "", pos, [b, pos](std::span<const uint8_t> in) {
        const std::vector<uint64_t> at = offsets_of(layout_of(in), b.suffix);
        if (at.empty()) return Bytes{};
        const uint64_t o = at[break_index(pos, at.size(), b.deep)];
        if (o + b.width > in.size()) return Bytes{};
        Bytes bytes(in.begin(), in.end());
        for (size_t i = 0; i < b.width; ++i) bytes[o + i] = uint8_t(b.value >> (8 * i));
        return bytes;
      }));
    }
  return out;
}

}  // namespace voxrig::testing::detail
