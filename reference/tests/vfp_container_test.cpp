// VFP core container: file header, section framing, trailing bytes, VOX0 presence, unknown
// REQUIRED sections, codecs, sourceHash, opaque sections, versionMinor, prefixes.
#include <gtest/gtest.h>

#include "vfp_test_builder.h"

namespace voxrig {
namespace {

using namespace vt;
constexpr Profile kStatic = Profile::VfpStatic;
constexpr Profile kRig = Profile::VfpRig;

// ---- file header -------------------------------------------------------------------------------

TEST(VfpHeader, MinimalStaticFileDecodesAndRoundTrips) {
  const Bytes file = static_file().bytes();
  ASSERT_EQ(file.size(), 44u + 16u + 28u);
  for (Profile p : {kStatic, kRig}) {
    auto r = decode(file, p);
    ASSERT_TRUE(succeeds(r));
    ASSERT_EQ(r->sections.size(), 1u);
    EXPECT_EQ(r->version_minor, 3);
    EXPECT_NE(r->vox0(), nullptr);
    EXPECT_EQ(r->skel(), nullptr);
    EXPECT_TRUE(round_trips(file, p));
  }
}

TEST(VfpHeader, Truncated) {
  const Bytes file = static_file().bytes();
  auto r = decode(Bytes(file.begin(), file.begin() + 43));
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpHeaderTruncated));
  EXPECT_EQ(r.error().offset, 12u);  // the 32-byte sourceHash read
  EXPECT_TRUE(fails_with(decode(Bytes{'V', 'F'}), ErrorCode::VfpHeaderTruncated));
  EXPECT_TRUE(fails_with(decode(Bytes{}), ErrorCode::VfpHeaderTruncated));
}

TEST(VfpHeader, BadMagic) {
  FileSpec f = static_file();
  f.magic = {'V', 'F', 'P', '1'};
  auto r = decode(f.bytes());
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpBadMagic));
  EXPECT_EQ(r.error().offset, 0u);
  // Checked as read: four bytes of wrong magic fail as magic, not as a short header.
  EXPECT_TRUE(fails_with(decode(Bytes{'R', 'K', 'C', 'H'}), ErrorCode::VfpBadMagic));
}

TEST(VfpHeader, VersionMajor) {
  for (uint8_t major : {0, 2, 255}) {
    FileSpec f = static_file();
    f.major = major;
    auto r = decode(f.bytes());
    ASSERT_TRUE(fails_with(r, ErrorCode::VfpVersionMajor));
    EXPECT_EQ(r.error().offset, 4u);
    EXPECT_EQ(category_of(r.error().code), Category::Unsupported);
  }
}

TEST(VfpHeader, AnyVersionMinorIsAcceptedAndKept) {
  for (uint8_t minor : {0, 3, 4, 200, 255}) {
    FileSpec f = static_file();
    f.minor = minor;
    auto r = decode(f.bytes());
    ASSERT_TRUE(succeeds(r));
    EXPECT_EQ(r->version_minor, minor);
    EXPECT_TRUE(round_trips(f.bytes()));
  }
}

TEST(VfpHeader, Flags) {
  for (uint16_t flags : {1, 0x8000}) {
    FileSpec f = static_file();
    f.flags = flags;
    auto r = decode(f.bytes());
    ASSERT_TRUE(fails_with(r, ErrorCode::VfpHeaderFlags));
    EXPECT_EQ(r.error().offset, 6u);
  }
}

TEST(VfpHeader, SectionLimitJustUnderAndOver) {
  Limits limits;
  limits.vfp_sections = 2;
  FileSpec f = static_file();
  f.sections.push_back(opt_section("ZZZ1", {1, 2}));
  EXPECT_TRUE(succeeds(decode(f.bytes(), kRig, limits)));
  f.sections.push_back(opt_section("ZZZ2", {}));
  auto r = decode(f.bytes(), kRig, limits);
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpLimitSections));
  EXPECT_EQ(r.error().offset, 8u);
  // The limit comes before any look at the sections: a bare header with a huge count.
  FileSpec huge = static_file();
  huge.count = 0xFFFFFFFFu;
  EXPECT_TRUE(fails_with(decode(huge.bytes()), ErrorCode::VfpLimitSections));
}

