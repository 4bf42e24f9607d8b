// Canonical dumps of RKCH / KV6 / KFA (docs/spec/dump.md, "RKCH family"): exact text for small
// files, determinism, and completeness (every model field changes the dump).
#include <functional>

#include "rkc_test_util.h"
#include "voxrig/sha256.h"

namespace voxrig {
namespace {

using test::Bytes;

std::string digest(uint64_t count, const std::vector<uint8_t>& bytes) {
  return "{\n    \"count\": " + std::to_string(count) + ",\n    \"sha256\": \"" +
         to_hex(sha256(bytes)) + "\"\n  }";
}

TEST(RkcDump, MinimalFileExactText) {
  auto c = decode_rkc(Bytes()
                          .str("RKCH")
                          .u16(3)
                          .chunk("META", Bytes().name("").zeros(12))
                          .chunk("MSHS", Bytes().u32(0))
                          .chunk("BONS", Bytes().u32(0))
                          .bytes(),
                      test::strict());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(dump_rkc(c.value()),
            "{\n"
            "  \"schema\": \"voxrig-dump/2\",\n"
            "  \"format\": \"rkc\",\n"
            "  \"name\": \"\",\n"
            "  \"root\": [0.0, 0.0, 0.0],\n"
            "  \"meshes\": [],\n"
            "  \"bones\": [],\n"
            "  \"clips\": [],\n"
            "  \"voxel_clips\": [],\n"
            "  \"extra_chunks\": []\n"
            "}\n");
}

TEST(Kv6Dump, MinimalExampleExactText) {
  auto m = decode_kv6(test::unit_kv6_bytes(0x80FF8040).bytes(), 0, test::strict());
  ASSERT_TRUE(m.ok());
  const std::vector<uint8_t> voxels = {0x40, 0x80, 0xFF, 0x80, 0x00, 0x00, 0x3F, 0x00};
  EXPECT_EQ(dump_kv6(m.value()),
            "{\n"
            "  \"schema\": \"voxrig-dump/2\",\n"
            "  \"format\": \"kv6\",\n"
            "  \"xsiz\": 1,\n"
            "  \"ysiz\": 1,\n"
            "  \"zsiz\": 1,\n"
            "  \"pivot\": [0.5, 0.5, 0.5],\n"
            "  \"voxels\": " +
                digest(1, voxels) +
                ",\n"
                "  \"xlen\": " +
                digest(1, {1, 0, 0, 0}) +
                ",\n"
                "  \"ylen\": " +
                digest(1, {1, 0}) +
                ",\n"
                "  \"palette\": null\n"
                "}\n");
}

TEST(KfaDump, ExactText) {
  Kfa k;
  k.kv6_name = {'a', 0xFF};
  k.hinges.resize(1);
  k.hinges[0].filler[0] = 0xAB;
  k.hinges[0].p[1] = {-0.0f, 1.0f, test::from_bits(0x7FC00001)};
  k.frame_count = 1;
  k.frames = {-2};
  k.seq = {{5, -1}};
  EXPECT_EQ(dump_kfa(k),
            "{\n"
            "  \"schema\": \"voxrig-dump/2\",\n"
            "  \"format\": \"kfa\",\n"
            "  \"kv6_name\": \"61ff\",\n"
            "  \"hinges\": [\n"
            "    {\n"
            "      \"parent\": -1,\n"
            "      \"p0\": [0.0, 0.0, 0.0],\n"
            "      \"p1\": [-0.0, 1.0, \"f32:0x7FC00001\"],\n"
            "      \"v0\": [0.0, 0.0, 0.0],\n"
            "      \"v1\": [0.0, 0.0, 0.0],\n"
            "      \"vmin\": 0,\n"
            "      \"vmax\": 0,\n"
            "      \"htype\": 0,\n"
            "      \"filler\": \"ab000000000000\"\n"
            "    }\n"
            "  ],\n"
            "  \"frame_count\": 1,\n"
            "  \"frames\": " +
                digest(1, {0xFE, 0xFF}) +
                ",\n"
                "  \"seq\": [\n"
                "    [5, -1]\n"
                "  ]\n"
                "}\n");
}

TEST(RkcDump, DeterministicAndShowsTheRepairedNameUnderCompat) {
  Character c = test::synthetic_character();
  c.voxel_clips = {test::seed_voxel_clip()};
  EXPECT_EQ(dump_rkc(c), dump_rkc(c));
  const std::string head = "{\n  \"schema\": \"voxrig-dump/2\",\n  \"format\": \"rkc\",";
  EXPECT_EQ(dump_rkc(c).rfind(head, 0), 0u);
  Bytes f = Bytes().str("RKCH").u16(3);
  f.chunk("META", Bytes().u16(2).raw({0xC0, 0x80}).zeros(12));
  f.chunk("MSHS", Bytes().u32(0)).chunk("BONS", Bytes().u32(0));
  auto r = decode_rkc(f.bytes(), test::compat());
  ASSERT_TRUE(r.ok());
  EXPECT_NE(dump_rkc(r.value()).find("\"name\": \"\xEF\xBF\xBD\xEF\xBF\xBD\""), std::string::npos);
}

TEST(RkcDump, ExtraChunkTagsAreLatin1Text) {
  Character c;
  c.extra_chunks.push_back(ExtraChunk{{'Z', 'Z', 0x01, 0xC3}, {}});
  const std::string d = dump_rkc(c);
  EXPECT_NE(d.find("\"tag\": \"ZZ\\u0001\xC3\x83\""), std::string::npos) << d;
  const std::string empty_sha =
      "\"sha256\": \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"";
  EXPECT_NE(d.find(empty_sha), std::string::npos);
}

// Completeness: every edit of a model field changes the dump (D17: content-different models
// must dump differently; floats by bit pattern).
TEST(RkcDump, EveryFieldChangesTheDump) {
  Character base = test::synthetic_character();
  base.voxel_clips = {test::seed_voxel_clip()};
  base.bones[0].attachments.push_back(Attachment{AttachmentKind::Clip, 0, {}, 256, 0});
  base.clips.push_back(Clip{"u", UnknownClip{7, {1, 2}}});
  base.extra_chunks.push_back(ExtraChunk{{'Z', 'Z', 'Z', 'Z'}, {1}});
  base.meshes[1].palette = Kv6Palette{};
  const std::string ref = dump_rkc(base);
  auto sk = [](Character& c) -> SkeletalClip& { return std::get<SkeletalClip>(c.clips[0].data); };
  const std::vector<std::pair<const char*, std::function<void(Character&)>>> edits = {
      {"name", [](Character& c) { c.name += "x"; }},
      {"root ulp", [](Character& c) { c.root[0] = test::from_bits(test::bits(70.0f) + 1); }},
      {"mesh count", [](Character& c) { c.meshes.push_back(test::unit_kv6(1)); }},
      {"xsiz", [](Character& c) { c.meshes[0].xsiz = 2; }},
      {"ysiz", [](Character& c) { c.meshes[0].ysiz = 2; }},
      {"zsiz", [](Character& c) { c.meshes[0].zsiz = 2; }},
      {"pivot", [](Character& c) { c.meshes[0].pivot[1] = -0.5f; }},
      {"voxel col", [](Character& c) { c.meshes[0].voxels[0].col ^= 1; }},
      {"voxel z", [](Character& c) { c.meshes[0].voxels[0].z = 1; }},
      {"voxel vis", [](Character& c) { c.meshes[0].voxels[0].vis = 1; }},
      {"voxel dir", [](Character& c) { c.meshes[0].voxels[0].dir = 1; }},
      {"xlen", [](Character& c) { c.meshes[0].xlen[0] = 2; }},
      {"ylen", [](Character& c) { c.meshes[0].ylen[0] = 2; }},
      {"palette", [](Character& c) { (*c.meshes[1].palette)[767] = 1; }},
      {"palette absent", [](Character& c) { c.meshes[1].palette.reset(); }},
      {"bone name", [](Character& c) { c.bones[1].name = "leg"; }},
      {"attachment kind",
       [](Character& c) { c.bones[1].attachments[0].kind = AttachmentKind::Clip; }},
      {"attachment index", [](Character& c) { c.bones[1].attachments[0].index = 0; }},
      {"offset t", [](Character& c) { c.bones[1].attachments[0].local_offset.t[2] = 1; }},
      {"offset r", [](Character& c) { c.bones[1].attachments[0].local_offset.r[3] = -1; }},
      {"offset s", [](Character& c) { c.bones[1].attachments[0].local_offset.s[0] = 2; }},
      {"speed", [](Character& c) { c.bones[1].attachments[0].speed_q8 = -256; }},
      {"phase", [](Character& c) { c.bones[1].attachments[0].start_phase_ms = 1; }},
      {"parent", [](Character& c) { c.bones[1].hinge.parent = -1; }},
      {"hinge p", [](Character& c) { c.bones[1].hinge.p[1][0] = 1; }},
      {"hinge v", [](Character& c) { c.bones[1].hinge.v[0][2] = -1; }},
      {"vmin", [](Character& c) { c.bones[1].hinge.vmin = 1; }},
      {"vmax", [](Character& c) { c.bones[1].hinge.vmax = 1; }},
      {"htype", [](Character& c) { c.bones[1].hinge.htype = 1; }},
      {"filler", [](Character& c) { c.bones[1].hinge.filler[6] = 1; }},
      {"clip name", [](Character& c) { c.clips[0].name = "w"; }},
      {"frame_count", [sk](Character& c) { sk(c).frame_count = 5; }},
      {"numhin", [sk](Character& c) { sk(c).numhin = 3; }},
      {"frame -0 -> +0", [sk](Character& c) { sk(c).frames[0].r[0] = 0.0f; }},
      {"seq", [sk](Character& c) { sk(c).seq[4].frm = -2; }},
      {"unknown kind", [](Character& c) { std::get<UnknownClip>(c.clips[1].data).kind = 8; }},
      {"unknown bytes",
       [](Character& c) { std::get<UnknownClip>(c.clips[1].data).bytes.push_back(0); }},
      {"voxel clip", [](Character& c) { c.voxel_clips.push_back(test::seed_voxel_clip()); }},
      {"extra tag", [](Character& c) { c.extra_chunks[0].tag[3] = 'Y'; }},
      {"extra bytes", [](Character& c) { c.extra_chunks[0].bytes[0] = 2; }},
  };
  for (const auto& [what, edit] : edits) {
    Character c = base;
    edit(c);
    EXPECT_FALSE(c == base) << what;
    EXPECT_NE(dump_rkc(c), ref) << what;
  }
}

}  // namespace
}  // namespace voxrig
