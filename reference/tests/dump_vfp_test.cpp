// The canonical VFP dump (docs/spec/dump.md, "VFP"): exact text of a hand-built file, float
// spelling, determinism and completeness. Hashes below were computed outside the code under test
// (Python hashlib over bytes packed with struct from the layouts in docs/spec/).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "voxrig/dump.h"
#include "voxrig/json_out.h"
#include "voxrig/sha256.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig {
namespace {

float from_bits(uint32_t b) { return std::bit_cast<float>(b); }

// VOX0 2x1x1 (voxel 0 = colour 1), an opaque PRVW, and a two-joint rig with one binding and one
// clip; hashes bound. Valid under vfp-rig.
VfpFile tiny_file() {
  VfpFile f;
  f.version_minor = 5;
  Vox0 v;
  v.size_x = 2;
  v.palette = {{0, 0, 0, 0}, {10, 20, 30, 255}};
  v.voxels = {1, 0};
  f.sections.push_back({{make_tag("VOX0"), -1, 0, kSectionRequired}, v});
  f.sections.push_back({{make_tag("PRVW"), 3, 0, 0}, RawPayload{{0xAB}}});
  Skel s;
  s.joints.push_back({0, -1, Trs{}, "Root"});
  Trs arm;
  arm.t = {-0.0f, 0.5f, 2.0f};
  s.joints.push_back({1, 0, arm, "a\"b"});
  f.sections.push_back({{make_tag("SKEL"), -1, 0, 0}, s});
  Vskn k;
  k.default_joint = 0;
  k.bindings = {{0, 1}};
  f.sections.push_back({{make_tag("VSKN"), -1, 0, 0}, k});
  Anim a;
  AnimClip c;
  c.id = 2;
  c.name = "c";
  c.duration_ms = 10;
  AnimKey key;
  key.time_ms = 10;
  key.trs.t = {0.1f, 0, 0};
  key.trs.r = {0, 0, 0, -1};
  c.tracks.push_back({1, {key}});
  a.clips.push_back(c);
  f.sections.push_back({{make_tag("ANIM"), -1, 0, 0}, a});
  rebind(f);
  return f;
}

// Written by hand from docs/spec/dump.md and the JsonOut layout (one key per line).
const char* const kTinyDump = R"({
  "schema": "voxrig-dump/2",
  "format": "vfp",
  "version_minor": 5,
  "source_hash": "57bd85c73a7031389672a2f17ac1c39121e8fc8f4433968b75cc47757de12b56",
  "sections": [
    {
      "tag": "VOX0",
      "chunk_id": -1,
      "codec": 0,
      "flags": 1,
      "length": 22,
      "vox0": {
        "size": [2, 1, 1],
        "palette": [
          [0, 0, 0, 0],
          [10, 20, 30, 255]
        ],
        "voxels": {
          "count": 2,
          "sha256": "47dc540c94ceb704a23875c11273e16bb0b8a87aed84de911f2133568115f254"
        },
        "non_empty_voxels": 1
      }
    },
    {
      "tag": "PRVW",
      "chunk_id": 3,
      "codec": 0,
      "flags": 0,
      "length": 1,
      "opaque": {
        "count": 1,
        "sha256": "087d80f7f182dd44f184aa86ca34488853ebcc04f0c60d5294919a466b463831"
      }
    },
    {
      "tag": "SKEL",
      "chunk_id": -1,
      "codec": 0,
      "flags": 0,
      "length": 139,
      "skel": {
        "base_source_hash": "57bd85c73a7031389672a2f17ac1c39121e8fc8f4433968b75cc47757de12b56",
        "joints": [
          {
            "id": 0,
            "parent": -1,
            "name": "Root",
            "translation": [0.0, 0.0, 0.0],
            "rotation": [0.0, 0.0, 0.0, 1.0],
            "scale": [1.0, 1.0, 1.0]
          },
          {
            "id": 1,
            "parent": 0,
            "name": "a\"b",
            "translation": [-0.0, 0.5, 2.0],
            "rotation": [0.0, 0.0, 0.0, 1.0],
            "scale": [1.0, 1.0, 1.0]
          }
        ]
      }
    },
    {
      "tag": "VSKN",
      "chunk_id": -1,
      "codec": 0,
      "flags": 0,
      "length": 80,
      "vskn": {
        "default_joint": 0,
        "base_source_hash": "57bd85c73a7031389672a2f17ac1c39121e8fc8f4433968b75cc47757de12b56",
        "skeleton_hash": "6637f3bccdb9a09fb462dd041b9efa7d40926308733ab9e47b87606e2d61a09a",
        "bindings": {
          "count": 1,
          "sha256": "588611f65741c171a3d92c1d5343f5dd67f4fc472fc56f01c9bc568f5ac2a623"
        }
      }
    },
    {
      "tag": "ANIM",
      "chunk_id": -1,
      "codec": 0,
      "flags": 0,
      "length": 133,
      "anim": {
        "base_source_hash": "57bd85c73a7031389672a2f17ac1c39121e8fc8f4433968b75cc47757de12b56",
        "skeleton_hash": "6637f3bccdb9a09fb462dd041b9efa7d40926308733ab9e47b87606e2d61a09a",
        "clips": [
          {
            "id": 2,
            "name": "c",
            "duration_ms": 10,
            "tracks": [
              {
                "joint": 1,
                "keys": [
                  {
                    "time_ms": 10,
                    "translation": [0.1, 0.0, 0.0],
                    "rotation": [0.0, 0.0, 0.0, -1.0],
                    "scale": [1.0, 1.0, 1.0]
                  }
                ]
              }
            ]
          }
        ]
      }
    }
  ]
}
)";

