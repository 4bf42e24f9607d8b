// RKCH clip evaluation (docs/spec/rkc-evaluation.md, D21): kfatime2seq, animsprite phases, blend markers,
// the closed-form loop, i32 wrap-around without UB, validation, genperp and hinge composition.
// Expected values are derived by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "rkc_test_util.h"
#include "voxrig/rkc_eval.h"
#include "voxrig/testing/alloc_counter.h"

namespace voxrig {
namespace {

constexpr std::array<float, 3> kZ{0, 0, 1};

bool same_xform(const BoneXform& a, const BoneXform& b) { return a == b; }

// A sprite: rig + clip + clock + kfaval, like the seed's KfaSprite.
struct Sprite {
  RkcRig rig;
  SkeletalClip clip;
  RkcClock clock;
  std::vector<BoneXform> kfaval;
  Status advance(int32_t ti) {
    RkcClipJob job{&rig, &clip, ti, &clock, kfaval};
    return job.run();
  }
};

Sprite make_sprite(const Character& c) {
  auto rig = RkcRig::build(c);
  EXPECT_TRUE(rig.ok());
  Sprite s{std::move(rig).value(), std::get<SkeletalClip>(c.clips[0].data), {}, {}};
  s.kfaval.assign(c.bones.size(), BoneXform{});
  return s;
}

// One bone below a root, clip frames holding translations (1 bone column used).
Sprite translation_sprite(std::vector<float> xs, std::vector<Seq> seq) {
  std::vector<Hinge> hinges = {test::seed_hinge(-1), test::seed_hinge(0)};
  auto rig = RkcRig::build(hinges);
  EXPECT_TRUE(rig.ok());
  SkeletalClip clip;
  clip.numhin = 2;
  clip.frame_count = static_cast<uint32_t>(xs.size());
  for (float x : xs) {
    clip.frames.push_back(BoneXform{});
    BoneXform b;
    b.t = {x, 0, 0};
    clip.frames.push_back(b);
  }
  clip.seq = std::move(seq);
  Sprite s{std::move(rig).value(), clip, {}, std::vector<BoneXform>(2)};
  return s;
}

TEST(RkcEval, Kfatime2seqNeverReturnsTheLastIndexUnlessAlone) {
  const std::vector<Seq> seq = {{0, 0}, {500, 1}, {1000, 2}, {1500, 3}, {2000, -1}};
  EXPECT_EQ(kfatime2seq(seq, -5), 0u);  // before the first entry: 0
  EXPECT_EQ(kfatime2seq(seq, 0), 0u);
  EXPECT_EQ(kfatime2seq(seq, 499), 0u);
  EXPECT_EQ(kfatime2seq(seq, 500), 1u);
  EXPECT_EQ(kfatime2seq(seq, 1999), 3u);
  EXPECT_EQ(kfatime2seq(seq, 2000), 3u);  // never the final index
  EXPECT_EQ(kfatime2seq(seq, 99999), 3u);
  const std::vector<Seq> one = {{7, 0}};
  EXPECT_EQ(kfatime2seq(one, 0), 0u);
  const std::vector<Seq> two = {{0, 0}, {10, 1}};
  EXPECT_EQ(kfatime2seq(two, 50), 0u);
}

TEST(RkcEval, SeedSyntheticCharacterMovesTheArmAndLeavesTheRoot) {
  Character c = test::synthetic_character();
  Sprite s = make_sprite(c);
  ASSERT_TRUE(s.advance(500).ok());
  // Phase 1: z = 0, step to entry 1 (dt 500 <= 500): kfatim = 500. Phase 2: bracket [1, 2],
  // trat = 0: the arm takes frame 1 (angle 16000) exactly; the root is never written.
  EXPECT_EQ(s.clock.kfatim, 500);
  EXPECT_FALSE(same_xform(s.kfaval[1], BoneXform{}));
  EXPECT_TRUE(same_xform(s.kfaval[1], from_hinge_angle(kZ, 16000)));
  EXPECT_TRUE(same_xform(s.kfaval[0], BoneXform{}));

  // Rest pose (no curve attached): an empty seq makes animsprite a no-op.
  Sprite rest = make_sprite(c);
  rest.clip.seq.clear();
  ASSERT_TRUE(rest.advance(500).ok());
  EXPECT_TRUE(same_xform(rest.kfaval[1], BoneXform{}));
  EXPECT_EQ(rest.clock.kfatim, 0);
}

TEST(RkcEval, BetweenKeysTheArmIsNlerpedBy1616Ratio) {
  Character c = test::synthetic_character();
  Sprite s = make_sprite(c);
  ASSERT_TRUE(s.advance(250).ok());
  // trat = (250 << 16) / 500 = 32768: halfway between angle 0 and 16000 = angle 8000, whose
  // rotation about +z is -(8000 * 2π / 65536) = -0.766990 rad: q = (0, 0, -sin(0.383495),
  // cos(0.383495)) = (0, 0, -0.374164, 0.927363) (nlerp at 1/2 equals slerp at 1/2).
  EXPECT_EQ(s.clock.kfatim, 250);
  EXPECT_NEAR(s.kfaval[1].r[2], -0.374164f, 2e-6f);
  EXPECT_NEAR(s.kfaval[1].r[3], 0.927363f, 2e-6f);
  EXPECT_EQ(s.kfaval[1].r[0], 0.0f);
}

TEST(RkcEval, JumpLoopsAndClosedFormMatchesTheWalk) {
  Character c = test::synthetic_character();
  Sprite s = make_sprite(c);
  // 2000 ms: 0 -> 500 -> 1000 -> 1500 -> the jump at 2000 lands on entry 0: kfatim = 0.
  ASSERT_TRUE(s.advance(2000).ok());
  EXPECT_EQ(s.clock.kfatim, 0);
  // The largest advance: 2147483647 = 2000 * 1073741 + 1647, so after the whole periods the
  // clock walks 500, 1000, 1500 and stops inside the last segment at 1647.
  Sprite big = make_sprite(c);
  ASSERT_TRUE(big.advance(std::numeric_limits<int32_t>::max()).ok());
  EXPECT_EQ(big.clock.kfatim, 1647);
  // Same pose as advancing 1647 from 0: between 1500 (frame 3) and 2000 (jump -> frame 0),
  // trat = (147 << 16) / 500 = 19267.
  Sprite small = make_sprite(c);
  ASSERT_TRUE(small.advance(1647).ok());
  EXPECT_TRUE(same_xform(big.kfaval[1], small.kfaval[1]));
  // Many small steps agree with one big one (the loop is periodic).
  Sprite steps = make_sprite(c);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(steps.advance(70).ok());
  Sprite once = make_sprite(c);
  ASSERT_TRUE(once.advance(7000).ok());
  EXPECT_EQ(steps.clock.kfatim, 1000);  // 7000 mod 2000
  EXPECT_EQ(once.clock.kfatim, 1000);
}

TEST(RkcEval, ClosedFormAfterAPrefixThatIsNotInTheCycle) {
  // The clock enters the loop through a jump that is not part of it:
  // seq: 0:(0,0) 1:(100,!3) 2:(150,1) 3:(200,0) 4:(260,1) 5:(300,!3)
  // From 0: z1 dt 100 -> jump lands on 3, kfatim 200. Then z4 dt 60, z5 dt 40 -> lands on 3.
  // Period 100 ms; after the first landing at t=100 every 100 ms lands on 3 again.
  Sprite s =
      translation_sprite({0, 8}, {{0, 0}, {100, ~3}, {150, 1}, {200, 0}, {260, 1}, {300, ~3}});
  ASSERT_TRUE(s.advance(100 + 100 * 5000000 + 30).ok());
  // Remaining 30 after the last landing at 200: z4 dt 60 > 30 -> kfatim = 230.
  EXPECT_EQ(s.clock.kfatim, 230);
  // Pose at 230: bracket [3, 4] (frames 0 and 1), trat = (30 << 16) / 60 = 32768: x = 4.
  EXPECT_FLOAT_EQ(s.kfaval[1].t[0], 4.0f);
}

TEST(RkcEval, StopMarkerFreezesBeforeIt) {
  // seq: (0,f0) (500,f1) (1000, stop at 2). Time never reaches 1000: it stays at 500 and the
  // segment [500, 1000) shows no interpolation (upper bracket is a stop marker).
  Sprite s = translation_sprite({0, 10}, {{0, 0}, {500, 1}, {1000, ~2}});
  ASSERT_TRUE(s.advance(5000).ok());
  EXPECT_EQ(s.clock.kfatim, 500);
  EXPECT_EQ(s.kfaval[1].t[0], 10.0f);
  // Running past the last entry with no jump freezes at the last tim.
  Sprite t = translation_sprite({0, 10}, {{0, 0}, {500, 1}});
  ASSERT_TRUE(t.advance(800).ok());
  EXPECT_EQ(t.clock.kfatim, 500);
  // kfatime2seq(500) on 2 entries is 0, so the bracket is [0, 1] with trat = (500<<16)/500 =
  // 65536: the last frame shows as the blend at ratio 1.0, 0 + (10 - 0) * 1 = 10.
  EXPECT_EQ(t.kfaval[1].t[0], 10.0f);
}

TEST(RkcEval, BlendMarkerUsesTheOldTime) {
  // seq: 0:(0, jump->1) 1:(1000, f0) 2:(2000, f1). At kfatim 500 the lower bracket is the jump
  // marker (blend case). okfatim = 1500: z0 = 1 (f0), zz0 = 2 (f1), trat2 = (500<<16)/1000 =
  // 32768 -> x = lerp(f0, f1, 0.5) = 2; then trat at kfatim: (500<<16)/1000 = 32768 toward the
  // upper frame f0 (entry 1): x = 2 + (0 - 2) * 0.5 = 1.
  Sprite s = translation_sprite({0, 4}, {{0, ~1}, {1000, 0}, {2000, 1}});
  s.clock.kfatim = 500;
  s.clock.okfatim = 1500;
  ASSERT_TRUE(s.advance(0).ok());
  EXPECT_EQ(s.clock.kfatim, 500);
  EXPECT_EQ(s.kfaval[1].t[0], 1.0f);
}

TEST(RkcEval, I32TimeWrapsWithoutUndefinedBehaviour) {
  // dt = seq.tim - kfatim wraps: kfatim = 2147483000, next tim = -2147483000 (unsorted):
  // -2147483000 - 2147483000 = -4294966000 -> wraps to 1296 > 0. ti = 1000 < 1296, so
  // kfatim += 1000 wraps to 2147484000 - 2^32 = -2147483296.
  Sprite s = translation_sprite({0, 10}, {{0, 0}, {-2147483000, 1}});
  s.clock.kfatim = 2147483000;
  ASSERT_TRUE(s.advance(1000).ok());
  EXPECT_EQ(s.clock.kfatim, -2147483296);
  // dt that wraps negative stops the walk: kfatim = -2147483600, tim 100:
  // 100 + 2147483600 = 2147483700 -> wraps to -2147483596 <= 0: no advance.
  Sprite t = translation_sprite({0, 10}, {{0, 0}, {100, 1}});
  t.clock.kfatim = -2147483600;
  ASSERT_TRUE(t.advance(5).ok());
  EXPECT_EQ(t.clock.kfatim, -2147483600);
  // The ratio: i32 difference kfatim - tim = -2147483600, times 65536 in i64 =
  // -140737485209600, / 100 = -1407374852096, truncated to i32 (low 32 bits) = 1374420992 > 0:
  // the blend extrapolates by 1374420992 / 65536 = 20972.0: x = 0 + 10 * 20972 = 209720.
  EXPECT_EQ(t.kfaval[1].t[0], 209720.0f);
}

TEST(RkcEval, UnsortedTimesExtrapolate) {
  // seq: (0,f0) (1000,f1) (500,f2). kfatime2seq(750): lower 0, upper 2, mid 1: 750 >= 1000? no
  // -> upper 1 -> returns 0. Bracket [0,1]: trat = (750<<16)/1000 = 49152 -> x = 0.75 * 8 = 6.
  // At 1600 (walk: z1 dt 1000 -> kfatim 1000, z2 dt 500-1000 < 0 -> stop): kfatime2seq(1000)
  // = 1; bracket [1,2]: span = 500 - 1000 = -500, trat = (0<<16)/-500 = 0 -> frame 1 = 8.
  Sprite s = translation_sprite({0, 8, 100}, {{0, 0}, {1000, 1}, {500, 2}});
  ASSERT_TRUE(s.advance(750).ok());
  EXPECT_EQ(s.kfaval[1].t[0], 6.0f);
  ASSERT_TRUE(s.advance(850).ok());
  EXPECT_EQ(s.clock.kfatim, 1000);
  EXPECT_EQ(s.kfaval[1].t[0], 8.0f);
  // Extrapolation: kfatim 1200 set by the host: bracket [1,2], (200<<16)/-500 = -26214 -> no
  // blend; kfatim 800 with seq (0,f0) (400,f1) (300,f2): kfatime2seq(800) = 1 (800 >= 400),
  // bracket [1,2]: span -100, (400<<16)/-100 < 0 -> frame 1; and kfatim 350 on (0,f0) (100,f1)
  // (50,f2)... the seed can also get trat > 65536: (0,f0) (100,f1) (200,f2) with kfatim 150
  // and a hand-set clock past the bracket is not reachable through kfatime2seq for sorted
  // seqs; unsorted: seq (0,f0) (300,f1) (100,f2), kfatim 200: kfatime2seq -> lower 0 (200 <
  // 300), bracket [0,1]: trat = (200<<16)/300 = 43690 -> x = 8 * 0.66666 = 5.33333.
  Sprite u = translation_sprite({0, 8, 100}, {{0, 0}, {300, 1}, {100, 2}});
  u.clock.kfatim = 200;
  ASSERT_TRUE(u.advance(0).ok());
  EXPECT_NEAR(u.kfaval[1].t[0], 5.33333f, 1e-4f);
  // trat > 65536: seq (0,f0) (100,f1) (50,f2) (1000,f0): kfatime2seq(150): lower 0 upper 3,
  // mid 1: 150 >= 100 -> lower 1; mid 2: 150 >= 50 -> lower 2 -> returns 2?? upper-lower = 1:
  // returns 2: bracket [2,3]: span 950, trat = (100<<16)/950 = 6898 -> 100 + (0-100)*0.10526.
  Sprite v = translation_sprite({0, 8, 100}, {{0, 0}, {100, 1}, {50, 2}, {1000, 0}});
  v.clock.kfatim = 150;
  ASSERT_TRUE(v.advance(0).ok());
  EXPECT_NEAR(v.kfaval[1].t[0], 100.0f - 100.0f * (6898.0f / 65536.0f), 1e-3f);
}

TEST(RkcEval, ValidateRejectsBadSeqBeforeRun) {
  Character c = test::synthetic_character();
  Sprite s = make_sprite(c);
  auto code = [&](std::vector<Seq> seq) {
    s.clip.seq = std::move(seq);
    return RkcClipJob{&s.rig, &s.clip, 10, &s.clock, s.kfaval}.validate();
  };
  EXPECT_TRUE(code({{0, 0}, {500, 3}, {600, ~0}, {700, ~3}}).ok());  // ~3 at 3 = stop
  EXPECT_EQ(code({{0, 0}, {500, 4}}).error().code, ErrorCode::EvalFrameIndex);
  EXPECT_EQ(code({{0, 0}, {500, 4}}).error().path, "seq[1]");
  EXPECT_EQ(code({{0, 0}, {500, ~5}}).error().code, ErrorCode::EvalJumpTarget);
  EXPECT_EQ(code({{0, 0}, {500, ~2}, {600, ~0}}).error().code, ErrorCode::EvalJumpTarget);
  EXPECT_EQ(code({{0, 0}, {500, ~2}, {600, ~2}}).error().code, ErrorCode::EvalJumpTarget);
  // run() refuses too, and leaves the clock alone.
  s.clip.seq = {{0, 0}, {500, 9}};
  const Status st = s.advance(100);
  EXPECT_EQ(st.error().code, ErrorCode::EvalFrameIndex);
  EXPECT_EQ(s.clock.kfatim, 0);
  // Shape errors.
  s.clip.seq = {{0, 0}};
  std::vector<BoneXform> short_buf(1);
  EXPECT_EQ((RkcClipJob{&s.rig, &s.clip, 0, &s.clock, short_buf}.validate().error().code),
            ErrorCode::EvalBufferSize);
  SkeletalClip bad = s.clip;
  bad.frames.pop_back();
  EXPECT_EQ((RkcClipJob{&s.rig, &bad, 0, &s.clock, s.kfaval}.validate().error().code),
            ErrorCode::EvalBadClip);
  EXPECT_EQ((RkcClipJob{&s.rig, nullptr, 0, &s.clock, s.kfaval}.validate().error().code),
            ErrorCode::EvalBadArgument);
  // No frames: nothing to check, nothing to do (the seed's early return).
  SkeletalClip empty;
  empty.numhin = 2;
  empty.seq = {{0, 77}};
  EXPECT_TRUE((RkcClipJob{&s.rig, &empty, 5, &s.clock, s.kfaval}.run().ok()));
}

TEST(RkcEval, RunDoesNotAllocate) {
  Character c = test::synthetic_character();
  Sprite s = make_sprite(c);
  std::vector<Mat4> world(2);
  testing::AllocationProbe probe;
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(s.advance(33).ok());
    ASSERT_TRUE((RkcHingeJob{&s.rig, s.kfaval, RkcPlacement{}, world}.run().ok()));
  }
  EXPECT_EQ(probe.count(), 0u);
}

TEST(RkcHinge, GenperpTieBreaks) {
  std::array<float, 3> b, c;
  genperp({0, 0, 1}, b, c);  // |x| < |y| false (0 < 0): |y| < |z| -> b = (-az, 0, ax)/|(ax,az)|
  EXPECT_EQ(b, (std::array<float, 3>{-1, 0, 0}));
  EXPECT_EQ(c, (std::array<float, 3>{0, -1, 0}));  // a x b = (0,0,1) x (-1,0,0)
  genperp({1, 0, 0}, b, c);  // |y| < |z| false (0 < 0): b = (ay, -ax, 0) = (0, -1, 0)
  EXPECT_EQ(b, (std::array<float, 3>{0, -1, 0}));
  EXPECT_EQ(c, (std::array<float, 3>{0, 0, -1}));
  genperp({0, 3, 4}, b, c);  // |x| smallest: b = (0, az, -ay)/5 = (0, 0.8, -0.6)
  EXPECT_FLOAT_EQ(b[1], 0.8f);
  EXPECT_FLOAT_EQ(b[2], -0.6f);
  EXPECT_EQ(b[0], 0.0f);
  genperp({2, 2, 2}, b, c);  // all ties: last branch, b = (ay, -ax, 0)/|.| = (1, -1, 0)/√2
  EXPECT_FLOAT_EQ(b[0], 0.70710678f);
  EXPECT_FLOAT_EQ(b[1], -0.70710678f);
  genperp({0, 0, 0}, b, c);
  EXPECT_EQ(b, (std::array<float, 3>{0, 0, 0}));
  EXPECT_EQ(c, (std::array<float, 3>{0, 0, 0}));
}

TEST(RkcHinge, ChildOriginOfTheCoreTest) {
  // hinge p = [(0,0,0), (6,0,0)], identity parent, val 0 -> child origin (-6, 0, 0).
  Hinge root = test::seed_hinge(-1);
  Hinge child = test::seed_hinge(0);
  child.p = {{{0, 0, 0}, {6, 0, 0}}};
  auto rig = RkcRig::build(std::vector<Hinge>{root, child});
  ASSERT_TRUE(rig.ok());
  std::vector<BoneXform> kfaval = {BoneXform{}, from_hinge_angle(kZ, 0)};
  std::vector<Mat4> world(2);
  ASSERT_TRUE((RkcHingeJob{&*rig, kfaval, RkcPlacement{}, world}.run().ok()));
  EXPECT_FLOAT_EQ(world[1].m[12], -6.0f);
  EXPECT_FLOAT_EQ(world[1].m[13], 0.0f);
  EXPECT_FLOAT_EQ(world[1].m[14], 0.0f);
  // Basis stays identity.
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) EXPECT_NEAR(world[1].m[c * 4 + r], c == r ? 1.0f : 0.0f, 1e-7f);
}

