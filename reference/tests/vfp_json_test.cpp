// JSON compile input (docs/spec/compile.md#top-level, D16, D24): the seed's
// example, defaults and ordering, numbers, offsets, garbage. Every expectation (codes, JSON
// paths, offsets, hashes, bit patterns) is written by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "vfp_json_test_util.h"
#include "voxrig/sha256.h"

namespace voxrig {
namespace {

using namespace json_test;

// ---- the seed's example (D24) ----------------------------------------------------------------

TEST(VfpJsonSeed, RigExampleCompilesAndDecodesUnderVfpRig) {
  const std::string text = read_example("seed_rig.json");
  ASSERT_FALSE(text.empty());
  VfpFile file = compile_ok(text);
  ASSERT_EQ(file.sections.size(), 4u);
  EXPECT_EQ(file.sections[0].header.tag, make_tag("VOX0"));
  EXPECT_EQ(file.sections[0].header.flags, kSectionRequired);
  EXPECT_EQ(file.sections[1].header.tag, make_tag("SKEL"));
  EXPECT_EQ(file.sections[2].header.tag, make_tag("VSKN"));
  EXPECT_EQ(file.sections[3].header.tag, make_tag("ANIM"));
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(file.sections[i].header.chunk_id, -1);
    EXPECT_EQ(file.sections[i].header.codec, 0);
    EXPECT_EQ(file.sections[i].header.flags, 0);
  }

  auto bytes = encode_vfp(file);
  ASSERT_TRUE(bytes.ok()) << bytes.error().to_text();
  auto decoded = decode_vfp(*bytes, DecodeOptions{Profile::VfpRig, {}});
  ASSERT_TRUE(decoded.ok()) << decoded.error().to_text();
  EXPECT_TRUE(*decoded == file);

  const Skel* skel = decoded->skel();
  ASSERT_NE(skel, nullptr);
  ASSERT_EQ(skel->joints.size(), 2u);
  EXPECT_EQ(skel->joints[0].name, "Root");
  EXPECT_EQ(skel->joints[0].id, 0);
  EXPECT_EQ(skel->joints[0].parent, -1);
  EXPECT_EQ(skel->joints[1].name, "Arm");
  EXPECT_EQ(skel->joints[1].parent, 0);
  EXPECT_EQ(bits(skel->joints[1].bind.t.x), 0x3F800000u);  // 1.0

  const Vskn* vskn = decoded->vskn();
  ASSERT_NE(vskn, nullptr);
  EXPECT_EQ(vskn->default_joint, 0);
  ASSERT_EQ(vskn->bindings.size(), 1u);
  EXPECT_EQ(vskn->bindings[0].voxel_offset, 252u);  // 4 + 8 * (7 + 8 * 3)
  EXPECT_EQ(vskn->bindings[0].joint, 1);

  const Anim* anim = decoded->anim();
  ASSERT_NE(anim, nullptr);
  ASSERT_EQ(anim->clips.size(), 1u);
  EXPECT_EQ(anim->clips[0].name, "wave");
  EXPECT_EQ(anim->clips[0].duration_ms, 800u);
  ASSERT_EQ(anim->clips[0].tracks.size(), 1u);
  const AnimTrack& track = anim->clips[0].tracks[0];
  EXPECT_EQ(track.joint, 1);
  ASSERT_EQ(track.keys.size(), 2u);
  // Key 0 has no TRS: it takes the Arm's bind pose, translation (1, 0, 0).
  EXPECT_EQ(track.keys[0].time_ms, 0u);
  EXPECT_TRUE(track.keys[0].trs == skel->joints[1].bind);
  EXPECT_EQ(bits(track.keys[0].trs.t.x), 0x3F800000u);
  EXPECT_EQ(bits(track.keys[0].trs.r.w), 0x3F800000u);
  // Key 1: rotation given; translation and scale from the bind pose.
  EXPECT_EQ(track.keys[1].time_ms, 800u);
  EXPECT_EQ(bits(track.keys[1].trs.r.z), 0x3F350481u);  // 0.7071 as binary32
  EXPECT_EQ(bits(track.keys[1].trs.r.w), 0x3F350481u);
  EXPECT_EQ(bits(track.keys[1].trs.t.x), 0x3F800000u);
  EXPECT_EQ(bits(track.keys[1].trs.s.y), 0x3F800000u);

