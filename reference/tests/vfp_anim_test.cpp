// ANIM v1: every rule of docs/spec/rig.md#FP-6 edge cases, limits and D13 key order.
#include <gtest/gtest.h>

#include "vfp_test_builder.h"

namespace voxrig {
namespace {

using namespace vt;

// Fixture layout: ANIM payload at 355, clip[0] at 423 ("c", 100 ms), track[0] at 436 (joint 1),
// key[0] at 444 (t=0), key[1] at 488 (t=100). SKEL joints are 0 and 1.
constexpr uint64_t kAnim = 355, kClip0 = 423, kTrack0 = 436, kKey0 = 444, kKey1 = 488;

Result<VfpFile> rig(const RigFixture& fx, const Limits& limits = {}) {
  return decode(fx.file(), Profile::VfpRig, limits);
}

TrackSpec track(uint16_t joint, std::vector<uint32_t> times) {
  TrackSpec t;
  t.joint = joint;
  t.keys.clear();
  for (uint32_t time : times) t.keys.push_back(key_at(time));
  return t;
}

ClipSpec clip(uint16_t id, uint32_t duration, std::vector<TrackSpec> tracks) {
  ClipSpec c;
  c.id = id;
  c.duration = duration;
  c.tracks = std::move(tracks);
  return c;
}

TEST(Anim, ValidClipsDecodeToTheFieldsWritten) {
  RigFixture fx;
  fx.anim.clips[0].tracks[0].keys[1].r = {0, 0, 0.7071f, 0.7071f};
  fx.anim.clips[0].tracks[0].keys[1].s = {-0.0f, 2, 3};
  fx.anim.clips.push_back(clip(9, 5, {track(0, {5}), track(1, {0, 1, 2})}));
  fx.anim.clips[1].name = "wave";
  auto r = rig(fx);
  ASSERT_TRUE(succeeds(r));
  const Anim& a = *r->anim();
  EXPECT_EQ(a.base_source_hash, sha256(fx.vox0.bytes()));
  EXPECT_EQ(a.skeleton_hash, sha256(fx.skel_bytes()));
  ASSERT_EQ(a.clips.size(), 2u);
  EXPECT_EQ(a.clips[0].name, "c");
  EXPECT_EQ(a.clips[0].duration_ms, 100u);
  const AnimKey& k = a.clips[0].tracks[0].keys[1];
  EXPECT_EQ(k.time_ms, 100u);
  EXPECT_EQ(k.trs.t, (Vec3{1, 0, 0}));
  EXPECT_EQ(k.trs.r, (Quat{0, 0, 0.7071f, 0.7071f}));
  EXPECT_EQ(k.trs.s, (Vec3{-0.0f, 2, 3}));
  EXPECT_EQ(a.clips[1].id, 9);
  EXPECT_EQ(a.clips[1].name, "wave");
  ASSERT_EQ(a.clips[1].tracks.size(), 2u);
  EXPECT_EQ(a.clips[1].tracks[1].keys.size(), 3u);
  EXPECT_TRUE(round_trips(fx.file()));
  auto bytes = encode_anim(a);
  ASSERT_TRUE(succeeds(bytes));
  EXPECT_EQ(bytes.value(), fx.file_spec().sections[3].payload);
}

TEST(Anim, ValidEdgeCases) {
  RigFixture none;  // ANIM with 0 clips
  none.anim.clips.clear();
  EXPECT_TRUE(round_trips(none.file()));
  RigFixture empty;  // a clip with 0 tracks, duration 0
  empty.anim.clips = {clip(0, 0, {})};
  EXPECT_TRUE(round_trips(empty.file()));
  RigFixture zero;  // duration 0, one key at 0
  zero.anim.clips = {clip(3, 0, {track(1, {0})})};
  EXPECT_TRUE(round_trips(zero.file()));
  RigFixture at_end;  // a key time equal to the duration (the fixture's key[1]) and u32 max
  at_end.anim.clips.push_back(clip(1, 0xFFFFFFFFu, {track(0, {0, 0xFFFFFFFFu})}));
  EXPECT_TRUE(round_trips(at_end.file()));
}

TEST(Anim, UnknownVersionIsUnsupported) {
  RigFixture fx;
  fx.anim.version = 0;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimBadVersion));
  EXPECT_EQ(category_of(r.error().code), Category::Unsupported);
  EXPECT_EQ(r.error().offset, kAnim);
  EXPECT_TRUE(round_trips(fx.file(), Profile::VfpStatic));
}

