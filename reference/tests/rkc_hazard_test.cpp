// RKCH verdicts on hostile and malformed input: QE.6b cross references, the seed's check order,
// limits (just under / just over), the docs/spec/rkch.md#hazards hazards that belong to RKCH/KV6/KFA
// (H1-H5, H10, H13; each a clean, fast error within limits), and every strict prefix.
#include "rkc_test_util.h"

namespace voxrig {
namespace {

using test::Bytes;

Bytes header() { return Bytes().str("RKCH").u16(3); }
Bytes meta0() { return Bytes().name("").zeros(12); }
Bytes count0() { return Bytes().u32(0); }

struct BoneSpec {
  BoneSpec(int32_t p = -1, std::vector<std::pair<uint16_t, uint32_t>> a = {})  // NOLINT
      : parent(p), attachments(std::move(a)) {}
  int32_t parent;
  std::vector<std::pair<uint16_t, uint32_t>> attachments;  // kind, index
};

Bytes bons(const std::vector<BoneSpec>& bones) {
  Bytes b;
  b.u32(uint32_t(bones.size()));
  for (const BoneSpec& s : bones) {
    b.name("").u32(uint32_t(s.attachments.size()));
    for (auto [kind, index] : s.attachments) {
      Bytes a = test::static_attachment_bytes(index);
      a.bytes()[0] = uint8_t(kind);
      a.bytes()[1] = uint8_t(kind >> 8);
      b.raw(a.bytes());
    }
    b.raw(test::seed_hinge_bytes(s.parent).bytes());
  }
  return b;
}

Bytes file(const Bytes& mshs, const Bytes& bons_payload, const Bytes* vclp = nullptr) {
  Bytes f = header();
  f.chunk("META", meta0()).chunk("MSHS", mshs).chunk("BONS", bons_payload);
  if (vclp) f.chunk("VCLP", *vclp);
  return f;
}

Bytes one_mesh() { return Bytes().u32(1).u32(46).raw(test::unit_kv6_bytes(0x80FF8040).bytes()); }

Error err(const Bytes& f, const DecodeOptions& o = test::strict()) {
  auto r = decode_rkc(f.bytes(), o);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

// Offset of bone i's attachment j index field / hinge in file(one_mesh(), bons(...)) with
// empty names, for the specs given.
uint64_t bons_payload_at(const Bytes& f) { return test::find_tag(f.bytes(), "BONS") + 8; }

TEST(RkcCrossRefs, AttachmentIndexInAndOutOfRange) {
  // Static index < meshes passes; == meshes fails at the index field.
  EXPECT_TRUE(decode_rkc(file(one_mesh(), bons({{-1, {{0, 0}}}})).bytes(), test::strict()).ok());
  const Bytes bad = file(one_mesh(), bons({{-1, {{0, 0}}}, {0, {{0, 0}, {0, 1}}}}));
  const Error e = err(bad);
  EXPECT_EQ(e.code, ErrorCode::RkcAttachmentIndex);
  EXPECT_EQ(e.path, "BONS/bone[1]/attachment[1]");
  // bone 0: 4 count + 2 name + 4 count + 54 attachment + 64 hinge; bone 1: 2 + 4 + 54; kind 2.
  EXPECT_EQ(e.offset, bons_payload_at(bad) + 4 + 2 + 4 + 54 + 64 + 2 + 4 + 54 + 2);
  // A Clip attachment in a file without VCLP always fails; with one clip, index 0 passes.
  EXPECT_EQ(err(file(one_mesh(), bons({{-1, {{1, 0}}}}))).code, ErrorCode::RkcAttachmentIndex);
  auto blob = encode_rvc(test::seed_voxel_clip());
  ASSERT_TRUE(blob.ok());
  const Bytes vclp = Bytes().u32(1).u32(uint32_t(blob->size())).raw(blob.value());
  EXPECT_TRUE(
      decode_rkc(file(one_mesh(), bons({{-1, {{1, 0}}}}), &vclp).bytes(), test::strict()).ok());
  EXPECT_EQ(err(file(one_mesh(), bons({{-1, {{1, 1}}}}), &vclp)).code,
            ErrorCode::RkcAttachmentIndex);
  EXPECT_EQ(err(file(count0(), bons({{-1, {{0, 0}}}}))).code, ErrorCode::RkcAttachmentIndex);
}

TEST(RkcCrossRefs, ParentRange) {
  EXPECT_TRUE(decode_rkc(file(count0(), bons({{-1}, {0}, {1}})).bytes(), test::strict()).ok());
  for (int32_t parent : {-2, 3, 1000, INT32_MIN, INT32_MAX}) {
    const Bytes f = file(count0(), bons({{-1}, {0}, {parent}}));
    const Error e = err(f);
    EXPECT_EQ(e.code, ErrorCode::RkcParentRange) << parent;
    EXPECT_EQ(e.path, "BONS/bone[2]/hinge");
    EXPECT_EQ(e.offset, bons_payload_at(f) + 4 + 2 * (2 + 4 + 64) + 2 + 4);
  }
}

TEST(RkcCrossRefs, ParentCycles) {
  const Error self = err(file(count0(), bons({{-1}, {1}})));
  EXPECT_EQ(self.code, ErrorCode::RkcParentCycle);
  EXPECT_EQ(self.path, "BONS/bone[1]/hinge");
  EXPECT_EQ(err(file(count0(), bons({{-1}, {2}, {1}}))).path, "BONS/bone[1]/hinge");
  // Bone 0 only leads into the 1<->2 loop; the seed's walk from bone 0 already exceeds n hops.
  EXPECT_EQ(err(file(count0(), bons({{1}, {2}, {1}}))).path, "BONS/bone[0]/hinge");
  // No root at all.
  EXPECT_EQ(err(file(count0(), bons({{1}, {0}}))).code, ErrorCode::RkcParentCycle);
  // Parents may point forward; a forest with several roots is fine.
  EXPECT_TRUE(
      decode_rkc(file(count0(), bons({{2}, {-1}, {-1}, {0}})).bytes(), test::strict()).ok());
}

TEST(RkcCrossRefs, CheckOrderPerBoneThenCycles) {
  // Bone 0: bad parent; bone 1: bad attachment -> bone 0's parent is found first.
  EXPECT_EQ(err(file(count0(), bons({{7}, {-1, {{0, 3}}}}))).code, ErrorCode::RkcParentRange);
  // Bone 0: bad attachment and bad parent -> attachments come first.
  EXPECT_EQ(err(file(count0(), bons({{7, {{0, 3}}}}))).code, ErrorCode::RkcAttachmentIndex);
  // A cycle in bones 0/1 and a range error in bone 2 -> ranges before cycles.
  EXPECT_EQ(err(file(count0(), bons({{1}, {0}, {9}}))).code, ErrorCode::RkcParentRange);
  // Cross references run after every payload: a clip error wins over a bad parent.
  Bytes f = file(count0(), bons({{5}}));
  f.chunk("CLPS", Bytes().u32(1).name("c").u16(0).u32(8).u32(0).u32(2));
  EXPECT_EQ(err(f).code, ErrorCode::RkcClipBoneCount);
}

TEST(RkcCrossRefs, LongChainIsLinear) {
  // 65536 bones (the default limit) in one chain: the seed's walk is O(n²) hops.
  std::vector<BoneSpec> chain(65536);
  for (size_t i = 0; i < chain.size(); ++i) chain[i].parent = int32_t(i) - 1;
  const Bytes ok = file(count0(), bons(chain));
  chain[0].parent = 65535;  // close the loop
  const Bytes loop = file(count0(), bons(chain));
  const double t = test::seconds([&] {
    EXPECT_TRUE(decode_rkc(ok.bytes(), test::strict()).ok());
    EXPECT_EQ(err(loop).code, ErrorCode::RkcParentCycle);
    EXPECT_EQ(err(loop).path, "BONS/bone[0]/hinge");
  });
  EXPECT_LT(t, 1.0);
}

TEST(RkcProfiles, Kv6RunTablesInsideMshsStrictErrorCompatWarning) {
  Bytes kv6 = test::unit_kv6_bytes(0x80FF8040);
  kv6.bytes()[kv6.size() - 6] = 2;  // xlen[0] = 2 while numvoxs = 1
  Bytes f = header();
  f.chunk("META", meta0());
  f.chunk("MSHS", Bytes().u32(1).u32(46).raw(kv6.bytes()));
  f.chunk("BONS", count0()).chunk("CLPS", count0()).chunk("VCLP", count0());
  const Error e = err(f);
  EXPECT_EQ(e.code, ErrorCode::Kv6RunTables);
  EXPECT_EQ(e.path, "MSHS/mesh[0]/xlen");
  EXPECT_EQ(e.offset, test::find_tag(f.bytes(), "MSHS") + 8 + 4 + 4 + 40);
  auto c = decode_rkc(f.bytes(), test::compat());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(encode_rkc(c.value()).value(), f.bytes());
  auto w = validate_rkc(f.bytes(), test::compat());
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(w->size(), 1u);
  EXPECT_EQ((*w)[0].code, WarningCode::Kv6RunTables);
  EXPECT_EQ((*w)[0].path, "MSHS/mesh[0]/xlen");
  EXPECT_EQ((*w)[0].offset, e.offset);
  // validate returns the decode error under strict.
  auto ws = validate_rkc(f.bytes(), test::strict());
  ASSERT_FALSE(ws.ok());
  EXPECT_EQ(ws.error().code, ErrorCode::Kv6RunTables);
}

TEST(RkcProfiles, EmbeddedRvcFramesAreCheckedInStrictOnly) {
  RvcVoxelFrame bad;  // one occupied voxel but no colour: occupancy/colour mismatch
  bad.occupancy = {1u};
  bad.color_offsets = {0u, 0u};
  const RvcClip clip = rvc_from_frames({1, 1, 4}, {0, 0, 0}, 1.0f, RvcLoopMode::Loop,
                                       std::span<const RvcVoxelFrame>(&bad, 1), {}, 33, 0);
  auto blob = encode_rvc(clip);
  ASSERT_TRUE(blob.ok());
  Bytes f = header();
  f.chunk("META", meta0()).chunk("MSHS", count0()).chunk("BONS", count0()).chunk("CLPS", count0());
  f.chunk("VCLP", Bytes().u32(1).u32(uint32_t(blob->size())).raw(blob.value()));
  const Error e = err(f);
  EXPECT_EQ(e.code, ErrorCode::RvcOccupancyColorMismatch);
  EXPECT_EQ(e.path.rfind("VCLP/clip[0]", 0), 0u) << e.path;
  auto c = decode_rkc(f.bytes(), test::compat());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(encode_rkc(c.value()).value(), f.bytes());
}

TEST(RkcOrder, MissingChunksAreCheckedBeforeAnyPayload) {
  Bytes no_bons = header();
  no_bons.chunk("META", Bytes().raw({1})).chunk("MSHS", count0());  // broken META
  EXPECT_EQ(err(no_bons).code, ErrorCode::RkcMissingBons);
  Bytes only_meta = header();
  only_meta.chunk("META", meta0());
  EXPECT_EQ(err(only_meta).code, ErrorCode::RkcMissingMshs);
  Bytes no_meta = header();
  no_meta.chunk("BONS", count0()).chunk("MSHS", count0());
  EXPECT_EQ(err(no_meta).code, ErrorCode::RkcMissingMeta);
  // Lower-case tags are unknown chunks (tags compare as exact bytes).
  Bytes lower = header();
  lower.chunk("meta", meta0()).chunk("MSHS", count0()).chunk("BONS", count0());
  EXPECT_EQ(err(lower).code, ErrorCode::RkcMissingMeta);
}

TEST(RkcOrder, PayloadsDecodeInCanonicalOrder) {
  // BONS broken and META broken, BONS first in the file: META's error wins.
  Bytes f = header();
  f.chunk("BONS", Bytes().raw({1})).chunk("MSHS", count0()).chunk("META", Bytes().raw({5, 0, 'a'}));
  const Error e = err(f);
  EXPECT_EQ(e.code, ErrorCode::RkcTruncated);
  EXPECT_EQ(e.path, "META/name");
  // The seed reports payload-relative offsets; ours are absolute (the name bytes).
  EXPECT_EQ(e.offset, test::find_tag(f.bytes(), "META") + 8 + 2);
}

TEST(RkcOrder, MeshKindIsCheckedBeforeTheRestOfTheRecord) {
  // kind 2 followed by nothing but the index: unsupported_mesh_kind, not truncated.
  Bytes b;
  b.u32(1).name("x").u32(1).u16(2).u32(0);
  EXPECT_EQ(err(file(count0(), b)).code, ErrorCode::RkcUnsupportedMeshKind);
  // ...but a record cut inside the index is truncated.
  Bytes c;
  c.u32(1).name("x").u32(1).u16(2).u16(0);
  EXPECT_EQ(err(file(count0(), c)).code, ErrorCode::RkcTruncated);
}

TEST(RkcOrder, StrayTrailingBytesAfterTheLastChunk) {
  const std::vector<uint8_t> base = test::synthetic_character_bytes().bytes();
  for (size_t n = 1; n <= 7; ++n) {
    std::vector<uint8_t> f = base;
    f.insert(f.end(), n, 0x41);
    auto r = decode_rkc(f, test::strict());
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.error().code, ErrorCode::RkcTruncated);
    EXPECT_EQ(r.error().offset, base.size() + (n < 4 ? 0 : 4)) << n;
  }
}

TEST(RkcOrder, TruncatedFrameTableReportsAbsoluteOffset) {
  Bytes f = file(count0(), bons({{-1}}));
  // 2 frames x 1 bone declared, one xform present.
  Bytes body;
  body.u32(2).u32(1).raw(test::xform_bytes_for_angle(0).bytes());
  f.chunk("CLPS", Bytes().u32(1).name("c").u16(0).u32(uint32_t(body.size())).raw(body.bytes()));
  const Error e = err(f);
  EXPECT_EQ(e.code, ErrorCode::RkcTruncated);
  EXPECT_EQ(e.path, "CLPS/clip[0]/frmval[1]");
  EXPECT_EQ(e.offset, test::find_tag(f.bytes(), "CLPS") + 8 + 4 + 3 + 2 + 4 + 8 + 40);
}

// ---- limits (defaults from docs/spec/limits.md, and just under / just over a configured value) ----

TEST(RkcLimits, CountsOverTheLimitFailBeforeTheBytesCheck) {
  struct Case {
    Bytes f;
    ErrorCode code;
  };
  auto clps = [](const Bytes& p) {
    Bytes f = file(count0(), bons({{-1}}));
    f.chunk("CLPS", p);
    return f;
  };
  Bytes skel_seq;
  skel_seq.u32(1).name("c").u16(0).u32(12).u32(0).u32(1).u32((1u << 20) + 1);
  const Case cases[] = {
      {file(Bytes().u32(65537), count0()), ErrorCode::RkcLimitMeshes},
      {file(Bytes().u32(0xFFFFFFFF), count0()), ErrorCode::RkcLimitMeshes},
      {file(count0(), Bytes().u32(65537)), ErrorCode::RkcLimitBones},
      {file(count0(), Bytes().u32(1).name("b").u32(1025)), ErrorCode::RkcLimitAttachments},
      {clps(Bytes().u32(65537)), ErrorCode::RkcLimitClips},
      {clps(skel_seq), ErrorCode::RkcLimitSeq},
      {[] {
         Bytes v = Bytes().u32(65537);
         Bytes f = file(count0(), count0());
         f.chunk("VCLP", v);
         return f;
       }(),
       ErrorCode::RkcLimitVoxelClips},
  };
  for (const Case& c : cases) {
    const double t = test::seconds([&] { EXPECT_EQ(err(c.f).code, c.code); });
    EXPECT_LT(t, 1.0);
  }
}

TEST(RkcLimits, CountsAtTheLimitWithoutDataAreTruncatedAndCheap) {
  // Hazard H4: a count at the limit with no records behind it reserves nothing big and fails
  // as truncated at the first missing record.
  const Bytes cases[] = {
      file(Bytes().u32(65536), count0()),
      file(count0(), Bytes().u32(65536)),
      file(count0(), Bytes().u32(1).name("b").u32(1024)),
  };
  for (const Bytes& f : cases) {
    const double t = test::seconds([&] { EXPECT_EQ(err(f).code, ErrorCode::RkcTruncated); });
    EXPECT_LT(t, 1.0);
  }
}

TEST(RkcLimits, FrameCellsJustUnderAndOver) {
  DecodeOptions o = test::strict();
  o.limits.rkc_frame_cells = 8;
  auto with_clip = [](uint32_t frames) {
    Bytes f = file(count0(), bons({{-1}, {0}}));
    Bytes body;
    body.u32(frames).u32(2);
    for (uint32_t i = 0; i < frames * 2; ++i) body.raw(test::xform_bytes_for_angle(0).bytes());
    body.u32(0);
    f.chunk("CLPS", Bytes().u32(1).name("c").u16(0).u32(uint32_t(body.size())).raw(body.bytes()));
    return f;
  };
  EXPECT_TRUE(decode_rkc(with_clip(4).bytes(), o).ok());
  auto over = decode_rkc(with_clip(5).bytes(), o);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().code, ErrorCode::RkcLimitFrameCells);
  o.limits.rkc_seq = 1;
  Bytes f = file(count0(), count0());
  f.chunk("CLPS", Bytes().u32(1).name("c").u16(0).u32(28).u32(0).u32(0).u32(2).zeros(16));
  EXPECT_EQ(decode_rkc(f.bytes(), o).error().code, ErrorCode::RkcLimitSeq);
  o.limits.rkc_seq = 2;
  EXPECT_TRUE(decode_rkc(f.bytes(), o).ok());
}

// Hazard H2: 0 bones and numfrm 0xFFFFFFFF: the seed pushes 4.3e9 empty rows. Each row is
// charged as one cell, so it is a limit error at once; at the limit it costs nothing.
TEST(RkcHazards, H2ZeroWidthFrameTable) {
  auto clip = [](uint32_t frames) {
    Bytes f = file(count0(), count0());
    f.chunk("CLPS", Bytes().u32(1).name("h2").u16(0).u32(12).u32(frames).u32(0).u32(0));
    return f;
  };
  const double t = test::seconds([&] {
    EXPECT_EQ(err(clip(0xFFFFFFFF)).code, ErrorCode::RkcLimitFrameCells);
    EXPECT_EQ(err(clip((1u << 24) + 1)).code, ErrorCode::RkcLimitFrameCells);
    auto ok = decode_rkc(clip(1u << 24).bytes(), test::strict());  // exactly at the limit
    ASSERT_TRUE(ok.ok());
    const auto& s = std::get<SkeletalClip>(ok->clips[0].data);
    EXPECT_EQ(s.frame_count, 1u << 24);
    EXPECT_TRUE(s.frames.empty());
    auto again = encode_rkc(ok.value());
    ASSERT_TRUE(again.ok());
    Bytes expected = clip(1u << 24);
    expected.chunk("VCLP", count0());
    EXPECT_EQ(again.value(), expected.bytes());
  });
  EXPECT_LT(t, 1.0);
  // A custom huge limit still cannot loop: the flat model has no per-row work.
  DecodeOptions big = test::strict();
  big.limits.rkc_frame_cells = UINT64_MAX;
  const double t2 =
      test::seconds([&] { EXPECT_TRUE(decode_rkc(clip(0xFFFFFFFF).bytes(), big).ok()); });
  EXPECT_LT(t2, 1.0);
}

// Hazard H5: the seed's clamped_capacity(n, 0) may divide by zero (KV6 ysiz 0; RKC numhin 0).
TEST(RkcHazards, H5ZeroElementSizesNeverDivide) {
  Bytes kv6;
  kv6.str("Kvxl").u32(1000).u32(0).u32(5).zeros(12).u32(0);
  for (int i = 0; i < 1000; ++i) kv6.u32(0);
  Bytes f = header();
  f.chunk("META", meta0());
  f.chunk("MSHS", Bytes().u32(1).u32(uint32_t(kv6.size())).raw(kv6.bytes()));
  f.chunk("BONS", count0());
  f.chunk("CLPS", Bytes().u32(1).name("z").u16(0).u32(12).u32(3).u32(0).u32(0));
  auto c = decode_rkc(f.bytes(), test::strict());
  ASSERT_TRUE(c.ok()) << c.error().to_text();
  EXPECT_EQ(c->meshes[0].xlen.size(), 1000u);
  EXPECT_TRUE(c->meshes[0].ylen.empty());
}

// Every strict prefix of the synthetic character (and of its VCLP variant), copied to an
// exact-size heap buffer, either fails with the exact error its cut position implies or — only
// when cut right after BONS or CLPS — is a valid shorter file.
TEST(RkcHazards, EveryStrictPrefixFailsCleanly) {
  Character with_clip = test::synthetic_character();
  with_clip.voxel_clips = {test::seed_voxel_clip()};
  with_clip.bones[0].attachments.push_back(Attachment{AttachmentKind::Clip, 0, {}, 256, 0});
  auto vbytes = encode_rkc(with_clip);
  ASSERT_TRUE(vbytes.ok());
  const std::vector<uint8_t> files[2] = {test::synthetic_character_bytes().bytes(), vbytes.value()};
  for (int which = 0; which < 2; ++which) {
    const std::vector<uint8_t>& full = files[which];
    const size_t mshs = test::find_tag(full, "MSHS"), bons_at = test::find_tag(full, "BONS");
    const size_t clps = test::find_tag(full, "CLPS"), vclp = test::find_tag(full, "VCLP");
    const double t = test::seconds([&] {
      for (size_t len = 0; len < full.size(); ++len) {
        const std::vector<uint8_t> prefix(full.begin(), full.begin() + len);
        auto r = decode_rkc(prefix, test::strict());
        if (len == clps || len == vclp) {
          // Cut right after BONS or CLPS: a valid shorter file, except that the VCLP variant's
          // Clip attachment then points past an absent VCLP.
          if (which == 0) {
            EXPECT_TRUE(r.ok()) << len;
          } else {
            ASSERT_FALSE(r.ok()) << len;
            EXPECT_EQ(r.error().code, ErrorCode::RkcAttachmentIndex) << len;
          }
          continue;
        }
        ASSERT_FALSE(r.ok()) << len;
        ErrorCode want = ErrorCode::RkcTruncated;
        if (len == 6) want = ErrorCode::RkcMissingMeta;
        if (len == mshs) want = ErrorCode::RkcMissingMshs;
        if (len == bons_at) want = ErrorCode::RkcMissingBons;
        EXPECT_EQ(r.error().code, want) << len;
      }
    });
    EXPECT_LT(t, 1.0);
  }
}

// Every single-byte corruption of the synthetic character with a voxel clip (three patterns per
// position): decoding never crashes, and whatever decodes has a canonical form that is a fixed
// point (decode -> encode -> decode gives the same model and the same bytes).
TEST(RkcHazards, SingleByteCorruptionsStayCleanAndCanonicalFormIsAFixedPoint) {
  Character c = test::synthetic_character();
  c.voxel_clips = {test::seed_voxel_clip()};
  c.bones[0].attachments.push_back(Attachment{AttachmentKind::Clip, 0, {}, 256, 0});
  auto full = encode_rkc(c);
  ASSERT_TRUE(full.ok());
  size_t accepted = 0;
  const double t = test::seconds([&] {
    for (size_t pos = 0; pos < full->size(); ++pos) {
      for (uint8_t pattern : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{0x80}}) {
        std::vector<uint8_t> f = full.value();
        if (f[pos] == pattern) continue;
        f[pos] = pattern;
        for (const DecodeOptions& o : {test::strict(), test::compat()}) {
          auto d = decode_rkc(f, o);
          if (!d.ok()) {
            EXPECT_NE(category_of(d.error().code), Category::Internal);
            continue;
          }
          ++accepted;
          auto e = encode_rkc(d.value());
          ASSERT_TRUE(e.ok()) << pos << " " << e.error().to_text();
          auto d2 = decode_rkc(e.value(), o);
          ASSERT_TRUE(d2.ok()) << pos << " " << d2.error().to_text();
          EXPECT_TRUE(d2.value() == d.value()) << pos;
          auto e2 = encode_rkc(d2.value());
          ASSERT_TRUE(e2.ok());
          EXPECT_EQ(e2.value(), e.value()) << pos;
        }
      }
    }
  });
  EXPECT_GT(accepted, 100u);  // float and name bytes are free: many corruptions still decode
  EXPECT_LT(t, 2.0);
}

}  // namespace
}  // namespace voxrig
