// The VFP 1.3 container: file header, section framing, section-level rules, the rig steps, and
// the writer / canonicalize / rebind (docs/spec/vfp.md#FP-7, D1, D2, D11).
//
// File header, 44 B:
// | off | size | type  | field                                  | check                        |
// |-----|------|-------|----------------------------------------|------------------------------|
// | 0   | 4    | bytes | magic 56 46 50 00 ("VFP\0")            | vfp.header.bad_magic         |
// | 4   | 1    | u8    | versionMajor = 1                       | vfp.header.version_major     |
// | 5   | 1    | u8    | versionMinor, any (kept)               |                              |
// | 6   | 2    | u16   | headerFlags = 0                        | vfp.header.flags             |
// | 8   | 4    | u32   | sectionCount                           | vfp.limit.sections           |
// | 12  | 32   | bytes | sourceHash = SHA-256(VOX0 payload)     | vfp.source_hash (step 7)     |
// Section header, 16 B, then `length` payload bytes; sectionCount times, back to back:
// | +0  | 4    | bytes | tag, A-Z0-9                            | vfp.section.bad_tag          |
// | +4  | 4    | i32   | chunkId >= -1                          | vfp.section.bad_chunk_id     |
// | +8  | 1    | u8    | codec (0 = RAW8)                       |                              |
// | +9  | 1    | u8    | flags: bit 0 REQUIRED, bits 1-7 = 0    | vfp.section.reserved_flags   |
// | +10 | 2    | u16   | reserved = 0                           | vfp.section.reserved         |
// | +12 | 4    | u32   | length                                 | vfp.section.payload_truncated |
// A short header read is vfp.header.truncated; fewer than 16 bytes where a section header should
// start is vfp.section.truncated. Steps after framing (FP-7, D11) are in decode_vfp.
#include <algorithm>
#include <cstring>

#include "vfp/vfp_internal.h"
#include "voxrig/byte_writer.h"
#include "voxrig/vfp.h"

namespace voxrig {

namespace {

using detail::num;

constexpr uint64_t kFileHeaderBytes = 44;
constexpr uint64_t kSectionHeaderBytes = 16;
constexpr uint8_t kMagic[4] = {'V', 'F', 'P', 0};

// Tag classes in canonical order (D1).
enum class TagClass : uint8_t { Vox0, Cache, Skel, Vskn, Anim, Other };

TagClass classify(const SectionTag& tag) {
  static constexpr SectionTag kCaches[] = {make_tag("MSH0"), make_tag("PMSH"), make_tag("RND0"),
                                           make_tag("PRVW"), make_tag("ANM0")};
  if (tag == detail::kTagVox0) return TagClass::Vox0;
  if (tag == detail::kTagSkel) return TagClass::Skel;
  if (tag == detail::kTagVskn) return TagClass::Vskn;
  if (tag == detail::kTagAnim) return TagClass::Anim;
  for (const SectionTag& c : kCaches)
    if (tag == c) return TagClass::Cache;
  return TagClass::Other;
}

bool is_rig(TagClass c) {
  return c == TagClass::Skel || c == TagClass::Vskn || c == TagClass::Anim;
}

bool is_tag_char(uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// A framed section: its header fields and where its bytes are.
struct Frame {
  SectionHeader header;
  TagClass cls = TagClass::Other;
  uint64_t at = 0;  // file offset of the 16-byte header
  std::span<const uint8_t> payload;
};

Path section_path(size_t i) { return Path().child("section", static_cast<int64_t>(i)); }

Error section_error(ErrorCode code, const Frame& f, size_t i, uint64_t field, std::string detail) {
  return error_at(code, f.at + field, section_path(i), std::move(detail));
}

// The header rule VOX0 and the rig sections share: chunkId -1 (else `bad_chunk_id` at +4) and
// codec 0 (else `bad_codec` at +8); `label` opens the detail ("VOX0", "rig section").
Status check_plain_header(const Frame& f, size_t i, const char* label, ErrorCode bad_chunk_id,
                          ErrorCode bad_codec) {
  if (f.header.chunk_id != -1)
    return section_error(bad_chunk_id, f, i, 4,
                         std::string(label) + " chunkId " + std::to_string(f.header.chunk_id));
  if (f.header.codec != 0)
    return section_error(bad_codec, f, i, 8, std::string(label) + " codec " + num(f.header.codec));
  return {};
}

// Step 1-3 of FP-7: header, framing of each section, trailing bytes.
Status frame_file(std::span<const uint8_t> bytes, const Limits& limits, uint8_t& version_minor,
                  Sha256& source_hash, std::vector<Frame>& frames) {
  ByteReader r(bytes, 0, ErrorCode::VfpHeaderTruncated);
  const Path hp("header");
  VOXRIG_ASSIGN_OR_RETURN(const auto magic, r.bytes(4, hp));
  if (std::memcmp(magic.data(), kMagic, 4) != 0)
    return error_at(ErrorCode::VfpBadMagic, 0, hp, "magic is not \"VFP\\0\"");
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t major, r.u8(hp));
  if (major != 1) return error_at(ErrorCode::VfpVersionMajor, 4, hp, "versionMajor " + num(major));
  VOXRIG_ASSIGN_OR_RETURN(version_minor, r.u8(hp));
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t flags, r.u16(hp));
  if (flags != 0) return error_at(ErrorCode::VfpHeaderFlags, 6, hp, "headerFlags " + num(flags));
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count, r.u32(hp));
  VOXRIG_TRY(
      detail::check_count(r, count, 0, limits.vfp_sections, ErrorCode::VfpLimitSections, hp, 8));
  VOXRIG_ASSIGN_OR_RETURN(const auto hash, r.bytes(32, hp));
  std::memcpy(source_hash.data(), hash.data(), 32);