TEST(DumpVfp, TinyFileMatchesTheHandWrittenDump) {
  const VfpFile f = tiny_file();
  EXPECT_EQ(dump_vfp(f), kTinyDump);
  // The dump of the decoded file is the same: lengths and hashes are what is on disk.
  auto bytes = encode_vfp(f);
  ASSERT_TRUE(bytes.ok()) << bytes.error().to_text();
  EXPECT_EQ(bytes->size(), 44u + 5 * 16 + 22 + 1 + 139 + 80 + 133);
  auto d = decode_vfp(*bytes, DecodeOptions{Profile::VfpRig, {}});
  ASSERT_TRUE(d.ok()) << d.error().to_text();
  EXPECT_EQ(dump_vfp(*d), kTinyDump);
}

TEST(DumpVfp, StaticProfileDumpsRigSectionsAsOpaqueDigestsOfTheirPayloads) {
  auto bytes = encode_vfp(tiny_file());
  ASSERT_TRUE(bytes.ok());
  auto d = decode_vfp(*bytes, DecodeOptions{Profile::VfpStatic, {}});
  ASSERT_TRUE(d.ok()) << d.error().to_text();
  const auto j = nlohmann::json::parse(dump_vfp(*d));
  const auto& s = j["sections"];
  ASSERT_EQ(s.size(), 5u);
  EXPECT_TRUE(s[0].contains("vox0"));
  // SKEL's payload starts after the header (44), VOX0 (16 + 22) and PRVW (16 + 1), plus its own
  // 16-byte header.
  const size_t skel_at = 44 + 16 + 22 + 16 + 1 + 16;
  const std::span<const uint8_t> skel_payload(bytes->data() + skel_at, 139);
  EXPECT_EQ(s[2]["opaque"]["count"], 139);
  EXPECT_EQ(s[2]["opaque"]["sha256"], to_hex(sha256(skel_payload)));
  EXPECT_EQ(s[2]["opaque"]["sha256"],
            "6637f3bccdb9a09fb462dd041b9efa7d40926308733ab9e47b87606e2d61a09a");
  EXPECT_EQ(s[3]["opaque"]["count"], 80);
  EXPECT_EQ(s[4]["opaque"]["count"], 133);
  EXPECT_EQ(s[4]["length"], 133);
  for (const auto& sec : s) EXPECT_EQ(sec.size(), 6u);  // tag chunk_id codec flags length body
}

