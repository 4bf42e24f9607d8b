// VSKN v1: every rule of docs/spec/rig.md#FP-6, and the D13 record order.
#include <gtest/gtest.h>

#include <algorithm>

#include "vfp_test_builder.h"

namespace voxrig {
namespace {

using namespace vt;

// Fixture layout: VSKN payload at 259, record[0] at 333. VOX0 voxels are 1 0 2 1 (offset 1 is
// empty); SKEL joints are 0 (Root) and 1 (Arm).
constexpr uint64_t kVskn = 259, kRecord0 = 333;

Result<VfpFile> rig(const RigFixture& fx) { return decode(fx.file(), Profile::VfpRig); }

TEST(Vskn, ValidBindingsDecodeToTheFieldsWritten) {
  RigFixture fx;
  fx.vskn.default_joint = 1;
  fx.vskn.records = {{0, 0}, {2, 0}};
  auto r = rig(fx);
  ASSERT_TRUE(succeeds(r));
  const Vskn& v = *r->vskn();
  EXPECT_EQ(v.default_joint, 1);
  EXPECT_EQ(v.base_source_hash, sha256(fx.vox0.bytes()));
  EXPECT_EQ(v.skeleton_hash, sha256(fx.skel_bytes()));
  ASSERT_EQ(v.bindings.size(), 2u);
  EXPECT_EQ(v.bindings[1], (VsknBinding{2, 0}));
  EXPECT_TRUE(round_trips(fx.file()));
  EXPECT_EQ(encode_vskn(v), fx.file_spec().sections[2].payload);
}

TEST(Vskn, ZeroRecordsIsValid) {
  RigFixture fx;
  fx.vskn.records.clear();
  EXPECT_TRUE(round_trips(fx.file()));
}

TEST(Vskn, UnknownVersionOrEncodingIsUnsupported) {
  RigFixture fx;
  fx.vskn.version = 2;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknBadVersion));
  EXPECT_EQ(category_of(r.error().code), Category::Unsupported);
  EXPECT_EQ(r.error().offset, kVskn);
  RigFixture enc;
  enc.vskn.encoding = 0;
  r = rig(enc);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknBadEncoding));
  EXPECT_EQ(category_of(r.error().code), Category::Unsupported);
  EXPECT_EQ(r.error().offset, kVskn + 1);
  EXPECT_TRUE(round_trips(enc.file(), Profile::VfpStatic));  // D10: static ignores it
}

TEST(Vskn, DefaultJointMustExist) {
  RigFixture fx;
  fx.vskn.default_joint = 2;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknDefaultJoint));
  EXPECT_EQ(r.error().offset, kVskn + 2);
}

TEST(Vskn, Reserved) {
  RigFixture fx;
  fx.vskn.reserved = 1;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknReserved));
  EXPECT_EQ(r.error().offset, kVskn + 4);
}

TEST(Vskn, ExactLength) {
  RigFixture more;
  more.vskn.count = 2;  // one record present
  EXPECT_TRUE(fails_with(rig(more), ErrorCode::VsknLength));
  RigFixture extra;
  extra.vskn.trailing = {0};
  EXPECT_TRUE(fails_with(rig(extra), ErrorCode::VsknLength));
  RigFixture huge;
  huge.vskn.count = 0xFFFFFFFFu;  // 74 + 6n computed in 64 bits
  EXPECT_TRUE(fails_with(rig(huge), ErrorCode::VsknLength));
}

TEST(Vskn, TruncatedOnlyBeforeTheCount) {
  RigFixture fx;
  FileSpec f = fx.file_spec();
  f.sections[2].payload.resize(9);  // the bindingCount read runs out
  auto r = decode(f.bytes());
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknTruncated));
  EXPECT_EQ(r.error().offset, kVskn + 6);
  f.sections[2].payload.resize(10);  // count read; 10 != 74 + 6
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::VsknLength));
}

TEST(Vskn, Hashes) {
  RigFixture base;
  base.vskn.base = Sha256{};
  auto r = rig(base);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknBaseSourceHash));
  EXPECT_EQ(r.error().offset, kVskn + 10);
  RigFixture skel;
  skel.vskn.skel = sha256(skel.vox0.bytes());  // the wrong payload's hash
  r = rig(skel);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknSkeletonHash));
  EXPECT_EQ(r.error().offset, kVskn + 42);
}

TEST(Vskn, OffsetsStrictlyIncrease) {
  for (uint32_t second : {0u, 2u}) {
    RigFixture fx;
    fx.vskn.records = {{2, 1}, {second, 1}};
    auto r = rig(fx);
    ASSERT_TRUE(fails_with(r, ErrorCode::VsknOffsetOrder)) << second;
    EXPECT_EQ(r.error().offset, kRecord0 + 6);
    EXPECT_EQ(r.error().path, "VSKN/record[1]");
  }
}