  // No table-wide bytes check: each section's own header must fail first (FP-7).
  frames.reserve(std::min<uint64_t>(count, r.remaining() / kSectionHeaderBytes));
  for (uint32_t i = 0; i < count; ++i) {
    Frame f;
    f.at = r.offset();
    std::span<const uint8_t> h;
    if (!r.try_bytes(kSectionHeaderBytes, h))
      return error_at(ErrorCode::VfpSectionTruncated, f.at, section_path(i),
                      num(r.remaining()) + " byte(s) left for a 16-byte section header");
    std::memcpy(f.header.tag.data(), h.data(), 4);
    if (!is_tag_char(h[0]) || !is_tag_char(h[1]) || !is_tag_char(h[2]) || !is_tag_char(h[3]))
      return section_error(ErrorCode::VfpSectionBadTag, f, i, 0, "tag is not 4 x [A-Z0-9]");
    f.header.chunk_id = static_cast<int32_t>(load_u32(h.data() + 4));
    if (f.header.chunk_id < -1)
      return section_error(ErrorCode::VfpSectionBadChunkId, f, i, 4,
                           "chunkId " + std::to_string(f.header.chunk_id));
    f.header.codec = h[8];
    f.header.flags = h[9];
    if (f.header.flags & ~kSectionRequired)
      return section_error(ErrorCode::VfpSectionReservedFlags, f, i, 9,
                           "flags " + num(f.header.flags));
    if (load_u16(h.data() + 10) != 0)
      return section_error(ErrorCode::VfpSectionReserved, f, i, 10, "reserved u16 is not 0");
    const uint32_t length = load_u32(h.data() + 12);
    if (!r.try_bytes(length, f.payload))
      return section_error(ErrorCode::VfpSectionPayloadTruncated, f, i, kSectionHeaderBytes,
                           "length " + num(length) + ", " + num(r.remaining()) + " byte(s) left");
    f.cls = classify(f.header.tag);
    frames.push_back(f);
  }
  if (!r.at_end())
    return r.fail(ErrorCode::VfpTrailingBytes, hp,
                  num(r.remaining()) + " byte(s) after the last section");
  return {};
}

// Step 4: exactly one VOX0, global, RAW8, REQUIRED. Returns its index.
Result<size_t> find_vox0(const std::vector<Frame>& frames) {
  size_t found = frames.size();
  for (size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].cls != TagClass::Vox0) continue;
    if (found != frames.size())
      return section_error(ErrorCode::VfpVox0Duplicate, frames[i], i, 0,
                           "second VOX0 (first is section " + num(found) + ")");
    found = i;
  }
  if (found == frames.size())
    return error_at(ErrorCode::VfpVox0Missing, 8, Path("header"), "no VOX0 section");
  const Frame& v = frames[found];
  VOXRIG_TRY(check_plain_header(v, found, "VOX0", ErrorCode::VfpVox0BadChunkId,
                                ErrorCode::VfpVox0BadCodec));
  if (!(v.header.flags & kSectionRequired))
    return section_error(ErrorCode::VfpVox0NotRequired, v, found, 9, "VOX0 without REQUIRED");
  return found;
}