// ---- section framing ---------------------------------------------------------------------------

TEST(VfpSection, MissingOrShortSectionHeader) {
  FileSpec f = static_file();
  f.count = 2;  // one section present
  auto r = decode(f.bytes());
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpSectionTruncated));
  EXPECT_EQ(r.error().offset, 88u);
  EXPECT_EQ(r.error().path, "section[1]");
  f.trailing = {'Z', 'Z', 'Z', 'Z', 0xFF, 0xFF, 0xFF, 0xFF};  // 8 of 16 header bytes, bad chunkId
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::VfpSectionTruncated));
}

TEST(VfpSection, Tag) {
  for (const char* tag : {"vox0", "AB_1", "AB 1", "ABC\x80"}) {
    FileSpec f = static_file();
    f.sections.push_back(opt_section(tag, {}));
    auto r = decode(f.bytes());
    ASSERT_TRUE(fails_with(r, ErrorCode::VfpSectionBadTag)) << tag;
    EXPECT_EQ(r.error().offset, 88u);
  }
  FileSpec ok = static_file();
  ok.sections.push_back(opt_section("A0Z9", {7}));
  EXPECT_TRUE(round_trips(ok.bytes()));
}

TEST(VfpSection, ChunkId) {
  for (int32_t id : {-2, INT32_MIN}) {
    FileSpec f = static_file();
    f.sections.push_back(opt_section("ZZZZ", {}));
    f.sections[1].chunk_id = id;
    auto r = decode(f.bytes());
    ASSERT_TRUE(fails_with(r, ErrorCode::VfpSectionBadChunkId));
    EXPECT_EQ(r.error().offset, 92u);
  }
  FileSpec ok = static_file();
  ok.sections.push_back(opt_section("ZZZZ", {}));
  ok.sections[1].chunk_id = 12345;
  EXPECT_TRUE(round_trips(ok.bytes()));
}

TEST(VfpSection, ReservedFlagBits) {
  for (uint8_t flags : {0x02, 0x80, 0x03}) {
    FileSpec f = static_file();
    f.sections.push_back(opt_section("ZZZZ", {}));
    f.sections[1].flags = flags;
    auto r = decode(f.bytes());
    ASSERT_TRUE(fails_with(r, ErrorCode::VfpSectionReservedFlags));
    EXPECT_EQ(r.error().offset, 97u);
  }
}

TEST(VfpSection, ReservedU16) {
  FileSpec f = static_file();
  f.sections[0].reserved = 1;
  auto r = decode(f.bytes());
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpSectionReserved));
  EXPECT_EQ(r.error().offset, 54u);
}

TEST(VfpSection, PayloadMustFit) {
  FileSpec f = static_file();
  f.sections[0].length = 29;  // one more than present
  auto r = decode(f.bytes());
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpSectionPayloadTruncated));
  EXPECT_EQ(r.error().offset, 60u);
  f.sections[0].length = 0xFFFFFFFFu;
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::VfpSectionPayloadTruncated));
}

TEST(VfpSection, FramingChecksRunInFileOrder) {
  // Section 1 has a bad tag, section 2 a bad chunkId: the first section's error wins, and a
  // framing error beats a missing VOX0 (step 2 before step 4).
  FileSpec f;
  f.sections = {opt_section("ZZZZ", {}), opt_section("zzzz", {}), opt_section("ZZZZ", {})};
  f.sections[2].chunk_id = -5;
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::VfpSectionBadTag));
}

TEST(VfpFile, TrailingBytes) {
  FileSpec f = static_file();
  f.trailing = {0};
  auto r = decode(f.bytes());
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpTrailingBytes));
  EXPECT_EQ(r.error().offset, 88u);
  // Step 3 before step 4: no VOX0 and a trailing byte reports the trailing byte.
  FileSpec g;
  g.trailing = {0};
  EXPECT_TRUE(fails_with(decode(g.bytes()), ErrorCode::VfpTrailingBytes));
}

// ---- VOX0 presence, uniqueness and section header ----------------------------------------------

TEST(VfpVox0Section, Missing) {
  FileSpec none;
  EXPECT_TRUE(fails_with(decode(none.bytes()), ErrorCode::VfpVox0Missing));
  FileSpec other;
  other.sections = {opt_section("PRVW", {1, 2, 3})};
  EXPECT_TRUE(fails_with(decode(other.bytes(), kStatic), ErrorCode::VfpVox0Missing));
}