  // Hashes are bound: the decode under vfp-rig checked them; check the values too.
  const Sha256 source = sha256(encode_vox0(*decoded->vox0()));
  auto skel_bytes = encode_skel(*skel);
  ASSERT_TRUE(skel_bytes.ok());
  EXPECT_EQ(skel->base_source_hash, source);
  EXPECT_EQ(vskn->skeleton_hash, sha256(*skel_bytes));
  EXPECT_EQ(anim->skeleton_hash, sha256(*skel_bytes));
}

TEST(VfpJsonSeed, StaticTwinHasTheSameSourceHashAndNoRig) {
  const std::string rig_text = read_example("seed_rig.json");
  const std::string static_text = read_example("seed_static.json");
  VfpFile rigged = compile_ok(rig_text);
  VfpFile plain = compile_ok(static_text);
  ASSERT_EQ(plain.sections.size(), 1u);
  EXPECT_EQ(plain.skel(), nullptr);

  // The VOX0 payload, built here from the example's voxel list (read with nlohmann directly).
  const auto j = nlohmann::json::parse(static_text);
  std::vector<uint8_t> payload = {1, 0, 4, 0, 8, 0, 8, 0, 8, 0, 0, 0};
  for (const auto& c : j["palette"]) {
    for (int k = 0; k < 4; ++k) payload.push_back(c[k].get<uint8_t>());
  }
  std::vector<uint8_t> grid(512, 0);
  for (const auto& v : j["voxels"]) {
    grid[v[0].get<int>() + 8 * (v[1].get<int>() + 8 * v[2].get<int>())] = v[3].get<uint8_t>();
  }
  payload.insert(payload.end(), grid.begin(), grid.end());
  ASSERT_EQ(payload.size(), 540u);
  EXPECT_EQ(to_hex(sha256(payload)),
            "49054c00518177f8a949fd8255b778df4bbb98d3021ea504605710f9931fe29b");

  auto a = encode_vfp(rigged);
  auto b = encode_vfp(plain);
  ASSERT_TRUE(a.ok() && b.ok());
  // Header: magic, version, flags, sectionCount, then sourceHash at bytes 12..43.
  const std::vector<uint8_t> hash_a(a->begin() + 12, a->begin() + 44);
  const std::vector<uint8_t> hash_b(b->begin() + 12, b->begin() + 44);
  EXPECT_EQ(to_hex(hash_a), to_hex(sha256(payload)));
  EXPECT_EQ(hash_a, hash_b);
  EXPECT_EQ(b->size(), 44u + 16u + 540u);
}

// ---- defaults, ordering, output shape -------------------------------------------------------

TEST(VfpJsonCompile, MinimalStaticModel) {
  VfpFile f = compile_ok(R"({"size":[1,1,1],"palette":[[0,0,0,0]],"voxels":[]})");
  ASSERT_EQ(f.sections.size(), 1u);
  EXPECT_EQ(f.version_minor, 3);
  const Vox0* v = f.vox0();
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->voxels, std::vector<uint8_t>{0});
  compile_ok(R"({"vfp":"1.3","size":[1,1,1],"palette":[[0,0,0,0]],"voxels":[]})");
}

TEST(VfpJsonCompile, VoxelGridIsXFastestAndDuplicatesIdenticalAreAccepted) {
  VfpFile f = compile_ok(R"({"size":[2,2,2],"palette":[[0,0,0,0],[1,2,3,4],[5,6,7,8]],)"
                         R"("voxels":[[1,1,1,2],[0,1,0,1],[1,1,1,2],[-0,0,1,1]]})");
  const Vox0* v = f.vox0();
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->voxels, (std::vector<uint8_t>{0, 0, 1, 0, 1, 0, 0, 2}));
  EXPECT_EQ(v->palette[2], (Rgba{5, 6, 7, 8}));
}

