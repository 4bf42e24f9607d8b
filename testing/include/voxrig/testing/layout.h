// voxrig/testing/layout.h — the one home of lenient wire layout for the suite's own tools: golden
// mutations (`voxrig golden`), the fuzz structure-aware mutators, the property mutators and the
// seeded generators.
//
// Why a second reader beside the codec: the codec *validates* — it stops at the first rule a file
// breaks and hands back a model, never the bytes' structure. Mutators and case authors need the
// opposite: they must walk files that are already broken (a wrong length, a missing hash, a
// truncated table), name every field that is present, and re-frame bytes after an edit. So this
// walk never validates and never fails: it reads whatever is present, clamps every declared
// length to the bytes that exist, stops a table at the first element that does not fit and never
// allocates from a declared count beyond the bytes present. It is safe on untrusted input. What is
// *valid* is decided by the codec only; nothing here is a second opinion on that.
//
// Four levels, cheapest first:
//  - framing: the container's header and its sections / chunks (framing_of), as offsets or as
//    editable bytes (split / join, which recompute every frame length from its payload);
//  - hash repair: the VFP rebinding a writer would do, on bytes or on a Split (rebind_*);
//  - records inside payloads: complete rig / BONS records and RKCH blob lists, for mutators that
//    recount or re-frame what they edited;
//  - named fields: every field of a file with a path ("SKEL/joint[1]/parentId"), plus the
//    length-prefixed regions a length fix-up keeps consistent (layout_of, find_field).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace voxrig::testing {

/// Owned bytes (a file, a payload, a header).
using Bytes = std::vector<uint8_t>;

// ---- framing ----------------------------------------------------------------------------------

/// The framed containers: a VFP file (44-byte header; sections tag, chunkId, codec, flags,
/// reserved, u32 length, payload), an RKCH file (magic + u16 version; chunks tag, u32 len,
/// payload) and an RVC clip (magic + u16 version; chunks tag, [v2: flags u8], u32 len, payload).
enum class Container { Vfp, Rkch, Rvc };

/// One section / chunk as found. Offsets are relative to the span given to framing_of.
struct Frame {
  std::array<uint8_t, 4> tag{};
  uint64_t offset = 0;         ///< the first tag byte
  uint64_t length_offset = 0;  ///< the u32 length field
  uint32_t declared = 0;       ///< the length field's value
  uint64_t payload_start = 0;  ///< first payload byte
  uint64_t payload_end = 0;    ///< payload_start + declared, clamped to the bytes present
  /// True when the tag is these four characters.
  bool is(std::string_view t) const;
};

/// A container's framing: header, frames in file order, and where the bytes after the last
/// whole frame header start (a frame whose length runs past the end is kept, clamped).
struct Framing {
  Container container = Container::Vfp;
  uint64_t header_size = 0;        ///< VFP 44, RKCH 6, RVC 6
  uint64_t frame_header_size = 0;  ///< VFP 16, RKCH 8, RVC v1 8, RVC v2 9
  std::vector<Frame> frames;
  /// The first byte after the last frame: bytes.size() unless a partial frame header remains.
  uint64_t trailing_start = 0;
};

/// Frames `bytes` by its magic ("VFP\0", "RKCH", "RVCL"). Returns nullopt for any other magic or
/// when the header is incomplete (VFP: under 44 bytes; RKCH / RVC: under 6). Never fails
/// otherwise; allocates one Frame per frame header present.
std::optional<Framing> framing_of(std::span<const uint8_t> bytes);

/// One frame as editable bytes. `head` holds the fields between tag and length (VFP: chunkId,
/// codec, flags, reserved — 8 bytes; RVC v2: flags — 1 byte; RKCH and RVC v1: none).
struct Part {
  std::array<uint8_t, 4> tag{};
  Bytes head;
  Bytes payload;
  /// True when the tag is these four characters.
  bool is(std::string_view t) const;
};

/// A whole container as editable bytes: `header` (VFP: all 44 bytes, RKCH / RVC: magic +
/// version), the parts (payloads clamped as framing_of finds them) and the trailing bytes.
struct Split {
  Container container = Container::Vfp;
  Bytes header;
  std::vector<Part> parts;
  Bytes trailing;
};

/// framing_of(bytes) copied into a Split; nullopt when framing_of gives nullopt. join(split(b))
/// == b whenever every declared length fits (and, for VFP, sectionCount equals the frames).
std::optional<Split> split(std::span<const uint8_t> bytes);

/// Writes `s` back: header, then per part tag, head, u32 payload size, payload, then trailing.
/// Every length comes from its payload; a VFP header's sectionCount becomes `section_count`, or
/// the number of parts when not given. Allocates the output only.
Bytes join(const Split& s, std::optional<uint32_t> section_count = std::nullopt);

// ---- VFP hash repair ----------------------------------------------------------------------------

