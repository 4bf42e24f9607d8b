// VFP pose evaluation: time mapping, sampling policies, hierarchy, skinning, job validation.
// Expected values are worked out by hand in the comments (not produced by the code under test).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "voxrig/pose.h"
#include "voxrig/testing/alloc_counter.h"
#include "ymm_state.h"

namespace voxrig {
namespace {

constexpr float kS45 = 0.70710678f;  // sin(45 deg) = cos(45 deg)

SkelJoint joint(uint16_t id, int16_t parent, Trs bind = {}) {
  SkelJoint j;
  j.id = id;
  j.parent = parent;
  j.bind = bind;
  return j;
}

AnimKey key(uint32_t t, Vec3 tr, Quat r = {0, 0, 0, 1}, Vec3 s = {1, 1, 1}) {
  AnimKey k;
  k.time_ms = t;
  k.trs = Trs{tr, r, s};
  return k;
}

void expect_vec(const Vec3& v, float x, float y, float z, float tol = 1e-5f) {
  EXPECT_NEAR(v.x, x, tol);
  EXPECT_NEAR(v.y, y, tol);
  EXPECT_NEAR(v.z, z, tol);
}

void expect_quat(const Quat& q, float x, float y, float z, float w, float tol = 1e-6f) {
  EXPECT_NEAR(q.x, x, tol);
  EXPECT_NEAR(q.y, y, tol);
  EXPECT_NEAR(q.z, z, tol);
  EXPECT_NEAR(q.w, w, tol);
}

bool same_bits(const Trs& a, const Trs& b) {
  const float fa[10] = {a.t.x, a.t.y, a.t.z, a.r.x, a.r.y, a.r.z, a.r.w, a.s.x, a.s.y, a.s.z};
  const float fb[10] = {b.t.x, b.t.y, b.t.z, b.r.x, b.r.y, b.r.z, b.r.w, b.s.x, b.s.y, b.s.z};
  for (int i = 0; i < 10; ++i)
    if (std::bit_cast<uint32_t>(fa[i]) != std::bit_cast<uint32_t>(fb[i])) return false;
  return true;
}

// Two joints: 0 (root, no track) and 1 (tracked). Clip 7: duration 300, keys at 100 and 300:
// key 100: t=(0,0,0), identity, s=1; key 300: t=(10,20,-40), 90 deg about z, s=(3,1,1).
struct TwoJointRig {
  Skel skel;
  Anim anim;
  TwoJointRig() {
    skel.joints = {joint(0, -1, Trs{{1, 2, 3}, {0, 0, 0, 1.0004f}, {1, 1, 1}}), joint(1, 0)};
    AnimClip c;
    c.id = 7;
    c.duration_ms = 300;
    AnimTrack tr;
    tr.joint = 1;
    tr.keys = {key(100, {0, 0, 0}), key(300, {10, 20, -40}, {0, 0, kS45, kS45}, {3, 1, 1})};
    c.tracks.push_back(tr);
    anim.clips.push_back(c);
  }
};

Trs sample(const RigRuntime& rt, double t, SamplePolicy p, TimeMode m, size_t joint = 1,
           SamplingCache* cache = nullptr) {
  std::vector<Trs> out(rt.joint_count());
  SamplingJob job;
  job.runtime = &rt;
  job.clip = 0;
  job.time_ms = t;
  job.policy = p;
  job.mode = m;
  job.cache = cache;
  job.output = out;
  EXPECT_TRUE(job.run().ok());
  return out[joint];
}

TEST(ClipTime, ClampAndLoopFollowD19) {
  EXPECT_EQ(map_clip_time(-5, 300, TimeMode::Clamp), 0.0);
  EXPECT_EQ(map_clip_time(150.25, 300, TimeMode::Clamp), 150.25);
  EXPECT_EQ(map_clip_time(1e9, 300, TimeMode::Clamp), 300.0);
  EXPECT_EQ(map_clip_time(300, 300, TimeMode::Loop), 0.0);   // t = duration maps to 0
  EXPECT_EQ(map_clip_time(-1, 300, TimeMode::Loop), 299.0);  // floor-modulo
  EXPECT_EQ(map_clip_time(-300, 300, TimeMode::Loop), 0.0);
  EXPECT_EQ(map_clip_time(-0.0, 300, TimeMode::Loop), 0.0);
  EXPECT_FALSE(std::signbit(map_clip_time(-0.0, 300, TimeMode::Loop)));
  EXPECT_EQ(map_clip_time(903.5, 300, TimeMode::Loop), 3.5);
  EXPECT_EQ(map_clip_time(12345, 0, TimeMode::Loop), 0.0);  // duration 0 => t = 0
  EXPECT_EQ(map_clip_time(12345, 0, TimeMode::Clamp), 0.0);
  // A tiny negative time: fmod gives -1e-300, and -1e-300 + 300 rounds to 300 -> wraps to 0.
  EXPECT_EQ(map_clip_time(-1e-300, 300, TimeMode::Loop), 0.0);
  EXPECT_LT(map_clip_time(-1e-9, 300, TimeMode::Loop), 300.0);
}

// Loop mode's remainder equals std::fmod's exact one bit for bit, near every multiple of the
// duration, for quotients up to 2^52 / d and past the fast path's range.
TEST(ClipTime, LoopRemainderIsFmodsExactly) {
  std::mt19937_64 rng(43);
  const auto reference = [](double t, uint32_t dur) {
    const double d = dur;
    double r = std::fmod(t, d);
    if (r < 0.0) r += d;
    if (r >= d) r = 0.0;
    return r + 0.0;
  };
  for (uint32_t dur : {1u, 3u, 7u, 300u, 1000u, 1001u, 65535u, 4294967295u}) {
    for (int i = 0; i < 20000; ++i) {
      const double scale = std::ldexp(1.0, int(rng() % 60));  // up to 2^59: past 2^52 too
      double t = std::ldexp(double(rng() >> 11), -53) * scale;
      if (i % 3 == 0) t = std::nextafter(std::round(t / dur) * dur, i % 2 ? 0.0 : 1e300);
      const double got = map_clip_time(t, dur, TimeMode::Loop);
      ASSERT_EQ(std::bit_cast<uint64_t>(got), std::bit_cast<uint64_t>(reference(t, dur)))
          << "t " << t << " duration " << dur;
    }
  }
}

TEST(Sampling, KeyTimesReturnTheNormalisedKeyExactly) {
  TwoJointRig rig;
  rig.anim.clips[0].tracks[0].keys[0].trs.r = Quat{0, 0, 0, 1.0005f};  // stored slightly long
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  for (SamplePolicy p : {SamplePolicy::Step, SamplePolicy::Linear, SamplePolicy::Slerp}) {
    Trs a = sample(*rt, 100, p, TimeMode::Clamp);
    EXPECT_EQ(a.t.x, 0.0f);
    EXPECT_EQ(a.r.w, 1.0f);  // 1.0005 / 1.0005
    EXPECT_EQ(a.r.z, 0.0f);
    Trs b = sample(*rt, 300, p, TimeMode::Clamp);
    EXPECT_EQ(b.t.x, 10.0f);
    EXPECT_EQ(b.t.z, -40.0f);
    EXPECT_EQ(b.s.x, 3.0f);
    expect_quat(b.r, 0, 0, kS45, kS45, 1e-7f);
  }
}

TEST(Sampling, BeforeFirstAndAfterLastKeyHold) {
  TwoJointRig rig;
  rig.anim.clips[0].duration_ms = 400;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  for (SamplePolicy p : {SamplePolicy::Step, SamplePolicy::Linear, SamplePolicy::Slerp}) {
    EXPECT_EQ(sample(*rt, 0, p, TimeMode::Clamp).t.x, 0.0f);  // before the first key (100)
    EXPECT_EQ(sample(*rt, 99.9, p, TimeMode::Clamp).t.x, 0.0f);
    EXPECT_EQ(sample(*rt, 350, p, TimeMode::Clamp).t.x, 10.0f);  // after the last key (300)
    EXPECT_EQ(sample(*rt, 399, p, TimeMode::Loop).t.x, 10.0f);   // no blend back to key 0
  }
}

TEST(Sampling, StepHoldsThePreviousKey) {
  TwoJointRig rig;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  Trs s = sample(*rt, 299.999, SamplePolicy::Step, TimeMode::Clamp);
  EXPECT_EQ(s.t.x, 0.0f);
  EXPECT_EQ(s.s.x, 1.0f);
  EXPECT_EQ(s.r.w, 1.0f);
}

TEST(Sampling, LinearLerpsAndNlerps) {
  TwoJointRig rig;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  // t = 150: u = (150 - 100) / 200 = 0.25.
  Trs a = sample(*rt, 150, SamplePolicy::Linear, TimeMode::Clamp);
  expect_vec(a.t, 2.5f, 5.0f, -10.0f);
  expect_vec(a.s, 1.5f, 1.0f, 1.0f);
  // nlerp: (0, 0, 0.25 s, 0.75 + 0.25 s) / |.|, s = sin 45.
  const double z = 0.25 * 0.70710678, w = 0.75 + 0.25 * 0.70710678;
  const double len = std::sqrt(z * z + w * w);
  expect_quat(a.r, 0, 0, float(z / len), float(w / len));
  // At u = 0.5 nlerp equals slerp: 45 deg about z = (0, 0, sin 22.5, cos 22.5).
  Trs h = sample(*rt, 200, SamplePolicy::Linear, TimeMode::Clamp);
  expect_quat(h.r, 0, 0, 0.38268343f, 0.92387953f);
}

TEST(Sampling, SlerpFollowsTheArc) {
  TwoJointRig rig;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  // u = 0.25 of 90 deg = 22.5 deg about z: (0, 0, sin 11.25, cos 11.25).
  Trs a = sample(*rt, 150, SamplePolicy::Slerp, TimeMode::Clamp);
  expect_quat(a.r, 0, 0, 0.19509032f, 0.98078528f);
  expect_vec(a.t, 2.5f, 5.0f, -10.0f);
}

TEST(Sampling, ShortestArcNegatesTheSecondKey) {
  TwoJointRig rig;
  // -q is the same rotation as q: 90 deg about z. Halfway must be 45 deg, not 135.
  rig.anim.clips[0].tracks[0].keys[1].trs.r = Quat{0, 0, -kS45, -kS45};
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  for (SamplePolicy p : {SamplePolicy::Linear, SamplePolicy::Slerp}) {
    Trs h = sample(*rt, 200, p, TimeMode::Clamp);
    expect_quat(h.r, 0, 0, 0.38268343f, 0.92387953f);
  }
}

TEST(Sampling, SlerpFallsBackToNlerpForNearlyEqualKeys) {
  TwoJointRig rig;
  // 0.02 rad apart: dot = cos(0.01) = 0.99995 > 0.9995, so slerp must equal nlerp bit for bit.
  rig.anim.clips[0].tracks[0].keys[1].trs.r = Quat{0, 0, std::sin(0.01f), std::cos(0.01f)};
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  Trs l = sample(*rt, 170, SamplePolicy::Linear, TimeMode::Clamp);
  Trs s = sample(*rt, 170, SamplePolicy::Slerp, TimeMode::Clamp);
  EXPECT_TRUE(same_bits(l, s));
  expect_quat(s.r, 0, 0, std::sin(0.0035f), std::cos(0.0035f), 1e-6f);
}

TEST(Sampling, LoopIsPeriodicAndClampHoldsTheEnds) {
  TwoJointRig rig;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  for (SamplePolicy p : {SamplePolicy::Step, SamplePolicy::Linear, SamplePolicy::Slerp}) {
    for (double t : {0.0, 37.5, 150.0, 212.25, 299.0}) {
      Trs base = sample(*rt, t, p, TimeMode::Loop);
      for (int k : {-3, -1, 1, 2, 10}) {
        EXPECT_TRUE(same_bits(base, sample(*rt, t + 300.0 * k, p, TimeMode::Loop)))
            << t << " " << k;
      }
    }
    EXPECT_TRUE(same_bits(sample(*rt, 300, p, TimeMode::Loop), sample(*rt, 0, p, TimeMode::Loop)));
    EXPECT_TRUE(
        same_bits(sample(*rt, -50, p, TimeMode::Clamp), sample(*rt, 0, p, TimeMode::Clamp)));
    EXPECT_TRUE(
        same_bits(sample(*rt, 1e7, p, TimeMode::Clamp), sample(*rt, 300, p, TimeMode::Clamp)));
  }
}

TEST(Sampling, JointsWithoutTrackKeepTheNormalisedBind) {
  TwoJointRig rig;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  Trs root = sample(*rt, 200, SamplePolicy::Linear, TimeMode::Loop, 0);
  EXPECT_EQ(root.t.x, 1.0f);
  EXPECT_EQ(root.t.z, 3.0f);
  EXPECT_EQ(root.r.w, 1.0f);  // 1.0004 normalised
}

TEST(Sampling, CacheGivesTheSameResultsAsNoCache) {
  Skel skel;
  Anim anim;
  AnimClip c;
  c.id = 1;
  c.duration_ms = 1000;
  for (uint16_t j = 0; j < 4; ++j) {
    skel.joints.push_back(joint(j, j == 0 ? -1 : int16_t(j - 1)));
    AnimTrack tr;
    tr.joint = j;
    for (uint32_t k = 0; k <= 20; ++k) {
      const float a = 0.1f * float(k * (j + 1));
      tr.keys.push_back(key(k * 50, {float(k), float(j), float(k * j)},
                            {0, std::sin(a), 0, std::cos(a)}, {1.0f + 0.01f * float(k), 1, 1}));
    }
    c.tracks.push_back(tr);
  }
  anim.clips.push_back(c);
  auto rt = RigRuntime::build(skel, &anim);
  ASSERT_TRUE(rt.ok());
  SamplingCache cache(rt->max_track_count());
  // Forward playback across a loop wrap, then jumps backwards and far forwards.
  std::vector<double> times;
  for (int f = 0; f < 130; ++f) times.push_back(f * 1000.0 / 60.0);
  for (double t : {930.0, 10.0, 999.0, 0.0, 500.0, 500.0, 25.0, 975.0, -20.0}) times.push_back(t);
  for (double t : times) {
    for (size_t j = 0; j < 4; ++j) {
      EXPECT_TRUE(same_bits(sample(*rt, t, SamplePolicy::Linear, TimeMode::Loop, j, &cache),
                            sample(*rt, t, SamplePolicy::Linear, TimeMode::Loop, j)))
          << t << " joint " << j;
    }
  }
}

TEST(Sampling, RunDoesNotAllocate) {
  TwoJointRig rig;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  std::vector<Trs> out(rt->joint_count());
  std::vector<Mat4> models(rt->joint_count()), skin(rt->joint_count());
  SamplingCache cache(rt->max_track_count());
  testing::AllocationProbe probe;
  for (int f = 0; f < 100; ++f) {
    SamplingJob job{&*rt, 0, f * 7.5, SamplePolicy::Slerp, TimeMode::Loop, &cache, out};
    ASSERT_TRUE(job.run().ok());
    ASSERT_TRUE((LocalToModelJob{&*rt, out, models}.run().ok()));
    ASSERT_TRUE((SkinningJob{&*rt, models, skin}.run().ok()));
  }
  EXPECT_EQ(probe.count(), 0u);
}

TEST(Sampling, ValidateRejectsBadJobs) {
  TwoJointRig rig;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  std::vector<Trs> out(2), small(1);
  SamplingCache tiny(0);
  SamplingJob ok{&*rt, 0, 10, SamplePolicy::Linear, TimeMode::Clamp, nullptr, out};
  EXPECT_TRUE(ok.validate().ok());
  auto code = [](const SamplingJob& j) { return j.validate().error().code; };
  SamplingJob j = ok;
  j.clip = 1;
  EXPECT_EQ(code(j), ErrorCode::EvalBadClip);
  j = ok;
  j.output = small;
  EXPECT_EQ(code(j), ErrorCode::EvalBufferSize);
  j = ok;
  j.cache = &tiny;
  EXPECT_EQ(code(j), ErrorCode::EvalBufferSize);
  j = ok;
  j.time_ms = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(code(j), ErrorCode::EvalBadTime);
  EXPECT_EQ(j.run().error().code, ErrorCode::EvalBadTime);
  j = ok;
  j.time_ms = std::numeric_limits<double>::infinity();
  EXPECT_EQ(code(j), ErrorCode::EvalBadTime);
  j = ok;
  j.runtime = nullptr;
  EXPECT_EQ(code(j), ErrorCode::EvalBadArgument);
  j = ok;
  j.policy = static_cast<SamplePolicy>(9);
  EXPECT_EQ(code(j), ErrorCode::EvalBadArgument);

  std::vector<Mat4> models(2), few(1);
  EXPECT_TRUE((LocalToModelJob{&*rt, out, models}.validate().ok()));
  EXPECT_EQ((LocalToModelJob{&*rt, out, few}.validate().error().code), ErrorCode::EvalBufferSize);
  EXPECT_EQ((LocalToModelJob{&*rt, small, models}.validate().error().code),
            ErrorCode::EvalBufferSize);
  EXPECT_EQ((SkinningJob{&*rt, models, few}.validate().error().code), ErrorCode::EvalBufferSize);
  EXPECT_EQ((SkinningJob{nullptr, models, models}.validate().error().code),
            ErrorCode::EvalBadArgument);
}

TEST(RigRuntime, BuildRejectsBrokenHandBuiltModels) {
  auto code = [](const Skel& s, const Anim* a) { return RigRuntime::build(s, a).error().code; };
  Skel empty;
  EXPECT_EQ(code(empty, nullptr), ErrorCode::SkelNoJoints);
  Skel missing;
  missing.joints = {joint(0, -1), joint(1, 9)};
  EXPECT_EQ(code(missing, nullptr), ErrorCode::SkelParentMissing);
  EXPECT_EQ(RigRuntime::build(missing, nullptr).error().path, "SKEL/joint[1]");
  Skel cycle;
  cycle.joints = {joint(0, -1), joint(1, 2), joint(2, 1)};
  EXPECT_EQ(code(cycle, nullptr), ErrorCode::SkelParentCycle);
  Skel self;
  self.joints = {joint(0, 0)};
  EXPECT_EQ(code(self, nullptr), ErrorCode::SkelParentCycle);
  Skel dup;
  dup.joints = {joint(3, -1), joint(3, -1)};
  EXPECT_EQ(code(dup, nullptr), ErrorCode::SkelJointOrder);

  TwoJointRig rig;
  EXPECT_TRUE(RigRuntime::build(rig.skel, &rig.anim).ok());
  Anim a = rig.anim;
  a.clips[0].tracks[0].joint = 5;
  EXPECT_EQ(code(rig.skel, &a), ErrorCode::AnimJointMissing);
  a = rig.anim;
  a.clips[0].tracks[0].keys.clear();
  EXPECT_EQ(code(rig.skel, &a), ErrorCode::AnimNoKeys);
  a = rig.anim;
  a.clips[0].tracks[0].keys[1].time_ms = 100;
  EXPECT_EQ(code(rig.skel, &a), ErrorCode::AnimKeyTimeOrder);
  EXPECT_EQ(RigRuntime::build(rig.skel, &a).error().path, "ANIM/clip[0]/track[0]/key[1]");
  a = rig.anim;
  a.clips[0].tracks.push_back(a.clips[0].tracks[0]);
  EXPECT_EQ(code(rig.skel, &a), ErrorCode::AnimTrackOrder);
}

// Chain root(7) -> 5 -> 2, listed child-first: [5, 7, 2] with parents [7, -1, 5].
// root: T(1,0,0). joint 5: T(0,2,0) R(90 deg about z). joint 2: T(3,0,0) S(2).
// The point (1,0,0) in joint 2's space: S -> (2,0,0); T -> (5,0,0); R90z -> (0,5,0);
// T -> (0,7,0); root T -> (1,7,0).
TEST(LocalToModel, ChainModelIsTheProductOfLocalsWithChildListedFirst) {
  Skel skel;
  skel.joints = {joint(5, 7, Trs{{0, 2, 0}, {0, 0, kS45, kS45}, {1, 1, 1}}),
                 joint(7, -1, Trs{{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}),
                 joint(2, 5, Trs{{3, 0, 0}, {0, 0, 0, 1}, {2, 2, 2}})};
  auto rt = RigRuntime::build(skel, nullptr);
  ASSERT_TRUE(rt.ok());
  EXPECT_EQ(std::vector<uint32_t>(rt->parent_first_order().begin(), rt->parent_first_order().end()),
            (std::vector<uint32_t>{1, 0, 2}));
  EXPECT_EQ(rt->joint_index(2), 2);
  EXPECT_EQ(rt->joint_index(4), -1);
  std::vector<Mat4> models(3);
  ASSERT_TRUE((LocalToModelJob{&*rt, rt->bind_locals(), models}.run().ok()));
  expect_vec(transform_point(models[2], {1, 0, 0}), 1, 7, 0);
  expect_vec(transform_point(models[0], {0, 0, 0}), 1, 2, 0);  // joint 5's origin
  expect_vec(transform_point(models[0], {1, 0, 0}), 1, 3, 0);  // its x axis turned to +y
  for (size_t j = 0; j < 3; ++j)
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(models[j].m[i], rt->bind_models()[j].m[i], 1e-6f);

  // At bind pose every skinning matrix is identity (D19 matrix tolerance).
  std::vector<Mat4> skin(3);
  ASSERT_TRUE((SkinningJob{&*rt, models, skin}.run().ok()));
  const Mat4 id = Mat4::identity();
  for (size_t j = 0; j < 3; ++j)
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(skin[j].m[i], id.m[i], 1e-6f);
  EXPECT_TRUE(rt->warnings().empty());
}

TEST(Skinning, MovesVoxelsByPoseTimesInverseBind) {
  // Root at (0,0,0); child at bind T(4,0,0). Posed child: T(4,0,0) R(90 deg about z).
  // A voxel centre at (5.5, 0.5, 0.5) is (1.5, 0.5, 0.5) in the child's bind frame;
  // rotating that by 90 deg about z gives (-0.5, 1.5, 0.5); + (4,0,0) = (3.5, 1.5, 0.5).
  Skel skel;
  skel.joints = {joint(0, -1), joint(1, 0, Trs{{4, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}})};
  auto rt = RigRuntime::build(skel, nullptr);
  ASSERT_TRUE(rt.ok());
  std::vector<Trs> locals(rt->bind_locals().begin(), rt->bind_locals().end());
  locals[1].r = Quat{0, 0, kS45, kS45};
  std::vector<Mat4> models(2), skin(2);
  ASSERT_TRUE((LocalToModelJob{&*rt, locals, models}.run().ok()));
  ASSERT_TRUE((SkinningJob{&*rt, models, skin}.run().ok()));
  expect_vec(transform_point(skin[1], {5.5f, 0.5f, 0.5f}), 3.5f, 1.5f, 0.5f);
  expect_vec(transform_point(skin[0], {5.5f, 0.5f, 0.5f}), 5.5f, 0.5f, 0.5f);
}

TEST(Skinning, SingularBindStaysAtBindAndWarns) {
  Skel skel;
  skel.joints = {joint(0, -1), joint(1, 0, Trs{{1, 0, 0}, {0, 0, 0, 1}, {0, 1, 1}}),
                 joint(2, 1, Trs{{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}})};
  auto rt = RigRuntime::build(skel, nullptr);
  ASSERT_TRUE(rt.ok());
  // Joint 1 scales x by 0, so joint 2 (inheriting it) is singular too.
  ASSERT_EQ(rt->warnings().size(), 2u);
  EXPECT_EQ(rt->warnings()[0].code, WarningCode::EvalSingularBind);
  EXPECT_EQ(rt->warnings()[0].path, "SKEL/joint[1]");
  EXPECT_EQ(rt->warnings()[1].path, "SKEL/joint[2]");
  EXPECT_EQ(rt->singular_bind()[0], 0);
  std::vector<Trs> locals(rt->bind_locals().begin(), rt->bind_locals().end());
  locals[1].t = Vec3{9, 9, 9};
  std::vector<Mat4> models(3), skin(3);
  ASSERT_TRUE((LocalToModelJob{&*rt, locals, models}.run().ok()));
  ASSERT_TRUE((SkinningJob{&*rt, models, skin}.run().ok()));
  expect_vec(transform_point(skin[1], {2, 3, 4}), 2, 3, 4, 0);
  expect_vec(transform_point(skin[2], {2, 3, 4}), 2, 3, 4, 0);
}

TEST(Matrices, AffineInverseRejectsSingularAndNonFinite) {
  Mat4 m = trs_to_mat4(Trs{{1, 2, 3}, {0, 0, kS45, kS45}, {2, 4, 0.5f}});
  auto inv = affine_inverse(m);
  ASSERT_TRUE(inv.has_value());
  expect_vec(transform_point(*inv, transform_point(m, {0.25f, -7, 3})), 0.25f, -7, 3, 1e-5f);
  m.m[0] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(affine_inverse(m).has_value());
  EXPECT_FALSE(affine_inverse(trs_to_mat4(Trs{{0, 0, 0}, {0, 0, 0, 1}, {1e-5f, 1e-5f, 1e-5f}})));
  EXPECT_TRUE(affine_inverse(Mat4::identity()).has_value());
  // Zero quaternion normalises to identity (xform.rs rule).
  Quat q = normalized(Quat{0, 0, 0, 0});
  EXPECT_EQ(q.w, 1.0f);
}

// The AVX local-to-model kernel hands the caller a clean upper YMM state (ymm_state.h; the
// mesher's AVX2 build once did not, which slowed every SSE instruction after it).
TEST(PoseKernels, LocalToModelLeavesTheUpperYmmStateClean) {
  if (!testing::can_read_ymm_state()) GTEST_SKIP() << "this CPU does not report XINUSE";
  Skel skel;
  const Trs step{{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
  for (uint16_t j = 0; j < 64; ++j)
    skel.joints.push_back(joint(j, j == 0 ? -1 : int16_t(j / 2), step));
  auto rt = RigRuntime::build(skel, nullptr);
  ASSERT_TRUE(rt.ok());
  std::vector<Mat4> models(64);
  set_pose_kernels(PoseKernels::Auto);
  ASSERT_TRUE((LocalToModelJob{&*rt, rt->bind_locals(), models}.run().ok()));
  EXPECT_FALSE(testing::upper_ymm_dirty());
}

}  // namespace
}  // namespace voxrig