TEST(DumpVfp, SeedRigDigests) {
  std::ifstream in(std::string(VOXRIG_SOURCE_DIR) + "/golden/sources/vfp/models/seed_rig.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto f = compile_vfp_json(ss.str(), Limits{});
  ASSERT_TRUE(f.ok()) << f.error().to_text();
  const auto j = nlohmann::json::parse(dump_vfp(*f));
  EXPECT_EQ(j["schema"], "voxrig-dump/2");
  EXPECT_EQ(j["format"], "vfp");
  EXPECT_EQ(j["source_hash"], "49054c00518177f8a949fd8255b778df4bbb98d3021ea504605710f9931fe29b");
  const auto& vox0 = j["sections"][0]["vox0"];
  EXPECT_EQ(vox0["voxels"]["count"], 512);
  EXPECT_EQ(vox0["voxels"]["sha256"],
            "484d4e0fab82ecf4f468f294481a048e85008c8bf25334ce4c074315ab0a8d60");
  EXPECT_EQ(vox0["non_empty_voxels"], 56);
  // One record: voxel 252 -> joint 1, bytes fc 00 00 00 01 00.
  const auto& vskn = j["sections"][2]["vskn"];
  EXPECT_EQ(vskn["bindings"]["count"], 1);
  EXPECT_EQ(vskn["bindings"]["sha256"],
            "79421df0b148664e02c1de5e6c70fdd3c7d5d087b62a82476c043e88437179d0");
  const auto& key1 = j["sections"][3]["anim"]["clips"][0]["tracks"][0]["keys"][1];
  EXPECT_EQ(key1["time_ms"], 800);
  EXPECT_EQ(key1["rotation"][2].get<float>(), 0.7071f);
}

TEST(DumpVfp, FloatSpelling) {
  VfpFile f = tiny_file();
  Skel* s = f.skel();
  ASSERT_NE(s, nullptr);
  s->joints[0].bind.t = {from_bits(0x7FC00000), from_bits(0x7FC00001), from_bits(0xFF800000)};
  s->joints[0].bind.s = {-0.0f, 1e38f, from_bits(0x00000001)};
  s->joints[0].bind.r = {16777216.0f, 0.7071f, -1.5f, from_bits(0x7F800000)};
  const std::string d = dump_vfp(f);
  EXPECT_NE(d.find(R"("translation": ["f32:0x7FC00000", "f32:0x7FC00001", "f32:0xFF800000"])"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find(R"("scale": [-0.0, 1e+38, 1e-45])"), std::string::npos) << d;
  EXPECT_NE(d.find(R"("rotation": [16777216.0, 0.7071, -1.5, "f32:0x7F800000"])"),
            std::string::npos)
      << d;
}

// The compact layout (the glTF writer's) is the canonical tokens with no whitespace at all.
TEST(JsonOut, CompactLayoutWritesTheSameTokensWithoutWhitespace) {
  for (const auto layout : {JsonOut::Layout::Canonical, JsonOut::Layout::Compact}) {
    JsonOut out(layout);
    out.begin_object();
    out.field_string("name", "a \"b\"");
    out.key("xs");
    out.begin_array(true);
    out.value_f32(1.0f);
    out.value_u64(2);
    out.end_array();
    out.key("o");
    out.begin_object();
    out.end_object();
    out.end_object();
    EXPECT_EQ(out.take(), layout == JsonOut::Layout::Compact
                              ? R"({"name":"a \"b\"","xs":[1.0,2],"o":{}})"
                              : "{\n  \"name\": \"a \\\"b\\\"\",\n  \"xs\": [1.0, 2],\n  \"o\": {}\n}\n");
  }
}

TEST(DumpVfp, Deterministic) {
  const VfpFile a = tiny_file();
  const VfpFile b = tiny_file();
  EXPECT_EQ(dump_vfp(a), dump_vfp(a));
  EXPECT_EQ(dump_vfp(a), dump_vfp(b));
  // Valid JSON with exactly the top-level keys of the schema.
  const auto j = nlohmann::json::parse(dump_vfp(a));
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"format", "schema", "sections", "source_hash",
                                            "version_minor"}));
}

