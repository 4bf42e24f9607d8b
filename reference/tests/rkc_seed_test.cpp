// Ports of every test in the seed's character.rs test module (seed 004), against hand-written
// bytes where the seed compared serialize() with itself. to_kfa_sprite / animsprite belong to
// the evaluation jobs and are tested there.
#include "rkc_test_util.h"

namespace voxrig {
namespace {

using test::Bytes;

std::vector<uint8_t> encode_ok(const Character& c) {
  auto r = encode_rkc(c);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_text());
  return r.ok() ? r.value() : std::vector<uint8_t>{};
}

TEST(RkcSeed, HingeAngleRotationsHaveTheSeedsBitPatterns) {
  const std::array<float, 3> z{0, 0, 1};
  const BoneXform a = from_hinge_angle(z, 16000);
  EXPECT_EQ(test::bits(a.r[0]), 0x80000000u);
  EXPECT_EQ(test::bits(a.r[1]), 0x80000000u);
  EXPECT_EQ(test::bits(a.r[2]), 0xBF31A81Du);
  EXPECT_EQ(test::bits(a.r[3]), 0x3F385215u);
  const BoneXform zero = from_hinge_angle(z, 0);
  EXPECT_EQ(test::bits(zero.r[0]), 0x80000000u);  // 0 * -0.0: the seed's bits, not identity
  EXPECT_EQ(test::bits(zero.r[3]), 0x3F800000u);
  EXPECT_FALSE(zero == BoneXform{});
  const BoneXform b = from_hinge_angle(z, -16000);
  EXPECT_EQ(test::bits(b.r[2]), 0x3F31A81Du);
  EXPECT_EQ(test::bits(b.r[0]), 0x00000000u);
}

TEST(RkcSeed, RoundtripsByteEqual) {
  const Character c = test::synthetic_character();
  const std::vector<uint8_t> expected = test::synthetic_character_bytes().bytes();
  const std::vector<uint8_t> bytes = encode_ok(c);
  EXPECT_EQ(bytes, expected);
  for (auto opts : {test::strict(), test::compat()}) {
    auto parsed = decode_rkc(expected, opts);
    ASSERT_TRUE(parsed.ok()) << parsed.error().to_text();
    EXPECT_EQ(encode_ok(parsed.value()), expected) << "byte-level round-trip failed";
    EXPECT_TRUE(parsed.value() == c);
    EXPECT_EQ(parsed->name, "anasaur");
    EXPECT_EQ(test::bits(parsed->root[1]), test::bits(-75.0f));
    EXPECT_EQ(parsed->meshes.size(), 2u);
    ASSERT_EQ(parsed->bones.size(), 2u);
    EXPECT_EQ(parsed->bones[1].name, "arm");
    EXPECT_EQ(parsed->bones[1].attachments[0].kind, AttachmentKind::Static);
    EXPECT_EQ(parsed->bones[1].attachments[0].index, 1u);
    EXPECT_EQ(parsed->bones[1].hinge.parent, 0);
    ASSERT_EQ(parsed->clips.size(), 1u);
    EXPECT_TRUE(parsed->clips[0].data == c.clips[0].data);
    EXPECT_TRUE(parsed->voxel_clips.empty());
  }
}

TEST(RkcSeed, RoundtripsWithClipsAndMultiAttachment) {
  Character c = test::synthetic_character();
  c.voxel_clips = {test::seed_voxel_clip()};
  Attachment flame;
  flame.kind = AttachmentKind::Clip;
  flame.index = 0;
  flame.local_offset.t = {1.0f, 2.0f, 3.0f};
  flame.speed_q8 = 512;
  flame.start_phase_ms = 100;
  c.bones[0].attachments.push_back(flame);

  const std::vector<uint8_t> bytes = encode_ok(c);
  auto parsed = decode_rkc(bytes, test::strict());
  ASSERT_TRUE(parsed.ok()) << parsed.error().to_text();
  EXPECT_EQ(encode_ok(parsed.value()), bytes) << "byte round-trip";
  ASSERT_EQ(parsed->voxel_clips.size(), 1u);
  EXPECT_TRUE(parsed->voxel_clips[0] == c.voxel_clips[0]);

  // The embedded blob is exactly what encode_rvc makes of the clip, after the VCLP count and
  // blob_len; the bytes before VCLP are the synthetic character's with the longer BONS.
  auto blob = encode_rvc(c.voxel_clips[0]);
  ASSERT_TRUE(blob.ok());
  const size_t vclp = test::find_tag(bytes, "VCLP");
  Bytes vclp_chunk;
  vclp_chunk.str("VCLP").u32(static_cast<uint32_t>(8 + blob->size())).u32(1);
  vclp_chunk.u32(static_cast<uint32_t>(blob->size())).raw(blob.value());
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + vclp, bytes.end()), vclp_chunk.bytes());

  const auto& body = parsed->bones[0].attachments;
  ASSERT_EQ(body.size(), 2u);
  EXPECT_EQ(body[0].kind, AttachmentKind::Static);
  EXPECT_EQ(body[0].index, 0u);
  EXPECT_EQ(body[1].kind, AttachmentKind::Clip);
  EXPECT_EQ(body[1].index, 0u);
  EXPECT_EQ(body[1].local_offset.t, (std::array<float, 3>{1.0f, 2.0f, 3.0f}));
  EXPECT_EQ(body[1].speed_q8, 512);
  EXPECT_EQ(body[1].start_phase_ms, 100u);
  EXPECT_EQ(parsed->bones.size(), 2u);  // one limb per bone in the seed's sprite check
}

