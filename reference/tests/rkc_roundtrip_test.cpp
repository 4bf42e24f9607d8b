// RKCH round trips (docs/spec/writers.md#D1): every case of docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical with its canonical
// re-encoding written by hand, the docs/spec/rkch.md#minimal-canonical-file minimal files, and the validator warnings (D14) each
// case raises.
#include "rkc_test_util.h"

namespace voxrig {
namespace {

using test::Bytes;

Bytes header() { return Bytes().str("RKCH").u16(3); }
Bytes meta(std::string_view name, float x = 0, float y = 0, float z = 0) {
  return Bytes().name(name).f32(x).f32(y).f32(z);
}
Bytes count0() { return Bytes().u32(0); }

/// A 1-bone BONS payload (no attachments, root hinge) with the given raw name bytes.
Bytes one_bone(const std::vector<uint8_t>& name) {
  Bytes b;
  b.u32(1).u16(static_cast<uint16_t>(name.size())).raw(name).u32(0);
  b.raw(test::seed_hinge_bytes(-1).bytes());
  return b;
}

/// A skeletal body: frame_count x numhin identity-ish xforms (t = i), seq entries.
Bytes skeletal_body(uint32_t frames, uint32_t numhin, std::initializer_list<Seq> seq) {
  Bytes b;
  b.u32(frames).u32(numhin);
  for (uint32_t i = 0; i < frames * numhin; ++i)
    b.f32(float(i)).zeros(8).f32(0).f32(0).f32(0).f32(1).f32(1).f32(1).f32(1);
  b.u32(static_cast<uint32_t>(seq.size()));
  for (const Seq& s : seq) b.i32(s.tim).i32(s.frm);
  return b;
}

/// decode(input) under `opts`, encode, compare with `expected`; the expected bytes must be a
/// fixed point of the writer.
void expect_roundtrip(const std::vector<uint8_t>& input, const std::vector<uint8_t>& expected,
                      const DecodeOptions& opts) {
  auto c = decode_rkc(input, opts);
  ASSERT_TRUE(c.ok()) << c.error().to_text();
  auto out = encode_rkc(c.value());
  ASSERT_TRUE(out.ok()) << out.error().to_text();
  EXPECT_EQ(out.value(), expected);
  auto again = decode_rkc(expected, opts);
  ASSERT_TRUE(again.ok()) << again.error().to_text();
  EXPECT_TRUE(again.value() == c.value());
  auto out2 = encode_rkc(again.value());
  ASSERT_TRUE(out2.ok());
  EXPECT_EQ(out2.value(), expected);
}

std::vector<Warning> warnings_of(const std::vector<uint8_t>& input, const DecodeOptions& opts) {
  auto w = validate_rkc(input, opts);
  EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().to_text());
  return w.ok() ? w.value() : std::vector<Warning>{};
}

/// The 76-byte minimal canonical file of docs/spec/rkch.md#minimal-canonical-file, byte by byte.
const std::vector<uint8_t> kMinimal76 = {
    0x52, 0x4B, 0x43, 0x48, 0x03, 0x00,                                      // RKCH v3
    0x4D, 0x45, 0x54, 0x41, 0x0E, 0x00, 0x00, 0x00, 0x00, 0x00,              // META len 14
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // root
    0x4D, 0x53, 0x48, 0x53, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // MSHS 0
    0x42, 0x4F, 0x4E, 0x53, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // BONS 0
    0x43, 0x4C, 0x50, 0x53, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // CLPS 0
    0x56, 0x43, 0x4C, 0x50, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // VCLP 0
};

TEST(RkcMinimal, The76ByteFileRoundTrips) {
  ASSERT_EQ(kMinimal76.size(), 76u);
  for (auto opts : {test::strict(), test::compat()}) {
    expect_roundtrip(kMinimal76, kMinimal76, opts);
    EXPECT_TRUE(warnings_of(kMinimal76, opts).empty());
  }
  auto c = decode_rkc(kMinimal76, test::strict());
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c.value() == Character{});
}

