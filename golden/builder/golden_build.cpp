// RKCH-family case builders: declarative JSON descriptions -> reference models -> reference
// encoders (RKCH, KV6, KFA); RVC files are assembled from stored chunk bytes (docs/spec/rvc.md#D4: a
// golden RVC blob is never deflated at regeneration, so the zlib build cannot change it).
//
// Floats are JSON numbers (converted double -> binary32, round to nearest) or "0xHHHHHHHH" bit
// patterns (D18: seed-derived floats such as from_hinge_angle results are stored as bits).
// The schema of each description is in golden/README.md ("Case sources").
#include "golden_build.h"

#include <algorithm>
#include <bit>
#include <set>
#include <stdexcept>

#include "golden_mutate.h"
#include "golden_sources.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"

namespace voxrig::golden {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

void only_keys(const json& j, std::initializer_list<const char*> keys, const std::string& what) {
  if (!j.is_object()) fail(what + " must be an object");
  std::set<std::string> allowed(keys.begin(), keys.end());
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!allowed.count(it.key())) fail(what + ": unknown key '" + it.key() + "'");
}

float f32(const json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.rfind("0x", 0) != 0 || s.size() != 10) fail("float strings are 0x + 8 hex digits: " + s);
    return std::bit_cast<float>(uint32_t(std::stoul(s.substr(2), nullptr, 16)));
  }
  if (!v.is_number()) fail("a float is a number or a 0x bit pattern");
  return static_cast<float>(v.get<double>());
}

template <size_t N>
std::array<float, N> floats(const json& v, const std::array<float, N>& def) {
  if (v.is_null()) return def;
  if (!v.is_array() || v.size() != N) fail("expected an array of " + std::to_string(N) + " floats");
  std::array<float, N> r{};
  for (size_t i = 0; i < N; ++i) r[i] = f32(v[i]);
  return r;
}

std::vector<uint8_t> hex(const json& v) {
  std::vector<uint8_t> out;
  std::string err;
  if (!parse_hex(v, out, err)) fail(err);
  return out;
}

// A name: a JSON string (its UTF-8 bytes) or {"hex": ...} for raw (possibly invalid) bytes.
std::string name_of(const json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("hex")) {
    auto b = hex(v["hex"]);
    return std::string(b.begin(), b.end());
  }
  fail("a name is a string or {\"hex\": ...}");
}

BoneXform xform(const json& j) {
  BoneXform x;
  if (j.is_null()) return x;
  only_keys(j, {"t", "r", "s"}, "xform");
  x.t = floats<3>(j.value("t", json()), x.t);
  x.r = floats<4>(j.value("r", json()), x.r);
  x.s = floats<3>(j.value("s", json()), x.s);
  return x;
}

Hinge hinge(const json& j) {
  only_keys(j, {"parent", "p0", "p1", "v0", "v1", "vmin", "vmax", "htype", "filler"}, "hinge");
  Hinge h;
  h.parent = j.value("parent", -1);
  h.p[0] = floats<3>(j.value("p0", json()), {0, 0, 0});
  h.p[1] = floats<3>(j.value("p1", json()), {0, 0, 0});
  h.v[0] = floats<3>(j.value("v0", json()), {0, 0, 0});
  h.v[1] = floats<3>(j.value("v1", json()), {0, 0, 0});
  h.vmin = int16_t(j.value("vmin", 0));
  h.vmax = int16_t(j.value("vmax", 0));
  h.htype = uint8_t(j.value("htype", 0));
  if (j.contains("filler")) {
    auto f = hex(j["filler"]);
    if (f.size() != 7) fail("hinge filler is 7 bytes");
    std::copy(f.begin(), f.end(), h.filler.begin());
  }
  return h;
}

std::vector<Seq> seq_of(const json& j) {
  std::vector<Seq> r;
  for (const auto& e : j) {
    if (!e.is_array() || e.size() != 2) fail("a seq entry is [tim, frm]");
    r.push_back({e[0].get<int32_t>(), e[1].get<int32_t>()});
  }
  return r;
}

Kv6 kv6_model(const json& j) {
  only_keys(j, {"xsiz", "ysiz", "zsiz", "pivot", "voxels", "xlen", "ylen", "palette"}, "kv6");
  Kv6 k;
  k.xsiz = j.at("xsiz").get<uint32_t>();
  k.ysiz = j.at("ysiz").get<uint32_t>();
  k.zsiz = j.at("zsiz").get<uint32_t>();
  k.pivot = floats<3>(j.value("pivot", json()), {0, 0, 0});
  for (const auto& v : j.at("voxels")) {
    if (!v.is_array() || v.size() != 4) fail("a kv6 voxel is [col, z, vis, dir]");
    uint32_t col = v[0].is_string() ? uint32_t(std::stoul(v[0].get<std::string>(), nullptr, 16))
                                    : v[0].get<uint32_t>();
    k.voxels.push_back({col, v[1].get<uint16_t>(), v[2].get<uint8_t>(), v[3].get<uint8_t>()});
  }
  for (const auto& x : j.at("xlen")) k.xlen.push_back(x.get<uint32_t>());
  for (const auto& y : j.at("ylen")) k.ylen.push_back(y.get<uint16_t>());
  if (j.contains("palette")) {
    auto p = hex(j["palette"]);
    if (p.size() != 768) fail("a kv6 palette is 768 bytes");
    Kv6Palette pal{};
    std::copy(p.begin(), p.end(), pal.begin());
    k.palette = pal;
  }
  return k;
}