// Step 5: REQUIRED sections the reader cannot read. Under vfp-rig, rig sections are left to the
// rig step (D11); under vfp-static they are unknown sections like any other.
Status check_required(const std::vector<Frame>& frames, bool rig) {
  for (size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    if (f.cls == TagClass::Vox0 || !(f.header.flags & kSectionRequired)) continue;
    if (rig && is_rig(f.cls)) continue;
    if (f.cls != TagClass::Cache)
      return section_error(
          ErrorCode::VfpUnknownRequired, f, i, 0,
          "unknown section " + std::string(f.header.tag.data(), 4) + " is REQUIRED");
    if (f.header.codec != 0)
      return section_error(ErrorCode::VfpUnsupportedCodec, f, i, 8,
                           "REQUIRED section with codec " + num(f.header.codec));
  }
  return {};
}

// Steps 8a-8c (vfp-rig): duplicates, rig section headers, completeness. Returns the indexes of
// SKEL, VSKN, ANIM (frames.size() when absent).
Status check_rig_frames(const std::vector<Frame>& frames, size_t idx[3]) {
  const size_t none = frames.size();
  idx[0] = idx[1] = idx[2] = none;
  size_t first_rig = none;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (!is_rig(frames[i].cls)) continue;
    size_t& slot = idx[static_cast<int>(frames[i].cls) - static_cast<int>(TagClass::Skel)];
    if (slot != none)
      return section_error(ErrorCode::RigDuplicate, frames[i], i, 0,
                           "second " + std::string(frames[i].header.tag.data(), 4));
    slot = i;
    if (first_rig == none) first_rig = i;
  }
  for (size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    if (!is_rig(f.cls)) continue;
    VOXRIG_TRY(check_plain_header(f, i, "rig section", ErrorCode::RigSectionHeader,
                                  ErrorCode::RigSectionHeader));
    if (f.header.flags != 0)
      return section_error(ErrorCode::RigSectionHeader, f, i, 9,
                           "rig section flags " + num(f.header.flags));
  }
  if (first_rig != none && (idx[0] == none || idx[1] == none))
    return section_error(ErrorCode::RigIncomplete, frames[first_rig], first_rig, 0,
                         idx[0] == none ? "rig sections without SKEL" : "SKEL without VSKN");
  return {};
}

// Representability of a hand-built VOX0 (the writer cannot fix dimensions that disagree).
Status check_vox0_writable(const Vox0& v) {
  const Path root("VOX0");
  if (v.palette.size() > 0xFFFF)
    return detail::write_too_large(v.palette.size(), root, "palette entries do not fit a u16");
  const uint64_t cells = uint64_t{v.size_x} * v.size_y * v.size_z;
  if (v.voxels.size() != cells)
    return error_at(ErrorCode::VfpWriteInconsistent, 0, root,
                    num(v.voxels.size()) + " voxels for a grid of " + num(cells));
  if (12 + 4 * uint64_t{v.palette.size()} + cells > 0xFFFFFFFFu)
    return error_at(ErrorCode::VfpWriteTooLarge, 0, root,
                    "VOX0 payload does not fit a section (4 GiB)");
  return {};
}

}  // namespace

