// JSON: the compile input written from a model compiles back to the same bytes; the canonical
// dump is deterministic and complete (different models, different dumps).
#include <sstream>

#include "prop_gen_common.h"
#include "prop_gen_vfp.h"
#include "prop_support.h"
#include "vfp_mutate.h"
#include "voxrig/any_format.h"
#include "voxrig/dump.h"
#include "voxrig/float_text.h"
#include "voxrig/json_out.h"
#include "voxrig/vfp_json.h"

namespace voxrig::props {
namespace {

bool same(const Vec3& a, const Vec3& b) { return a == b; }
bool same(const Quat& a, const Quat& b) { return a == b; }

std::string f3(const Vec3& v) {
  return "[" + f32_json(v.x) + "," + f32_json(v.y) + "," + f32_json(v.z) + "]";
}
std::string f4(const Quat& q) {
  return "[" + f32_json(q.x) + "," + f32_json(q.y) + "," + f32_json(q.z) + "," + f32_json(q.w) +
         "]";
}

// Writes `f` as compile input (docs/spec/compile.md), leaving out, at random, every
// field whose default gives the same value, and listing joints in a random order.
std::string to_compile_json(const VfpFile& f) {
  const Vox0& v = *f.vox0();
  std::ostringstream j;
  j << "{";
  if (one_in(2)) j << "\"vfp\": \"1.3\", ";
  j << "\"size\": [" << v.size_x << ", " << v.size_y << ", " << v.size_z << "], \"palette\": [";
  for (size_t i = 0; i < v.palette.size(); ++i) {
    const Rgba& c = v.palette[i];
    j << (i ? ", " : "") << "[" << int(c.r) << "," << int(c.g) << "," << int(c.b) << "," << int(c.a)
      << "]";
  }
  j << "], \"voxels\": [";
  bool first = true;
  for (size_t i = 0; i < v.voxels.size(); ++i) {
    if (v.voxels[i] == 0) continue;
    const size_t x = i % v.size_x, y = (i / v.size_x) % v.size_y,
                 z = i / (size_t{v.size_x} * v.size_y);
    for (int rep = one_in(8) ? 2 : 1; rep > 0; --rep) {  // an identical repeat is accepted
      j << (first ? "" : ", ") << "[" << x << "," << y << "," << z << "," << int(v.voxels[i])
        << "]";
      first = false;
    }
  }
  j << "]";
  std::string sections;
  for (const Section& s : f.sections) {
    const auto* raw = std::get_if<RawPayload>(&s.body);
    if (raw == nullptr) continue;
    sections += sections.empty() ? "" : ", ";
    sections += "{\"tag\": \"" + std::string(s.header.tag.data(), 4) + "\"";
    if (s.header.chunk_id != -1 || one_in(2))
      sections += ", \"chunk_id\": " + std::to_string(s.header.chunk_id);
    if (s.header.flags != 0 || one_in(2))
      sections += ", \"flags\": " + std::to_string(s.header.flags);
    sections += ", \"payload_hex\": \"" + to_hex(raw->bytes) + "\"}";
  }
  if (!sections.empty() || one_in(3)) j << ", \"sections\": [" << sections << "]";
  if (const Skel* skel = f.skel()) {
    const Vskn& vskn = *f.vskn();
    j << ", \"rig\": {\"joints\": [";
    std::vector<size_t> order(skel->joints.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[uniform<size_t>(0, i)]);
    for (size_t k = 0; k < order.size(); ++k) {
      const SkelJoint& jt = skel->joints[order[k]];
      j << (k ? ", " : "") << "{\"id\": " << jt.id;
      if (jt.parent != -1) j << ", \"parent\": " << jt.parent;
      if (!jt.name.empty() || one_in(2)) j << ", \"name\": " << json_quote(jt.name);
      if (!same(jt.bind.t, Vec3{0, 0, 0}) || one_in(2)) j << ", \"translation\": " << f3(jt.bind.t);
      if (!same(jt.bind.r, Quat{0, 0, 0, 1}) || one_in(2)) j << ", \"rotation\": " << f4(jt.bind.r);
      if (!same(jt.bind.s, Vec3{1, 1, 1}) || one_in(2)) j << ", \"scale\": " << f3(jt.bind.s);
      j << "}";
    }
    j << "]";
    if (skel->joints[order[0]].id != vskn.default_joint || one_in(2))
      j << ", \"default_joint\": " << vskn.default_joint;
    j << ", \"bindings\": [";
    for (size_t k = 0; k < vskn.bindings.size(); ++k) {
      const uint32_t o = vskn.bindings[k].voxel_offset;
      const size_t x = o % v.size_x, y = (o / v.size_x) % v.size_y,
                   z = o / (size_t{v.size_x} * v.size_y);
      j << (k ? ", " : "") << "{\"position\": [" << x << "," << y << "," << z
        << "], \"joint\": " << vskn.bindings[k].joint << "}";
    }
    j << "]";
    if (const Anim* anim = f.anim()) {
      j << ", \"animations\": [";
      for (size_t c = 0; c < anim->clips.size(); ++c) {
        const AnimClip& clip = anim->clips[c];
        j << (c ? ", " : "") << "{\"id\": " << clip.id << ", \"name\": " << json_quote(clip.name)
          << ", \"duration_ms\": " << clip.duration_ms << ", \"tracks\": [";
        for (size_t t = 0; t < clip.tracks.size(); ++t) {
          const AnimTrack& track = clip.tracks[t];
          const Trs* bind = nullptr;
          for (const SkelJoint& jt : skel->joints)
            if (jt.id == track.joint) bind = &jt.bind;
          j << (t ? ", " : "") << "{\"joint\": " << track.joint << ", \"keys\": [";
          for (size_t k = 0; k < track.keys.size(); ++k) {
            const AnimKey& key = track.keys[k];
            j << (k ? ", " : "") << "{\"time_ms\": " << key.time_ms;  // missing = the bind value
            if (!same(key.trs.t, bind->t) || one_in(2)) j << ", \"translation\": " << f3(key.trs.t);
            if (!same(key.trs.r, bind->r) || one_in(2)) j << ", \"rotation\": " << f4(key.trs.r);
            if (!same(key.trs.s, bind->s) || one_in(2)) j << ", \"scale\": " << f3(key.trs.s);
            j << "}";
          }
          j << "]}";
        }
        j << "]}";
      }
      j << "]";
    }
    j << "}";
  }
  j << "}";
  return j.str();
}

}  // namespace

VOXRIG_PROP(VfpJson, CompileOfTheModelsJsonGivesTheSameBytes, 1200, ()) {
  VfpGenOptions o;
  o.compilable = true;
  // The compiler writes the canonical section order (docs/spec/vfp.md, Order), whatever
  // order the generated file lists its sections in.
  const VfpFile f = canonicalized(*gen_vfp_file(o));
  const auto want = encode_vfp(f);
  VOXRIG_RC_OK(want);
  const std::string json = choose("compile input", [f] { return to_compile_json(f); });
  record_text("json", json);
  record("vfp", want.value());
  auto compiled = compile_vfp_json(json, Limits{});
  VOXRIG_RC_OK(compiled);
  RC_ASSERT(compiled.value() == f);
  const auto got = encode_vfp(compiled.value());
  VOXRIG_RC_OK(got);
  VOXRIG_RC_SAME_BYTES(got.value(), want.value());
}

VOXRIG_PROP(VfpDump, DeterministicUnderBothProfiles, 1000, ()) {
  const VfpFile f = *gen_vfp_file();
  const auto bytes = encode_vfp(f);
  VOXRIG_RC_OK(bytes);
  record("vfp", bytes.value());
  const std::string dump = dump_vfp(f);
  RC_ASSERT(dump_vfp(f) == dump);
  auto rig = dump_any(bytes.value(), Profile::VfpRig, Limits{});
  VOXRIG_RC_OK(rig);
  RC_ASSERT(rig.value() == dump);
  auto st1 = dump_any(bytes.value(), Profile::VfpStatic, Limits{});
  auto st2 = dump_any(bytes.value(), Profile::VfpStatic, Limits{});
  VOXRIG_RC_OK(st1);
  VOXRIG_RC_OK(st2);
  RC_ASSERT(st1.value() == st2.value());
}

VOXRIG_PROP(VfpDump, EverySingleFieldChangeChangesTheDump, 200, ()) {
  const VfpFile f = *gen_vfp_file();
  record("vfp", encode_vfp(f).value());
  const std::string dump = dump_vfp(f);
  for (const FieldVariant& v : field_variants(f)) {
    if (v.model == f) continue;
    if (dump_vfp(v.model) == dump) RC_FAIL("changing " + v.what + " leaves the dump unchanged");
  }
}

}  // namespace voxrig::props