TEST(VfpJsonCompile, RigDefaults) {
  VfpFile f = compile_ok(rig(R"("joints":[{"id":3},{"id":1,"parent":3}])"));
  ASSERT_EQ(f.sections.size(), 3u);  // no ANIM without clips
  const Skel* s = f.skel();
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->joints.size(), 2u);
  EXPECT_EQ(s->joints[0].id, 1);  // sorted by id
  EXPECT_EQ(s->joints[0].parent, 3);
  EXPECT_EQ(s->joints[1].id, 3);
  EXPECT_EQ(s->joints[1].parent, -1);  // no parent: root
  EXPECT_EQ(s->joints[1].name, "");
  EXPECT_TRUE(s->joints[1].bind == Trs{});  // 0,0,0 / 0,0,0,1 / 1,1,1
  EXPECT_EQ(bits(s->joints[1].bind.r.w), 0x3F800000u);
  EXPECT_EQ(bits(s->joints[1].bind.s.z), 0x3F800000u);
  // default_joint = the first joint in JSON order (3), not the smallest id.
  ASSERT_NE(f.vskn(), nullptr);
  EXPECT_EQ(f.vskn()->default_joint, 3);
  EXPECT_TRUE(f.vskn()->bindings.empty());
}

TEST(VfpJsonCompile, EmptyAnimationsWriteNoAnimButVsknIsAlwaysWritten) {
  VfpFile f = compile_ok(rig(kJoints + R"(,"animations":[])"));
  ASSERT_EQ(f.sections.size(), 3u);
  EXPECT_EQ(f.sections[2].header.tag, make_tag("VSKN"));
  EXPECT_EQ(f.anim(), nullptr);
}

TEST(VfpJsonCompile, BindingsSortedDedupedAndDefaultDropped) {
  VfpFile f = compile_ok(rig(kJoints + R"(,"default_joint":1,"bindings":[)"
                                       R"({"position":[0,1,0],"joint":0},)"
                                       R"({"position":[1,0,0],"joint":1},)"
                                       R"({"position":[0,0,0],"joint":0},)"
                                       R"({"position":[0,1,0],"joint":0}])"));
  const Vskn* v = f.vskn();
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->default_joint, 1);
  // [1,0,0] -> joint 1 = default: dropped; [0,1,0] given twice identically: once.
  ASSERT_EQ(v->bindings.size(), 2u);
  EXPECT_EQ(v->bindings[0], (VsknBinding{0, 0}));
  EXPECT_EQ(v->bindings[1], (VsknBinding{2, 0}));
}

TEST(VfpJsonCompile, ClipsAndTracksSortedKeysKeptAndDefaultedFromTheTracksJoint) {
  VfpFile f = compile_ok(
      rig(R"("joints":[{"id":0},{"id":1,"parent":0,"translation":[1,2,3],"scale":[2,2,2]}],)"
          R"("animations":[)"
          R"({"id":5,"name":"b","duration_ms":10,"tracks":[)"
          R"(  {"joint":1,"keys":[{"time_ms":0,"translation":[0.5,0,0]},{"time_ms":10}]},)"
          R"(  {"joint":0,"keys":[{"time_ms":3,"rotation":[0,0,1,0]}]}]},)"
          R"({"id":2,"duration_ms":0}])"));
  const Anim* a = f.anim();
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->clips.size(), 2u);
  EXPECT_EQ(a->clips[0].id, 2);
  EXPECT_EQ(a->clips[0].name, "");
  EXPECT_TRUE(a->clips[0].tracks.empty());  // missing tracks = []
  EXPECT_EQ(a->clips[1].id, 5);
  EXPECT_EQ(a->clips[1].name, "b");
  ASSERT_EQ(a->clips[1].tracks.size(), 2u);
  EXPECT_EQ(a->clips[1].tracks[0].joint, 0);
  EXPECT_EQ(a->clips[1].tracks[1].joint, 1);
  const AnimKey& k0 = a->clips[1].tracks[1].keys[0];
  EXPECT_EQ(bits(k0.trs.t.x), 0x3F000000u);  // 0.5 given
  EXPECT_EQ(bits(k0.trs.t.y), 0x00000000u);  // a given vector is taken whole
  EXPECT_EQ(bits(k0.trs.s.x), 0x40000000u);  // 2 from the joint's bind scale
  const AnimKey& k1 = a->clips[1].tracks[1].keys[1];
  EXPECT_EQ(k1.time_ms, 10u);                // equal to the duration: allowed
  EXPECT_EQ(bits(k1.trs.t.z), 0x40400000u);  // 3
  const AnimKey& r = a->clips[1].tracks[0].keys[0];
  EXPECT_EQ(bits(r.trs.r.z), 0x3F800000u);
  EXPECT_EQ(bits(r.trs.r.w), 0x00000000u);
  // The whole thing is a valid file under vfp-rig.
  auto bytes = encode_vfp(f);
  ASSERT_TRUE(bytes.ok());
  auto back = decode_vfp(*bytes, DecodeOptions{Profile::VfpRig, {}});
  ASSERT_TRUE(back.ok()) << back.error().to_text();
  EXPECT_TRUE(*back == f);
}

