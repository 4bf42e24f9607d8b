// SKEL v1: every rule of docs/spec/rig.md#skel and FP-5, FP-6, in the documented check order.
#include <gtest/gtest.h>

#include <cmath>

#include "vfp_test_builder.h"

namespace voxrig {
namespace {

using namespace vt;

// Fixture layout: SKEL payload at 104, joint[0] at 140, joint[1] (48 + "Root") at 192.
constexpr uint64_t kSkel = 104, kJoint0 = 140, kJoint1 = 192;

Result<VfpFile> rig(const RigFixture& fx, const Limits& limits = {}) {
  return decode(fx.file(), Profile::VfpRig, limits);
}

JointSpec joint(uint16_t id, int16_t parent, std::string name = "") {
  JointSpec j;
  j.id = id;
  j.parent = parent;
  j.name = std::move(name);
  return j;
}

TEST(Skel, ValidSkeletonDecodesToTheFieldsWritten) {
  RigFixture fx;
  fx.skel.joints[1].s = {-2.0f, 0.0f, f32_bits(0x00000001u)};  // scale: any finite value
  fx.skel.joints[1].name = "\xC3\x84rm";                       // "Ärm"
  auto r = rig(fx);
  ASSERT_TRUE(succeeds(r));
  const Skel& s = *r->skel();
  EXPECT_EQ(s.base_source_hash, sha256(fx.vox0.bytes()));
  ASSERT_EQ(s.joints.size(), 2u);
  EXPECT_EQ(s.joints[0].name, "Root");
  EXPECT_EQ(s.joints[0].parent, -1);
  EXPECT_EQ(s.joints[1].id, 1);
  EXPECT_EQ(s.joints[1].parent, 0);
  EXPECT_EQ(s.joints[1].bind.t, (Vec3{1, 0, 0}));
  EXPECT_EQ(s.joints[1].bind.s, (Vec3{-2.0f, 0.0f, f32_bits(1)}));
  EXPECT_EQ(s.joints[1].name, "\xC3\x84rm");
  EXPECT_TRUE(round_trips(fx.file()));
  auto bytes = encode_skel(s);
  ASSERT_TRUE(succeeds(bytes));
  EXPECT_EQ(bytes.value(), fx.skel_bytes());
}

TEST(Skel, UnknownVersionIsUnsupportedUnderRigOnly) {
  RigFixture fx;
  fx.skel.version = 2;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelBadVersion));
  EXPECT_EQ(category_of(r.error().code), Category::Unsupported);  // D10
  EXPECT_EQ(r.error().offset, kSkel);
  EXPECT_TRUE(round_trips(fx.file(), Profile::VfpStatic));
}

TEST(Skel, ReservedByte) {
  RigFixture fx;
  fx.skel.reserved = 1;
  EXPECT_TRUE(fails_with(rig(fx), ErrorCode::SkelReserved));
}

TEST(Skel, NoJoints) {
  RigFixture fx;
  fx.skel.joints.clear();
  EXPECT_TRUE(fails_with(rig(fx), ErrorCode::SkelNoJoints));
}

TEST(Skel, JointLimitJustUnderAndOver) {
  Limits limits;
  limits.skel_joints = 2;
  RigFixture fx;
  EXPECT_TRUE(succeeds(rig(fx, limits)));
  fx.skel.joints.push_back(joint(2, 0));
  auto r = rig(fx, limits);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelLimitJoints));
  EXPECT_EQ(r.error().offset, kSkel + 2);
  // Checked when the count is read: a count far beyond the bytes present is still a limit error.
  fx.skel.joints.pop_back();
  fx.skel.count = 60000;
  EXPECT_TRUE(fails_with(rig(fx), ErrorCode::SkelLimitJoints));
}

TEST(Skel, BaseSourceHash) {
  RigFixture fx;
  Sha256 wrong = sha256(fx.vox0.bytes());
  wrong[0] ^= 0x80;
  fx.skel.base = wrong;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelBaseSourceHash));
  EXPECT_EQ(r.error().offset, kSkel + 4);
}

TEST(Skel, JointIdsStrictlyIncrease) {
  for (uint16_t second : {0, 5}) {  // equal to / below joint[0]'s id 7
    RigFixture fx;
    fx.skel.joints[0].id = second == 0 ? 0 : 7;
    fx.skel.joints[1].id = second;
    auto r = rig(fx);
    ASSERT_TRUE(fails_with(r, ErrorCode::SkelJointOrder)) << second;
    EXPECT_EQ(r.error().offset, kJoint1);
    EXPECT_EQ(r.error().path, "SKEL/joint[1]");
  }
}