// RVC: {"version": 1|2, "chunks": [{"tag", "flags"?, "len"?, "hex" | "meta" | "frames" |
// "durations"}]}
std::vector<uint8_t> rvc_bytes(const json& j) {
  if (j.contains("hex")) return hex(j["hex"]);
  only_keys(j, {"version", "chunks", "append"}, "rvc");
  const uint16_t version = j.value("version", uint16_t{2});
  std::vector<uint8_t> out = {'R', 'V', 'C', 'L', uint8_t(version), uint8_t(version >> 8)};
  auto u32 = [](std::vector<uint8_t>& b, uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
  };
  for (const auto& c : j.at("chunks")) {
    only_keys(c, {"tag", "flags", "len", "hex", "meta", "frames", "durations"}, "rvc chunk");
    const std::string tag = c.at("tag").get<std::string>();
    if (tag.size() != 4) fail("rvc chunk tags are 4 characters");
    std::vector<uint8_t> payload;
    if (c.contains("hex")) {
      payload = hex(c["hex"]);
    } else if (c.contains("meta")) {
      const json& m = c["meta"];
      only_keys(
          m, {"dims", "pivot", "voxel_world_size", "loop_mode", "default_frame_ms", "frame_count"},
          "rvc meta");
      for (const auto& d : m.at("dims")) u32(payload, d.get<uint32_t>());
      for (float f : floats<3>(m.value("pivot", json()), {0, 0, 0}))
        u32(payload, std::bit_cast<uint32_t>(f));
      u32(payload, std::bit_cast<uint32_t>(f32(m.value("voxel_world_size", json(1.0)))));
      payload.push_back(m.value("loop_mode", uint8_t{0}));
      u32(payload, m.value("default_frame_ms", 33u));
      u32(payload, m.at("frame_count").get<uint32_t>());
    } else if (c.contains("frames")) {
      // [{"key": [[occupancy...], [offsets...], [colors...]]} | {"delta": [[col, [occ...],
      // [colors...]], ...]} | {"kind": k}]
      for (const auto& f : c["frames"]) {
        if (f.contains("key")) {
          payload.push_back(0);
          for (const auto& arr : f["key"]) {
            u32(payload, uint32_t(arr.size()));
            for (const auto& w : arr) u32(payload, w.get<uint32_t>());
          }
        } else if (f.contains("delta")) {
          payload.push_back(1);
          u32(payload, uint32_t(f["delta"].size()));
          for (const auto& col : f["delta"]) {
            u32(payload, col.at(0).get<uint32_t>());
            for (const auto& w : col.at(1)) u32(payload, w.get<uint32_t>());
            u32(payload, uint32_t(col.at(2).size()));
            for (const auto& w : col.at(2)) u32(payload, w.get<uint32_t>());
          }
        } else {
          payload.push_back(f.at("kind").get<uint8_t>());
        }
      }
    } else if (c.contains("durations")) {
      for (const auto& d : c["durations"]) u32(payload, d.get<uint32_t>());
    }
    out.insert(out.end(), tag.begin(), tag.end());
    if (version != 1) out.push_back(c.value("flags", uint8_t{0}));
    u32(out, c.value("len", uint32_t(payload.size())));
    out.insert(out.end(), payload.begin(), payload.end());
  }
  if (j.contains("append")) {
    auto a = hex(j["append"]);
    out.insert(out.end(), a.begin(), a.end());
  }
  return out;
}

std::vector<uint8_t> kv6_bytes(const json& j) {
  if (j.contains("hex")) return hex(j["hex"]);
  auto r = encode_kv6(kv6_model(j));
  if (!r.ok()) fail("encode_kv6: " + r.error().to_text());
  return *r;
}

// An embedded blob given as bytes, decoded by decode (decode_rvc, decode_kv6) under rkc-compat;
// a source error when it does not parse. `what` names the format in the message.
template <class Decode>
auto embedded(const std::vector<uint8_t>& bytes, Decode decode, const char* what) {
  DecodeOptions o;
  o.profile = Profile::RkcCompat;
  auto m = decode(bytes, 0, o);
  if (!m.ok())
    fail(std::string("an embedded ") + what +
         " must parse (use mutations for broken ones): " + m.error().to_text());
  return *m;
}

RvcClip rvc_clip(const json& j) { return embedded(rvc_bytes(j), decode_rvc, "RVC"); }

Kv6 kv6_of(const json& j) {
  if (!j.contains("hex")) return kv6_model(j);
  return embedded(hex(j["hex"]), decode_kv6, "KV6");
}