TEST(RkcHinge, RotationTranslationScaleAndPlacement) {
  // Root placed at p = (10, 0, 0) with hinge p0 = (1, 0, 0): origin = p - p0 = (9, 0, 0).
  // Child: p = [(2,0,0), (0,0,0)], v = +z both; X = 90 deg about +z (val -16384: from_hinge_angle
  // negates), t = (0, 1, 0), s = (2, 1, 1). Q anchor = p0 + t = (2, 1, 0). The child's x axis
  // (s) becomes R·e_x * 2 = (0, 2, 0); child origin = root origin + (2, 1, 0) = (11, 1, 0).
  // Grandchild: p = [(1,0,0), (0,0,0)], identity: its origin = child ∘ (1,0,0): the child's
  // basis maps (1,0,0) to (0,2,0): (11, 3, 0); it inherits the scaled basis.
  Hinge root = test::seed_hinge(-1);
  root.p[0] = {1, 0, 0};
  Hinge child = test::seed_hinge(0);
  child.p = {{{2, 0, 0}, {0, 0, 0}}};
  Hinge grand = test::seed_hinge(1);
  grand.p = {{{1, 0, 0}, {0, 0, 0}}};
  // Listed child-first ([grand, root, child]) to exercise the parent-first order.
  grand.parent = 2;
  child.parent = 1;
  auto rig = RkcRig::build(std::vector<Hinge>{grand, root, child});
  ASSERT_TRUE(rig.ok());
  BoneXform x = from_hinge_angle(kZ, -16384);
  x.t = {0, 1, 0};
  x.s = {2, 1, 1};
  std::vector<BoneXform> kfaval = {BoneXform{}, BoneXform{}, x};
  std::vector<Mat4> world(3);
  RkcPlacement place;
  place.p = {10, 0, 0};
  ASSERT_TRUE((RkcHingeJob{&*rig, kfaval, place, world}.run().ok()));
  EXPECT_NEAR(world[1].m[12], 9.0f, 1e-5f);
  EXPECT_NEAR(world[2].m[12], 11.0f, 1e-5f);
  EXPECT_NEAR(world[2].m[13], 1.0f, 1e-5f);
  EXPECT_NEAR(world[2].m[0], 0.0f, 1e-5f);  // child s = (0, 2, 0)
  EXPECT_NEAR(world[2].m[1], 2.0f, 1e-5f);
  EXPECT_NEAR(world[0].m[12], 11.0f, 1e-5f);
  EXPECT_NEAR(world[0].m[13], 3.0f, 1e-5f);
  EXPECT_NEAR(world[0].m[1], 2.0f, 1e-5f);  // inherited scale
  // htype != 0: the child ignores kfaval (identity): origin = (9,0,0) + (2,0,0).
  std::vector<Hinge> hs = {grand, root, child};
  hs[2].htype = 1;
  auto rig2 = RkcRig::build(hs);
  ASSERT_TRUE(rig2.ok());
  ASSERT_TRUE((RkcHingeJob{&*rig2, kfaval, place, world}.run().ok()));
  EXPECT_NEAR(world[2].m[12], 11.0f, 1e-5f);
  EXPECT_NEAR(world[2].m[13], 0.0f, 1e-5f);
}

TEST(RkcHinge, RigRejectsBadParents) {
  Hinge a = test::seed_hinge(-1), b = test::seed_hinge(5);
  auto r = RkcRig::build(std::vector<Hinge>{a, b});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RkcParentRange);
  EXPECT_EQ(r.error().path, "BONS/bone[1]");
  Hinge c = test::seed_hinge(2), d = test::seed_hinge(1), e = test::seed_hinge(1);
  auto cyc = RkcRig::build(std::vector<Hinge>{test::seed_hinge(-1), c, d});
  ASSERT_FALSE(cyc.ok());
  EXPECT_EQ(cyc.error().code, ErrorCode::RkcParentCycle);
  EXPECT_EQ(RkcRig::build(std::vector<Hinge>{e, test::seed_hinge(-1)}).ok(), true);
  EXPECT_EQ(RkcRig::build(std::vector<Hinge>{test::seed_hinge(0)}).error().code,
            ErrorCode::RkcParentCycle);  // self-parent
  Hinge neg = test::seed_hinge(-7);      // any negative parent is a root for the evaluator
  EXPECT_TRUE(RkcRig::build(std::vector<Hinge>{neg}).ok());
}

}  // namespace
}  // namespace voxrig
