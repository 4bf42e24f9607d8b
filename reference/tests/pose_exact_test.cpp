// Bit-exactness of the optimised pose paths (SSE mat4_mul / LocalToModelJob, batched nlerp
// normalisation, branch-free shortest-arc sign) against scalar reference formulas written out
// here from pose.h's contracts: T * R * S with the quaternion-to-matrix terms in the order the
// header documents, model = parent * local with each element summed left to right
// (((a0*b0 + a1*b1) + a2*b2) + a3*b3), nlerp = lerp toward the shortest-arc key then q * (1/|q|)
// with |q| = sqrt(((x*x + y*y) + z*z) + w*w). The build has no FMA contraction
// (-ffp-contract=off), so these formulas pin every bit, including -0.0 and infinities. A NaN
// result only has to be a NaN: which operand's NaN an x86 add returns (and the sign of the
// "indefinite" NaN of inf * 0) depends on the operand order the compiler picks for a
// commutative operation, which C++ leaves open, so no implementation can pin it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <new>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "voxrig/pose.h"

namespace voxrig {
namespace {

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

Mat4 ref_mul(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row) {
      float s = a.m[row] * b.m[c * 4];
      s = s + a.m[4 + row] * b.m[c * 4 + 1];
      s = s + a.m[8 + row] * b.m[c * 4 + 2];
      s = s + a.m[12 + row] * b.m[c * 4 + 3];
      r.m[c * 4 + row] = s;
    }
  return r;
}

Mat4 ref_trs(const Trs& t) {
  const float x = t.r.x, y = t.r.y, z = t.r.z, w = t.r.w;
  Mat4 m;
  m.m[0] = (1.0f - 2.0f * (y * y + z * z)) * t.s.x;
  m.m[1] = (2.0f * (x * y + w * z)) * t.s.x;
  m.m[2] = (2.0f * (x * z - w * y)) * t.s.x;
  m.m[3] = 0.0f;
  m.m[4] = (2.0f * (x * y - w * z)) * t.s.y;
  m.m[5] = (1.0f - 2.0f * (x * x + z * z)) * t.s.y;
  m.m[6] = (2.0f * (y * z + w * x)) * t.s.y;
  m.m[7] = 0.0f;
  m.m[8] = (2.0f * (x * z + w * y)) * t.s.z;
  m.m[9] = (2.0f * (y * z - w * x)) * t.s.z;
  m.m[10] = (1.0f - 2.0f * (x * x + y * y)) * t.s.z;
  m.m[11] = 0.0f;
  m.m[12] = t.t.x;
  m.m[13] = t.t.y;
  m.m[14] = t.t.z;
  m.m[15] = 1.0f;
  return m;
}

void expect_same(const Mat4& a, const Mat4& b, const char* what, size_t i) {
  for (int k = 0; k < 16; ++k) {
    if (std::isnan(a.m[k]) && std::isnan(b.m[k])) continue;
    ASSERT_EQ(bits(a.m[k]), bits(b.m[k])) << what << " " << i << " element " << k;
  }
}

// Values that make a wrong association or a skipped zero term visible: signed zeros, NaN,
// infinities, subnormals, and ordinary magnitudes far apart.
float special(std::mt19937& rng) {
  static const float kValues[] = {0.0f,
                                  -0.0f,
                                  1.0f,
                                  -1.0f,
                                  1e30f,
                                  -1e-30f,
                                  1e-40f,
                                  3.0e38f,
                                  std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN(),
                                  0.1f,
                                  -7.25f};
  if (rng() % 3 == 0) return kValues[rng() % (sizeof(kValues) / sizeof(kValues[0]))];
  return std::uniform_real_distribution<float>(-4, 4)(rng);
}

TEST(PoseExact, Mat4MulMatchesTheScalarFormula) {
  std::mt19937 rng(7);
  for (size_t i = 0; i < 2000; ++i) {
    Mat4 a, b;
    for (float& v : a.m) v = special(rng);
    for (float& v : b.m) v = special(rng);
    expect_same(mat4_mul(a, b), ref_mul(a, b), "mat4_mul", i);
  }
}

TEST(PoseExact, TrsToMat4MatchesTheScalarFormula) {
  std::mt19937 rng(8);
  for (size_t i = 0; i < 2000; ++i) {
    Trs t{{special(rng), special(rng), special(rng)},
          {special(rng), special(rng), special(rng), special(rng)},
          {special(rng), special(rng), special(rng)}};
    expect_same(trs_to_mat4(t), ref_trs(t), "trs_to_mat4", i);
  }
}

// LocalToModelJob under both kernel sets (pose.h PoseKernels: the AVX kernel where the CPU has
// it, and the SSE2 baseline), each against the scalar composition.
class PoseKernelsTest : public ::testing::TestWithParam<PoseKernels> {
 protected:
  void SetUp() override { set_pose_kernels(GetParam()); }
  void TearDown() override { set_pose_kernels(PoseKernels::Auto); }
};

INSTANTIATE_TEST_SUITE_P(PoseExact, PoseKernelsTest,
                         ::testing::Values(PoseKernels::Auto, PoseKernels::Sse2),
                         [](const auto& info) {
                           return std::string(info.param == PoseKernels::Auto ? "Auto" : "Sse2");
                         });

TEST_P(PoseKernelsTest, SelectsTheRequestedKernels) {
  const std::string in_use = pose_kernels_in_use();
#if defined(__SSE2__)
  if (GetParam() == PoseKernels::Sse2) {
    EXPECT_EQ(in_use, "sse2");
  } else {
    EXPECT_TRUE(in_use == "avx" || in_use == "sse2") << in_use;
#if defined(__x86_64__) && defined(__GNUC__)
    EXPECT_EQ(in_use == "avx", bool(__builtin_cpu_supports("avx")));
#endif
  }
#else
  EXPECT_EQ(in_use, "portable");
#endif
}

// models of `skel` from `locals` against the scalar composition, resolving each joint
// recursively through its parent.
void expect_models(const Skel& skel, const std::vector<Trs>& locals, std::span<const Mat4> models) {
  const size_t n = skel.joints.size();
  std::vector<Mat4> ref(n);
  std::vector<bool> done(n, false);
  const std::function<void(size_t)> resolve = [&](size_t j) {
    if (done[j]) return;
    const int16_t p = skel.joints[j].parent;
    if (p < 0) {
      ref[j] = ref_trs(locals[j]);
    } else {
      resolve(static_cast<size_t>(p));
      ref[j] = ref_mul(ref[static_cast<size_t>(p)], ref_trs(locals[j]));
    }
    done[j] = true;
  };
  for (size_t j = 0; j < n; ++j) {
    resolve(j);
    expect_same(models[j], ref[j], "joint", j);
  }
}

// LocalToModelJob on `skel` and `locals` against the scalar composition, twice: into a models
// span that starts 16-byte aligned (the SSE2 kernel then reads the parents' columns as memory
// operands of mulps) and into one 4 bytes past that (its path for unaligned spans).
void expect_scalar_composition(const Skel& skel, const std::vector<Trs>& locals) {
  const size_t n = skel.joints.size();
  auto rt = RigRuntime::build(skel, nullptr);
  ASSERT_TRUE(rt.ok());
  for (size_t offset : {0u, 1u}) {
    SCOPED_TRACE("models span " + std::to_string(4 * offset) + " bytes past 16-byte alignment");
    std::vector<float> storage(16 * n + 4);  // operator new: 16-byte aligned on x86-64
    float* at = storage.data() + (4 - reinterpret_cast<uintptr_t>(storage.data()) / 4 % 4) % 4;
    Mat4* data = new (at + offset) Mat4[n];
    ASSERT_EQ(reinterpret_cast<uintptr_t>(data) % 16, 4 * offset);
    const std::span<Mat4> models(data, n);
    ASSERT_TRUE((LocalToModelJob{&*rt, locals, models}.run().ok()));
    expect_models(skel, locals, models);
  }
}

std::vector<Trs> special_locals(std::mt19937& rng, size_t n) {
  std::vector<Trs> locals(n);
  for (Trs& t : locals)
    t = Trs{{special(rng), special(rng), special(rng)},
            {special(rng), special(rng), special(rng), special(rng)},
            {special(rng), special(rng), special(rng)}};
  return locals;
}

TEST_P(PoseKernelsTest, LocalToModelMatchesTheScalarComposition) {
  // 300 joints listed children-first in places (parent ids above the child's), roots mixed in.
  std::mt19937 rng(9);
  Skel skel;
  const size_t n = 300;
  for (size_t i = 0; i < n; ++i) {
    SkelJoint j;
    j.id = static_cast<uint16_t>(i);
    j.parent = -1;
    skel.joints.push_back(j);
  }
  // A chain over a shuffled order, so parents are both before and after their children.
  std::vector<uint16_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint16_t>(i);
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t k = 1; k < n; ++k)
    if (k % 37 != 0) skel.joints[order[k]].parent = static_cast<int16_t>(order[rng() % k]);
  expect_scalar_composition(skel, special_locals(rng, n));
}

