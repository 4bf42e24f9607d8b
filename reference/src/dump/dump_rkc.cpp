// Canonical JSON dumps of RKCH, KV6 and KFA models (docs/spec/dump.md, "RKCH family").
//
// Deterministic (keys in schema order, floats via value_f32 / D17) and complete: every model
// field appears, big arrays as {"count", "sha256"} digests over their on-disk little-endian
// bytes, so two models dump equal iff they encode equal (floats compared by bit pattern).
#include <string>

#include "dump/dump_internal.h"
#include "rkc/rkc_detail.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/utf8.h"

namespace voxrig {

namespace detail {

namespace {

void dump_seq_entry(JsonOut& out, const Seq& s) {
  out.begin_array(true);
  out.value_i64(s.tim);
  out.value_i64(s.frm);
  out.end_array();
}

}  // namespace

void dump_kv6_fields(JsonOut& out, const Kv6& m) {
  out.field_u64("xsiz", m.xsiz);
  out.field_u64("ysiz", m.ysiz);
  out.field_u64("zsiz", m.zsiz);
  out.field_f32s("pivot", m.pivot);
  ByteWriter w;
  w.reserve(8 * m.voxels.size());
  for (const Kv6Voxel& v : m.voxels) {
    w.u32(v.col);
    w.u16(v.z);
    w.u8(v.vis);
    w.u8(v.dir);
  }
  out.key("voxels");
  out.value_digest(m.voxels.size(), w.data());
  ByteWriter xl;
  for (uint32_t v : m.xlen) xl.u32(v);
  out.key("xlen");
  out.value_digest(m.xlen.size(), xl.data());
  ByteWriter yl;
  for (uint16_t v : m.ylen) yl.u16(v);
  out.key("ylen");
  out.value_digest(m.ylen.size(), yl.data());
  out.key("palette");
  if (m.palette)
    out.value_digest(256, *m.palette);
  else
    out.value_null();
}

void dump_bone_xform(JsonOut& out, const BoneXform& x) {
  out.begin_object();
  out.field_f32s("t", x.t);
  out.field_f32s("r", x.r);
  out.field_f32s("s", x.s);
  out.end_object();
}

void dump_hinge(JsonOut& out, const Hinge& h) {
  out.begin_object();
  out.field_i64("parent", h.parent);
  out.field_f32s("p0", h.p[0]);
  out.field_f32s("p1", h.p[1]);
  out.field_f32s("v0", h.v[0]);
  out.field_f32s("v1", h.v[1]);
  out.field_i64("vmin", h.vmin);
  out.field_i64("vmax", h.vmax);
  out.field_u64("htype", h.htype);
  out.field_hex("filler", h.filler);
  out.end_object();
}

void dump_seq(JsonOut& out, std::span<const Seq> seq) {
  out.begin_array();
  for (const Seq& s : seq) dump_seq_entry(out, s);
  out.end_array();
}

}  // namespace detail

void dump_kv6_into(JsonOut& out, const Kv6& kv6) {
  out.begin_object();
  detail::dump_kv6_fields(out, kv6);
  out.end_object();
}

std::string dump_kv6(const Kv6& kv6) {
  JsonOut out;
  detail::begin_dump(out, "kv6");
  detail::dump_kv6_fields(out, kv6);
  out.end_object();
  return out.take();
}

std::string dump_kfa(const Kfa& k) {
  JsonOut out;
  detail::begin_dump(out, "kfa");
  out.field_hex("kv6_name", k.kv6_name);
  out.key("hinges");
  out.begin_array();
  for (const Hinge& h : k.hinges) detail::dump_hinge(out, h);
  out.end_array();
  out.field_u64("frame_count", k.frame_count);
  ByteWriter w;
  for (int16_t v : k.frames) w.i16(v);
  out.key("frames");
  out.value_digest(k.frames.size(), w.data());
  out.key("seq");
  detail::dump_seq(out, k.seq);
  out.end_object();
  return out.take();
}

std::string dump_rkc(const Character& c) {
  JsonOut out;
  detail::begin_dump(out, "rkc");
  out.field_string("name", c.name);
  out.field_f32s("root", c.root);

  out.key("meshes");
  out.begin_array();
  for (const Kv6& m : c.meshes) dump_kv6_into(out, m);
  out.end_array();

  out.key("bones");
  out.begin_array();
  for (const Bone& b : c.bones) {
    out.begin_object();
    out.field_string("name", b.name);
    out.key("attachments");
    out.begin_array();
    for (const Attachment& a : b.attachments) {
      out.begin_object();
      out.field_u64("mesh_kind", static_cast<uint16_t>(a.kind));
      out.field_u64("index", a.index);
      out.key("local_offset");
      detail::dump_bone_xform(out, a.local_offset);
      out.field_i64("speed_q8", a.speed_q8);
      out.field_u64("start_phase_ms", a.start_phase_ms);
      out.end_object();
    }
    out.end_array();
    out.key("hinge");
    detail::dump_hinge(out, b.hinge);
    out.end_object();
  }
  out.end_array();

  out.key("clips");
  out.begin_array();
  for (const Clip& clip : c.clips) {
    out.begin_object();
    out.field_string("name", clip.name);
    if (const auto* s = std::get_if<SkeletalClip>(&clip.data)) {
      out.field_u64("kind", 0);
      out.field_u64("frame_count", s->frame_count);
      out.field_u64("numhin", s->numhin);
      ByteWriter w;
      w.reserve(detail::kBoneXformSize * s->frames.size());
      for (const BoneXform& x : s->frames) detail::write_bone_xform(w, x);
      out.key("frames");
      out.value_digest(s->frames.size(), w.data());
      out.key("seq");
      detail::dump_seq(out, s->seq);
    } else {
      const auto& u = std::get<UnknownClip>(clip.data);
      out.field_u64("kind", u.kind);
      out.key("bytes");
      out.value_digest(u.bytes.size(), u.bytes);
    }
    out.end_object();
  }
  out.end_array();

  out.key("voxel_clips");
  out.begin_array();
  for (const RvcClip& v : c.voxel_clips) dump_rvc_into(out, v);
  out.end_array();

  out.key("extra_chunks");
  out.begin_array();
  for (const ExtraChunk& e : c.extra_chunks) {
    out.begin_object();
    out.field_string("tag", latin1_to_utf8(e.tag));
    out.key("bytes");
    out.value_digest(e.bytes.size(), e.bytes);
    out.end_object();
  }
  out.end_array();

  out.end_object();
  return out.take();
}

}  // namespace voxrig