TEST(RkcSeed, ClipsMayBeEmpty) {
  Character c = test::synthetic_character();
  c.clips.clear();
  auto parsed = decode_rkc(encode_ok(c), test::strict());
  ASSERT_TRUE(parsed.ok()) << parsed.error().to_text();
  EXPECT_TRUE(parsed->clips.empty());
  EXPECT_EQ(parsed->bones.size(), 2u);
}

TEST(RkcSeed, UnknownTopLevelChunkIsSkippedAndPreserved) {
  Bytes file = test::synthetic_character_bytes();
  file.str("ZZZZ").u32(3).raw({1, 2, 3});
  auto parsed = decode_rkc(file.bytes(), test::strict());
  ASSERT_TRUE(parsed.ok()) << parsed.error().to_text();
  EXPECT_EQ(parsed->bones.size(), 2u) << "known chunks still parse";
  ASSERT_EQ(parsed->extra_chunks.size(), 1u);
  EXPECT_EQ(parsed->extra_chunks[0].tag, (std::array<uint8_t, 4>{'Z', 'Z', 'Z', 'Z'}));
  EXPECT_EQ(parsed->extra_chunks[0].bytes, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(encode_ok(parsed.value()), file.bytes()) << "unknown chunk preserved byte-equal";
}

TEST(RkcSeed, UnknownClipKindPreserved) {
  Character c = test::synthetic_character();
  c.clips.push_back(Clip{"mystery", UnknownClip{7, {9, 8, 7, 6}}});
  // Expected: the synthetic bytes with the CLPS count 2 and the mystery clip appended to CLPS.
  const std::vector<uint8_t> bytes = encode_ok(c);
  auto parsed = decode_rkc(bytes, test::strict());
  ASSERT_TRUE(parsed.ok()) << parsed.error().to_text();
  ASSERT_EQ(parsed->clips.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<SkeletalClip>(parsed->clips[0].data));
  const auto* u = std::get_if<UnknownClip>(&parsed->clips[1].data);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, 7);
  EXPECT_EQ(u->bytes, (std::vector<uint8_t>{9, 8, 7, 6}));
  EXPECT_EQ(encode_ok(parsed.value()), bytes);
  // The record itself, by hand: name "mystery", kind 7, payload_len 4, body.
  Bytes rec;
  rec.name("mystery").u16(7).u32(4).raw({9, 8, 7, 6});
  const size_t vclp = test::find_tag(bytes, "VCLP");
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + vclp - rec.size(), bytes.begin() + vclp),
            rec.bytes());
}

TEST(RkcSeed, BadMagicErrors) {
  std::vector<uint8_t> bytes = test::synthetic_character_bytes().bytes();
  bytes[0] ^= 0xff;
  auto r = decode_rkc(bytes, test::strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RkcBadMagic);
  EXPECT_EQ(r.error().offset, 0u);
}

TEST(RkcSeed, VersionMismatchErrors) {
  std::vector<uint8_t> bytes = test::synthetic_character_bytes().bytes();
  bytes[4] = 0xff;
  bytes[5] = 0xff;
  auto r = decode_rkc(bytes, test::strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RkcUnsupportedVersion);
  EXPECT_NE(r.error().detail.find("65535"), std::string::npos);
  for (uint16_t v : {1, 2}) {
    bytes[4] = uint8_t(v);
    bytes[5] = 0;
    EXPECT_EQ(decode_rkc(bytes, test::strict()).error().code, ErrorCode::RkcUnsupportedVersion);
  }
}

TEST(RkcSeed, TruncatedErrors) {
  std::vector<uint8_t> bytes = test::synthetic_character_bytes().bytes();
  bytes.resize(bytes.size() - 4);
  auto r = decode_rkc(bytes, test::strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RkcTruncated);
  // The VCLP payload (4 bytes) is missing: the read of the payload at chunk_start + 8 fails.
  EXPECT_EQ(r.error().offset, bytes.size());
}

TEST(RkcSeed, MissingRequiredChunkErrors) {
  Bytes file;
  file.str("RKCH").u16(3);
  auto r = decode_rkc(file.bytes(), test::strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RkcMissingMeta);
}

TEST(RkcSeed, UnsupportedMeshKindErrors) {
  std::vector<uint8_t> bytes = test::synthetic_character_bytes().bytes();
  // BONS payload: count(4) name_len(2) "body"(4) attach_count(4) kind(2)...
  const size_t kind_off = test::find_tag(bytes, "BONS") + 8 + 4 + 2 + 4 + 4;
  bytes[kind_off] = 2;
  bytes[kind_off + 1] = 0;
  auto r = decode_rkc(bytes, test::strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RkcUnsupportedMeshKind);
  EXPECT_EQ(r.error().offset, kind_off);
  EXPECT_EQ(r.error().path, "BONS/bone[0]/attachment[0]");
}

