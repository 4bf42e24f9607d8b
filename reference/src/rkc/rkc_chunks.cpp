// RKCH v3 chunk payloads (docs/spec/rkch.md, "Chunk payloads"): decoders and canonical writers. The
// record layouts and sizes are voxrig/wire/rkch.h's.
//
// META: name_len u16 | name | root 3 x f32                          (bytes after root ignored)
// MSHS: count u32 | count x { blob_len u32 | KV6 blob }             (bytes after last ignored)
// BONS: count u32 | count x Bone                                    (bytes after last ignored)
//   Bone:       name_len u16 | name | attach_count u32 | attach_count x Attachment | Hinge (64 B)
//   Attachment: mesh_kind u16 (0 static, 1 clip; checked right after index) | index u32 |
//               local_offset BoneXform (40 B) | speed_q8 i32 | start_phase_ms u32   (54 B)
// CLPS: count u32 | count x { name_len u16 | name | kind u16 | payload_len u32 | body }
//   kind 0 (skeletal) body: numfrm u32 | numhin u32 (must equal the bone count, checked at
//   once) | numfrm x numhin BoneXform (frame-major) | seqcount u32 | seqcount x {tim i32,
//   frm i32} (bytes after seq ignored); any other kind: body kept verbatim.
// VCLP: count u32 | count x { blob_len u32 | RVC blob }             (bytes after last ignored)
//
// Every payload is read with its own bounded reader whose offsets are absolute in the file.
// Counts are checked against the limits when read; reservations are clamped by the bytes left
// and never report an error of their own (D13), so the seed's error order is kept.
#include <string>

#include "rkc/rkc_detail.h"
#include "rkc/rvc_internal.h"
#include "voxrig/rkc.h"
#include "voxrig/utf8.h"

namespace voxrig::detail {

namespace {

constexpr uint64_t kU32Max = 0xFFFFFFFFu;
using wire::rkch::kMinBone;
using wire::rkch::kMinClip;
using wire::rkch::kMinKv6Blob;
using wire::rkch::kMinRvcBlob;

Error over_limit(ErrorCode code, uint64_t at, const Path& p, uint64_t count, uint64_t limit) {
  return error_at(code, at, p,
                  "count " + std::to_string(count) + " exceeds limit " + std::to_string(limit));
}

// A u32 element count, rejected with `code` at the count's own offset when it exceeds `limit`
// (checked before any reserve, so a hostile count never sizes an allocation).
Result<uint32_t> read_count(ByteReader& r, const Path& p, uint64_t limit, ErrorCode code) {
  const uint64_t at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count, r.u32(p));
  if (count > limit) return over_limit(code, at, p, count, limit);
  return count;
}

// A length-prefixed name. rkc-strict rejects ill-formed UTF-8 (rkc.bad_utf8, at the name's
// first byte); rkc-compat repairs it like the seed's from_utf8_lossy (D6) and warns.
Result<std::string> read_name(ByteReader& r, const Path& p, const DecodeOptions& options,
                              WarningSink& sink) {
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t len, r.u16(p));
  const uint64_t at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto raw, r.bytes(len, p));
  if (is_valid_utf8(raw)) return std::string(raw.begin(), raw.end());
  if (is_strict(options)) return error_at(ErrorCode::RkcBadUtf8, at, p, "name is not valid UTF-8");
  std::string fixed = repair_utf8(raw);
  sink.add(WarningCode::RkcRepairedUtf8, at, p,
           std::to_string(raw.size()) + " byte(s) repaired to " + std::to_string(fixed.size()));
  return fixed;
}

void warn_trailing(const ByteReader& r, const Path& p, WarningSink& sink) {
  if (!r.at_end())
    sink.add(WarningCode::RkcTrailingPayload, r.offset(), p,
             std::to_string(r.remaining()) + " byte(s) after the last field are dropped on write");
}