// docs/spec/vfp.md, Order: the compiler writes the canonical order: VOX0, the caches in JSON
// order, SKEL VSKN ANIM, then the unknown sections in JSON order.
TEST(VfpJsonCompile, ExtraSectionsInCanonicalOrderAroundTheRig) {
  VfpFile f = compile_ok(doc(R"(,"sections":[{"tag":"PRVW","payload_hex":"aBcD"},)"
                             R"({"tag":"ZZZ9","chunk_id":7,"flags":0,"payload_hex":""},)"
                             R"({"tag":"MSH0","chunk_id":-1,"flags":1,"payload_hex":"00"}],)"
                             R"("rig":{"joints":[{"id":0}]})"));
  ASSERT_EQ(f.sections.size(), 6u);
  EXPECT_EQ(f.sections[0].header.tag, make_tag("VOX0"));
  EXPECT_EQ(f.sections[1].header.tag, make_tag("PRVW"));
  EXPECT_EQ(f.sections[1].header.chunk_id, -1);  // default
  EXPECT_EQ(f.sections[1].header.flags, 0);      // default
  EXPECT_EQ(std::get<RawPayload>(f.sections[1].body).bytes, (std::vector<uint8_t>{0xAB, 0xCD}));
  EXPECT_EQ(f.sections[2].header.tag, make_tag("MSH0"));
  EXPECT_EQ(f.sections[2].header.flags, 1);  // a known cache may be REQUIRED
  EXPECT_EQ(f.sections[3].header.tag, make_tag("SKEL"));
  EXPECT_EQ(f.sections[4].header.tag, make_tag("VSKN"));
  EXPECT_EQ(f.sections[5].header.tag, make_tag("ZZZ9"));
  EXPECT_EQ(f.sections[5].header.chunk_id, 7);
  EXPECT_TRUE(std::get<RawPayload>(f.sections[5].body).bytes.empty());
  auto bytes = encode_vfp(f);
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(decode_vfp(*bytes, DecodeOptions{Profile::VfpRig, {}}).ok());
  auto canon = encode_vfp(canonicalized(f));
  ASSERT_TRUE(canon.ok());
  EXPECT_EQ(*canon, *bytes);
}

// ---- numbers (D16) ---------------------------------------------------------------------------

float joint_tx(const std::string& literal) {
  VfpFile f = compile_ok(joints(R"({"id":0,"translation":[)" + literal + ",0,0]}"));
  return f.skel() ? f.skel()->joints[0].bind.t.x : 0.0f;
}

TEST(VfpJsonNumbers, FloatsRoundToNearestDoubleThenBinary32) {
  EXPECT_EQ(bits(joint_tx("0.1")), 0x3DCCCCCDu);
  EXPECT_EQ(bits(joint_tx("-0.0")), 0x80000000u);
  EXPECT_EQ(bits(joint_tx("-0")), 0x00000000u);                    // an integer literal: -0 is 0
  EXPECT_EQ(bits(joint_tx("1e-46")), 0x00000000u);                 // underflows to +0
  EXPECT_EQ(bits(joint_tx("1.4e-45")), 0x00000001u);               // smallest denormal
  EXPECT_EQ(bits(joint_tx("16777217")), 0x4B800000u);              // ties to even: 2^24
  EXPECT_EQ(bits(joint_tx("3.4028235e38")), 0x7F7FFFFFu);          // FLT_MAX
  EXPECT_EQ(bits(joint_tx("-3.40282356779733e38")), 0xFF7FFFFFu);  // just under the edge
  // 1 + 2^-24 + 1.6e-20: the nearest double is the midpoint 1 + 2^-24 itself, which rounds to
  // even (1.0). Rounding the decimal straight to binary32 would give 1 + 2^-23: the spec says
  // "nearest double, then binary32".
  EXPECT_EQ(bits(joint_tx("1.0000000596046447755")), 0x3F800000u);
  EXPECT_EQ(bits(joint_tx("1.000000059604645")), 0x3F800001u);
  // An integer literal beyond 64 bits is still a number for a float field.
  EXPECT_EQ(bits(joint_tx("100000000000000000000")), 0x60AD78ECu);  // 1e20f
}