static Result<VfpFile> decode_vfp_unguarded(std::span<const uint8_t> bytes,
                                            const DecodeOptions& options) {
  const bool rig = options.profile != Profile::VfpStatic;
  VfpFile out;
  Sha256 source_hash{};
  std::vector<Frame> frames;
  VOXRIG_TRY(frame_file(bytes, options.limits, out.version_minor, source_hash, frames));
  VOXRIG_ASSIGN_OR_RETURN(const size_t vox0_index, find_vox0(frames));
  VOXRIG_TRY(check_required(frames, rig));

  const Frame& vf = frames[vox0_index];
  VOXRIG_ASSIGN_OR_RETURN(Vox0 vox0,
                          decode_vox0(vf.payload, vf.at + kSectionHeaderBytes, options.limits));
  if (sha256(vf.payload) != source_hash)
    return error_at(ErrorCode::VfpSourceHash, 12, Path("header"),
                    "sourceHash differs from SHA-256 of the VOX0 payload");

  out.sections.resize(frames.size());
  for (size_t i = 0; i < frames.size(); ++i) out.sections[i].header = frames[i].header;
  out.sections[vox0_index].body = std::move(vox0);

  if (rig) {
    size_t idx[3];
    VOXRIG_TRY(check_rig_frames(frames, idx));
    if (idx[0] != frames.size()) {
      RigContext ctx;
      ctx.source_hash = source_hash;
      ctx.vox0 = std::get_if<Vox0>(&out.sections[vox0_index].body);
      const Frame& sf = frames[idx[0]];
      VOXRIG_ASSIGN_OR_RETURN(
          Skel skel, decode_skel(sf.payload, sf.at + kSectionHeaderBytes, ctx, options.limits));
      out.sections[idx[0]].body = std::move(skel);
      ctx.skel = std::get_if<Skel>(&out.sections[idx[0]].body);
      ctx.skeleton_hash = sha256(sf.payload);
      const Frame& kf = frames[idx[1]];
      VOXRIG_ASSIGN_OR_RETURN(
          Vskn vskn, decode_vskn(kf.payload, kf.at + kSectionHeaderBytes, ctx, options.limits));
      out.sections[idx[1]].body = std::move(vskn);
      if (idx[2] != frames.size()) {
        const Frame& af = frames[idx[2]];
        VOXRIG_ASSIGN_OR_RETURN(
            Anim anim, decode_anim(af.payload, af.at + kSectionHeaderBytes, ctx, options.limits));
        out.sections[idx[2]].body = std::move(anim);
      }
    }
  }
  // Everything not decoded stays byte-for-byte (caches, unknown sections, static rig sections).
  for (size_t i = 0; i < frames.size(); ++i) {
    Section& s = out.sections[i];
    if (auto* raw = std::get_if<RawPayload>(&s.body))
      raw->bytes.assign(frames[i].payload.begin(), frames[i].payload.end());
  }
  return out;
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<VfpFile> decode_vfp(std::span<const uint8_t> bytes, const DecodeOptions& options) {
  return guard_out_of_memory([&] { return decode_vfp_unguarded(bytes, options); });
}

namespace {

// The encoder: the file as consecutive pieces handed to put(std::span<const uint8_t>) — the header,
// then per section its 16-byte header and its payload. A decoded VOX0's payload goes out as its
// header, palette and voxels straight from the model, and the sourceHash is hashed from the same
// pieces, so the grid is never copied; other payloads are encoded one section at a time. An
// error (a hand-built model the format cannot hold) stops it after the pieces already put.
template <class Put>
Status put_vfp(const VfpFile& file, Put&& put) {
  const Vox0* vox0 = file.vox0();
  if (vox0 == nullptr)
    return error_at(ErrorCode::VfpVox0Missing, 0, Path("header"),
                    "the model has no decoded VOX0 section");
  if (file.sections.size() > 0xFFFFFFFFu)
    return error_at(ErrorCode::VfpWriteTooLarge, 0, Path("header"),
                    "more sections than sectionCount (u32) holds");
  VOXRIG_TRY(check_vox0_writable(*vox0));
  ByteWriter w;
  w.bytes(std::span<const uint8_t>(kMagic, 4));
  w.u8(1);
  w.u8(file.version_minor);
  w.u16(0);
  w.u32(static_cast<uint32_t>(file.sections.size()));
  w.bytes(detail::vox0_hash(*vox0));
  put(std::span<const uint8_t>(w.data()));
  for (size_t i = 0; i < file.sections.size(); ++i) {
    const Section& s = file.sections[i];
    // Each body to bytes (a VOX0 to its three pieces).
    std::vector<uint8_t> encoded;
    std::span<const uint8_t> payload;
    const Vox0* grid = nullptr;
    if (const auto* raw = std::get_if<RawPayload>(&s.body)) {
      payload = raw->bytes;
    } else if (const auto* v = std::get_if<Vox0>(&s.body)) {
      if (v != vox0) VOXRIG_TRY(check_vox0_writable(*v));
      grid = v;
    } else if (const auto* sk = std::get_if<Skel>(&s.body)) {
      VOXRIG_ASSIGN_OR_RETURN(encoded, encode_skel(*sk));
      payload = encoded;
    } else if (const auto* vs = std::get_if<Vskn>(&s.body)) {
      if (detail::vskn_payload_size(*vs) > 0xFFFFFFFFu)
        return detail::write_too_large(vs->bindings.size(), Path("VSKN"),
                                       "bindings do not fit a section");
      encoded = encode_vskn(*vs);
      payload = encoded;
    } else {
      VOXRIG_ASSIGN_OR_RETURN(encoded, encode_anim(std::get<Anim>(s.body)));
      payload = encoded;
    }
    const uint64_t size = grid ? detail::vox0_payload_size(*grid) : payload.size();
    if (size > 0xFFFFFFFFu)
      return error_at(ErrorCode::VfpWriteTooLarge, 0, section_path(i),
                      "payload of " + num(size) + " bytes exceeds u32");
    ByteWriter h;
    h.bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.header.tag.data()), 4));
    h.i32(s.header.chunk_id);
    h.u8(s.header.codec);
    h.u8(s.header.flags);
    h.u16(0);
    h.u32(static_cast<uint32_t>(size));
    put(std::span<const uint8_t>(h.data()));
    if (grid) {
      const auto head = detail::vox0_header(*grid);
      put(std::span<const uint8_t>(head));
      put(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(grid->palette.data()),
                                   4 * grid->palette.size()));
      put(std::span<const uint8_t>(grid->voxels));
    } else {
      put(payload);
    }
  }
  return ok_status();
}

}  // namespace