TEST(Anim, ReservedFields) {
  RigFixture header;
  header.anim.reserved = 1;
  auto r = rig(header);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimReserved));
  EXPECT_EQ(r.error().offset, kAnim + 1);
  RigFixture pad;
  pad.anim.clips[0].pad[2] = 1;
  r = rig(pad);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimReserved));
  EXPECT_EQ(r.error().offset, kClip0 + 9);
  RigFixture tr;
  tr.anim.clips[0].tracks[0].reserved = 0x8000;
  r = rig(tr);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimReserved));
  EXPECT_EQ(r.error().offset, kTrack0 + 2);
}

TEST(Anim, ClipLimitJustUnderAndOver) {
  Limits limits;
  limits.anim_clips = 1;
  RigFixture fx;
  EXPECT_TRUE(succeeds(rig(fx, limits)));
  fx.anim.count = 2;  // declared only: the limit is checked when the count is read
  auto r = rig(fx, limits);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimLimitClips));
  EXPECT_EQ(r.error().offset, kAnim + 2);
}

TEST(Anim, Hashes) {
  RigFixture base;
  base.anim.base = Sha256{};
  auto r = rig(base);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimBaseSourceHash));
  EXPECT_EQ(r.error().offset, kAnim + 4);
  RigFixture skel;
  Sha256 wrong = sha256(skel.skel_bytes());
  wrong[5] ^= 1;
  skel.anim.skel = wrong;
  r = rig(skel);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimSkeletonHash));
  EXPECT_EQ(r.error().offset, kAnim + 36);
}

TEST(Anim, ClipIdsStrictlyIncrease) {
  RigFixture fx;
  fx.anim.clips = {clip(4, 10, {}), clip(9, 10, {}), clip(9, 10, {})};
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimClipOrder));
  EXPECT_EQ(r.error().path, "ANIM/clip[2]");
  fx.anim.clips[2].id = 2;
  EXPECT_TRUE(fails_with(rig(fx), ErrorCode::AnimClipOrder));
}

TEST(Anim, ClipNamesMustBeValidUtf8) {
  RigFixture fx;
  fx.anim.clips[0].name = "\xE0\x80\xAF";  // overlong
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimBadUtf8));
  EXPECT_EQ(r.error().offset, kClip0 + 12);
  fx.anim.clips[0].name = "";
  EXPECT_TRUE(succeeds(rig(fx)));
}

TEST(Anim, TracksStrictlyIncreaseAndNameExistingJoints) {
  RigFixture order;
  order.anim.clips = {clip(0, 10, {track(1, {0}), track(0, {0})})};
  auto r = rig(order);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimTrackOrder));
  EXPECT_EQ(r.error().path, "ANIM/clip[0]/track[1]");
  RigFixture missing;
  missing.anim.clips = {clip(0, 10, {track(0, {0}), track(2, {0})})};
  r = rig(missing);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimJointMissing));
  EXPECT_EQ(r.error().path, "ANIM/clip[0]/track[1]");
  // Order before existence on the same jointId; ordering restarts in every clip.
  RigFixture both;  // joints 0 and 5; track[1]'s joint 3 is both out of order and missing
  both.skel.joints[1].id = 5;
  both.vskn.records = {{3, 5}};
  both.anim.clips = {clip(0, 10, {track(5, {0}), track(3, {0})})};
  EXPECT_TRUE(fails_with(rig(both), ErrorCode::AnimTrackOrder));
  both.anim.clips[0].tracks[1].joint = 6;
  EXPECT_TRUE(fails_with(rig(both), ErrorCode::AnimJointMissing));
  RigFixture again;
  again.anim.clips = {clip(0, 10, {track(1, {0})}), clip(1, 10, {track(0, {0}), track(1, {0})})};
  EXPECT_TRUE(succeeds(rig(again)));
}

