// VOX0 payload: every field rule, the check order of docs/spec/vfp.md, the voxel limit.
#include <gtest/gtest.h>

#include "vfp_test_builder.h"

namespace voxrig {
namespace {

using namespace vt;

// Section payload starts at file offset 60 in a file whose first section is VOX0.
constexpr uint64_t kPayload = 60;

Result<VfpFile> decode_vox0_file(const Vox0Spec& v, const Limits& limits = {}) {
  return decode(static_file(v).bytes(), Profile::VfpRig, limits);
}

TEST(Vox0, ValidPayloadDecodesToTheFieldsWritten) {
  Vox0Spec v;
  v.sx = 2;
  v.sy = 3;
  v.sz = 2;
  v.palette = {{9, 8, 7, 6}, {1, 2, 3, 4}, {5, 6, 7, 8}};
  v.voxels = {0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2};
  auto r = decode_vox0_file(v);
  ASSERT_TRUE(succeeds(r));
  const Vox0& d = *r->vox0();
  EXPECT_EQ(d.size_x, 2);
  EXPECT_EQ(d.size_y, 3);
  EXPECT_EQ(d.size_z, 2);
  ASSERT_EQ(d.palette.size(), 3u);
  EXPECT_EQ(d.palette[0], (Rgba{9, 8, 7, 6}));  // the empty slot's colour is kept
  EXPECT_EQ(d.palette[2], (Rgba{5, 6, 7, 8}));
  EXPECT_EQ(d.voxels, v.voxels);
  EXPECT_EQ(d.index(1, 2, 1), 11u);  // x-fastest
  EXPECT_EQ(d.voxels[d.index(1, 0, 0)], 1);
  EXPECT_EQ(encode_vox0(d), v.bytes());
}

TEST(Vox0, Version) {
  for (uint8_t version : {0, 2}) {
    Vox0Spec v;
    v.version = version;
    auto r = decode_vox0_file(v);
    ASSERT_TRUE(fails_with(r, ErrorCode::Vox0BadVersion));
    EXPECT_EQ(r.error().offset, kPayload);
    EXPECT_EQ(r.error().path, "VOX0");
  }
}

TEST(Vox0, ReservedByteAndReservedU16) {
  Vox0Spec a;
  a.reserved = 1;
  auto r = decode_vox0_file(a);
  ASSERT_TRUE(fails_with(r, ErrorCode::Vox0Reserved));
  EXPECT_EQ(r.error().offset, kPayload + 1);
  Vox0Spec b;
  b.reserved2 = 0x100;
  r = decode_vox0_file(b);
  ASSERT_TRUE(fails_with(r, ErrorCode::Vox0Reserved));
  EXPECT_EQ(r.error().offset, kPayload + 10);
}

TEST(Vox0, PaletteCount) {
  Vox0Spec zero;
  zero.palette.clear();
  zero.voxels = {0, 0, 0, 0};
  EXPECT_TRUE(fails_with(decode_vox0_file(zero), ErrorCode::Vox0PaletteCount));
  Vox0Spec over;
  over.palette.assign(257, {1, 1, 1, 1});
  EXPECT_TRUE(fails_with(decode_vox0_file(over), ErrorCode::Vox0PaletteCount));
  // Edges: 1 entry (only empty voxels) and 256 entries (every byte value is valid).
  Vox0Spec one;
  one.palette = {{0, 0, 0, 0}};
  one.voxels = {0, 0, 0, 0};
  EXPECT_TRUE(succeeds(decode_vox0_file(one)));
  Vox0Spec full;
  full.palette.assign(256, {3, 3, 3, 3});
  full.voxels = {255, 0, 128, 1};
  EXPECT_TRUE(succeeds(decode_vox0_file(full)));
}

TEST(Vox0, ZeroSizes) {
  for (int axis = 0; axis < 3; ++axis) {
    Vox0Spec v;
    (axis == 0 ? v.sx : axis == 1 ? v.sy : v.sz) = 0;
    auto r = decode_vox0_file(v);
    ASSERT_TRUE(fails_with(r, ErrorCode::Vox0ZeroSize)) << axis;
    EXPECT_EQ(r.error().offset, kPayload + 4 + 2 * axis);
  }
}

TEST(Vox0, VoxelLimitJustUnderAndOver) {
  Limits limits;
  limits.vox0_voxels = 4;
  EXPECT_TRUE(succeeds(decode_vox0_file(Vox0Spec{}, limits)));  // 4x1x1
  Vox0Spec five;
  five.sx = 5;
  five.voxels.push_back(0);
  EXPECT_TRUE(fails_with(decode_vox0_file(five, limits), ErrorCode::Vox0LimitVoxels));
  // The limit comes before the length rule, so a tiny payload can exercise it.
  Vox0Spec huge;
  huge.sx = huge.sy = huge.sz = 65535;
  auto r = decode_vox0_file(huge);
  ASSERT_TRUE(fails_with(r, ErrorCode::Vox0LimitVoxels));
  EXPECT_EQ(category_of(r.error().code), Category::Limit);
}

TEST(Vox0, ExactLength) {
  Vox0Spec short_by_one;
  short_by_one.voxels.pop_back();
  EXPECT_TRUE(fails_with(decode_vox0_file(short_by_one), ErrorCode::Vox0Length));
  Vox0Spec long_by_one;
  long_by_one.voxels.push_back(0);
  auto r = decode_vox0_file(long_by_one);
  ASSERT_TRUE(fails_with(r, ErrorCode::Vox0Length));
  EXPECT_EQ(r.error().offset, kPayload + 28);  // the first byte past the declared size
}

TEST(Vox0, TruncatedBeforeTheSizesAreKnown) {
  const Bytes full = Vox0Spec{}.bytes();
  for (size_t n : {0u, 1u, 3u, 9u}) {
    auto r = decode_vox0(Bytes(full.begin(), full.begin() + n), 0, Limits{});
    EXPECT_TRUE(fails_with(r, ErrorCode::Vox0Truncated)) << n;
  }
  // From 10 bytes on the sizes are read and the exact-length rule answers.
  for (size_t n : {10u, 11u, 12u, 27u}) {
    auto r = decode_vox0(Bytes(full.begin(), full.begin() + n), 0, Limits{});
    EXPECT_TRUE(fails_with(r, ErrorCode::Vox0Length)) << n;
  }
}

TEST(Vox0, PaletteIndex) {
  Vox0Spec v;
  v.voxels = {1, 0, 3, 1};  // paletteCount 3
  auto r = decode_vox0_file(v);
  ASSERT_TRUE(fails_with(r, ErrorCode::Vox0PaletteIndex));
  EXPECT_EQ(r.error().offset, kPayload + 12 + 12 + 2);
  EXPECT_EQ(r.error().path, "VOX0/voxel[2]");
  v.voxels = {2, 2, 2, 2};
  EXPECT_TRUE(succeeds(decode_vox0_file(v)));
}

TEST(Vox0, PaletteIndexFoundAnywhereInALargeGrid) {
  // 10x10x3 = 300 voxels: past the 64-byte blocks of the fast scan (in each of its four 16-byte
  // accumulators, first and last lane), and in its tail.
  for (size_t bad : {0u, 17u, 40u, 63u, 64u, 255u, 256u, 299u}) {
    Vox0Spec v;
    v.sx = 10;
    v.sy = 10;
    v.sz = 3;
    v.voxels.assign(300, 2);
    v.voxels[bad] = 200;
    auto r = decode_vox0_file(v);
    ASSERT_TRUE(fails_with(r, ErrorCode::Vox0PaletteIndex)) << bad;
    EXPECT_EQ(r.error().path, "VOX0/voxel[" + std::to_string(bad) + "]");
    EXPECT_EQ(r.error().offset, kPayload + 24 + bad);
  }
}

TEST(Vox0, CheckOrder) {
  // version < reserved < paletteCount < sizes < limit < length < reserved u16 < voxel values.
  Vox0Spec a;
  a.version = 2;
  a.palette.clear();
  EXPECT_TRUE(fails_with(decode_vox0_file(a), ErrorCode::Vox0BadVersion));
  Vox0Spec b;
  b.palette_count = 0;
  b.sx = 0;
  EXPECT_TRUE(fails_with(decode_vox0_file(b), ErrorCode::Vox0PaletteCount));
  Vox0Spec c;
  c.sy = 0;
  c.voxels.push_back(1);
  EXPECT_TRUE(fails_with(decode_vox0_file(c), ErrorCode::Vox0ZeroSize));
  Limits limits;
  limits.vox0_voxels = 3;
  Vox0Spec d;
  d.voxels.push_back(1);  // too long as well
  EXPECT_TRUE(fails_with(decode_vox0_file(d, limits), ErrorCode::Vox0LimitVoxels));
  Vox0Spec e;
  e.reserved2 = 1;
  e.voxels.pop_back();
  EXPECT_TRUE(fails_with(decode_vox0_file(e), ErrorCode::Vox0Length));
  Vox0Spec f;
  f.reserved2 = 1;
  f.voxels = {9, 9, 9, 9};
  EXPECT_TRUE(fails_with(decode_vox0_file(f), ErrorCode::Vox0Reserved));
}

TEST(Vox0, DirectDecodeReportsAbsoluteOffsets) {
  Vox0Spec v;
  v.voxels = {1, 1, 1, 7};
  auto r = decode_vox0(v.bytes(), 1000, Limits{});
  ASSERT_TRUE(fails_with(r, ErrorCode::Vox0PaletteIndex));
  EXPECT_EQ(r.error().offset, 1000u + 24 + 3);
}

TEST(Vox0, EncodeIsTheInverseOfDecode) {
  Vox0Spec v;
  v.sx = 3;
  v.sy = 2;
  v.palette.assign(256, {});
  for (size_t i = 0; i < 256; ++i) v.palette[i] = {uint8_t(i), uint8_t(255 - i), 7, uint8_t(i / 2)};
  v.voxels = {0, 255, 17, 1, 0, 200};
  auto r = decode_vox0(v.bytes(), 0, Limits{});
  ASSERT_TRUE(succeeds(r));
  EXPECT_EQ(encode_vox0(r.value()), v.bytes());
}

}  // namespace
}  // namespace voxrig
