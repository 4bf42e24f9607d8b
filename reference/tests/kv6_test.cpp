// KV6 (docs/spec/kv6.md): the docs/spec/kv6.md#writer minimal example, parse order (too_small before magic),
// truncation, the palette rule, limits, D9 run tables (strict error / compat warning), writer.
#include "rkc_test_util.h"

namespace voxrig {
namespace {

using test::Bytes;

// docs/spec/kv6.md#writer: 1x1x1, one voxel, pivot 0.5 (46 bytes), spelled exactly as the fact sheet.
const std::vector<uint8_t> kMinimal46 = {
    0x4B, 0x76, 0x78, 0x6C, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0x3F, 0x01, 0x00, 0x00, 0x00,
    0x40, 0x80, 0xFF, 0x80, 0x00, 0x00, 0x3F, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00};

Bytes kv6_header(uint32_t x, uint32_t y, uint32_t z, uint32_t numvoxs) {
  return Bytes().str("Kvxl").u32(x).u32(y).u32(z).f32(0).f32(0).f32(0).u32(numvoxs);
}

/// 2x1x4: slice 0 has one column with voxels z=0,3; slice 1 one voxel z=1.
Bytes two_slices(uint32_t zsiz = 4, uint32_t xlen0 = 2, uint16_t ylen1 = 1, uint16_t z1 = 1,
                 uint32_t xlen1 = 1) {
  Bytes b = kv6_header(2, 1, zsiz, 3);
  b.u32(0x80010203).u16(0).u8(0x3f).u8(1);
  b.u32(0x80010204).u16(3).u8(0x3f).u8(2);
  b.u32(0x80010205).u16(z1).u8(0x3f).u8(3);
  b.u32(xlen0).u32(xlen1);
  b.u16(2).u16(ylen1);
  return b;
}

Error err(const std::vector<uint8_t>& b, const DecodeOptions& o = test::strict(),
          uint64_t base = 0) {
  auto r = decode_kv6(b, base, o);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

TEST(Kv6, MinimalExampleRoundTrips) {
  for (auto o : {test::strict(), test::compat()}) {
    auto m = decode_kv6(kMinimal46, 0, o);
    ASSERT_TRUE(m.ok()) << m.error().to_text();
    EXPECT_EQ(m->xsiz, 1u);
    EXPECT_EQ(test::bits(m->pivot[2]), 0x3F000000u);
    ASSERT_EQ(m->voxels.size(), 1u);
    EXPECT_EQ(m->voxels[0], (Kv6Voxel{0x80FF8040, 0, 0x3F, 0}));
    EXPECT_EQ(m->xlen, (std::vector<uint32_t>{1}));
    EXPECT_EQ(m->ylen, (std::vector<uint16_t>{1}));
    EXPECT_FALSE(m->palette.has_value());
    auto out = encode_kv6(m.value());
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out.value(), kMinimal46);
    auto w = validate_kv6(kMinimal46, o);
    ASSERT_TRUE(w.ok());
    EXPECT_TRUE(w->empty());
  }
}

TEST(Kv6, TooSmallIsCheckedBeforeTheMagic) {
  EXPECT_EQ(err({}).code, ErrorCode::Kv6TooSmall);
  std::vector<uint8_t> junk(31, 0xEE);
  EXPECT_EQ(err(junk).code, ErrorCode::Kv6TooSmall);
  junk.push_back(0xEE);
  EXPECT_EQ(err(junk).code, ErrorCode::Kv6BadMagic);
  std::vector<uint8_t> short_ok(kMinimal46.begin(), kMinimal46.begin() + 31);
  EXPECT_EQ(err(short_ok).code, ErrorCode::Kv6TooSmall);
  EXPECT_EQ(err(junk, test::strict(), 500).offset, 500u);  // absolute offsets
}

TEST(Kv6, TruncatedTablesReportTheFirstMissingRecord) {
  const std::vector<uint8_t> full = two_slices().bytes();
  // Every strict prefix from 32 bytes on is truncated (exact-size heap copies).
  for (size_t len = 32; len < full.size(); ++len) {
    const std::vector<uint8_t> p(full.begin(), full.begin() + len);
    EXPECT_EQ(err(p).code, ErrorCode::Kv6Truncated) << len;
  }
  const std::vector<uint8_t> cut(full.begin(), full.begin() + 32 + 8 + 5);  // inside voxel 1
  const Error e = err(cut, test::strict(), 100);
  EXPECT_EQ(e.path, "voxel[1]");
  EXPECT_EQ(e.offset, 100u + 32 + 8);
  const std::vector<uint8_t> cut_y(full.begin(), full.end() - 1);
  EXPECT_EQ(err(cut_y).path, "ylen[1]");
}

TEST(Kv6, PaletteOnlyWithAWholeSpalTrailer) {
  Bytes pal = two_slices();
  pal.str("SPal");
  for (int i = 0; i < 768; ++i) pal.u8(uint8_t(i & 63));
  auto m = decode_kv6(pal.bytes(), 0, test::strict());
  ASSERT_TRUE(m.ok());
  ASSERT_TRUE(m->palette.has_value());
  EXPECT_EQ((*m->palette)[100], 100 & 63);
  EXPECT_EQ(encode_kv6(m.value()).value(), pal.bytes());

  // 771 trailing bytes starting with SPal: no palette, all dropped.
  std::vector<uint8_t> short_pal(pal.bytes().begin(), pal.bytes().end() - 1);
  auto s = decode_kv6(short_pal, 0, test::strict());
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->palette.has_value());
  EXPECT_EQ(encode_kv6(s.value()).value(), two_slices().bytes());
  // 772 bytes that do not start with SPal: dropped.
  std::vector<uint8_t> not_pal = pal.bytes();
  not_pal[two_slices().size()] = 's';
  auto n = decode_kv6(not_pal, 0, test::strict());
  ASSERT_TRUE(n.ok());
  EXPECT_FALSE(n->palette.has_value());
  auto w = validate_kv6(not_pal, test::strict());
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(w->size(), 1u);
  EXPECT_EQ((*w)[0].code, WarningCode::Kv6TrailingBytes);
  EXPECT_EQ((*w)[0].offset, two_slices().size());
  // A palette followed by more bytes: the palette stays, the extra goes.
  std::vector<uint8_t> pal_plus = pal.bytes();
  pal_plus.push_back(1);
  auto pp = decode_kv6(pal_plus, 0, test::strict());
  ASSERT_TRUE(pp.ok());
  EXPECT_EQ(encode_kv6(pp.value()).value(), pal.bytes());
}

TEST(Kv6, Limits) {
  // Hazard H4: a 36-byte file declaring 2^32-1 voxels is a limit error, not an allocation.
  Bytes huge = kv6_header(1, 1, 1, 0xFFFFFFFF);
  huge.u32(0);
  const double t =
      test::seconds([&] { EXPECT_EQ(err(huge.bytes()).code, ErrorCode::Kv6LimitVoxels); });
  EXPECT_LT(t, 1.0);
  // At the limit with no data: truncated, nothing reserved.
  Bytes at = kv6_header(1, 1, 1, 1u << 26);
  EXPECT_EQ(err(at.bytes()).code, ErrorCode::Kv6Truncated);
  EXPECT_EQ(err(kv6_header(0x10000, 0x10000, 1, 0).bytes()).code, ErrorCode::Kv6LimitColumns);
  // Columns before voxels (header order).
  EXPECT_EQ(err(kv6_header(0x10000, 0x10000, 1, 0xFFFFFFFF).bytes()).code,
            ErrorCode::Kv6LimitColumns);
  DecodeOptions o = test::strict();
  o.limits.kv6_voxels = 3;
  o.limits.kv6_columns = 2;
  EXPECT_TRUE(decode_kv6(two_slices().bytes(), 0, o).ok());
  o.limits.kv6_voxels = 2;
  EXPECT_EQ(err(two_slices().bytes(), o).code, ErrorCode::Kv6LimitVoxels);
  o.limits.kv6_voxels = 3;
  o.limits.kv6_columns = 1;
  EXPECT_EQ(err(two_slices().bytes(), o).code, ErrorCode::Kv6LimitColumns);
}

TEST(Kv6, RunTablesStrictErrorCompatWarning) {
  ASSERT_TRUE(decode_kv6(two_slices().bytes(), 0, test::strict()).ok());
  struct Case {
    Bytes b;
    const char* path;
  } cases[] = {
      {two_slices(4, 3), "xlen"},              // Σxlen = 4 != numvoxs 3
      {two_slices(4, 2, 2), "ylen"},           // Σylen = 4 != 3
      {two_slices(4, 1, 1, 1, 2), "xlen[0]"},  // sums agree, slice 0 runs 2 != xlen 1
      {two_slices(3), "voxel[1]"},             // z 3 >= zsiz 3
      {two_slices(4, 2, 1, 4), "voxel[2]"},
  };
  for (const Case& c : cases) {
    const Error e = err(c.b.bytes());
    EXPECT_EQ(e.code, ErrorCode::Kv6RunTables) << c.path;
    EXPECT_EQ(e.path, c.path);
    auto m = decode_kv6(c.b.bytes(), 0, test::compat());
    ASSERT_TRUE(m.ok()) << c.path;
    EXPECT_EQ(encode_kv6(m.value()).value(), c.b.bytes());  // kept exactly as stored
    auto w = validate_kv6(c.b.bytes(), test::compat());
    ASSERT_TRUE(w.ok());
    ASSERT_EQ(w->size(), 1u);
    EXPECT_EQ((*w)[0].code, WarningCode::Kv6RunTables);
    EXPECT_EQ((*w)[0].path, c.path);
    EXPECT_EQ((*w)[0].offset, e.offset);
  }
  EXPECT_EQ(err(two_slices(3).bytes()).offset, 32u + 8 + 4);  // voxel 1's z field
}

TEST(Kv6, WriterRejectsTablesThatDoNotMatchTheDims) {
  Kv6 m = test::unit_kv6(1);
  m.xlen.push_back(0);
  EXPECT_EQ(encode_kv6(m).error().code, ErrorCode::Kv6WriteTableSize);
  m = test::unit_kv6(1);
  m.ylen.clear();
  EXPECT_EQ(encode_kv6(m).error().code, ErrorCode::Kv6WriteTableSize);
  // Run tables are the reader's business: the writer writes inconsistent ones as stored.
  m = test::unit_kv6(1);
  m.voxels.clear();
  auto out = encode_kv6(m);
  ASSERT_TRUE(out.ok());
  Bytes exact;
  exact.str("Kvxl").u32(1).u32(1).u32(1).f32(0.5f).f32(0.5f).f32(0.5f).u32(0).u32(1).u16(1);
  EXPECT_EQ(out.value(), exact.bytes());
}

}  // namespace
}  // namespace voxrig