TEST(Anim, NoKeys) {
  RigFixture fx;
  fx.anim.clips[0].tracks[0].keys.clear();
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimNoKeys));
  EXPECT_EQ(r.error().offset, kTrack0 + 4);
}

TEST(Anim, KeyLimitsJustUnderAndOver) {
  Limits limits;
  limits.anim_keys_per_track = 2;
  limits.anim_keys_total = 3;
  RigFixture fx;
  fx.anim.clips = {clip(0, 100, {track(0, {0, 1}), track(1, {0})})};  // 2 per track, 3 total
  EXPECT_TRUE(succeeds(rig(fx, limits)));
  RigFixture per_track = fx;
  per_track.anim.clips[0].tracks[1].keys = {key_at(0), key_at(1), key_at(2)};
  auto r = rig(per_track, limits);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimLimitKeys));
  EXPECT_EQ(r.error().path, "ANIM/clip[0]/track[1]");
  RigFixture total = fx;
  total.anim.clips.push_back(clip(1, 100, {track(0, {7})}));  // 4 in total
  r = rig(total, limits);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimLimitTotalKeys));
  EXPECT_EQ(r.error().path, "ANIM/clip[1]/track[0]");
  // Checked when the count is read, before the bytes-present check.
  RigFixture declared;
  declared.anim.clips[0].tracks[0].count = 0xFFFFFFFFu;
  EXPECT_TRUE(fails_with(rig(declared), ErrorCode::AnimLimitKeys));
}

TEST(Anim, KeyTableMustBePresentAsAWhole) {
  RigFixture fx;
  fx.anim.clips[0].tracks[0].count = 3;  // two keys present
  fx.anim.clips[0].tracks[0].keys[0].t[0] = kNaN;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimTruncated));  // before the NaN of key[0]
  EXPECT_EQ(r.error().offset, kKey0);
}

TEST(Anim, KeyTimesStrictlyIncrease) {
  RigFixture fx;
  fx.anim.clips[0].tracks[0].keys[1].time = 0;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimKeyTimeOrder));
  EXPECT_EQ(r.error().path, "ANIM/clip[0]/track[0]/key[1]");
  EXPECT_EQ(r.error().offset, kKey1);
}

TEST(Anim, KeyTimesWithinTheDuration) {
  RigFixture fx;
  fx.anim.clips[0].tracks[0].keys[1].time = 101;
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimKeyTimeRange));
  EXPECT_EQ(r.error().path, "ANIM/clip[0]/track[0]/key[1]");
  EXPECT_EQ(r.error().offset, kKey1);
  // Keys in order: key[0]'s range error beats key[1]'s order error.
  RigFixture g;
  g.anim.clips[0].duration = 5;
  g.anim.clips[0].tracks[0].keys = {key_at(6), key_at(6)};
  r = rig(g);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimKeyTimeRange));
  EXPECT_EQ(r.error().path, "ANIM/clip[0]/track[0]/key[0]");
}

TEST(Anim, KeyFloatsMustBeFinite) {
  for (int field = 0; field < 10; ++field) {
    RigFixture fx;
    KeySpec& k = fx.anim.clips[0].tracks[0].keys[1];
    float* fs[10] = {&k.t[0], &k.t[1], &k.t[2], &k.r[0], &k.r[1],
                     &k.r[2], &k.r[3], &k.s[0], &k.s[1], &k.s[2]};
    *fs[field] = field % 2 ? kInf : f32_bits(0xFF800001u);  // +Inf / a negative NaN
    auto r = rig(fx);
    ASSERT_TRUE(fails_with(r, ErrorCode::AnimNonFinite)) << field;
    EXPECT_EQ(r.error().offset, kKey1 + 4 + 4 * field);
    EXPECT_EQ(r.error().path, "ANIM/clip[0]/track[0]/key[1]");
  }
}