TEST(VfpVox0Section, Duplicate) {
  FileSpec f = static_file();
  f.sections.push_back(f.sections[0]);
  auto r = decode(f.bytes());
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpVox0Duplicate));
  EXPECT_EQ(r.error().offset, 88u);
  EXPECT_EQ(r.error().path, "section[1]");
}

TEST(VfpVox0Section, HeaderFields) {
  FileSpec chunk = static_file();
  chunk.sections[0].chunk_id = 0;
  EXPECT_TRUE(fails_with(decode(chunk.bytes()), ErrorCode::VfpVox0BadChunkId));
  FileSpec codec = static_file();
  codec.sections[0].codec = 1;
  EXPECT_TRUE(fails_with(decode(codec.bytes()), ErrorCode::VfpVox0BadCodec));
  FileSpec optional = static_file();
  optional.sections[0].flags = 0;
  EXPECT_TRUE(fails_with(decode(optional.bytes(), kStatic), ErrorCode::VfpVox0NotRequired));
  // Byte order inside the header: chunkId before codec before flags.
  codec.sections[0].chunk_id = 3;
  codec.sections[0].flags = 0;
  EXPECT_TRUE(fails_with(decode(codec.bytes()), ErrorCode::VfpVox0BadChunkId));
}

// ---- unknown REQUIRED sections and codecs (step 5) ----------------------------------------------

TEST(VfpRequired, UnknownRequiredRejectsInBothProfiles) {
  FileSpec f = static_file();
  f.sections.push_back(opt_section("ZZZZ", {1}));
  f.sections[1].flags = kSectionRequired;
  for (Profile p : {kStatic, kRig}) {
    auto r = decode(f.bytes(), p);
    ASSERT_TRUE(fails_with(r, ErrorCode::VfpUnknownRequired));
    EXPECT_EQ(r.error().path, "section[1]");
  }
  f.sections[1].flags = 0;
  EXPECT_TRUE(round_trips(f.bytes(), kStatic));
  EXPECT_TRUE(round_trips(f.bytes(), kRig));
}

TEST(VfpRequired, CacheCodecRejectedOnlyWhenRequired) {
  FileSpec f = static_file();
  f.sections.push_back(opt_section("MSH0", {9, 9}));
  f.sections[1].codec = 7;
  EXPECT_TRUE(round_trips(f.bytes()));  // optional: kept
  f.sections[1].flags = kSectionRequired;
  auto r = decode(f.bytes());
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpUnsupportedCodec));
  EXPECT_EQ(r.error().offset, 96u);
  // FP-4: caches may carry any chunkId >= -1 and REQUIRED with codec 0.
  f.sections[1].codec = 0;
  f.sections[1].chunk_id = 7;
  EXPECT_TRUE(round_trips(f.bytes()));
}

TEST(VfpRequired, UnknownOptionalWithAnyCodecIsKept) {
  FileSpec f = static_file();
  f.sections.push_back(opt_section("ZZZZ", {1, 2, 3}));
  f.sections[1].codec = 200;
  EXPECT_TRUE(round_trips(f.bytes()));
}

TEST(VfpRequired, StepFiveRunsBeforeTheVox0Payload) {
  Vox0Spec bad;
  bad.version = 9;
  FileSpec f = static_file(bad);
  f.sections.push_back(opt_section("ZZZZ", {}));
  f.sections[1].flags = kSectionRequired;
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::VfpUnknownRequired));
  f.sections[1].flags = 0;
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::Vox0BadVersion));
}

// ---- sourceHash (step 7) -----------------------------------------------------------------------

TEST(VfpSourceHash, MustMatchInEveryProfile) {
  FileSpec f = static_file();
  Sha256 wrong = sha256(f.sections[0].payload);
  wrong[31] ^= 1;
  f.hash = wrong;
  for (Profile p : {kStatic, kRig}) {
    auto r = decode(f.bytes(), p);
    ASSERT_TRUE(fails_with(r, ErrorCode::VfpSourceHash));
    EXPECT_EQ(r.error().offset, 12u);
  }
  // The VOX0 payload is checked before the hash over it.
  Vox0Spec bad;
  bad.voxels = {1, 0, 3, 1};
  FileSpec g = static_file(bad);
  g.hash = Sha256{};
  EXPECT_TRUE(fails_with(decode(g.bytes()), ErrorCode::Vox0PaletteIndex));
}