/// One named byte range of a file.
struct Field {
  std::string path;
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// Binds a VFP file's hashes the way a writer does (docs/spec/writers.md#D2 + rebind), on bytes that may be
/// broken elsewhere: header/sourceHash = SHA-256 of the first VOX0 payload; with `rig` also every
/// SKEL / VSKN / ANIM baseSourceHash (from that hash), then every VSKN / ANIM skeletonHash =
/// SHA-256 of the first SKEL payload as it is after that (none without a SKEL). A hash is written
/// only where the whole 32-byte field is present. Returns the fields written ("header/sourceHash",
/// "section[i]/baseSourceHash" ..., then "section[i]/skeletonHash" ...), or nullopt with `why`
/// (the golden builder's wording) when there is no VFP header or no VOX0 section; then nothing
/// changes. Unlike voxrig::rebind it needs no decodable file.
std::optional<std::vector<Field>> rebind_bytes(Bytes& bytes, bool rig, std::string& why);

/// The same rule on a VFP Split (header bytes 12..44 and part payloads); no-op without a VOX0
/// part or when `s` is not a 44-byte VFP header. Used by mutators before join().
void rebind_split(Split& s, bool rig);

// ---- records inside payloads ------------------------------------------------------------------

/// One record's byte range inside a payload: [start, end).
struct Record {
  uint64_t start = 0, end = 0;
};

/// The complete records a payload holds, counted from its bytes whatever its count field says.
struct Records {
  uint64_t count_offset = 0;  ///< the count field, in the payload
  int count_size = 0;         ///< its width: 2 or 4 bytes
  uint64_t first = 0;         ///< where the records start (after the fixed fields)
  std::vector<Record> records;
  /// One past the last complete record (`first` when there is none).
  uint64_t end() const { return records.empty() ? first : records.back().end; }
};

/// The complete records of a rig or RKCH payload: SKEL joints (48-byte prefix + name), VSKN
/// bindings (6 bytes), ANIM clips (prefix, name, every track with its 44-byte keys), BONS bones
/// (name, attachments, 64-byte hinge: the hinge is the last 64 bytes of each record). nullopt for
/// any other tag or when the payload is shorter than its fixed fields. Safe on any bytes;
/// allocates one Record per complete record.
std::optional<Records> complete_records(std::string_view tag, std::span<const uint8_t> payload);

/// complete_records, then cuts `payload` to those records and writes their number into its count
/// field (truncated to the field's width). nullopt (and no change) where complete_records gives
/// nullopt.
std::optional<Records> recount_records(std::string_view tag, Bytes& payload);

/// An RKCH MSHS / VCLP payload as editable bytes: a u32 count, then per blob a u32 length and
/// the blob. `rest` keeps what follows the blobs the count lists.
struct BlobList {
  std::vector<Bytes> blobs;
  Bytes rest;
};

/// Splits leniently: at most `count` blobs while a length field fits, each clamped to the bytes
/// present. A payload under 4 bytes gives no blobs and keeps its bytes in `rest`.
BlobList split_blobs(std::span<const uint8_t> payload);

/// The count, every blob with its recomputed length, then `rest`.
Bytes join_blobs(const BlobList& list);

/// One RKCH CLPS record as editable bytes (docs/spec/rkch.md#chunk-payloads: name_len u16, name, kind u16,
/// payload_len u32, body).
struct ClipRecord {
  Bytes name;
  uint16_t kind = 0;
  Bytes body;
};

/// The records of a CLPS payload: at most its count while a name length fits; name and body clamp
/// to the bytes present; a record whose kind and payload_len do not fit is dropped, and so are
/// the bytes after the last record. Under 4 bytes: no records.
std::vector<ClipRecord> split_clips(std::span<const uint8_t> payload);

/// The count, then every record with its name_len and payload_len recomputed.
Bytes join_clips(std::span<const ClipRecord> records);

// ---- named fields -------------------------------------------------------------------------------

/// A length-prefixed region: a u32 length field that counts the bytes [content_start,
/// content_end). The golden builder keeps these consistent after inserts and deletes.
struct Region {
  std::string length_path;
  uint64_t length_offset = 0;
  uint64_t content_start = 0;
  uint64_t content_end = 0;
  std::vector<std::string> end_paths;  ///< the "…/end" paths that name content_end
};

/// Every field and region the walk found, in file order.
struct Layout {
  std::vector<Field> fields;
  std::vector<Region> regions;
};

/// Walks `bytes` by its magic (VFP, RKCH, Kvxl, RVCL, Kwlk); unknown magic gives only "end".
/// Never fails; allocates a Field per name (one per alias prefix), so it costs far more than
/// framing_of — meant for tools and generators, not for per-input fuzz mutation.
///
/// Path vocabulary (documented for case authors in golden/README.md):
///   VFP   header/{magic,versionMajor,versionMinor,headerFlags,sectionCount,sourceHash},
///         section[i|TAG|TAG:k]{,/tag,/chunkId,/codec,/flags,/reserved,/length,/payload,/end},
///         TAG[:k]/… payload fields of VOX0, SKEL, VSKN, ANIM (see layout_vfp.cpp), end
///   RKCH  header/{magic,version}, chunk[i|TAG|TAG:k]{,/tag,/len,/payload,/end}, META/…, MSHS/…,
///         BONS/…, CLPS/…, VCLP/… (embedded KV6 under MSHS/mesh[i]/kv6/, RVC under
///         VCLP/clip[i]/rvc/), end
///   KV6, RVC, KFA: their own field names (magic, xsiz, …; chunk[i]/…, META/…; hinge[i]/…).
Layout layout_of(std::span<const uint8_t> bytes);

/// The field named `path` (first match in file order), or nullopt with `why` set. Besides the
/// listed fields it understands computed paths: "…/voxel[i]" and "…/voxel[x,y,z]" inside a VOX0
/// payload (bounded by the voxels present).
std::optional<Field> find_field(const Layout& layout, std::span<const uint8_t> bytes,
                                std::string_view path, std::string& why);

/// Offset of the field named `path`, or nullopt (find_field without the computed paths).
std::optional<uint64_t> offset_of(const Layout& layout, std::string_view path);

}  // namespace voxrig::testing