uint64_t vfp_encoded_size(const VfpFile& file) {
  uint64_t total = 44;
  for (const Section& s : file.sections) {
    total += 16;
    if (const auto* raw = std::get_if<RawPayload>(&s.body))
      total += raw->bytes.size();
    else if (const auto* v = std::get_if<Vox0>(&s.body))
      total += detail::vox0_payload_size(*v);
    else if (const auto* sk = std::get_if<Skel>(&s.body))
      total += detail::skel_payload_size(*sk);
    else if (const auto* vs = std::get_if<Vskn>(&s.body))
      total += detail::vskn_payload_size(*vs);
    else
      total += detail::anim_payload_size(std::get<Anim>(s.body));
  }
  return total;
}

// The public entry points: allocation failure becomes internal.out_of_memory (result.h).
Result<std::vector<uint8_t>> encode_vfp(const VfpFile& file) {
  return guard_out_of_memory([&]() -> Result<std::vector<uint8_t>> {
    ByteWriter w;
    w.reserve(vfp_encoded_size(file));
    VOXRIG_TRY(put_vfp(file, [&](std::span<const uint8_t> piece) { w.bytes(piece); }));
    return w.take();
  });
}

Status write_vfp(const VfpFile& file, const OutputSink& sink) {
  return guard_out_of_memory([&] {
    return put_vfp(file, [&](std::span<const uint8_t> piece) {
      sink(std::string_view(reinterpret_cast<const char*>(piece.data()), piece.size()));
    });
  });
}

VfpFile canonicalized(VfpFile file) {
  std::stable_sort(file.sections.begin(), file.sections.end(),
                   [](const Section& a, const Section& b) {
                     return classify(a.header.tag) < classify(b.header.tag);
                   });
  return file;
}

void rebind(VfpFile& file) {
  // baseSourceHash first: it is part of the SKEL payload that skeletonHash covers.
  if (const Vox0* vox0 = file.vox0()) {
    const Sha256 source = detail::vox0_hash(*vox0);
    for (Section& s : file.sections) {
      if (auto* b = std::get_if<Skel>(&s.body)) b->base_source_hash = source;
      if (auto* b = std::get_if<Vskn>(&s.body)) b->base_source_hash = source;
      if (auto* b = std::get_if<Anim>(&s.body)) b->base_source_hash = source;
    }
  }
  if (const Skel* skel = file.skel()) {
    auto bytes = encode_skel(*skel);
    if (!bytes.ok()) return;  // unwritable skeleton: nothing to bind to (encode_vfp reports it)
    const Sha256 skeleton = sha256(bytes.value());
    for (Section& s : file.sections) {
      if (auto* b = std::get_if<Vskn>(&s.body)) b->skeleton_hash = skeleton;
      if (auto* b = std::get_if<Anim>(&s.body)) b->skeleton_hash = skeleton;
    }
  }
}

}  // namespace voxrig