TEST_P(PoseKernelsTest, LocalToModelChainsAndFansMatchTheScalarComposition) {
  // The AVX kernel composes lanes (0, 1) and (2, 3) of a group as pairs unless a lane is a root
  // or the second joint's parent is the first: a plain chain (every pair dependent), a fan
  // (every pair independent, one parent), and a chain with roots and fans interleaved, at
  // lengths that leave 0-3 joints after the last group of four.
  std::mt19937 rng(12);
  for (size_t n : {8u, 13u, 62u, 67u}) {
    for (int shape = 0; shape < 3; ++shape) {
      Skel skel;
      for (size_t i = 0; i < n; ++i) {
        SkelJoint j;
        j.id = static_cast<uint16_t>(i);
        j.parent = i == 0                 ? int16_t{-1}
                   : shape == 0           ? static_cast<int16_t>(i - 1)
                   : shape == 1           ? int16_t{0}
                   : i % 5 == 0           ? int16_t{-1}
                   : i % 3 == 0 && i >= 2 ? static_cast<int16_t>(i - 2)
                                          : static_cast<int16_t>(i - 1);
        skel.joints.push_back(j);
      }
      SCOPED_TRACE("n " + std::to_string(n) + " shape " + std::to_string(shape));
      expect_scalar_composition(skel, special_locals(rng, n));
    }
  }
}