TEST(VfpJsonNumbers, Errors) {
  const ErrCase cases[] = {
      {"overflow to inf", joints(R"({"id":0,"translation":[3.4028236e38,0,0]})"),
       "json.float_overflow", "$.rig.joints[0].translation[0]"},
      {"exactly FLT_MAX + half ulp",
       joints(R"({"id":0,"scale":[1,1,-3.4028235677973366163753939545814256845e38]})"),
       "json.float_overflow", "$.rig.joints[0].scale[2]"},
      {"exact edge as an integer literal",
       joints(R"({"id":0,"translation":[340282356779733661637539395458142568448,0,0]})"),
       "json.float_overflow", "$.rig.joints[0].translation[0]"},
      {"beyond double", joints(R"({"id":0,"translation":[0,1e400,0]})"), "json.float_overflow",
       "$.rig.joints[0].translation[1]"},
      {"integer beyond double",
       doc(R"(,"rig":{"joints":[{"id":1)" + std::string(400, '0') + "}]}}"), "json.range",
       "$.rig.joints[0].id"},
      {"integer 1.0", joints(R"({"id":1.0})"), "json.type", "$.rig.joints[0].id"},
      {"integer 1e0", joints(R"({"id":1e0})"), "json.type", "$.rig.joints[0].id"},
      {"integer true", joints(R"({"id":true})"), "json.type", "$.rig.joints[0].id"},
      {"integer string", joints(R"({"id":"1"})"), "json.type", "$.rig.joints[0].id"},
      {"integer null", joints(R"({"id":null})"), "json.type", "$.rig.joints[0].id"},
      {"u16 over", joints(R"({"id":65536})"), "json.range", "$.rig.joints[0].id"},
      {"negative id", joints(R"({"id":-1})"), "json.range", "$.rig.joints[0].id"},
      {"beyond u64", joints(R"({"id":18446744073709551616})"), "json.range", "$.rig.joints[0].id"},
      {"float as bool", joints(R"({"id":0,"scale":[1,false,1]})"), "json.type",
       "$.rig.joints[0].scale[1]"},
      {"NaN literal", joints(R"({"id":0,"scale":[1,NaN,1]})"), "json.syntax",
       "$.rig.joints[0].scale[1]"},
      {"Infinity literal", joints(R"({"id":0,"scale":[1,Infinity,1]})"), "json.syntax",
       "$.rig.joints[0].scale[1]"},
      {"-Infinity literal", joints(R"({"id":0,"scale":[1,-Infinity,1]})"), "json.syntax",
       "$.rig.joints[0].scale[1]"},
  };
  for (const ErrCase& c : cases) expect_error(c);
  // The limits of the integer ranges pass.
  compile_ok(joints(R"({"id":65535})"));
  compile_ok(clips(R"({"id":0,"duration_ms":4294967295})"));
  compile_ok(joints(R"({"id":0},{"id":32767,"parent":0},{"id":1,"parent":32767})"));
}

// ---- offsets ---------------------------------------------------------------------------------