// ---- opaque sections ---------------------------------------------------------------------------

TEST(VfpOpaque, UnknownOptionalSectionsSurviveAtEveryPosition) {
  const Bytes unk = {0xDE, 0xAD, 0xBE, 0xEF, 0x00};
  for (size_t pos : {0u, 1u, 2u}) {
    FileSpec f = static_file();
    f.sections.push_back(opt_section("PRVW", {1}));  // VOX0, PRVW
    f.sections.insert(f.sections.begin() + pos, opt_section("X9X9", unk));
    f.sections[pos].chunk_id = 4;
    for (Profile p : {kStatic, kRig}) {
      auto r = decode(f.bytes(), p);
      ASSERT_TRUE(succeeds(r));
      ASSERT_EQ(r->sections.size(), 3u);
      EXPECT_EQ(r->sections[pos].header.tag, make_tag("X9X9"));
      EXPECT_EQ(r->sections[pos].header.chunk_id, 4);
      ASSERT_TRUE(std::holds_alternative<RawPayload>(r->sections[pos].body));
      EXPECT_EQ(std::get<RawPayload>(r->sections[pos].body).bytes, unk);
      EXPECT_TRUE(round_trips(f.bytes(), p)) << "position " << pos;
    }
  }
}

TEST(VfpOpaque, CacheSectionsAreNeverDecoded) {
  FileSpec f = static_file();
  for (const char* tag : {"ANM0", "RND0", "MSH0", "PRVW", "PMSH"})
    f.sections.push_back(opt_section(tag, {0xFF, 0x00, uint8_t(tag[0])}));
  f.sections[3].flags = kSectionRequired;
  f.sections[4].chunk_id = 2;
  auto r = decode(f.bytes());
  ASSERT_TRUE(succeeds(r));
  for (size_t i = 1; i < 6; ++i)
    EXPECT_TRUE(std::holds_alternative<RawPayload>(r->sections[i].body)) << i;
  EXPECT_TRUE(round_trips(f.bytes()));
}

TEST(VfpOpaque, ModelEqualityIsByBits) {
  auto a = decode(static_file().bytes());
  ASSERT_TRUE(succeeds(a));
  VfpFile b = a.value();
  EXPECT_EQ(a.value(), b);
  b.version_minor = 4;
  EXPECT_NE(a.value(), b);
  Vec3 p{0.0f, 1, 2}, m{-0.0f, 1, 2};
  EXPECT_NE(p, m);
  Quat n1{kNaN, 0, 0, 1}, n2{kNaN, 0, 0, 1}, n3{f32_bits(0x7FC00001u), 0, 0, 1};
  EXPECT_EQ(n1, n2);
  EXPECT_NE(n1, n3);
}

// ---- canonicalize (D1) -------------------------------------------------------------------------

TEST(VfpCanonicalize, OrdersByTagClassAndIsIdempotent) {
  // Purely syntactic: under vfp-static the rig payloads are not even valid.
  auto sec = [](const char* tag) { return opt_section(tag, {uint8_t(tag[0]), uint8_t(tag[3])}); };
  FileSpec in = static_file();
  const SectionSpec vox0 = in.sections[0];
  in.sections = {sec("X001"), sec("ANIM"), sec("PRVW"), sec("VSKN"), vox0,       sec("SKEL"),
                 sec("MSH0"), sec("X002"), sec("ANM0"), sec("ANIM"), sec("PMSH")};
  FileSpec want = in;
  want.sections = {vox0,        sec("PRVW"), sec("MSH0"), sec("ANM0"), sec("PMSH"), sec("SKEL"),
                   sec("VSKN"), sec("ANIM"), sec("ANIM"), sec("X001"), sec("X002")};
  want.minor = in.minor = 7;
  auto r = decode(in.bytes(), kStatic);
  ASSERT_TRUE(succeeds(r));
  const VfpFile once = canonicalized(r.value());
  auto bytes = encode_vfp(once);
  ASSERT_TRUE(succeeds(bytes));
  EXPECT_EQ(bytes.value(), want.bytes());
  EXPECT_EQ(canonicalized(once), once);
  EXPECT_TRUE(round_trips(in.bytes(), kStatic));  // roundtrip keeps the input order
}