TEST(DumpVfp, ChangingAnySingleFieldChangesTheDump) {
  const VfpFile base = tiny_file();
  const std::string base_dump = dump_vfp(base);
  using Edit = std::function<void(VfpFile&)>;
  auto vox0 = [](VfpFile& f) -> Vox0& { return *f.vox0(); };
  auto raw = [](VfpFile& f) -> RawPayload& { return std::get<RawPayload>(f.sections[1].body); };
  auto joint = [](VfpFile& f) -> SkelJoint& { return f.skel()->joints[1]; };
  auto key = [](VfpFile& f) -> AnimKey& { return f.anim()->clips[0].tracks[0].keys[0]; };
  const std::pair<const char*, Edit> edits[] = {
      {"version_minor", [](VfpFile& f) { f.version_minor = 3; }},
      {"section order", [](VfpFile& f) { std::swap(f.sections[0], f.sections[1]); }},
      {"tag", [](VfpFile& f) { f.sections[1].header.tag = make_tag("PRVX"); }},
      {"chunk_id", [](VfpFile& f) { f.sections[1].header.chunk_id = -1; }},
      {"codec", [](VfpFile& f) { f.sections[1].header.codec = 1; }},
      {"flags", [](VfpFile& f) { f.sections[1].header.flags = 1; }},
      {"rig flags", [](VfpFile& f) { f.sections[2].header.flags = 1; }},
      {"raw byte", [&](VfpFile& f) { raw(f).bytes[0] = 0xAC; }},
      {"raw length", [&](VfpFile& f) { raw(f).bytes.push_back(0); }},
      {"size", [&](VfpFile& f) { vox0(f).size_y = 2; }},
      {"palette r", [&](VfpFile& f) { vox0(f).palette[1].r = 11; }},
      {"palette g", [&](VfpFile& f) { vox0(f).palette[1].g = 21; }},
      {"palette b", [&](VfpFile& f) { vox0(f).palette[1].b = 31; }},
      {"palette a", [&](VfpFile& f) { vox0(f).palette[1].a = 254; }},
      {"palette entry 0", [&](VfpFile& f) { vox0(f).palette[0].a = 1; }},
      {"palette count", [&](VfpFile& f) { vox0(f).palette.push_back({}); }},
      {"voxel value", [&](VfpFile& f) { vox0(f).voxels[1] = 1; }},
      {"voxel position",
       [&](VfpFile& f) {
         vox0(f).voxels = {0, 1};
       }},
      {"joint id", [&](VfpFile& f) { joint(f).id = 2; }},
      {"joint parent", [&](VfpFile& f) { joint(f).parent = -1; }},
      {"joint name", [&](VfpFile& f) { joint(f).name = "a\"c"; }},
      {"joint name empty", [&](VfpFile& f) { joint(f).name.clear(); }},
      {"-0.0 -> +0.0", [&](VfpFile& f) { joint(f).bind.t.x = 0.0f; }},
      {"t.y", [&](VfpFile& f) { joint(f).bind.t.y = std::nextafter(0.5f, 1.0f); }},
      {"t.z", [&](VfpFile& f) { joint(f).bind.t.z = 3; }},
      {"r.x", [&](VfpFile& f) { joint(f).bind.r.x = -0.0f; }},
      {"r.y", [&](VfpFile& f) { joint(f).bind.r.y = 1e-45f; }},
      {"r.z", [&](VfpFile& f) { joint(f).bind.r.z = from_bits(0x7FC00000); }},
      {"r.w", [&](VfpFile& f) { joint(f).bind.r.w = -1; }},
      {"s.x", [&](VfpFile& f) { joint(f).bind.s.x = 2; }},
      {"s.y", [&](VfpFile& f) { joint(f).bind.s.y = 2; }},
      {"s.z", [&](VfpFile& f) { joint(f).bind.s.z = 2; }},
      {"joint count", [&](VfpFile& f) { f.skel()->joints.push_back({}); }},
      {"skel base hash", [](VfpFile& f) { f.skel()->base_source_hash[31] ^= 1; }},
      {"default joint", [](VfpFile& f) { f.vskn()->default_joint = 1; }},
      {"vskn base hash", [](VfpFile& f) { f.vskn()->base_source_hash[0] ^= 1; }},
      {"vskn skeleton hash", [](VfpFile& f) { f.vskn()->skeleton_hash[0] ^= 1; }},
      {"binding offset", [](VfpFile& f) { f.vskn()->bindings[0].voxel_offset = 1; }},
      {"binding joint", [](VfpFile& f) { f.vskn()->bindings[0].joint = 0; }},
      {"binding count", [](VfpFile& f) { f.vskn()->bindings.clear(); }},
      {"anim base hash", [](VfpFile& f) { f.anim()->base_source_hash[5] ^= 1; }},
      {"anim skeleton hash", [](VfpFile& f) { f.anim()->skeleton_hash[5] ^= 1; }},
      {"clip id", [](VfpFile& f) { f.anim()->clips[0].id = 3; }},
      {"clip name", [](VfpFile& f) { f.anim()->clips[0].name = "d"; }},
      {"clip duration", [](VfpFile& f) { f.anim()->clips[0].duration_ms = 11; }},
      {"clip count", [](VfpFile& f) { f.anim()->clips.push_back({}); }},
      {"track joint", [](VfpFile& f) { f.anim()->clips[0].tracks[0].joint = 0; }},
      {"track count", [](VfpFile& f) { f.anim()->clips[0].tracks.push_back({}); }},
      {"key time", [&](VfpFile& f) { key(f).time_ms = 9; }},
      {"key t.x", [&](VfpFile& f) { key(f).trs.t.x = std::nextafter(0.1f, 1.0f); }},
      {"key t.y", [&](VfpFile& f) { key(f).trs.t.y = -0.0f; }},
      {"key t.z", [&](VfpFile& f) { key(f).trs.t.z = 1; }},
      {"key r.x", [&](VfpFile& f) { key(f).trs.r.x = 1; }},
      {"key r.y", [&](VfpFile& f) { key(f).trs.r.y = 1; }},
      {"key r.z", [&](VfpFile& f) { key(f).trs.r.z = 1; }},
      {"key r.w NaN payload", [&](VfpFile& f) { key(f).trs.r.w = from_bits(0xFFC00001); }},
      {"key s.x", [&](VfpFile& f) { key(f).trs.s.x = 0; }},
      {"key s.y", [&](VfpFile& f) { key(f).trs.s.y = 0; }},
      {"key s.z", [&](VfpFile& f) { key(f).trs.s.z = 0; }},
      {"key count", [&](VfpFile& f) { f.anim()->clips[0].tracks[0].keys.push_back({}); }},
  };
  std::vector<std::string> seen = {base_dump};
  for (const auto& [what, edit] : edits) {
    VfpFile f = base;
    edit(f);
    const std::string d = dump_vfp(f);
    EXPECT_NE(d, base_dump) << what;
    // No two edits collide either.
    EXPECT_EQ(std::count(seen.begin(), seen.end(), d), 0) << what;
    seen.push_back(d);
  }
}

// Every single-bit change of a valid file that a profile still accepts changes its dump:
// nothing in the file escapes the dump.
TEST(DumpVfp, EveryAcceptedBitFlipChangesTheDump) {
  auto bytes = encode_vfp(tiny_file());
  ASSERT_TRUE(bytes.ok());
  for (Profile p : {Profile::VfpRig, Profile::VfpStatic}) {
    auto base = decode_vfp(*bytes, DecodeOptions{p, {}});
    ASSERT_TRUE(base.ok());
    const std::string base_dump = dump_vfp(*base);
    int accepted = 0;
    for (size_t i = 0; i < bytes->size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        std::vector<uint8_t> m = *bytes;
        m[i] ^= static_cast<uint8_t>(1u << bit);
        auto d = decode_vfp(m, DecodeOptions{p, {}});
        if (!d.ok()) continue;
        ++accepted;
        ASSERT_NE(dump_vfp(*d), base_dump) << to_string(p) << " byte " << i << " bit " << bit;
      }
    }
    // vfp-static accepts any change inside the rig payloads; vfp-rig many float/name bits.
    EXPECT_GT(accepted, p == Profile::VfpStatic ? 2000 : 100) << to_string(p);
  }
}

}  // namespace
}  // namespace voxrig