TEST(Vskn, OffsetInRange) {
  for (uint32_t offset : {4u, 0xFFFFFFFFu}) {
    RigFixture fx;
    fx.vskn.records = {{offset, 1}};
    auto r = rig(fx);
    ASSERT_TRUE(fails_with(r, ErrorCode::VsknOffsetRange)) << offset;
    EXPECT_EQ(r.error().offset, kRecord0);
  }
}

TEST(Vskn, OffsetOnANonEmptyVoxel) {
  RigFixture fx;
  fx.vskn.records = {{1, 1}};
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknEmptyVoxel));
  EXPECT_EQ(r.error().path, "VSKN/record[0]");
}

TEST(Vskn, RecordJointMustExist) {
  RigFixture fx;
  fx.vskn.records = {{0, 7}};
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknJointMissing));
  EXPECT_EQ(r.error().offset, kRecord0 + 4);
}

TEST(Vskn, RecordJointDiffersFromDefault) {
  RigFixture fx;
  fx.vskn.records = {{0, 0}};
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknRedundant));
  EXPECT_EQ(r.error().offset, kRecord0 + 4);
}

TEST(Vskn, RecordRulesRunInOrder) {
  // order > range > empty voxel > joint exists > != default, within one record.
  RigFixture a;
  a.vskn.records = {{3, 1}, {3, 9}};  // out of order and unknown joint
  EXPECT_TRUE(fails_with(rig(a), ErrorCode::VsknOffsetOrder));
  RigFixture b;
  b.vskn.records = {{9, 0}};  // out of range and redundant
  EXPECT_TRUE(fails_with(rig(b), ErrorCode::VsknOffsetRange));
  RigFixture c;
  c.vskn.records = {{1, 9}};  // empty voxel and unknown joint
  EXPECT_TRUE(fails_with(rig(c), ErrorCode::VsknEmptyVoxel));
  // Records in file order: record[0]'s redundant binding beats record[1]'s range error.
  RigFixture d;
  d.vskn.records = {{0, 0}, {99, 1}};
  auto r = rig(d);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknRedundant));
  EXPECT_EQ(r.error().path, "VSKN/record[0]");
}

TEST(Vskn, HeaderRulesRunInByteOrder) {
  RigFixture a;
  a.vskn.default_joint = 9;
  a.vskn.reserved = 1;
  EXPECT_TRUE(fails_with(rig(a), ErrorCode::VsknDefaultJoint));
  RigFixture b;
  b.vskn.reserved = 1;
  b.vskn.count = 5;
  EXPECT_TRUE(fails_with(rig(b), ErrorCode::VsknReserved));
  RigFixture c;  // the exact-length rule sits right after the count, before the hashes
  c.vskn.count = 5;
  c.vskn.base = Sha256{};
  EXPECT_TRUE(fails_with(rig(c), ErrorCode::VsknLength));
  RigFixture d;
  d.vskn.base = Sha256{};
  d.vskn.skel = Sha256{};
  d.vskn.records = {{1, 1}};
  EXPECT_TRUE(fails_with(rig(d), ErrorCode::VsknBaseSourceHash));
  d.vskn.base.reset();
  EXPECT_TRUE(fails_with(rig(d), ErrorCode::VsknSkeletonHash));
}

TEST(Vskn, ManyRecordsOverALargerGrid) {
  // 16x16x4 grid, every voxel filled but 500; every third voxel bound to joint 1.
  RigFixture fx;
  fx.vox0.sx = 16;
  fx.vox0.sy = 16;
  fx.vox0.sz = 4;
  fx.vox0.voxels.assign(1024, 1);
  fx.vox0.voxels[500] = 0;
  fx.vskn.records.clear();
  for (uint32_t i = 0; i < 1024; i += 3) fx.vskn.records.push_back({i, 1});  // 0..1023, 342
  ASSERT_TRUE(round_trips(fx.file()));
  const auto insert_sorted = [](RigFixture& f, uint32_t offset) {
    auto& recs = f.vskn.records;
    auto it = std::lower_bound(recs.begin(), recs.end(), std::pair<uint32_t, uint16_t>{offset, 0});
    const auto at = recs.insert(it, std::pair<uint32_t, uint16_t>{offset, 1});
    return at - recs.begin();
  };
  RigFixture dup = fx;
  dup.vskn.records.push_back({1023, 1});  // 1023 = 3 * 341 is already the last record
  auto r = rig(dup);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknOffsetOrder));
  EXPECT_EQ(r.error().path, "VSKN/record[342]");
  RigFixture between = fx;
  EXPECT_EQ(insert_sorted(between, 301), 101);
  ASSERT_TRUE(succeeds(rig(between)));
  RigFixture empty = fx;
  EXPECT_EQ(insert_sorted(empty, 500), 167);
  r = rig(empty);
  ASSERT_TRUE(fails_with(r, ErrorCode::VsknEmptyVoxel));
  EXPECT_EQ(r.error().path, "VSKN/record[167]");
  EXPECT_EQ(r.error().offset, kRecord0 + 1020 + 6 * 167);  // VOX0 grew by 1020 voxels
}

}  // namespace
}  // namespace voxrig