Result<SkeletalClip> decode_skeletal(ByteReader& body, size_t bone_count, const Path& p,
                                     const DecodeOptions& options, WarningSink& sink) {
  const Limits& lim = options.limits;
  SkeletalClip s;
  const uint64_t numfrm_at = body.offset();
  VOXRIG_ASSIGN_OR_RETURN(s.frame_count, body.u32(p));
  const uint64_t numhin_at = body.offset();
  VOXRIG_ASSIGN_OR_RETURN(s.numhin, body.u32(p));
  // The seed checks this right after numhin, before any frame, so it fires for 0 frames too.
  if (s.numhin != bone_count)
    return error_at(
        ErrorCode::RkcClipBoneCount, numhin_at, p,
        "numhin " + std::to_string(s.numhin) + " != " + std::to_string(bone_count) + " bone(s)");
  // Hazard H2: with 0 bones, 4 billion empty rows read nothing; each row counts as one cell.
  const uint64_t cells = uint64_t{s.frame_count} * s.numhin;
  const uint64_t charged = uint64_t{s.frame_count} * (s.numhin == 0 ? 1 : s.numhin);
  if (charged > lim.rkc_frame_cells)
    return error_at(ErrorCode::RkcLimitFrameCells, numfrm_at, p,
                    std::to_string(s.frame_count) + " frame(s) x " + std::to_string(s.numhin) +
                        " bone(s) exceeds limit " + std::to_string(lim.rkc_frame_cells));
  VOXRIG_ASSIGN_OR_RETURN(auto tab, read_table(body, cells, kBoneXformSize, p, "frmval"));
  s.frames.resize(cells);
  for (size_t i = 0; i < cells; ++i)
    load_bone_xform_into(s.frames[i], tab.data() + kBoneXformSize * i);

  VOXRIG_ASSIGN_OR_RETURN(const uint32_t seqcount,
                          read_count(body, p, lim.rkc_seq, ErrorCode::RkcLimitSeq));
  VOXRIG_ASSIGN_OR_RETURN(auto sq, read_table(body, seqcount, kSeqSize, p, "seq"));
  s.seq.resize(seqcount);
  for (size_t i = 0; i < seqcount; ++i) {
    const uint8_t* q = sq.data() + kSeqSize * i;
    s.seq[i] = Seq{static_cast<int32_t>(load_u32(q + wire::rkch::seq::kTimAt)),
                   static_cast<int32_t>(load_u32(q + wire::rkch::seq::kFrmAt))};
  }
  warn_trailing(body, p, sink);
  return s;
}

// Writes `name` with its u16 length; a name the field cannot hold is an error, not a panic.
Status write_name(ByteWriter& w, const std::string& name, const Path& p) {
  if (name.size() > 0xFFFF)
    return error_at(ErrorCode::RkcWriteNameTooLong, 0, p,
                    std::to_string(name.size()) + " bytes do not fit in u16");
  w.u16(static_cast<uint16_t>(name.size()));
  w.bytes(name);
  return {};
}

Status write_count(ByteWriter& w, uint64_t n, const Path& p) {
  if (n > kU32Max) return error_at(ErrorCode::RkcWriteTooLarge, 0, p, "count does not fit in u32");
  w.u32(static_cast<uint32_t>(n));
  return {};
}

Status write_blob(ByteWriter& w, const std::vector<uint8_t>& blob, const Path& p) {
  VOXRIG_TRY(write_count(w, blob.size(), p));
  w.bytes(blob);
  return {};
}

// MSHS and VCLP: count u32 | count x { blob_len u32 | blob }, each blob decoded by
// decode(blob, absolute offset, path) whose errors are named "<tag>/<elem>[i]/..." (D12).
template <class T, class Decode>
Status decode_blob_list(const ChunkRef& chunk, const char* tag, const char* elem, uint64_t limit,
                        ErrorCode limit_code, size_t min_blob, WarningSink& sink,
                        std::vector<T>& out, Decode&& decode) {
  const Path p(tag);
  ByteReader r(chunk.payload, chunk.payload_at, ErrorCode::RkcTruncated);
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count, read_count(r, p, limit, limit_code));
  out.reserve(clamp_reserve(count, min_blob, r.remaining()));
  for (uint32_t i = 0; i < count; ++i) {
    const Path ep = p.child(elem, i);
    VOXRIG_ASSIGN_OR_RETURN(const uint32_t len, r.u32(ep));
    const uint64_t at = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(auto blob, r.bytes(len, ep));
    auto item = decode(blob, at, ep);
    if (!item.ok()) return item.error().prefixed(ep.str());
    out.push_back(std::move(item).value());
  }
  warn_trailing(r, p, sink);
  return {};
}

// Every RKCH list chunk's frame: count u32 | count x record, record i written by
// record(item, path "<tag>/<elem>[i]").
template <class T, class Record>
Status write_list(ByteWriter& w, const char* tag, const char* elem, const std::vector<T>& items,
                  Record&& record) {
  const Path p(tag);
  VOXRIG_TRY(write_count(w, items.size(), p));
  for (size_t i = 0; i < items.size(); ++i)
    VOXRIG_TRY(record(items[i], p.child(elem, static_cast<int64_t>(i))));
  return {};
}