TEST(VfpCanonicalize, DecodedRigSectionsMoveToo) {
  RigFixture fx;
  FileSpec in = fx.file_spec();  // VOX0 SKEL VSKN ANIM
  FileSpec shuffled = in;
  shuffled.sections = {in.sections[3], opt_section("ZZZZ", {}), in.sections[2],
                       in.sections[0], in.sections[1],          opt_section("PRVW", {5})};
  FileSpec want = in;
  want.sections = {in.sections[0], opt_section("PRVW", {5}), in.sections[1],
                   in.sections[2], in.sections[3],           opt_section("ZZZZ", {})};
  auto r = decode(shuffled.bytes(), kRig);
  ASSERT_TRUE(succeeds(r));
  EXPECT_NE(r->anim(), nullptr);
  auto bytes = encode_vfp(canonicalized(r.value()));
  ASSERT_TRUE(succeeds(bytes));
  EXPECT_EQ(bytes.value(), want.bytes());
  EXPECT_TRUE(round_trips(shuffled.bytes(), kRig));
}

// ---- every strict prefix fails; one appended byte fails ----------------------------------------

void expect_prefixes_fail(const Bytes& file, Profile p) {
  ASSERT_TRUE(round_trips(file, p));
  for (size_t n = 0; n < file.size(); ++n) {
    const Bytes prefix(file.begin(), file.begin() + n);  // exact-size heap copy
    auto r = decode_vfp(prefix, DecodeOptions{p, {}});
    EXPECT_FALSE(r.ok()) << "prefix of " << n << " bytes decoded";
  }
  Bytes longer = file;
  longer.push_back(0);
  EXPECT_TRUE(fails_with(decode(longer, p), ErrorCode::VfpTrailingBytes));
}

TEST(VfpPrefixes, StaticFiles) {
  expect_prefixes_fail(static_file().bytes(), kStatic);
  FileSpec f = static_file();
  f.sections.insert(f.sections.begin(), opt_section("PRVW", {1, 2, 3, 4}));
  f.sections.push_back(opt_section("ZZZZ", {}));
  expect_prefixes_fail(f.bytes(), kStatic);
  expect_prefixes_fail(f.bytes(), kRig);
}

TEST(VfpPrefixes, RiggedFiles) {
  RigFixture fx;
  expect_prefixes_fail(fx.file(), kRig);
  expect_prefixes_fail(fx.file(), kStatic);
  fx.with_anim = false;
  expect_prefixes_fail(fx.file(), kRig);
}

// ---- writer errors -----------------------------------------------------------------------------

TEST(VfpEncode, NeedsADecodedVox0) {
  VfpFile f;
  EXPECT_TRUE(fails_with(encode_vfp(f), ErrorCode::VfpVox0Missing));
  f.sections.push_back(Section{SectionHeader{make_tag("VOX0"), -1, 0, 1}, RawPayload{{1, 2}}});
  EXPECT_TRUE(fails_with(encode_vfp(f), ErrorCode::VfpVox0Missing));
}

TEST(VfpEncode, VoxelArrayMustMatchTheGrid) {
  Vox0 v;
  v.size_x = 2;
  v.palette = {Rgba{}, Rgba{1, 2, 3, 4}};
  v.voxels = {1};
  VfpFile f;
  f.sections.push_back(Section{SectionHeader{make_tag("VOX0"), -1, 0, 1}, v});
  EXPECT_TRUE(fails_with(encode_vfp(f), ErrorCode::VfpWriteInconsistent));
  std::get<Vox0>(f.sections[0].body).voxels = {1, 0};
  auto bytes = encode_vfp(f);
  ASSERT_TRUE(succeeds(bytes));
  Vox0Spec spec;
  spec.sx = 2;
  spec.palette = {{0, 0, 0, 0}, {1, 2, 3, 4}};
  spec.voxels = {1, 0};
  EXPECT_EQ(bytes.value(), static_file(spec).bytes());
}

}  // namespace
}  // namespace voxrig