TEST(VfpJsonOffsets, PointAtTheOffendingToken) {
  const std::string text =
      "{\n  \"size\": [1, 1, 1],\n  \"palette\": [[0,0,0,0]],\n  \"voxels\": [],\n  \"oops\": 1\n}";
  auto r = compile_vfp_json(text, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonUnknownKey);
  EXPECT_EQ(r.error().offset, text.find("\"oops\""));

  const std::string t2 = R"({"size": [1, 1.5, 1], "palette": [[0,0,0,0]], "voxels": []})";
  r = compile_vfp_json(t2, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonType);
  EXPECT_EQ(r.error().offset, t2.find("1.5"));

  const std::string t3 = R"({"size": [1, 1, 1], "size": [1, 1, 1]})";
  r = compile_vfp_json(t3, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonDuplicateKey);
  EXPECT_EQ(r.error().offset, 20u);

  const std::string t4 = "{\"size\": [1, 1, 1], \"palette\": \"x\\\"y\", \"voxels\": []}";
  r = compile_vfp_json(t4, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonType);
  EXPECT_EQ(r.error().offset, t4.find("\"x"));

  // Missing keys point at the object that lacks them.
  const std::string t5 =
      R"({"size": [1, 1, 1], "palette": [[0,0,0,0]], "voxels": [], "rig": {"joints": [ {"parent": 0}]}})";
  r = compile_vfp_json(t5, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonMissingKey);
  EXPECT_EQ(r.error().offset, t5.find("{\"parent\""));

  // A syntax error: offset of the character nlohmann stopped at.
  const std::string t6 = R"({"size": [1, 1, 1],, "palette": []})";
  r = compile_vfp_json(t6, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonSyntax);
  EXPECT_EQ(r.error().offset, 19u);
}

TEST(VfpJsonOffsets, ByteOrderMarkIsSkippedButCounted) {
  // nlohmann skips a leading UTF-8 BOM (RFC 8259 lets a parser ignore it); offsets still count
  // from the first byte of the text.
  const std::string body = R"({"size":[1,1,1],"palette":[[0,0,0,0]],"voxels":[],"x":1})";
  auto r = compile_vfp_json("\xEF\xBB\xBF" + body, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonUnknownKey);
  EXPECT_EQ(r.error().offset, 3 + body.find("\"x\""));
  EXPECT_TRUE(compile_vfp_json("\xEF\xBB\xBF" + doc(), Limits{}).ok());
}

// ---- garbage never crashes -------------------------------------------------------------------

TEST(VfpJsonGarbage, SyntaxErrors) {
  const ErrCase cases[] = {
      {"empty", "", "json.syntax", "$"},
      {"spaces", "   ", "json.syntax", "$"},
      {"comment", "{/*c*/" + kVox + "}", "json.syntax", "$"},
      {"trailing comma", "{" + kVox + ",}", "json.syntax", "$"},
      {"trailing garbage", doc() + "x", "json.syntax", "$"},
      {"two documents", doc() + doc(), "json.syntax", "$"},
      {"single quotes", "{'size':[1,1,1]}", "json.syntax", "$"},
      {"bad utf-8 in string", joints("{\"id\":0,\"name\":\"\xC0\x80\"}"), "json.syntax",
       "$.rig.joints[0].name"},
      {"raw control char", joints("{\"id\":0,\"name\":\"a\nb\"}"), "json.syntax",
       "$.rig.joints[0].name"},
      // The lexer ends the number before 'x' / '1': the error comes after a complete value.
      {"hex number", joints(R"({"id":0x10})"), "json.syntax", "$.rig.joints[0]"},
      {"leading zero", joints(R"({"id":01})"), "json.syntax", "$.rig.joints[0]"},
      {"plus sign", joints(R"({"id":+1})"), "json.syntax", "$.rig.joints[0].id"},
  };
  for (const ErrCase& c : cases) expect_error(c);
}

TEST(VfpJsonGarbage, EveryTruncationOfTheSeedIsASyntaxError) {
  const std::string text = read_example("seed_rig.json");
  ASSERT_GT(text.size(), 100u);
  // The document ends with "}\n": every prefix shorter than the closing brace is incomplete.
  const size_t end = text.rfind('}');
  for (size_t n = 0; n < end; ++n) {
    auto r = compile_vfp_json(std::string_view(text).substr(0, n), Limits{});
    ASSERT_FALSE(r.ok()) << n;
    ASSERT_EQ(r.error().code, ErrorCode::JsonSyntax) << n << ": " << r.error().to_text();
    ASSERT_LE(r.error().offset, n);
  }
}