// The writer's side of decode_blob_list: each item encoded by encode(item).
template <class T, class Encode>
Status write_blob_list(ByteWriter& w, const char* tag, const char* elem,
                       const std::vector<T>& items, Encode&& encode) {
  return write_list(w, tag, elem, items, [&](const T& item, const Path& ep) -> Status {
    auto blob = encode(item);
    if (!blob.ok()) return blob.error().prefixed(ep.str());
    return write_blob(w, blob.value(), ep);
  });
}

// BONS and CLPS: each record is { name (u16 length) | body }, the body written by
// body(item, path of the record) after its name.
template <class T, class Body>
Status write_named_list(ByteWriter& w, const char* tag, const char* elem,
                        const std::vector<T>& items, Body&& body) {
  return write_list(w, tag, elem, items, [&](const T& item, const Path& ep) -> Status {
    VOXRIG_TRY(write_name(w, item.name, ep.child("name")));
    return body(item, ep);
  });
}

}  // namespace

// ---------------------------------------------------------------- decoders

Status decode_meta(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out) {
  const Path p("META");
  ByteReader r(chunk.payload, chunk.payload_at, ErrorCode::RkcTruncated);
  VOXRIG_ASSIGN_OR_RETURN(out.name, read_name(r, p.child("name"), options, sink));
  for (float& f : out.root) {
    VOXRIG_ASSIGN_OR_RETURN(f, r.f32(p.child("root")));
  }
  warn_trailing(r, p, sink);
  return {};
}

Status decode_mshs(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out) {
  return decode_blob_list(
      chunk, "MSHS", "mesh", options.limits.rkc_meshes, ErrorCode::RkcLimitMeshes, kMinKv6Blob,
      sink, out.meshes, [&](std::span<const uint8_t> blob, uint64_t at, const Path& mp) {
        WarningSink inner = sink.enabled() ? sink.nested(mp.str()) : WarningSink();
        return decode_kv6_impl(blob, at, options, inner);
      });
}

Status decode_bons(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out, CrossRefOffsets& refs) {
  const Path p("BONS");
  const Limits& lim = options.limits;
  ByteReader r(chunk.payload, chunk.payload_at, ErrorCode::RkcTruncated);
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count,
                          read_count(r, p, lim.rkc_bones, ErrorCode::RkcLimitBones));
  const size_t reserve = clamp_reserve(count, kMinBone, r.remaining());
  out.bones.reserve(reserve);
  refs.hinge_at.reserve(reserve);
  for (uint32_t i = 0; i < count; ++i) {
    const Path bp = p.child("bone", i);
    Bone bone;
    VOXRIG_ASSIGN_OR_RETURN(bone.name, read_name(r, bp.child("name"), options, sink));
    VOXRIG_ASSIGN_OR_RETURN(
        const uint32_t attach_count,
        read_count(r, bp, lim.rkc_attachments_per_bone, ErrorCode::RkcLimitAttachments));
    bone.attachments.reserve(clamp_reserve(attach_count, kAttachmentSize, r.remaining()));
    for (uint32_t j = 0; j < attach_count; ++j) {
      const Path ap = bp.child("attachment", j);
      const uint64_t kind_at = r.offset();
      VOXRIG_ASSIGN_OR_RETURN(const uint16_t kind, r.u16(ap));
      const uint64_t index_at = r.offset();
      Attachment a;
      VOXRIG_ASSIGN_OR_RETURN(a.index, r.u32(ap));
      // The seed checks mesh_kind right after index, before the rest of the record is read.
      if (kind > 1)
        return error_at(ErrorCode::RkcUnsupportedMeshKind, kind_at, ap,
                        "mesh_kind " + std::to_string(kind));
      a.kind = static_cast<AttachmentKind>(kind);
      VOXRIG_ASSIGN_OR_RETURN(auto xf, r.bytes(kBoneXformSize, ap));
      a.local_offset = load_bone_xform(xf.data());
      VOXRIG_ASSIGN_OR_RETURN(a.speed_q8, r.i32(ap));
      VOXRIG_ASSIGN_OR_RETURN(a.start_phase_ms, r.u32(ap));
      bone.attachments.push_back(a);
      refs.attachment_index_at.push_back(index_at);
    }
    const uint64_t hinge_at = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(auto hb, r.bytes(kHingeSize, bp.child("hinge")));
    bone.hinge = load_hinge(hb.data());
    refs.hinge_at.push_back(hinge_at);
    out.bones.push_back(std::move(bone));
  }
  warn_trailing(r, p, sink);
  return {};
}

