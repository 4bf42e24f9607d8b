// The canonical JSON dump of a VFP file (docs/spec/dump.md, "VFP"). Key order, inline-vs-digest
// and the bytes under every digest are fixed by the schema, field by field:
//
//   top      schema, format, version_minor, source_hash, sections[]
//   section  tag, chunk_id, codec, flags, length, then one of opaque | vox0 | skel | vskn | anim
//   vox0     size, palette (inline), voxels (digest of the x-fastest u8 cells), non_empty_voxels
//   skel     base_source_hash, joints[] {id, parent, name, translation, rotation, scale}
//   vskn     default_joint, base_source_hash, skeleton_hash, bindings (digest of <IH> records)
//   anim     base_source_hash, skeleton_hash, clips[] {id, name, duration_ms, tracks[] {joint,
//            keys[] {time_ms, translation, rotation, scale}}}
//
// Lengths and digests are computed from the model as the writer would encode it (streamed, so a
// large grid is never copied).
#include <span>
#include <variant>

#include "dump/dump_internal.h"
#include "vfp/vfp_internal.h"
#include "voxrig/dump.h"
#include "voxrig/json_out.h"
#include "voxrig/sha256.h"
#include "voxrig/utf8.h"

namespace voxrig {
namespace {

// SHA-256 of the VOX0 payload exactly as encode_vox0 lays it out (header, palette, voxels),
// streamed so a large grid is never copied.
Sha256 vox0_payload_hash(const Vox0& v) {
  Sha256Stream s;
  s.update(detail::vox0_header(v));
  for (const Rgba& c : v.palette) {
    const uint8_t rgba[4] = {c.r, c.g, c.b, c.a};
    s.update(rgba);
  }
  s.update(v.voxels);
  return s.finish();
}

// The section's length as the writer would encode it (the codecs' own size functions).
uint64_t body_length(const Section& s) {
  struct {
    uint64_t operator()(const RawPayload& r) const { return r.bytes.size(); }
    uint64_t operator()(const Vox0& v) const { return detail::vox0_payload_size(v); }
    uint64_t operator()(const Skel& k) const { return detail::skel_payload_size(k); }
    uint64_t operator()(const Vskn& v) const { return detail::vskn_payload_size(v); }
    uint64_t operator()(const Anim& a) const { return detail::anim_payload_size(a); }
  } visitor;
  return std::visit(visitor, s.body);
}

// Names of a decoded rig are valid UTF-8; a hand-built model's are repaired so the dump stays
// valid JSON (such a model cannot be encoded by the writer anyway).
void name_field(JsonOut& out, const std::string& name) {
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(name.data()), name.size());
  out.field_string("name", is_valid_utf8(bytes) ? name : repair_utf8(bytes));
}

void digest_field(JsonOut& out, std::string_view key, uint64_t count, const Sha256& hash) {
  out.key(key);
  out.begin_object();
  out.field_u64("count", count);
  out.field_hex("sha256", hash);
  out.end_object();
}

void vec3_field(JsonOut& out, std::string_view key, const Vec3& v) {
  const float f[3] = {v.x, v.y, v.z};
  out.field_f32s(key, f);
}

void trs_fields(JsonOut& out, const Trs& trs) {
  vec3_field(out, "translation", trs.t);
  const float q[4] = {trs.r.x, trs.r.y, trs.r.z, trs.r.w};
  out.field_f32s("rotation", q);
  vec3_field(out, "scale", trs.s);
}

void dump_vox0(JsonOut& out, const Vox0& v) {
  out.key("vox0");
  out.begin_object();
  out.key("size");
  out.begin_array(true);
  out.value_u64(v.size_x);
  out.value_u64(v.size_y);
  out.value_u64(v.size_z);
  out.end_array();
  out.key("palette");
  out.begin_array();
  for (const Rgba& c : v.palette) {
    out.begin_array(true);
    out.value_u64(c.r);
    out.value_u64(c.g);
    out.value_u64(c.b);
    out.value_u64(c.a);
    out.end_array();
  }
  out.end_array();
  out.key("voxels");
  out.value_digest(v.voxels.size(), v.voxels);
  uint64_t non_empty = 0;
  for (uint8_t cell : v.voxels) non_empty += cell != 0;
  out.field_u64("non_empty_voxels", non_empty);
  out.end_object();
}

void dump_skel(JsonOut& out, const Skel& k) {
  out.key("skel");
  out.begin_object();
  out.field_hex("base_source_hash", k.base_source_hash);
  out.key("joints");
  out.begin_array();
  for (const SkelJoint& j : k.joints) {
    out.begin_object();
    out.field_u64("id", j.id);
    out.field_i64("parent", j.parent);
    name_field(out, j.name);
    trs_fields(out, j.bind);
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

void dump_vskn(JsonOut& out, const Vskn& v) {
  out.key("vskn");
  out.begin_object();
  out.field_u64("default_joint", v.default_joint);
  out.field_hex("base_source_hash", v.base_source_hash);
  out.field_hex("skeleton_hash", v.skeleton_hash);
  Sha256Stream s;
  for (const VsknBinding& b : v.bindings) {
    uint8_t rec[detail::kVsknRecordBytes];
    detail::put_vskn_record(rec, b);
    s.update(rec);
  }
  digest_field(out, "bindings", v.bindings.size(), s.finish());
  out.end_object();
}

void dump_anim(JsonOut& out, const Anim& a) {
  out.key("anim");
  out.begin_object();
  out.field_hex("base_source_hash", a.base_source_hash);
  out.field_hex("skeleton_hash", a.skeleton_hash);
  out.key("clips");
  out.begin_array();
  for (const AnimClip& c : a.clips) {
    out.begin_object();
    out.field_u64("id", c.id);
    name_field(out, c.name);
    out.field_u64("duration_ms", c.duration_ms);
    out.key("tracks");
    out.begin_array();
    for (const AnimTrack& t : c.tracks) {
      out.begin_object();
      out.field_u64("joint", t.joint);
      out.key("keys");
      out.begin_array();
      for (const AnimKey& key : t.keys) {
        out.begin_object();
        out.field_u64("time_ms", key.time_ms);
        trs_fields(out, key.trs);
        out.end_object();
      }
      out.end_array();
      out.end_object();
    }
    out.end_array();
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

void dump_section(JsonOut& out, const Section& s) {
  out.begin_object();
  out.field_string("tag", std::string_view(s.header.tag.data(), s.header.tag.size()));
  out.field_i64("chunk_id", s.header.chunk_id);
  out.field_u64("codec", s.header.codec);
  out.field_u64("flags", s.header.flags);
  out.field_u64("length", body_length(s));
  if (const auto* raw = std::get_if<RawPayload>(&s.body)) {
    out.key("opaque");
    out.value_digest(raw->bytes.size(), raw->bytes);
  } else if (const auto* v = std::get_if<Vox0>(&s.body)) {
    dump_vox0(out, *v);
  } else if (const auto* k = std::get_if<Skel>(&s.body)) {
    dump_skel(out, *k);
  } else if (const auto* n = std::get_if<Vskn>(&s.body)) {
    dump_vskn(out, *n);
  } else if (const auto* a = std::get_if<Anim>(&s.body)) {
    dump_anim(out, *a);
  }
  out.end_object();
}

}  // namespace

std::string dump_vfp(const VfpFile& file) {
  JsonOut out;
  detail::begin_dump(out, "vfp");
  out.field_u64("version_minor", file.version_minor);
  out.key("source_hash");
  if (const Vox0* v = file.vox0()) {
    out.value_hex(vox0_payload_hash(*v));
  } else {
    out.value_null();  // only a hand-built model lacks VOX0; a decoded file never does
  }
  out.key("sections");
  out.begin_array();
  for (const Section& s : file.sections) dump_section(out, s);
  out.end_array();
  out.end_object();
  return out.take();
}

}  // namespace voxrig