TEST(RkcMinimal, The52ByteFileReserialisesTo76) {
  const std::vector<uint8_t> f52(kMinimal76.begin(), kMinimal76.begin() + 52);
  expect_roundtrip(f52, kMinimal76, test::strict());
  auto a = decode_rkc(f52, test::strict());
  auto b = decode_rkc(kMinimal76, test::strict());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a.value() == b.value());
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 1: the last copy of a known chunk wins; earlier copies are never decoded (even a
// broken one); duplicate unknown chunks are all kept.
TEST(RkcRoundtrip, DuplicateKnownChunkLastWins) {
  Bytes in = header();
  in.chunk("META", Bytes().raw({0xFF}));  // broken, never decoded
  in.chunk("ZZZZ", Bytes().raw({1}));
  in.chunk("META", meta("bb", 1, 2, 3));
  in.chunk("MSHS", count0()).chunk("BONS", count0()).chunk("ZZZZ", Bytes().raw({2}));
  Bytes out = header();
  out.chunk("META", meta("bb", 1, 2, 3)).chunk("MSHS", count0()).chunk("BONS", count0());
  out.chunk("CLPS", count0()).chunk("VCLP", count0());
  out.chunk("ZZZZ", Bytes().raw({1})).chunk("ZZZZ", Bytes().raw({2}));
  expect_roundtrip(in.bytes(), out.bytes(), test::strict());
  const auto w = warnings_of(in.bytes(), test::strict());
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].code, WarningCode::RkcDuplicateChunk);
  EXPECT_EQ(w[0].offset, 6u);
  EXPECT_EQ(w[0].path, "chunk[0]");
  // ZZZZ (rank: unknown) before the kept META.
  EXPECT_EQ(w[1].code, WarningCode::RkcNonCanonicalOrder);
  EXPECT_EQ(w[1].path, "chunk[2]");
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 2: reordered to META, MSHS, BONS, CLPS, VCLP, then unknown chunks in file order.
TEST(RkcRoundtrip, NonCanonicalOrderIsReordered) {
  Bytes in = header();
  in.chunk("VCLP", count0()).chunk("AAAA", Bytes().raw({7, 7}));
  in.chunk("BONS", count0()).chunk("MSHS", count0()).chunk("META", meta("m"));
  in.chunk("BBBB", Bytes());
  Bytes out = header();
  out.chunk("META", meta("m")).chunk("MSHS", count0()).chunk("BONS", count0());
  out.chunk("CLPS", count0()).chunk("VCLP", count0());
  out.chunk("AAAA", Bytes().raw({7, 7})).chunk("BBBB", Bytes());
  expect_roundtrip(in.bytes(), out.bytes(), test::strict());
  const auto w = warnings_of(in.bytes(), test::strict());
  ASSERT_EQ(w.size(), 1u);  // reported once, at the first chunk out of order
  EXPECT_EQ(w[0].code, WarningCode::RkcNonCanonicalOrder);
  EXPECT_EQ(w[0].path, "chunk[2]");
  EXPECT_EQ(w[0].offset, 6u + 12 + 10);
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 3: CLPS and/or VCLP absent -> empty ones are added.
TEST(RkcRoundtrip, AbsentClpsOrVclpAreAdded) {
  Bytes base = header();
  base.chunk("META", meta("")).chunk("MSHS", count0()).chunk("BONS", count0());
  Bytes with_clps = base;
  with_clps.chunk("CLPS", count0());
  Bytes with_vclp = base;
  with_vclp.chunk("VCLP", count0());
  for (const Bytes& in : {base, with_clps, with_vclp}) {
    expect_roundtrip(in.bytes(), kMinimal76, test::strict());
    EXPECT_TRUE(warnings_of(in.bytes(), test::strict()).empty());
  }
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 4: trailing bytes inside META, MSHS, BONS, CLPS, VCLP and a skeletal body are
// dropped and the lengths shrink.
TEST(RkcRoundtrip, TrailingPayloadBytesAreDropped) {
  Bytes body = skeletal_body(1, 1, {{0, 0}});
  Bytes body_plus = body;
  body_plus.raw({0xAB, 0xCD});
  Bytes in = header();
  in.chunk("META", meta("n", 1, 2, 3).raw({9}));
  in.chunk("MSHS", count0().raw({9, 9}));
  in.chunk("BONS", one_bone({'b'}).raw({9, 9, 9}));
  in.chunk("CLPS", Bytes()
                       .u32(1)
                       .name("c")
                       .u16(0)
                       .u32(uint32_t(body_plus.size()))
                       .raw(body_plus.bytes())
                       .raw({9}));
  in.chunk("VCLP", count0().raw({9, 9, 9, 9, 9}));
  Bytes out = header();
  out.chunk("META", meta("n", 1, 2, 3));
  out.chunk("MSHS", count0());
  out.chunk("BONS", one_bone({'b'}));
  out.chunk("CLPS", Bytes().u32(1).name("c").u16(0).u32(uint32_t(body.size())).raw(body.bytes()));
  out.chunk("VCLP", count0());
  expect_roundtrip(in.bytes(), out.bytes(), test::strict());

  const auto w = warnings_of(in.bytes(), test::strict());
  ASSERT_EQ(w.size(), 6u);
  const char* paths[] = {"META", "MSHS", "BONS", "CLPS/clip[0]", "CLPS", "VCLP"};
  for (size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(w[i].code, WarningCode::RkcTrailingPayload) << i;
    EXPECT_EQ(w[i].path, paths[i]) << i;
  }
  // META's extra byte sits right after root: header 6 + chunk header 8 + 2 + 1 + 12.
  EXPECT_EQ(w[0].offset, 6u + 8 + 2 + 1 + 12);
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 5: invalid UTF-8 names. rkc-compat repairs each maximal subpart to U+FFFD
// (C0 80 -> 6 bytes; ED A0 80 -> 9; lone 80 -> 3); rkc-strict rejects them.
TEST(RkcRoundtrip, InvalidUtf8NamesRepairedInCompatRejectedInStrict) {
  const std::vector<uint8_t> fffd = {0xEF, 0xBF, 0xBD};
  auto rep = [&](int n) {
    std::vector<uint8_t> v;
    for (int i = 0; i < n; ++i) v.insert(v.end(), fffd.begin(), fffd.end());
    return v;
  };
  Bytes body = skeletal_body(0, 1, {});
  auto file = [&](const std::vector<uint8_t>& meta_name, const std::vector<uint8_t>& bone_name,
                  const std::vector<uint8_t>& clip_name) {
    Bytes f = header();
    f.chunk("META", Bytes().u16(uint16_t(meta_name.size())).raw(meta_name).zeros(12));
    f.chunk("MSHS", count0());
    f.chunk("BONS", one_bone(bone_name));
    f.chunk("CLPS", Bytes()
                        .u32(1)
                        .u16(uint16_t(clip_name.size()))
                        .raw(clip_name)
                        .u16(0)
                        .u32(uint32_t(body.size()))
                        .raw(body.bytes()));
    f.chunk("VCLP", count0());
    return f;
  };
  const Bytes in = file({0xC0, 0x80}, {0xED, 0xA0, 0x80}, {0x80});
  const Bytes out = file(rep(2), rep(3), rep(1));
  ASSERT_EQ(rep(2).size(), 6u);
  ASSERT_EQ(rep(3).size(), 9u);
  expect_roundtrip(in.bytes(), out.bytes(), test::compat());
  auto c = decode_rkc(in.bytes(), test::compat());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->name, "\xEF\xBF\xBD\xEF\xBF\xBD");
  const auto w = warnings_of(in.bytes(), test::compat());
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].code, WarningCode::RkcRepairedUtf8);
  EXPECT_EQ(w[0].path, "META/name");
  EXPECT_EQ(w[0].offset, 6u + 8 + 2);
  EXPECT_EQ(w[1].path, "BONS/bone[0]/name");
  EXPECT_EQ(w[2].path, "CLPS/clip[0]/name");

  // Strict: each name alone is an error, at the name's first byte.
  const std::vector<uint8_t> ok = {'o', 'k'};
  struct Case {
    Bytes f;
    const char* path;
  } cases[] = {{file({0xC0, 0x80}, ok, ok), "META/name"},
               {file(ok, {0xED, 0xA0, 0x80}, ok), "BONS/bone[0]/name"},
               {file(ok, ok, {0x80}), "CLPS/clip[0]/name"}};
  for (const Case& k : cases) {
    auto r = decode_rkc(k.f.bytes(), test::strict());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::RkcBadUtf8);
    EXPECT_EQ(r.error().path, k.path);
    EXPECT_TRUE(decode_rkc(k.f.bytes(), test::compat()).ok());
  }
  auto meta_err = decode_rkc(cases[0].f.bytes(), test::strict());
  EXPECT_EQ(meta_err.error().offset, 6u + 8 + 2);
  // Valid UTF-8 (U+0000, a noncharacter, 4-byte forms) passes strict unchanged.
  const std::vector<uint8_t> fine = {0x00, 0xEF, 0xBF, 0xBF, 0xF0, 0x9F, 0x98, 0x80};
  const Bytes valid = file(fine, fine, fine);
  expect_roundtrip(valid.bytes(), valid.bytes(), test::strict());
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 6 / hazard H1: 21846 x FF repairs to 65538 bytes. Parse succeeds in compat; the
// writer returns rkc.write.name_too_long instead of panicking, for every kind of name.
TEST(RkcRoundtrip, NameThatGrowsPastU16IsAWriterErrorNotAPanic) {
  const std::vector<uint8_t> ff(21846, 0xFF);
  const std::vector<uint8_t> ok = {'o', 'k'};
  Bytes body = skeletal_body(0, 1, {});
  auto file = [&](const std::vector<uint8_t>& mn, const std::vector<uint8_t>& bn,
                  const std::vector<uint8_t>& cn) {
    Bytes f = header();
    f.chunk("META", Bytes().u16(uint16_t(mn.size())).raw(mn).zeros(12));
    f.chunk("MSHS", count0()).chunk("BONS", one_bone(bn));
    f.chunk("CLPS", Bytes()
                        .u32(1)
                        .u16(uint16_t(cn.size()))
                        .raw(cn)
                        .u16(0)
                        .u32(uint32_t(body.size()))
                        .raw(body.bytes()));
    return f;
  };
  struct Case {
    Bytes f;
    const char* path;
  } cases[] = {{file(ff, ok, ok), "META/name"},
               {file(ok, ff, ok), "BONS/bone[0]/name"},
               {file(ok, ok, ff), "CLPS/clip[0]/name"}};
  for (const Case& k : cases) {
    const double t = test::seconds([&] {
      auto c = decode_rkc(k.f.bytes(), test::compat());
      ASSERT_TRUE(c.ok()) << c.error().to_text();
      auto w = encode_rkc(c.value());
      ASSERT_FALSE(w.ok());
      EXPECT_EQ(w.error().code, ErrorCode::RkcWriteNameTooLong);
      EXPECT_EQ(w.error().path, k.path);
      EXPECT_EQ(decode_rkc(k.f.bytes(), test::strict()).error().code, ErrorCode::RkcBadUtf8);
    });
    EXPECT_LT(t, 1.0);
  }
  auto c = decode_rkc(cases[0].f.bytes(), test::compat());
  EXPECT_EQ(c->name.size(), 65538u);
  // The boundary: 65535 bytes are fine, 65536 are not.
  Character edge;
  edge.name.assign(65535, 'a');
  EXPECT_TRUE(encode_rkc(edge).ok());
  edge.name.push_back('a');
  EXPECT_EQ(encode_rkc(edge).error().code, ErrorCode::RkcWriteNameTooLong);
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 7 / hazard H13: a zero-frame skeletal clip with bones is written with
// numhin = bone count (the seed writes 0 and cannot read its own output).
TEST(RkcRoundtrip, ZeroFrameClipKeepsNumhinAndReparses) {
  Bytes body = skeletal_body(0, 1, {{0, 0}});
  Bytes f = header();
  f.chunk("META", meta("z")).chunk("MSHS", count0()).chunk("BONS", one_bone({'b'}));
  f.chunk("CLPS", Bytes().u32(1).name("empty").u16(0).u32(uint32_t(body.size())).raw(body.bytes()));
  f.chunk("VCLP", count0());
  expect_roundtrip(f.bytes(), f.bytes(), test::strict());  // already canonical: numhin 1 survives
  auto c = decode_rkc(f.bytes(), test::strict());
  ASSERT_TRUE(c.ok());
  const auto& s = std::get<SkeletalClip>(c->clips[0].data);
  EXPECT_EQ(s.frame_count, 0u);
  EXPECT_EQ(s.numhin, 1u);
  // Non-rectangular frames (hand-built) are a writer error, not a panic.
  Character bad = c.value();
  std::get<SkeletalClip>(bad.clips[0].data).frames.push_back(BoneXform{});
  auto w = encode_rkc(bad);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, ErrorCode::RkcWriteNotRectangular);
  EXPECT_EQ(w.error().path, "CLPS/clip[0]");
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 8: an embedded KV6 with trailing bytes is re-serialised shorter (blob_len shrinks);
// a complete SPal trailer survives, bytes after it do not.
TEST(RkcRoundtrip, EmbeddedKv6TrailingBytesDropped) {
  Bytes kv6 = test::unit_kv6_bytes(0x80FF8040);
  Bytes kv6_trailing = kv6;
  kv6_trailing.raw({1, 2, 3, 4, 5});
  Bytes kv6_pal = kv6;
  kv6_pal.str("SPal");
  for (int i = 0; i < 768; ++i) kv6_pal.u8(uint8_t(i % 64));
  Bytes kv6_pal_trailing = kv6_pal;
  kv6_pal_trailing.raw({7});
  auto file = [&](const Bytes& a, const Bytes& b) {
    Bytes f = header();
    f.chunk("META", meta("k"));
    f.chunk("MSHS", Bytes()
                        .u32(2)
                        .u32(uint32_t(a.size()))
                        .raw(a.bytes())
                        .u32(uint32_t(b.size()))
                        .raw(b.bytes()));
    f.chunk("BONS", count0()).chunk("CLPS", count0()).chunk("VCLP", count0());
    return f;
  };
  expect_roundtrip(file(kv6_trailing, kv6_pal_trailing).bytes(), file(kv6, kv6_pal).bytes(),
                   test::strict());
  const auto w = warnings_of(file(kv6_trailing, kv6_pal_trailing).bytes(), test::strict());
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].code, WarningCode::Kv6TrailingBytes);
  EXPECT_EQ(w[0].path, "MSHS/mesh[0]");
  EXPECT_EQ(w[0].offset, 6u + 23 + 8 + 4 + 4 + 46);
  EXPECT_EQ(w[1].path, "MSHS/mesh[1]");
  auto c = decode_rkc(file(kv6, kv6_pal).bytes(), test::strict());
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->meshes[0].palette.has_value());
  ASSERT_TRUE(c->meshes[1].palette.has_value());
  EXPECT_EQ((*c->meshes[1].palette)[767], uint8_t(767 % 64));
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 9 differs by design (docs/spec/rkch.md#DIFF-4): an embedded RVC blob that is not what the
// writer would make (here a v1 file) is kept byte-for-byte.
TEST(RkcRoundtrip, EmbeddedRvcKeptByteForByte) {
  Bytes rvc;
  rvc.str("RVCL").u16(1);
  Bytes rmeta;
  rmeta.u32(1).u32(1).u32(1).f32(0.5f).f32(0.5f).f32(0.5f).f32(1.0f).u8(0).u32(33).u32(0);
  rvc.chunk("META", rmeta).chunk("FRMS", Bytes());
  Bytes f = header();
  f.chunk("META", meta("r")).chunk("MSHS", count0()).chunk("BONS", count0());
  f.chunk("CLPS", count0());
  f.chunk("VCLP", Bytes().u32(1).u32(uint32_t(rvc.size())).raw(rvc.bytes()));
  expect_roundtrip(f.bytes(), f.bytes(), test::strict());
  expect_roundtrip(f.bytes(), f.bytes(), test::compat());
  // A broken RVC blob reports the innermost code under VCLP/clip[i].
  Bytes broken = f;
  broken.bytes()[test::find_tag(f.bytes(), "VCLP") + 8 + 4 + 4] = 'X';
  auto r = decode_rkc(broken.bytes(), test::strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RvcBadMagic);
  EXPECT_EQ(r.error().path.rfind("VCLP/clip[0]", 0), 0u) << r.error().path;
}

// docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 10: preserved exactly — hinge filler/htype, every float bit pattern (NaN payload,
// -0.0, denormal), unknown clip kinds, unsorted seq, out-of-range speed.
TEST(RkcRoundtrip, OddButValidContentIsPreservedExactly) {
  Bytes bone;
  bone.u32(1).name("b").u32(1);
  bone.u16(0).u32(0);                                                // static mesh 0
  bone.f32bits(0x7FC01234).f32bits(0x80000000).f32bits(0x00000001);  // NaN, -0, denormal
  bone.f32bits(0xFF800000).f32(0).f32(0).f32(2);                     // -inf, non-unit quaternion
  bone.f32(0).f32(-1).f32(0);                                        // zero / negative scale
  bone.i32(-5).u32(0xFFFFFFFF);                                      // negative speed, max phase
  bone.i32(-1).f32bits(0x7F800001).zeros(44).i16(-7).i16(9).u8(3);
  bone.raw({0xDE, 0xAD, 0xBE, 0xEF, 0xCA, 0xFE, 0xBA});            // htype 3, filler
  Bytes body = skeletal_body(2, 1, {{500, 1}, {0, 0}, {-3, -9}});  // unsorted seq, odd jumps
  Bytes f = header();
  f.chunk("META", Bytes().name("odd").f32bits(0x7FA00000).f32bits(0x80000000).f32(1));
  f.chunk("MSHS", Bytes().u32(1).u32(46).raw(test::unit_kv6_bytes(0x12345678).bytes()));
  f.chunk("BONS", bone);
  f.chunk("CLPS", Bytes()
                      .u32(2)
                      .name("s")
                      .u16(0)
                      .u32(uint32_t(body.size()))
                      .raw(body.bytes())
                      .name("u")
                      .u16(0xFFFF)
                      .u32(3)
                      .raw({1, 2, 3}));
  f.chunk("VCLP", count0());
  for (auto opts : {test::strict(), test::compat()}) {
    expect_roundtrip(f.bytes(), f.bytes(), opts);
    EXPECT_TRUE(warnings_of(f.bytes(), opts).empty());
  }
  auto c = decode_rkc(f.bytes(), test::strict());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(test::bits(c->root[0]), 0x7FA00000u);
  EXPECT_EQ(c->bones[0].hinge.htype, 3);
  EXPECT_EQ(c->bones[0].hinge.filler[6], 0xBA);
  Character other = c.value();
  other.root[1] = 0.0f;  // +0 vs -0: models differ (D5)
  EXPECT_FALSE(other == c.value());
}

// Writer-only pitfalls of docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical (hand-built models): an extra chunk with a known tag is written
// as a duplicate and the last copy wins on re-parse; Unknown{kind 0} re-parses as skeletal.
TEST(RkcRoundtrip, WriterOnlyPitfallsBehaveAsTheSeed) {
  Character c;
  c.extra_chunks.push_back(ExtraChunk{{'M', 'E', 'T', 'A'}, meta("late").bytes()});
  auto bytes = encode_rkc(c);
  ASSERT_TRUE(bytes.ok());
  auto back = decode_rkc(bytes.value(), test::strict());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->name, "late");
  EXPECT_TRUE(back->extra_chunks.empty());

  Character k;
  k.clips.push_back(Clip{"u0", UnknownClip{0, skeletal_body(0, 0, {}).bytes()}});
  auto kb = encode_rkc(k);
  ASSERT_TRUE(kb.ok());
  auto kc = decode_rkc(kb.value(), test::strict());
  ASSERT_TRUE(kc.ok());
  EXPECT_TRUE(std::holds_alternative<SkeletalClip>(kc->clips[0].data));
}

}  // namespace
}  // namespace voxrig