Status decode_clps(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out) {
  const Path p("CLPS");
  ByteReader r(chunk.payload, chunk.payload_at, ErrorCode::RkcTruncated);
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count,
                          read_count(r, p, options.limits.rkc_clips, ErrorCode::RkcLimitClips));
  out.clips.reserve(clamp_reserve(count, kMinClip, r.remaining()));
  for (uint32_t i = 0; i < count; ++i) {
    const Path cp = p.child("clip", i);
    Clip clip;
    VOXRIG_ASSIGN_OR_RETURN(clip.name, read_name(r, cp.child("name"), options, sink));
    VOXRIG_ASSIGN_OR_RETURN(const uint16_t kind, r.u16(cp));
    VOXRIG_ASSIGN_OR_RETURN(const uint32_t len, r.u32(cp));
    VOXRIG_ASSIGN_OR_RETURN(ByteReader body, r.sub(len, cp));
    if (kind == 0) {
      VOXRIG_ASSIGN_OR_RETURN(clip.data,
                              decode_skeletal(body, out.bones.size(), cp, options, sink));
    } else {
      clip.data = UnknownClip{kind, std::vector<uint8_t>(body.data().begin(), body.data().end())};
    }
    out.clips.push_back(std::move(clip));
  }
  warn_trailing(r, p, sink);
  return {};
}

Status decode_vclp(const ChunkRef& chunk, const DecodeOptions& options, WarningSink& sink,
                   Character& out) {
  // Only the last VCLP is decoded, so this is the file's one RVC budget: its clips share it.
  RvcBudget budget(options.limits.rvc_inflated_total);
  return decode_blob_list(chunk, "VCLP", "clip", options.limits.rkc_voxel_clips,
                          ErrorCode::RkcLimitVoxelClips, kMinRvcBlob, sink, out.voxel_clips,
                          [&](std::span<const uint8_t> blob, uint64_t at, const Path&) {
                            return decode_rvc_budgeted(blob, at, options, budget);
                          });
}

// ---------------------------------------------------------------- writers

Status write_meta(ByteWriter& w, const Character& c) {
  VOXRIG_TRY(write_name(w, c.name, Path("META").child("name")));
  for (float f : c.root) w.f32(f);
  return {};
}

Status write_mshs(ByteWriter& w, const Character& c) {
  return write_blob_list(w, "MSHS", "mesh", c.meshes, [](const Kv6& m) { return encode_kv6(m); });
}

Status write_bons(ByteWriter& w, const Character& c) {
  return write_named_list(w, "BONS", "bone", c.bones, [&](const Bone& b, const Path& bp) -> Status {
    VOXRIG_TRY(write_count(w, b.attachments.size(), bp));
    for (const Attachment& a : b.attachments) {
      w.u16(static_cast<uint16_t>(a.kind));
      w.u32(a.index);
      write_bone_xform(w, a.local_offset);
      w.i32(a.speed_q8);
      w.u32(a.start_phase_ms);
    }
    write_hinge(w, b.hinge);
    return {};
  });
}

Status write_clps(ByteWriter& w, const Character& c) {
  return write_named_list(
      w, "CLPS", "clip", c.clips, [&](const Clip& clip, const Path& cp) -> Status {
        if (const auto* s = std::get_if<SkeletalClip>(&clip.data)) {
          // numhin is written as recorded (a zero-frame clip keeps the bone count it was read
          // with), never derived from the first row as the seed does (hazard H13).
          if (s->frames.size() != uint64_t{s->frame_count} * s->numhin)
            return error_at(ErrorCode::RkcWriteNotRectangular, 0, cp,
                            std::to_string(s->frames.size()) + " xform(s) for " +
                                std::to_string(s->frame_count) + " frame(s) x " +
                                std::to_string(s->numhin) + " bone(s)");
          w.u16(0);
          const size_t len_at = w.begin_length();
          w.u32(s->frame_count);
          w.u32(s->numhin);
          for (const BoneXform& x : s->frames) write_bone_xform(w, x);
          VOXRIG_TRY(write_count(w, s->seq.size(), cp));
          for (const Seq& q : s->seq) {
            w.i32(q.tim);
            w.i32(q.frm);
          }
          if (w.size() - len_at - 4 > kU32Max)
            return error_at(ErrorCode::RkcWriteTooLarge, 0, cp, "clip body over u32");
          w.end_length(len_at);
        } else {
          const auto& u = std::get<UnknownClip>(clip.data);
          w.u16(u.kind);
          VOXRIG_TRY(write_blob(w, u.bytes, cp));
        }
        return {};
      });
}

Status write_vclp(ByteWriter& w, const Character& c) {
  return write_blob_list(w, "VCLP", "clip", c.voxel_clips,
                         [](const RvcClip& v) { return encode_rvc(v); });
}

}  // namespace voxrig::detail
