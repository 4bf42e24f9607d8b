// KFA (docs/spec/kfa.md): the seed kfa.rs synthetic file by hand, parse order, trailing bytes,
// QE.6b parent range / cycles (D9), limits incl. hazard H3, writer errors.
#include "rkc_test_util.h"

namespace voxrig {
namespace {

using test::Bytes;

// The seed kfa.rs synthetic_kfa(), written out field by field: 2 hinges (the second with
// htype 1 and a non-zero filler), 4 frames, seq with a loop marker.
Bytes synthetic_kfa_bytes() {
  Bytes b;
  b.raw({0x4B, 0x77, 0x6C, 0x6B}).u32(11).str("anasaur.kv6").u32(2);
  b.i32(-1).f32(0).f32(0).f32(0).f32(1).f32(0).f32(0).f32(0).f32(1).f32(0).f32(0).f32(0).f32(1);
  b.i16(-180).i16(180).u8(0).zeros(7);
  b.i32(0).f32(0.5f).f32(0).f32(0).f32(0.5f).f32(1).f32(0);  // p[0], p[1]
  b.f32(1).f32(0).f32(0).f32(0).f32(1).f32(0);               // v[0], v[1]
  b.i16(-90).i16(90).u8(1).raw({0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe, 0xba});
  b.u32(4).i16(0).i16(0).i16(45).i16(-30).i16(90).i16(-60).i16(135).i16(-90);
  b.u32(3).i32(0).i32(0).i32(100).i32(1).i32(200).i32(-1);
  return b;
}

Bytes kfa_with_parents(std::initializer_list<int32_t> parents) {
  Bytes b;
  b.str("Kwlk").u32(0).u32(uint32_t(parents.size()));
  for (int32_t p : parents) b.raw(test::seed_hinge_bytes(p).bytes());
  b.u32(0).u32(0);
  return b;
}

Error err(const std::vector<uint8_t>& b, const DecodeOptions& o = test::strict()) {
  auto r = decode_kfa(b, o);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

TEST(Kfa, SyntheticFileRoundTripsAndKeepsFillerAndHtype) {
  const std::vector<uint8_t> bytes = synthetic_kfa_bytes().bytes();
  auto k = decode_kfa(bytes, test::strict());
  ASSERT_TRUE(k.ok()) << k.error().to_text();
  EXPECT_EQ(std::string(k->kv6_name.begin(), k->kv6_name.end()), "anasaur.kv6");
  ASSERT_EQ(k->hinges.size(), 2u);
  EXPECT_EQ(k->hinges[1].htype, 1);
  const std::array<uint8_t, 7> filler{0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe, 0xba};
  EXPECT_EQ(k->hinges[1].filler, filler);
  EXPECT_EQ(k->hinges[1].vmin, -90);
  EXPECT_EQ(k->frame_count, 4u);
  EXPECT_EQ(k->frames, (std::vector<int16_t>{0, 0, 45, -30, 90, -60, 135, -90}));
  EXPECT_EQ(k->seq, (std::vector<Seq>{{0, 0}, {100, 1}, {200, -1}}));
  auto out = encode_kfa(k.value());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.value(), bytes);
  auto w = validate_kfa(bytes, test::strict());
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE(w->empty());
}

TEST(Kfa, TrailingBytesAreDroppedWithAWarning) {
  Bytes in = synthetic_kfa_bytes();
  in.raw({1, 2, 3});
  auto k = decode_kfa(in.bytes(), test::compat());
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(encode_kfa(k.value()).value(), synthetic_kfa_bytes().bytes());
  auto w = validate_kfa(in.bytes(), test::compat());
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(w->size(), 1u);
  EXPECT_EQ((*w)[0].code, WarningCode::KfaTrailingBytes);
  EXPECT_EQ((*w)[0].offset, synthetic_kfa_bytes().size());
}

TEST(Kfa, MagicAndTruncation) {
  EXPECT_EQ(err({0x4B, 0x77, 0x6C}).code, ErrorCode::KfaTruncated);  // < 4 bytes
  EXPECT_EQ(err({}).offset, 0u);
  EXPECT_EQ(err({0x4B, 0x77, 0x6C, 0x6C}).code, ErrorCode::KfaBadMagic);
  const std::vector<uint8_t> full = synthetic_kfa_bytes().bytes();
  for (size_t len = 4; len < full.size(); ++len) {
    const std::vector<uint8_t> p(full.begin(), full.begin() + len);  // exact-size heap copy
    EXPECT_EQ(err(p).code, ErrorCode::KfaTruncated) << len;
  }
  // Cut inside the second hinge: reported at that hinge.
  const std::vector<uint8_t> cut(full.begin(), full.begin() + 4 + 4 + 11 + 4 + 64 + 10);
  const Error e = err(cut);
  EXPECT_EQ(e.path, "hinge[1]");
  EXPECT_EQ(e.offset, 4u + 4 + 11 + 4 + 64);
}

TEST(Kfa, ParentRangeAndCycles) {
  EXPECT_TRUE(decode_kfa(kfa_with_parents({-1, 0, 1}).bytes(), test::strict()).ok());
  EXPECT_TRUE(decode_kfa(kfa_with_parents({}).bytes(), test::strict()).ok());
  for (int32_t bad : {-2, 3, INT32_MAX}) {
    const Error e = err(kfa_with_parents({-1, 0, bad}).bytes());
    EXPECT_EQ(e.code, ErrorCode::KfaParentRange) << bad;
    EXPECT_EQ(e.path, "hinge[2]");
    EXPECT_EQ(e.offset, 12u + 2 * 64);
  }
  const Error self = err(kfa_with_parents({-1, 1}).bytes());
  EXPECT_EQ(self.code, ErrorCode::KfaParentCycle);
  EXPECT_EQ(self.path, "hinge[1]");
  EXPECT_EQ(err(kfa_with_parents({2, 2, 1, -1}).bytes()).path, "hinge[0]");  // leads into 1<->2
  // Range before cycles, whatever the order of the hinges.
  EXPECT_EQ(err(kfa_with_parents({1, 0, 9}).bytes()).code, ErrorCode::KfaParentRange);
  // Same rules in every profile.
  EXPECT_EQ(err(kfa_with_parents({0}).bytes(), test::compat()).code, ErrorCode::KfaParentCycle);
}

TEST(Kfa, LimitsAndHazardH3) {
  // H3: numhin 0 and numfrm 0xFFFFFFFF (the seed pushes 4.3e9 empty rows).
  Bytes h3;
  h3.str("Kwlk").u32(0).u32(0).u32(0xFFFFFFFF).u32(0);
  const double t =
      test::seconds([&] { EXPECT_EQ(err(h3.bytes()).code, ErrorCode::KfaLimitFrameCells); });
  EXPECT_LT(t, 1.0);
  Bytes at_limit;
  at_limit.str("Kwlk").u32(0).u32(0).u32(1u << 24).u32(0);
  auto k = decode_kfa(at_limit.bytes(), test::strict());
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(encode_kfa(k.value()).value(), at_limit.bytes());

  Bytes hinges;
  hinges.str("Kwlk").u32(0).u32(65537);
  EXPECT_EQ(err(hinges.bytes()).code, ErrorCode::KfaLimitHinges);
  Bytes hinges_at;
  hinges_at.str("Kwlk").u32(0).u32(65536);
  EXPECT_EQ(err(hinges_at.bytes()).code, ErrorCode::KfaTruncated);
  Bytes seq;
  seq.str("Kwlk").u32(0).u32(0).u32(0).u32((1u << 20) + 1);
  EXPECT_EQ(err(seq.bytes()).code, ErrorCode::KfaLimitSeq);

  DecodeOptions o = test::strict();
  o.limits.kfa_frame_cells = 8;
  const std::vector<uint8_t> syn = synthetic_kfa_bytes().bytes();  // 4 frames x 2 hinges
  EXPECT_TRUE(decode_kfa(syn, o).ok());
  o.limits.kfa_frame_cells = 7;
  EXPECT_EQ(err(syn, o).code, ErrorCode::KfaLimitFrameCells);
  o.limits.kfa_frame_cells = 8;
  o.limits.kfa_hinges = 1;
  EXPECT_EQ(err(syn, o).code, ErrorCode::KfaLimitHinges);
  o.limits.kfa_hinges = 2;
  o.limits.kfa_seq = 2;
  EXPECT_EQ(err(syn, o).code, ErrorCode::KfaLimitSeq);
}

TEST(Kfa, WriterErrors) {
  Kfa k;
  k.hinges.resize(2);
  k.frame_count = 1;
  k.frames = {1, 2, 3};
  EXPECT_EQ(encode_kfa(k).error().code, ErrorCode::KfaWriteNotRectangular);
  k.frames = {1, 2};
  auto out = encode_kfa(k);
  ASSERT_TRUE(out.ok());
  Bytes want;
  want.str("Kwlk").u32(0).u32(2);
  for (int i = 0; i < 2; ++i) want.i32(-1).zeros(48).i16(0).i16(0).u8(0).zeros(7);
  want.u32(1).i16(1).i16(2).u32(0);
  EXPECT_EQ(out.value(), want.bytes());
}

TEST(Kfa, CharacterExportRejectsInconsistentHandBuiltClips) {
  Character c = test::synthetic_character();
  std::get<SkeletalClip>(c.clips[0].data).numhin = 3;
  EXPECT_EQ(character_to_kfa(c, 0, {}).error().code, ErrorCode::RkcClipBoneCount);
  c = test::synthetic_character();
  std::get<SkeletalClip>(c.clips[0].data).frames.pop_back();
  EXPECT_EQ(character_to_kfa(c, 0, {}).error().code, ErrorCode::RkcWriteNotRectangular);
}

}  // namespace
}  // namespace voxrig