TEST_P(PoseKernelsTest, LocalToModelKeepsTheSignOfZeroLocalTerms) {
  // x, y, z = +-0.5 make 2 * (yy + zz) etc. exactly 1, so the diagonal terms of T * R * S are
  // 1 - 1 = +0 times the scale (+-0). Under a root whose model is the identity with translation
  // -0, a child's model element (c, c) is that term plus three zeros whose signs follow the
  // other terms of its column; where those are all -0 the model shows the term's own sign, so a
  // kernel that forms 1 - v as, say, -(v - 1) (-0 for v == 1) differs here.
  Skel skel;
  std::vector<Trs> locals;
  SkelJoint root;
  root.id = 0;
  root.parent = -1;
  skel.joints.push_back(root);
  locals.push_back(Trs{{-0.0f, -0.0f, -0.0f}, {0, 0, 0, 1}, {1, 1, 1}});
  for (int k = 0; k < 8 * 4 * 8; ++k) {
    const auto pm = [&](int bit, float v) { return (k >> bit) & 1 ? -v : v; };
    const float w = (k >> 3) % 4 == 0   ? 0.25f
                    : (k >> 3) % 4 == 1 ? -0.25f
                    : (k >> 3) % 4 == 2 ? 0.75f
                                        : -0.75f;
    SkelJoint j;
    j.id = static_cast<uint16_t>(skel.joints.size());
    j.parent = 0;
    skel.joints.push_back(j);
    locals.push_back(Trs{{1, 2, 3},
                         {pm(0, 0.5f), pm(1, 0.5f), pm(2, 0.5f), w},
                         {pm(5, 1.0f), pm(6, 2.0f), pm(7, 0.5f)}});
  }
  expect_scalar_composition(skel, locals);
}