TEST(Skel, EveryFloatMustBeFinite) {
  for (int field = 0; field < 10; ++field) {
    RigFixture fx;
    JointSpec& j = fx.skel.joints[1];
    float* fs[10] = {&j.t[0], &j.t[1], &j.t[2], &j.r[0], &j.r[1],
                     &j.r[2], &j.r[3], &j.s[0], &j.s[1], &j.s[2]};
    *fs[field] = field % 2 ? kNaN : -kInf;
    auto r = rig(fx);
    ASSERT_TRUE(fails_with(r, ErrorCode::SkelNonFinite)) << field;
    EXPECT_EQ(r.error().offset, kJoint1 + 4 + 4 * field);
  }
}

TEST(Skel, RotationMustBeUnit) {
  RigFixture fx;
  fx.skel.joints[0].r = {0, 0, 0, 1.01f};
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelNonUnitRotation));
  EXPECT_EQ(r.error().offset, kJoint0 + 16);
  fx.skel.joints[0].r = {0, 0, 0, 0};
  EXPECT_TRUE(fails_with(rig(fx), ErrorCode::SkelNonUnitRotation));
  // Tolerance 1e-3 on the norm (FP-5), sitting well inside / outside the edge.
  fx.skel.joints[0].r = {0, 0, 0, 1.0009f};
  EXPECT_TRUE(succeeds(rig(fx)));
  fx.skel.joints[0].r = {0, 0, 0, -0.9991f};
  EXPECT_TRUE(succeeds(rig(fx)));
  fx.skel.joints[0].r = {0, 0, 0, 1.0011f};
  EXPECT_TRUE(fails_with(rig(fx), ErrorCode::SkelNonUnitRotation));
  fx.skel.joints[0].r = {0.5f, 0.5f, 0.5f, 0.5f};
  EXPECT_TRUE(succeeds(rig(fx)));
}

TEST(Skel, UnitQuaternionPredicate) {
  EXPECT_TRUE(is_unit_quaternion(Quat{0, 0, 0, 1}));
  EXPECT_TRUE(is_unit_quaternion(Quat{0, 0, 0.7071f, 0.7071f}));
  EXPECT_TRUE(is_unit_quaternion(Quat{0, 0, 0, 1.000999f}));
  EXPECT_FALSE(is_unit_quaternion(Quat{0, 0, 0, 1.001001f}));
  EXPECT_TRUE(is_unit_quaternion(Quat{0, 0, 0, 0.999001f}));
  EXPECT_FALSE(is_unit_quaternion(Quat{0, 0, 0, 0.998999f}));
  EXPECT_FALSE(is_unit_quaternion(Quat{0, 0, 0, kNaN}));
  EXPECT_FALSE(is_unit_quaternion(Quat{0, 0, 0, 0}));
  // (1e-3 + 1)^2 split over components: the computation is in double.
  const float c = static_cast<float>(std::sqrt(1.0005 * 1.0005 / 4));
  EXPECT_TRUE(is_unit_quaternion(Quat{c, c, c, c}));
}

TEST(Skel, PadBytesMustBeZero) {
  for (int k = 0; k < 3; ++k) {
    RigFixture fx;
    fx.skel.joints[0].pad[k] = 1;
    auto r = rig(fx);
    ASSERT_TRUE(fails_with(r, ErrorCode::SkelReserved));
    EXPECT_EQ(r.error().offset, kJoint0 + 45);
  }
}

TEST(Skel, NamesMustBeValidUtf8) {
  for (const char* bad : {"\xC0\x80", "\xED\xA0\x80", "\xFF", "ab\xE2\x82", "\xF4\x90\x80\x80"}) {
    RigFixture fx;
    fx.skel.joints[1].name = bad;
    auto r = rig(fx);
    ASSERT_TRUE(fails_with(r, ErrorCode::SkelBadUtf8)) << bad;
    EXPECT_EQ(r.error().offset, kJoint1 + 48);
  }
  RigFixture ok;
  ok.skel.joints[0].name = "";
  ok.skel.joints[1].name = std::string("\0\xF0\x9F\xA6\xB4", 5);
  EXPECT_TRUE(round_trips(ok.file()));
}

TEST(Skel, TruncatedAndTrailingBytes) {
  RigFixture fx;
  fx.skel.count = 3;  // two joints present
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelTruncated));
  EXPECT_EQ(r.error().offset, 243u);  // end of the SKEL payload
  EXPECT_EQ(r.error().path, "SKEL/joint[2]");
  RigFixture name;
  name.skel.joints[1].name_len = 4;  // "Arm" is 3
  EXPECT_TRUE(fails_with(rig(name), ErrorCode::SkelTruncated));
  RigFixture trailing;
  trailing.skel.trailing = {0};
  r = rig(trailing);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelTrailingBytes));
  EXPECT_EQ(r.error().offset, 243u);
}