TEST(VfpJsonGarbage, DeepNestingIsALimitNotACrash) {
  expect_error({"arrays", std::string(100000, '['), "json.limit", "$" + [] {
                  std::string s;
                  for (int i = 0; i < 64; ++i) s += "[0]";
                  return s;
                }()});
  std::string objs;
  for (int i = 0; i < 100000; ++i) objs += "{\"a\":";
  auto r = compile_vfp_json(objs, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonLimit);
  // 64 levels are fine for the parser; the schema then rejects the shape.
  expect_error({"64 deep",
                R"({"size":)" + std::string(63, '[') + std::string(63, ']') +
                    R"(,"palette":[[0,0,0,0]],"voxels":[]})",
                "json.type", "$.size"});
}

TEST(VfpJsonGarbage, HugeNumbers) {
  expect_error({"exponent", joints(R"({"id":0,"translation":[1e999999999,0,0]})"),
                "json.float_overflow", "$.rig.joints[0].translation[0]"});
  expect_error({"long integer",
                doc(R"(,"rig":{"joints":[{"id":-)" + std::string(5000, '9') + "}]}}"), "json.range",
                "$.rig.joints[0].id"});
  expect_error({"long fraction", joints(R"({"id":0.)" + std::string(5000, '0') + "1}"), "json.type",
                "$.rig.joints[0].id"});
  VfpFile f = compile_ok(
      joints(R"({"id":0,"translation":[0.)" + std::string(5000, '0') + "1,1e-999999,0]}"));
  ASSERT_NE(f.skel(), nullptr);
  EXPECT_EQ(bits(f.skel()->joints[0].bind.t.x), 0u);
  EXPECT_EQ(bits(f.skel()->joints[0].bind.t.y), 0u);
}

// Replaces every value of the seed document, one at a time, with values of every other type;
// the compiler must answer (accept or a json.* error), never crash.
void mutate_all(const nlohmann::json& root, nlohmann::json& node, int& runs) {
  static const nlohmann::json kReplacements[] = {nullptr,
                                                 true,
                                                 -1,
                                                 70000,
                                                 1.5,
                                                 "s",
                                                 nlohmann::json::array(),
                                                 nlohmann::json::object(),
                                                 nlohmann::json::array({1, 2, 3})};
  for (const auto& rep : kReplacements) {
    nlohmann::json saved = node;
    node = rep;
    auto r = compile_vfp_json(root.dump(), Limits{});
    if (!r.ok()) {
      EXPECT_EQ(to_string(r.error().code).substr(0, 5), "json.") << root.dump();
    }
    ++runs;
    node = std::move(saved);
  }
  if (node.is_structured()) {
    for (auto& child : node) mutate_all(root, child, runs);
  }
}

TEST(VfpJsonGarbage, WrongTypesAtEveryLevel) {
  nlohmann::json root = nlohmann::json::parse(read_example("seed_rig.json"));
  int runs = 0;
  for (auto& [key, value] : root.items()) mutate_all(root, value, runs);
  EXPECT_GT(runs, 1000);
}

TEST(VfpJsonGarbage, RandomByteEditsNeverCrash) {
  const std::string text = read_example("seed_rig.json");
  uint64_t state = 0x9E3779B97F4A7C15u;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const char kAlphabet[] = "{}[]\":,0123456789-.eE truefalsnul\\u\x80\xff";
  for (int i = 0; i < 3000; ++i) {
    std::string t = text;
    const int edits = 1 + static_cast<int>(next() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = next() % t.size();
      const char c = kAlphabet[next() % (sizeof kAlphabet - 1)];
      switch (next() % 3) {
        case 0:
          t[at] = c;
          break;
        case 1:
          t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        default:
          t.erase(at, 1);
          break;
      }
    }
    auto r = compile_vfp_json(t, Limits{});
    if (r.ok()) {
      // Whatever compiles is a valid file.
      auto bytes = encode_vfp(*r);
      ASSERT_TRUE(bytes.ok()) << t;
      ASSERT_TRUE(decode_vfp(*bytes, DecodeOptions{Profile::VfpRig, {}}).ok()) << t;
    } else {
      ASSERT_EQ(to_string(r.error().code).substr(0, 5), "json.") << t;
    }
  }
}

}  // namespace
}  // namespace voxrig