Character character(const json& j) {
  only_keys(j, {"note", "name", "root", "meshes", "bones", "clips", "voxel_clips", "extra_chunks"},
            "character");
  Character c;
  c.name = name_of(j.value("name", json()));
  c.root = floats<3>(j.value("root", json()), {0, 0, 0});
  for (const auto& m : j.value("meshes", json::array())) c.meshes.push_back(kv6_of(m));
  for (const auto& b : j.value("bones", json::array())) {
    only_keys(b, {"name", "attachments", "hinge"}, "bone");
    Bone bone;
    bone.name = name_of(b.value("name", json()));
    for (const auto& a : b.value("attachments", json::array())) {
      only_keys(a, {"kind", "index", "local_offset", "speed_q8", "start_phase_ms"}, "attachment");
      Attachment at;
      const std::string kind = a.value("kind", std::string("static"));
      if (kind != "static" && kind != "clip") fail("attachment kind is \"static\" or \"clip\"");
      at.kind = kind == "static" ? AttachmentKind::Static : AttachmentKind::Clip;
      at.index = a.value("index", 0u);
      at.local_offset = xform(a.value("local_offset", json()));
      at.speed_q8 = a.value("speed_q8", 256);
      at.start_phase_ms = a.value("start_phase_ms", 0u);
      bone.attachments.push_back(at);
    }
    bone.hinge = hinge(b.value("hinge", json::object()));
    c.bones.push_back(std::move(bone));
  }
  for (const auto& cl : j.value("clips", json::array())) {
    only_keys(cl, {"name", "skeletal", "unknown"}, "clip");
    Clip clip;
    clip.name = name_of(cl.value("name", json()));
    if (cl.contains("skeletal")) {
      const json& s = cl["skeletal"];
      only_keys(s, {"numhin", "frames", "seq"}, "skeletal clip");
      SkeletalClip sk;
      const json& frames = s.value("frames", json::array());
      sk.frame_count = uint32_t(frames.size());
      sk.numhin = s.value("numhin", uint32_t(c.bones.size()));
      for (const auto& row : frames)
        for (const auto& x : row) sk.frames.push_back(xform(x));
      sk.seq = seq_of(s.value("seq", json::array()));
      clip.data = sk;
    } else if (cl.contains("unknown")) {
      only_keys(cl["unknown"], {"kind", "hex"}, "unknown clip");
      clip.data =
          UnknownClip{cl["unknown"].at("kind").get<uint16_t>(), hex(cl["unknown"].at("hex"))};
    } else {
      fail("a clip is \"skeletal\" or \"unknown\"");
    }
    c.clips.push_back(std::move(clip));
  }
  for (const auto& v : j.value("voxel_clips", json::array())) c.voxel_clips.push_back(rvc_clip(v));
  for (const auto& e : j.value("extra_chunks", json::array())) {
    only_keys(e, {"tag", "hex"}, "extra chunk");
    const std::string tag = e.at("tag").get<std::string>();
    if (tag.size() != 4) fail("extra chunk tags are 4 characters");
    ExtraChunk x;
    std::copy(tag.begin(), tag.end(), x.tag.begin());
    x.bytes = hex(e.at("hex"));
    c.extra_chunks.push_back(std::move(x));
  }
  return c;
}

Kfa kfa_model(const json& j) {
  only_keys(j, {"name", "hinges", "frames", "seq"}, "kfa");
  Kfa k;
  const std::string name = name_of(j.value("name", json()));
  k.kv6_name.assign(name.begin(), name.end());
  for (const auto& h : j.value("hinges", json::array())) k.hinges.push_back(hinge(h));
  const json& frames = j.value("frames", json::array());
  k.frame_count = uint32_t(frames.size());
  for (const auto& row : frames)
    for (const auto& v : row) k.frames.push_back(v.get<int16_t>());
  k.seq = seq_of(j.value("seq", json::array()));
  return k;
}

}  // namespace

bool build_rkc_family(const json& spec, const std::string& golden_dir, std::vector<uint8_t>& out,
                      std::string& error) {
  try {
    if (spec.contains("character")) {
      const std::string rel =
          "sources/rkc/characters/" + spec["character"].get<std::string>() + ".json";
      auto text = slurp(golden_dir + "/" + rel);
      if (!text) fail("cannot read " + rel);
      auto r = encode_rkc(character(json::parse(text->begin(), text->end())));
      if (!r.ok()) fail("encode_rkc: " + r.error().to_text());
      out = std::move(*r);
    } else if (spec.contains("kv6")) {
      out = kv6_bytes(spec["kv6"]);
    } else if (spec.contains("rvc")) {
      out = rvc_bytes(spec["rvc"]);
    } else if (spec.contains("kfa")) {
      if (spec["kfa"].contains("hex")) {
        out = hex(spec["kfa"]["hex"]);
      } else {
        auto r = encode_kfa(kfa_model(spec["kfa"]));
        if (!r.ok()) fail("encode_kfa: " + r.error().to_text());
        out = std::move(*r);
      }
    } else {
      fail("no builder");
    }
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return true;
}

}  // namespace voxrig::golden