TEST(Skel, ParentMustExist) {
  for (int16_t parent : {5, -2, -32768, 32767}) {
    RigFixture fx;
    fx.skel.joints[1].parent = parent;
    auto r = rig(fx);
    ASSERT_TRUE(fails_with(r, ErrorCode::SkelParentMissing)) << parent;
    EXPECT_EQ(r.error().offset, kJoint1 + 2);
    EXPECT_EQ(r.error().path, "SKEL/joint[1]");
  }
  // A parent may have a larger id than its child.
  RigFixture later;
  later.skel.joints[0].parent = 1;
  later.skel.joints[1].parent = -1;
  EXPECT_TRUE(succeeds(rig(later)));
}

TEST(Skel, Cycles) {
  RigFixture self;
  self.skel.joints[1].parent = 1;  // a self-parent is a cycle
  auto r = rig(self);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelParentCycle));
  EXPECT_EQ(r.error().path, "SKEL/joint[1]");
  // joint[0] -> 2 -> 3 -> 2: joint[0] is the first joint whose chain never reaches a root.
  RigFixture chain;
  chain.skel.joints = {joint(0, 2), joint(1, -1), joint(2, 3), joint(3, 2)};
  chain.vskn.records.clear();
  chain.anim.clips.clear();
  r = rig(chain);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelParentCycle));
  EXPECT_EQ(r.error().path, "SKEL/joint[0]");
  EXPECT_EQ(r.error().offset, kJoint0 + 2);
  // A deep valid chain (each joint the parent of the previous one) is no cycle.
  RigFixture deep;
  deep.skel.joints.clear();
  for (uint16_t i = 0; i < 500; ++i) deep.skel.joints.push_back(joint(i, i == 499 ? -1 : i + 1));
  deep.vskn.records.clear();
  deep.anim.clips.clear();
  EXPECT_TRUE(succeeds(rig(deep)));
}

TEST(Skel, ExistenceIsCheckedForAllJointsBeforeCycles) {
  RigFixture fx;
  fx.skel.joints[0].parent = 0;   // cycle on joint[0]
  fx.skel.joints[1].parent = 77;  // missing on joint[1]
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::SkelParentMissing));
  EXPECT_EQ(r.error().path, "SKEL/joint[1]");
}

TEST(Skel, LeafJointAbove32767IsValid) {
  RigFixture fx;
  fx.skel.joints.push_back(joint(40000, 1, "leaf"));
  fx.vskn.records = {{3, 40000}};
  EXPECT_TRUE(round_trips(fx.file()));
}

TEST(Skel, FieldsAreCheckedAsRead) {
  // joint[1] id out of order, and the payload ends right after it: order wins over truncation.
  RigFixture fx;
  fx.skel.joints[1].id = 0;
  Bytes file = fx.file_spec().sections[1].payload;
  file.resize(36 + 52 + 2);
  FileSpec f = fx.file_spec();
  f.sections[1].payload = file;
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::SkelJointOrder));
  // A non-finite translation beats a bad pad and a bad name later in the same joint.
  RigFixture g;
  g.skel.joints[1].t[2] = kNaN;
  g.skel.joints[1].pad[0] = 9;
  g.skel.joints[1].name = "\xFF";
  EXPECT_TRUE(fails_with(rig(g), ErrorCode::SkelNonFinite));
  // The base hash comes before the joints.
  g.skel.base = Sha256{};
  EXPECT_TRUE(fails_with(rig(g), ErrorCode::SkelBaseSourceHash));
  // Trailing bytes come before parent checks.
  RigFixture h;
  h.skel.joints[1].parent = 9;
  h.skel.trailing = {1};
  EXPECT_TRUE(fails_with(rig(h), ErrorCode::SkelTrailingBytes));
}

TEST(Skel, EncodeRejectsWhatTheFormatCannotHold) {
  Skel s;
  s.joints.resize(1);
  s.joints[0].name.assign(256, 'a');
  auto r = encode_skel(s);
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpWriteNameTooLong));
  EXPECT_EQ(r.error().path, "SKEL/joint[0]");
  s.joints[0].name.assign(255, 'a');
  EXPECT_TRUE(succeeds(encode_skel(s)));
  s.joints.resize(65536);
  EXPECT_TRUE(fails_with(encode_skel(s), ErrorCode::VfpWriteTooLarge));
}

}  // namespace
}  // namespace voxrig