TEST(Anim, KeyRotationMustBeUnit) {
  RigFixture fx;
  fx.anim.clips[0].tracks[0].keys[0].r = {0, 0, 0.7071f, 0.7f};
  auto r = rig(fx);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimNonUnitRotation));
  EXPECT_EQ(r.error().offset, kKey0 + 16);
  fx.anim.clips[0].tracks[0].keys[0].r = {0, 0, 0, -1.0009f};
  EXPECT_TRUE(succeeds(rig(fx)));
}

TEST(Anim, KeyRulesRunInOrder) {
  // time order < time range < translation < rotation finite < unit < scale.
  RigFixture a;
  a.anim.clips[0].tracks[0].keys[1].time = 0;
  a.anim.clips[0].tracks[0].keys[1].t[0] = kNaN;
  EXPECT_TRUE(fails_with(rig(a), ErrorCode::AnimKeyTimeOrder));
  RigFixture b;
  b.anim.clips[0].tracks[0].keys[1].time = 500;
  b.anim.clips[0].tracks[0].keys[1].r = {0, 0, 0, 3};
  EXPECT_TRUE(fails_with(rig(b), ErrorCode::AnimKeyTimeRange));
  RigFixture c;
  c.anim.clips[0].tracks[0].keys[1].r = {0, 0, 0, kNaN};  // non-finite, not "non-unit"
  EXPECT_TRUE(fails_with(rig(c), ErrorCode::AnimNonFinite));
  RigFixture d;
  d.anim.clips[0].tracks[0].keys[1].r = {0, 0, 0, 2};
  d.anim.clips[0].tracks[0].keys[1].s[2] = kInf;
  EXPECT_TRUE(fails_with(rig(d), ErrorCode::AnimNonUnitRotation));
}

TEST(Anim, TruncatedAndTrailingBytes) {
  RigFixture clips;
  clips.anim.count = 2;
  auto r = rig(clips);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimTruncated));
  EXPECT_EQ(r.error().path, "ANIM/clip[1]");
  RigFixture tracks;
  tracks.anim.clips[0].track_count = 2;
  EXPECT_TRUE(fails_with(rig(tracks), ErrorCode::AnimTruncated));
  RigFixture name;
  name.anim.clips[0].name_len = 200;
  EXPECT_TRUE(fails_with(rig(name), ErrorCode::AnimTruncated));
  RigFixture trailing;
  trailing.anim.trailing = {0, 0};
  r = rig(trailing);
  ASSERT_TRUE(fails_with(r, ErrorCode::AnimTrailingBytes));
  EXPECT_EQ(r.error().offset, 532u);
}

TEST(Anim, EncodeRejectsWhatTheFormatCannotHold) {
  Anim a;
  a.clips.resize(1);
  a.clips[0].name.assign(300, 'n');
  auto r = encode_anim(a);
  ASSERT_TRUE(fails_with(r, ErrorCode::VfpWriteNameTooLong));
  EXPECT_EQ(r.error().path, "ANIM/clip[0]");
  a.clips[0].name.clear();
  a.clips[0].tracks.resize(65536);
  EXPECT_TRUE(fails_with(encode_anim(a), ErrorCode::VfpWriteTooLarge));
  a.clips[0].tracks.clear();
  a.clips.resize(65536);
  EXPECT_TRUE(fails_with(encode_anim(a), ErrorCode::VfpWriteTooLarge));
  a.clips.resize(65535);
  EXPECT_TRUE(succeeds(encode_anim(a)));
}

}  // namespace
}  // namespace voxrig