TEST(RkcSeed, ClipBoneCountMismatchErrors) {
  Character c = test::synthetic_character();
  c.bones.pop_back();  // 1 bone, but the clip rows still have width 2
  const std::vector<uint8_t> bytes = encode_ok(c);
  auto r = decode_rkc(bytes, test::strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RkcClipBoneCount);
  EXPECT_EQ(r.error().path, "CLPS/clip[0]");
}

TEST(RkcSeed, BadEmbeddedMeshErrors) {
  std::vector<uint8_t> bytes = test::synthetic_character_bytes().bytes();
  // MSHS payload: count(4) blob_len(4) <kv6 magic>
  const size_t magic_off = test::find_tag(bytes, "MSHS") + 8 + 4 + 4;
  bytes[magic_off] ^= 0xff;
  auto r = decode_rkc(bytes, test::strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Kv6BadMagic);
  EXPECT_EQ(r.error().path, "MSHS/mesh[0]");
  EXPECT_EQ(r.error().offset, magic_off);  // absolute, not blob-relative
}

TEST(RkcSeed, ToKfaExportIsLossyButValid) {
  const Character c = test::synthetic_character();
  const std::string name = "coco.kv6";
  const auto* name_bytes = reinterpret_cast<const uint8_t*>(name.data());
  auto kfa = character_to_kfa(c, 0, std::span<const uint8_t>(name_bytes, name.size()));
  ASSERT_TRUE(kfa.ok()) << kfa.error().to_text();
  EXPECT_EQ(std::string(kfa->kv6_name.begin(), kfa->kv6_name.end()), "coco.kv6");
  ASSERT_EQ(kfa->hinges.size(), 2u);
  EXPECT_EQ(kfa->hinges[1].parent, 0);
  // The export recovers the Q15 angles the frames were built from (written by hand here).
  EXPECT_EQ(kfa->frame_count, 4u);
  EXPECT_EQ(kfa->frames, (std::vector<int16_t>{0, 0, 0, 16000, 0, 0, 0, -16000}));
  const auto& seq = std::get<SkeletalClip>(c.clips[0].data).seq;
  EXPECT_EQ(kfa->seq, seq);
  // A well-formed .kfa: serialise + re-parse round-trips.
  auto bytes = encode_kfa(kfa.value());
  ASSERT_TRUE(bytes.ok());
  auto reparsed = decode_kfa(bytes.value(), test::strict());
  ASSERT_TRUE(reparsed.ok()) << reparsed.error().to_text();
  EXPECT_EQ(reparsed->kv6_name, kfa->kv6_name);
  EXPECT_EQ(reparsed->frames, kfa->frames);
  EXPECT_EQ(reparsed->seq, kfa->seq);
  EXPECT_TRUE(reparsed.value() == kfa.value());
}

TEST(RkcSeed, ToKfaWithoutClipIsPosable) {
  Character c = test::synthetic_character();
  c.clips.push_back(Clip{"mystery", UnknownClip{7, {1}}});
  const uint8_t name[] = {'x', '.', 'k', 'v', '6'};
  for (std::optional<size_t> clip :
       {std::optional<size_t>{}, std::optional<size_t>{5}, std::optional<size_t>{1}}) {
    auto kfa = character_to_kfa(c, clip, name);
    ASSERT_TRUE(kfa.ok());
    EXPECT_EQ(kfa->hinges.size(), 2u);
    EXPECT_TRUE(kfa->frames.empty());
    EXPECT_EQ(kfa->frame_count, 0u);
    EXPECT_TRUE(kfa->seq.empty());
    auto bytes = encode_kfa(kfa.value());
    ASSERT_TRUE(bytes.ok());
    EXPECT_TRUE(decode_kfa(bytes.value(), test::strict()).ok());
  }
}

TEST(RkcSeed, HingeAngleInvertsFromHingeAngle) {
  const std::array<float, 3> axis{0, 0, 1};
  for (int16_t v : {0, 1000, 16384, -16384, 30000, -30000, 16000, -16000}) {
    const int16_t got = hinge_angle(from_hinge_angle(axis, v), axis);
    EXPECT_LE(std::abs(int(got) - int(v)), 1) << v;
  }
  // A near-zero axis gives 0; a half-turn rounds to 32768 and wraps to -32768 (i16).
  EXPECT_EQ(hinge_angle(from_hinge_angle(axis, 1000), {0, 0, 0}), 0);
  BoneXform half;
  half.r = {0, 0, -1, 0};  // -φ = 2π·(-1)… φ = 2·atan2(-1, 0) = -π -> val = +32768 -> wraps
  EXPECT_EQ(hinge_angle(half, axis), -32768);
  BoneXform nan;
  nan.r = {0, 0, std::numeric_limits<float>::quiet_NaN(), 1};
  EXPECT_EQ(hinge_angle(nan, axis), 0);
}

}  // namespace
}  // namespace voxrig
