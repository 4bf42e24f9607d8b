// The VFP framing breakers (voxrig/testing/rule_breakers.h): one edit per rule of
// docs/spec/vfp.md and the VFP limits of limits.md that the header, a section header or the VOX0
// payload can break, under vfp-static and vfp-rig alike.
//
// Why bytes, not the model: the model cannot hold a bad tag, a reserved bit, a short VOX0 payload
// or a wrong sectionCount (the writer derives them). So these edit the seed's Split (layout.h),
// rebind the hashes as a writer would (unless the hash is the rule), and join it, which
// recomputes every section length; edits of the framing itself (a cut, trailing bytes, a header
// field) are made on the joined bytes.
#include "rule_breakers_internal.h"
#include "voxrig/limits.h"
#include "voxrig/testing/layout.h"

namespace voxrig::testing::detail {
namespace {

// The deep seed has 5 sections: "middle" is the 3rd, an unknown optional one; "deep" the 4th.
constexpr size_t kDeepSection = 3, kDeepVoxel = 150;

void put_u16(Bytes& b, size_t at, uint16_t v) {
  b[at] = uint8_t(v);
  b[at + 1] = uint8_t(v >> 8);
}
void put_u32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

Part* section_at(Split& s, BreakAt p) {
  return s.parts.empty() ? nullptr : &s.parts[break_index(p, s.parts.size(), kDeepSection)];
}
Part* vox0(Split& s) {
  for (Part& part : s.parts)
    if (part.is("VOX0")) return &part;
  return nullptr;
}
// The VOX0 payload when its 12-byte fixed header is whole.
Bytes* vox0_payload(Split& s) {
  Part* v = vox0(s);
  return v && v->payload.size() >= 12 ? &v->payload : nullptr;
}

// Section-header fields (Part::head: chunkId i32, codec u8, flags u8, reserved u16).
bool head_byte(Split& s, BreakAt p, size_t at, uint8_t value) {
  Part* part = section_at(s, p);
  return part && part->head.size() == 8 && (part->head[at] = value, true);
}

using SplitEdit = bool (*)(Split&, BreakAt);
using BytesEdit = bool (*)(Bytes&, BreakAt);

struct FramingBreaker {
  const char* rule;
  SplitEdit edit = nullptr;    // on the parts, before rebind and join
  BytesEdit after = nullptr;   // on the joined bytes
  bool positional = false;     // true: at every section / voxel position; false: once
  bool rebind = true;          // false: the edit is the source hash itself
};

// The joined bytes' frame at a position, or nullptr.
const Frame* frame_at(const std::optional<Framing>& f, BreakAt p) {
  return f && !f->frames.empty() ? &f->frames[break_index(p, f->frames.size(), kDeepSection)]
                                 : nullptr;
}

const FramingBreaker kFramingBreakers[] = {
    {"VFP-HDR-1", nullptr, [](Bytes& b, BreakAt) { return b.resize(20), true; }},
    {"D7", nullptr, [](Bytes& b, BreakAt) { return b[0] = 'W', true; }},  // no VFP magic
    {"VFP-HDR-3", nullptr, [](Bytes& b, BreakAt) { return b[4] = 2, true; }},
    {"VFP-HDR-5", nullptr, [](Bytes& b, BreakAt) { return put_u16(b, 6, 1), true; }},
    {"VFP-HDR-6", nullptr, [](Bytes& b, BreakAt) { return b.push_back(0), true; }},
    {"VFP-HDR-7", nullptr, [](Bytes& b, BreakAt) { return b[12 + 31] ^= 1, true; }, false,
     false},
    {"LIM-1", nullptr,
     [](Bytes& b, BreakAt) { return put_u32(b, 8, uint32_t(Limits{}.vfp_sections + 1)), true; }},
    {"VFP-SEC-1", nullptr,
     [](Bytes& b, BreakAt p) {  // the file ends inside the section header
       const auto framing = framing_of(b);
       const Frame* f = frame_at(framing, p);
       return f && (b.resize(f->offset + 8), true);
     },
     true},
    {"VFP-SEC-2", [](Split& s, BreakAt p) {
       Part* part = section_at(s, p);
       return part && (part->tag[1] = 'x', true);  // lower case is outside [A-Z0-9]
     },
     nullptr, true},
    {"VFP-SEC-3",
     [](Split& s, BreakAt p) { return head_byte(s, p, 0, 0xFE) && head_byte(s, p, 3, 0xFF); },
     nullptr, true},  // chunkId -2
    {"VFP-SEC-4", [](Split& s, BreakAt p) {
       Part* part = section_at(s, p);
       return part && part->head.size() == 8 && (part->head[5] |= 0x02, true);
     },
     nullptr, true},
    {"VFP-SEC-5", [](Split& s, BreakAt p) { return head_byte(s, p, 7, 1); }, nullptr, true},
    {"VFP-SEC-6", nullptr,
     [](Bytes& b, BreakAt p) {  // the file ends inside the section's payload
       const auto framing = framing_of(b);
       const Frame* f = frame_at(framing, p);
       return f && f->declared > 1 && (b.resize(f->payload_start + f->declared / 2), true);
     },
     true},
    {"VFP-SEC-7", [](Split& s, BreakAt) {  // the unknown optional section becomes REQUIRED
       for (Part& part : s.parts)
         if (part.is("XTRA") && part.head.size() == 8) return part.head[5] |= 1, true;
       return false;
     }},
    {"VFP-SEC-9", [](Split& s, BreakAt) {  // a REQUIRED cache with codec 1
       if (s.parts.empty()) return false;
       Part cache{{'M', 'S', 'H', '0'}, {0xFF, 0xFF, 0xFF, 0xFF, 1, 1, 0, 0}, {1, 2, 3}};
       s.parts.insert(s.parts.begin() + 1, cache);
       return true;
     }},
    {"VFP-VOX0-1", [](Split& s, BreakAt) {  // no VOX0: the hashes then bind nothing
       Part* v = vox0(s);
       return v && (std::erase_if(s.parts, [](const Part& p) { return p.is("VOX0"); }), true);
     }, nullptr, false, false},
    {"VFP-VOX0-2", [](Split& s, BreakAt) {
       Part* v = vox0(s);
       return v && (s.parts.push_back(*v), true);
     }},
    {"VFP-VOX0-3", [](Split& s, BreakAt) {
       Part* v = vox0(s);
       return v && v->head.size() == 8 && (v->head[0] = 0, v->head[1] = v->head[2] = v->head[3] = 0,
                                           true);
     }},
    {"VFP-VOX0-4", [](Split& s, BreakAt) {
       Part* v = vox0(s);
       return v && v->head.size() == 8 && (v->head[4] = 1, true);
     }},
    {"VFP-VOX0-5", [](Split& s, BreakAt) {
       Part* v = vox0(s);
       return v && v->head.size() == 8 && (v->head[5] = 0, true);
     }},
    {"VOX0-1", [](Split& s, BreakAt) {
       Bytes* v = vox0_payload(s);
       return v && (v->resize(7), true);  // ends inside sizeY
     }},
    {"VOX0-2", [](Split& s, BreakAt) {
       Bytes* v = vox0_payload(s);
       return v && ((*v)[0] = 2, true);
     }},
    {"VOX0-3", [](Split& s, BreakAt) {
       Bytes* v = vox0_payload(s);
       return v && ((*v)[1] = 1, true);
     }},
    {"VOX0-4", [](Split& s, BreakAt) {
       Bytes* v = vox0_payload(s);
       return v && (put_u16(*v, 2, 0), true);
     }},
    {"VOX0-5", [](Split& s, BreakAt) {
       Bytes* v = vox0_payload(s);
       return v && (put_u16(*v, 6, 0), true);
     }},
    {"LIM-2", [](Split& s, BreakAt) {  // 16384 x 16384 x 2 = 2^29 voxels, twice the limit
       Bytes* v = vox0_payload(s);
       return v && (put_u16(*v, 4, 16384), put_u16(*v, 6, 16384), put_u16(*v, 8, 2), true);
     }},
    {"VOX0-6", [](Split& s, BreakAt) {
       Bytes* v = vox0_payload(s);
       return v && (v->push_back(0), true);
     }},
    {"VOX0-7", [](Split& s, BreakAt p) {  // a voxel one past the palette, at a chosen cell
       Bytes* v = vox0_payload(s);
       if (!v) return false;
       const size_t pc = size_t((*v)[2]) | size_t((*v)[3]) << 8;
       const size_t first = 12 + 4 * pc;
       if (pc == 0 || pc > 255 || v->size() <= first) return false;
       (*v)[first + break_index(p, v->size() - first, kDeepVoxel)] = uint8_t(pc);
       return true;
     },
     nullptr, true},
};

}  // namespace

std::vector<std::string> vfp_framing_breakable() {
  std::vector<std::string> ids;
  for (const FramingBreaker& b : kFramingBreakers) ids.push_back(b.rule);
  return ids;
}

std::vector<conform::FuzzMutator> vfp_framing_breakers(Profile profile) {
  const bool rig = profile == Profile::VfpRig;
  std::vector<conform::FuzzMutator> out;
  for (BreakAt pos : kBreakPositions)
    for (const FramingBreaker& b : kFramingBreakers) {
      if (!b.positional && pos != BreakAt::Deep) continue;
      out.push_back(breaker_mutator(b.rule, "", pos, [b, pos, rig](std::span<const uint8_t> in) {
        auto s = split(in);
        if (!s || s->container != Container::Vfp) return conform::FuzzBytes{};
        if (b.edit && !b.edit(*s, pos)) return conform::FuzzBytes{};
        if (b.rebind) rebind_split(*s, rig);
        Bytes bytes = join(*s);
        if (b.after && !b.after(bytes, pos)) return conform::FuzzBytes{};
        return bytes;
      }));
    }
  return out;
}

}  // namespace voxrig::testing::detail
