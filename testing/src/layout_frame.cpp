// Lenient framing of VFP / RKCH / RVC containers (sections and chunks), editable splits that
// re-join with every length recomputed, and VFP hash repair on bytes that may be broken elsewhere
// (voxrig/testing/layout.h). Reads with the codec's ByteReader, writes with its ByteWriter.
#include <algorithm>
#include <cstring>

#include "layout_walker.h"
#include "voxrig/byte_writer.h"
#include "voxrig/sha256.h"

namespace voxrig::testing {

bool Frame::is(std::string_view t) const {
  return t.size() == 4 && std::memcmp(tag.data(), t.data(), 4) == 0;
}
bool Part::is(std::string_view t) const {
  return t.size() == 4 && std::memcmp(tag.data(), t.data(), 4) == 0;
}

namespace detail {

std::optional<Framing> framing_as(std::span<const uint8_t> bytes, Container c) {
  Framing f;
  f.container = c;
  // Header and frame-header sizes (docs/spec/vfp.md; docs/spec/rkch.md#decoding-order, docs/spec/rvc.md#file-framing); the bytes
  // between tag and length are the frame's `head`.
  ErrorCode truncated = ErrorCode::VfpSectionTruncated;
  uint64_t head = 8;
  if (c == Container::Vfp) {
    f.header_size = 44;
  } else {
    f.header_size = wire::rkch::kHeaderSize;  // RVC's magic + u16 version too
    truncated = c == Container::Rkch ? ErrorCode::RkcTruncated : ErrorCode::RvcTruncated;
    head = c == Container::Rvc && bytes.size() >= 6 && load_u16(bytes.data() + 4) != 1 ? 1 : 0;
  }
  if (bytes.size() < f.header_size) return std::nullopt;
  f.frame_header_size = 8 + head;
  ByteReader r(bytes.subspan(f.header_size), f.header_size, truncated);
  while (r.remaining() >= f.frame_header_size) {
    Frame fr;
    fr.offset = r.offset();
    std::memcpy(fr.tag.data(), bytes.data() + fr.offset, 4);
    (void)r.skip(4 + head, {});
    fr.length_offset = r.offset();
    r.try_u32(fr.declared);
    fr.payload_start = r.offset();
    std::span<const uint8_t> payload;
    r.try_bytes(std::min<uint64_t>(fr.declared, r.remaining()), payload);
    fr.payload_end = r.offset();
    f.frames.push_back(fr);
  }
  f.trailing_start = r.offset();
  return f;
}

}  // namespace detail

std::optional<Framing> framing_of(std::span<const uint8_t> bytes) {
  auto magic = [&](const char* m) {
    return bytes.size() >= 4 && std::memcmp(bytes.data(), m, 4) == 0;
  };
  if (magic("VFP\0")) return detail::framing_as(bytes, Container::Vfp);
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), wire::rkch::kMagic.data(), 4) == 0)
    return detail::framing_as(bytes, Container::Rkch);
  if (magic("RVCL")) return detail::framing_as(bytes, Container::Rvc);
  return std::nullopt;
}

std::optional<Split> split(std::span<const uint8_t> bytes) {
  auto f = framing_of(bytes);
  if (!f) return std::nullopt;
  auto range = [&](uint64_t from, uint64_t to) {
    return Bytes(bytes.begin() + int64_t(from), bytes.begin() + int64_t(to));
  };
  Split s;
  s.container = f->container;
  s.header = range(0, f->header_size);
  for (const Frame& fr : f->frames)
    s.parts.push_back(
        {fr.tag, range(fr.offset + 4, fr.length_offset), range(fr.payload_start, fr.payload_end)});
  s.trailing = range(f->trailing_start, bytes.size());
  return s;
}