Quat ref_nlerp(const Quat& a, const Quat& b, float u) {
  const float dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  const float sign = std::signbit(dot) ? -1.0f : 1.0f;
  const Quat q{a.x + (b.x * sign - a.x) * u, a.y + (b.y * sign - a.y) * u,
               a.z + (b.z * sign - a.z) * u, a.w + (b.w * sign - a.w) * u};
  const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (len < 1e-12f) return Quat{0, 0, 0, 1};
  const float inv = 1.0f / len;
  return Quat{q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

TEST(PoseExact, LinearSamplingMatchesTheReferenceNlerp) {
  // 200 joints (several normalisation batches), 7 keys per track with random rotations, so the
  // shortest-arc sign flips often; a track with opposite keys (dot exactly -1) included.
  std::mt19937 rng(10);
  std::uniform_real_distribution<float> unit(-1, 1);
  const size_t n = 200;
  Skel skel;
  Anim anim;
  AnimClip clip;
  clip.duration_ms = 600;
  for (size_t j = 0; j < n; ++j) {
    SkelJoint sj;
    sj.id = static_cast<uint16_t>(j);
    sj.parent = j == 0 ? -1 : 0;
    skel.joints.push_back(sj);
    AnimTrack tr;
    tr.joint = static_cast<uint16_t>(j);
    for (uint32_t k = 0; k < 7; ++k) {
      AnimKey key;
      key.time_ms = k * 100;
      key.trs.t = {unit(rng), unit(rng), unit(rng)};
      key.trs.r = normalized(Quat{unit(rng), unit(rng), unit(rng), unit(rng)});
      if (j == 5 && k % 2 == 1) key.trs.r = Quat{0, 0, 0, -1};  // opposite of the next key
      if (j == 5 && k % 2 == 0) key.trs.r = Quat{0, 0, 0, 1};
      key.trs.s = {1 + unit(rng), 1, 1};
      tr.keys.push_back(key);
    }
    clip.tracks.push_back(tr);
  }
  anim.clips.push_back(clip);
  auto rt = RigRuntime::build(skel, &anim);
  ASSERT_TRUE(rt.ok());
  std::vector<Trs> out(n);
  SamplingCache cache(rt->max_track_count());
  for (double t : {0.0, 37.5, 99.99, 100.0, 150.0, 333.3, 599.0, 600.0, 250.0, 12.0}) {
    for (SamplingCache* c : {static_cast<SamplingCache*>(nullptr), &cache}) {
      SamplingJob job{&*rt, 0, t, SamplePolicy::Linear, TimeMode::Clamp, c, out};
      ASSERT_TRUE(job.run().ok());
      for (size_t j = 0; j < n; ++j) {
        const std::vector<AnimKey>& keys = clip.tracks[j].keys;
        const size_t k = std::min<size_t>(static_cast<size_t>(t / 100), keys.size() - 1);
        Quat want;
        if (k + 1 >= keys.size() || t == keys[k].time_ms) {
          want = normalized(keys[k].trs.r);
        } else {
          const double t0 = keys[k].time_ms, t1 = keys[k + 1].time_ms;
          const float u = static_cast<float>((t - t0) / (t1 - t0));
          want = ref_nlerp(normalized(keys[k].trs.r), normalized(keys[k + 1].trs.r), u);
        }
        ASSERT_EQ(bits(out[j].r.x), bits(want.x)) << t << " joint " << j;
        ASSERT_EQ(bits(out[j].r.y), bits(want.y)) << t << " joint " << j;
        ASSERT_EQ(bits(out[j].r.z), bits(want.z)) << t << " joint " << j;
        ASSERT_EQ(bits(out[j].r.w), bits(want.w)) << t << " joint " << j;
      }
    }
  }
}

bool same_trs_bits(const Trs& a, const Trs& b) {
  const float fa[10] = {a.t.x, a.t.y, a.t.z, a.r.x, a.r.y, a.r.z, a.r.w, a.s.x, a.s.y, a.s.z};
  const float fb[10] = {b.t.x, b.t.y, b.t.z, b.r.x, b.r.y, b.r.z, b.r.w, b.s.x, b.s.y, b.s.z};
  for (int i = 0; i < 10; ++i)
    if (bits(fa[i]) != bits(fb[i])) return false;
  return true;
}

TEST(PoseExact, TracksSharingKeyTimesSampleAsIfAlone) {
  // A track whose key times equal the previous track's reuses that track's bracket and u
  // (RigRuntime::Track::same_times). Runs of shared times of several lengths, a track with the
  // same count but other times, one with another count, one-key tracks: every track must give
  // the bits it gives in a clip of its own (where nothing is shared), for every policy, with and
  // without a cache, forward over a loop wrap and at jumps.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(-1, 1);
  const std::vector<uint32_t> kinds = {0, 0, 0, 1, 1, 0, 2, 2, 2, 2, 3, 3, 0, 1, 4, 4, 0,
                                       0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 1};
  Skel skel;
  AnimClip clip;
  clip.duration_ms = 1000;
  for (size_t j = 0; j < kinds.size(); ++j) {
    SkelJoint sj;
    sj.id = static_cast<uint16_t>(j);
    sj.parent = -1;
    skel.joints.push_back(sj);
    AnimTrack tr;
    tr.joint = static_cast<uint16_t>(j);
    // kind 0: 11 keys every 100 ms; 1: 11 keys, uneven; 2: 7 keys; 3: one key; 4: 11 keys
    // every 100 ms from 30 ms.
    const uint32_t count = kinds[j] == 2 ? 7 : kinds[j] == 3 ? 1 : 11;
    for (uint32_t k = 0; k < count; ++k) {
      AnimKey key;
      key.time_ms = kinds[j] == 1   ? k * k * 9
                    : kinds[j] == 2 ? k * 150 + 20
                    : kinds[j] == 4 ? 30 + k * 100
                                    : k * 100;
      key.trs.t = {unit(rng), unit(rng), unit(rng)};
      key.trs.r = Quat{unit(rng), unit(rng), unit(rng), unit(rng)};
      key.trs.s = {1 + unit(rng), 1 + unit(rng), 1};
      tr.keys.push_back(key);
    }
    clip.tracks.push_back(tr);
  }
  Anim anim;
  anim.clips.push_back(clip);
  auto rt = RigRuntime::build(skel, &anim);
  ASSERT_TRUE(rt.ok());
  std::vector<RigRuntime> alone;  // runtime j: a clip with track j only
  for (size_t j = 0; j < kinds.size(); ++j) {
    Anim one;
    one.clips.push_back(AnimClip{});
    one.clips[0].duration_ms = clip.duration_ms;
    one.clips[0].tracks.push_back(clip.tracks[j]);
    auto r = RigRuntime::build(skel, &one);
    ASSERT_TRUE(r.ok());
    alone.push_back(std::move(*r));
  }
  std::vector<double> times;
  for (int f = 0; f < 90; ++f) times.push_back(f * 1000.0 / 60.0);
  for (double t : {930.0, 10.0, 999.0, 0.0, 500.0, 500.0, 25.0, 975.0, 100.0, 30.0, 20.0})
    times.push_back(t);
  for (SamplePolicy policy : {SamplePolicy::Linear, SamplePolicy::Slerp, SamplePolicy::Step}) {
    SamplingCache cache(rt->max_track_count());
    std::vector<Trs> all(kinds.size());
    for (double t : times) {
      for (SamplingCache* c : {static_cast<SamplingCache*>(nullptr), &cache}) {
        ASSERT_TRUE((SamplingJob{&*rt, 0, t, policy, TimeMode::Loop, c, all}.run().ok()));
        for (size_t j = 0; j < kinds.size(); ++j) {
          std::vector<Trs> out(kinds.size());
          ASSERT_TRUE(
              (SamplingJob{&alone[j], 0, t, policy, TimeMode::Loop, nullptr, out}.run().ok()));
          ASSERT_TRUE(same_trs_bits(all[j], out[j]))
              << "policy " << int(policy) << " t " << t << " track " << j;
        }
      }
    }
  }
}

}  // namespace
}  // namespace voxrig