Bytes join(const Split& s, std::optional<uint32_t> section_count) {
  ByteWriter w;
  if (s.container == Container::Vfp && s.header.size() >= 12) {
    const std::span<const uint8_t> h(s.header);
    w.bytes(h.first(8));
    w.u32(section_count.value_or(uint32_t(s.parts.size())));
    w.bytes(h.subspan(12));
  } else {
    w.bytes(s.header);
  }
  for (const Part& p : s.parts) {
    w.bytes(p.tag);
    w.bytes(p.head);
    w.u32(uint32_t(p.payload.size()));
    w.bytes(p.payload);
  }
  w.bytes(s.trailing);
  return w.take();
}

// ---- VFP hash repair ----------------------------------------------------------------------------

namespace {

// Where the rig sections keep their hashes (docs/spec/rig.md#rig-sections-in-the-container; the same offsets the
// SKEL / VSKN / ANIM walks of layout_vfp.cpp reach field by field). 0 = no such field.
struct HashSlots {
  const char* tag;
  uint64_t base_source, skeleton;
};
constexpr HashSlots kHashSlots[] = {
    {"SKEL", 4, 0},
    {"VSKN", wire::vskn::kBaseSourceHashAt, wire::vskn::kSkeletonHashAt},
    {"ANIM", 4, 36}};

struct PartRef {
  std::array<uint8_t, 4> tag;
  std::span<uint8_t> payload;
  uint64_t offset;  // of payload[0] in the file (for the Field records)
  bool is(const char* t) const { return std::memcmp(tag.data(), t, 4) == 0; }
};

// The rule of rebind_bytes / rebind_split over mutable views. False (nothing written) without a
// VOX0 part.
bool rebind_parts(std::span<uint8_t> source_hash, std::vector<PartRef>& parts, bool rig,
                  std::vector<Field>* written) {
  auto first = [&](const char* tag) -> const PartRef* {
    for (const PartRef& p : parts)
      if (p.is(tag)) return &p;
    return nullptr;
  };
  const PartRef* vox0 = first("VOX0");
  if (!vox0) return false;
  const Sha256 src = sha256(vox0->payload);
  std::copy(src.begin(), src.end(), source_hash.begin());
  if (written) written->push_back({"header/sourceHash", 12, 32});
  if (!rig) return true;
  auto bind = [&](const Sha256& h, uint64_t HashSlots::*slot, const char* name) {
    for (size_t i = 0; i < parts.size(); ++i)
      for (const HashSlots& s : kHashSlots) {
        const uint64_t at = s.*slot;
        if (!parts[i].is(s.tag) || at == 0 || parts[i].payload.size() < at + 32) continue;
        std::copy(h.begin(), h.end(), parts[i].payload.begin() + int64_t(at));
        if (written)
          written->push_back(
              {"section[" + std::to_string(i) + "]/" + name, parts[i].offset + at, 32});
      }
  };
  bind(src, &HashSlots::base_source, "baseSourceHash");
  if (const PartRef* skel = first("SKEL"))
    bind(sha256(skel->payload), &HashSlots::skeleton, "skeletonHash");
  return true;
}

}  // namespace

std::optional<std::vector<Field>> rebind_bytes(Bytes& bytes, bool rig, std::string& why) {
  const auto f = framing_of(bytes);
  if (!f || f->container != Container::Vfp) {
    why = "no field named 'header/sourceHash' in this file";
    return std::nullopt;
  }
  std::vector<PartRef> parts;
  for (const Frame& fr : f->frames)
    parts.push_back(
        {fr.tag,
         std::span<uint8_t>(bytes).subspan(fr.payload_start, fr.payload_end - fr.payload_start),
         fr.payload_start});
  std::vector<Field> written;
  if (!rebind_parts(std::span<uint8_t>(bytes).subspan(12, 32), parts, rig, &written)) {
    why = "no field named 'section[VOX0]/payload' in this file";
    return std::nullopt;
  }
  return written;
}

void rebind_split(Split& s, bool rig) {
  if (s.container != Container::Vfp || s.header.size() != 44) return;
  std::vector<PartRef> parts;
  for (Part& p : s.parts) parts.push_back({p.tag, p.payload, 0});
  rebind_parts(std::span<uint8_t>(s.header).subspan(12, 32), parts, rig, nullptr);
}

}  // namespace voxrig::testing
