// Rig presence, profiles (FP-3, D10, D11), the rig steps of FP-7, rebind, and the
// seed's chapter 6B example built by hand on the 8x8x8 model of examples/seed_rig.json.
#include <gtest/gtest.h>

#include "vfp_test_builder.h"

namespace voxrig {
namespace {

using namespace vt;
constexpr Profile kStatic = Profile::VfpStatic;
constexpr Profile kRig = Profile::VfpRig;

// Fixture sections: [0] VOX0, [1] SKEL, [2] VSKN, [3] ANIM.
TEST(RigProfiles, StaticKeepsRigSectionsOpaqueRigDecodesThem) {
  RigFixture fx;
  auto s = decode(fx.file(), kStatic);
  ASSERT_TRUE(succeeds(s));
  EXPECT_EQ(s->skel(), nullptr);
  for (size_t i = 1; i < 4; ++i)
    EXPECT_TRUE(std::holds_alternative<RawPayload>(s->sections[i].body));
  EXPECT_TRUE(round_trips(fx.file(), kStatic));
  auto r = decode(fx.file(), kRig);
  ASSERT_TRUE(succeeds(r));
  EXPECT_NE(r->skel(), nullptr);
  EXPECT_NE(r->vskn(), nullptr);
  EXPECT_NE(r->anim(), nullptr);
  EXPECT_TRUE(round_trips(fx.file(), kRig));
  // Any non-VFP profile is treated as vfp-rig.
  EXPECT_NE(decode(fx.file(), Profile::RkcStrict)->skel(), nullptr);
}

TEST(RigProfiles, BrokenRigIsAcceptedByStaticAndRejectedByRig) {
  struct Case {
    const char* what;
    RigFixture fx;
    ErrorCode code;
  };
  std::vector<Case> cases;
  cases.push_back({"skel version", {}, ErrorCode::SkelBadVersion});
  cases.back().fx.skel.version = 7;
  cases.push_back({"vskn skeleton hash", {}, ErrorCode::VsknSkeletonHash});
  cases.back().fx.vskn.skel = Sha256{};
  cases.push_back({"anim key order", {}, ErrorCode::AnimKeyTimeOrder});
  cases.back().fx.anim.clips[0].tracks[0].keys[1].time = 0;
  cases.push_back({"incomplete", {}, ErrorCode::RigIncomplete});
  cases.back().fx.with_vskn = false;
  cases.push_back({"skel cycle", {}, ErrorCode::SkelParentCycle});
  cases.back().fx.skel.joints[0].parent = 1;
  for (const Case& c : cases) {
    EXPECT_TRUE(round_trips(c.fx.file(), kStatic)) << c.what;
    EXPECT_TRUE(fails_with(decode(c.fx.file(), kRig), c.code)) << c.what;
  }
}

TEST(RigProfiles, RequiredRigSection) {
  // FP-3 / D11: static = unknown required section, rig = bad rig section header.
  for (size_t i : {1u, 2u, 3u}) {
    FileSpec f = RigFixture{}.file_spec();
    f.sections[i].flags = kSectionRequired;
    EXPECT_TRUE(fails_with(decode(f.bytes(), kStatic), ErrorCode::VfpUnknownRequired)) << i;
    auto r = decode(f.bytes(), kRig);
    ASSERT_TRUE(fails_with(r, ErrorCode::RigSectionHeader)) << i;
    EXPECT_EQ(r.error().path, "section[" + std::to_string(i) + "]");
  }
}

TEST(RigProfiles, RigSectionWithACodec) {
  for (size_t i : {1u, 2u, 3u}) {
    FileSpec f = RigFixture{}.file_spec();
    f.sections[i].codec = 1;
    EXPECT_TRUE(round_trips(f.bytes(), kStatic)) << i;  // kept as unknown optional
    EXPECT_TRUE(fails_with(decode(f.bytes(), kRig), ErrorCode::RigSectionHeader)) << i;
  }
}

TEST(RigProfiles, RigSectionChunkIdMustBeGlobal) {
  FileSpec f = RigFixture{}.file_spec();
  f.sections[2].chunk_id = 0;
  EXPECT_TRUE(round_trips(f.bytes(), kStatic));
  auto r = decode(f.bytes(), kRig);
  ASSERT_TRUE(fails_with(r, ErrorCode::RigSectionHeader));
  EXPECT_EQ(r.error().offset, 243u + 4);
}

// ---- presence: duplicates and completeness ------------------------------------------------------

TEST(RigPresence, NoRigSectionsIsAStaticModel) {
  auto r = decode(static_file().bytes(), kRig);
  ASSERT_TRUE(succeeds(r));
  EXPECT_EQ(r->skel(), nullptr);
  RigFixture no_anim;  // ANIM is optional
  no_anim.with_anim = false;
  EXPECT_TRUE(round_trips(no_anim.file(), kRig));
}

TEST(RigPresence, AtMostOneOfEach) {
  for (size_t i : {1u, 2u, 3u}) {
    FileSpec f = RigFixture{}.file_spec();
    f.sections.push_back(f.sections[i]);
    EXPECT_TRUE(round_trips(f.bytes(), kStatic)) << i;
    auto r = decode(f.bytes(), kRig);
    ASSERT_TRUE(fails_with(r, ErrorCode::RigDuplicate)) << i;
    EXPECT_EQ(r.error().path, "section[4]");
  }
}

TEST(RigPresence, IncompleteRigs) {
  // {SKEL, VSKN, ANIM} present: only SKEL+VSKN(+ANIM) or none is complete.
  const bool sets[][3] = {{true, false, false},
                          {false, true, false},
                          {false, false, true},
                          {true, false, true},
                          {false, true, true}};
  for (const auto& set : sets) {
    RigFixture fx;
    fx.with_skel = set[0];
    fx.with_vskn = set[1];
    fx.with_anim = set[2];
    EXPECT_TRUE(round_trips(fx.file(), kStatic));
    EXPECT_TRUE(fails_with(decode(fx.file(), kRig), ErrorCode::RigIncomplete))
        << set[0] << set[1] << set[2];
  }
}

TEST(RigPresence, SectionsMayComeInAnyOrder) {
  FileSpec f = RigFixture{}.file_spec();
  f.sections = {f.sections[3], f.sections[2], f.sections[0], f.sections[1]};
  EXPECT_TRUE(round_trips(f.bytes(), kRig));
}

// ---- the order of the rig steps (FP-7, D11) ---------------------------------------------

TEST(RigCheckOrder, StepsRunInTheDocumentedOrder) {
  // Duplicates before rig section headers.
  FileSpec dup = RigFixture{}.file_spec();
  dup.sections[1].codec = 3;
  dup.sections.push_back(dup.sections[1]);
  EXPECT_TRUE(fails_with(decode(dup.bytes()), ErrorCode::RigDuplicate));
  // Rig section headers before completeness.
  RigFixture hdr;
  hdr.with_vskn = false;
  FileSpec h = hdr.file_spec();
  h.sections[1].chunk_id = 2;
  EXPECT_TRUE(fails_with(decode(h.bytes()), ErrorCode::RigSectionHeader));
  // Completeness before the SKEL payload.
  RigFixture inc;
  inc.with_vskn = false;
  inc.skel.version = 9;
  EXPECT_TRUE(fails_with(decode(inc.file()), ErrorCode::RigIncomplete));
  // SKEL before VSKN before ANIM, whatever the file order.
  RigFixture all;
  all.skel.reserved = 1;
  all.vskn.reserved = 1;
  all.anim.reserved = 1;
  FileSpec f = all.file_spec();
  f.sections = {f.sections[0], f.sections[3], f.sections[2], f.sections[1]};
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::SkelReserved));
  all.skel.reserved = 0;
  EXPECT_TRUE(fails_with(decode(all.file()), ErrorCode::VsknReserved));
  all.vskn.reserved = 0;
  EXPECT_TRUE(fails_with(decode(all.file()), ErrorCode::AnimReserved));
}

TEST(RigCheckOrder, ContainerStepsComeFirst) {
  // sourceHash (step 7) before every rig step.
  RigFixture fx;
  fx.with_vskn = false;
  FileSpec f = fx.file_spec();
  f.hash = Sha256{};
  EXPECT_TRUE(fails_with(decode(f.bytes()), ErrorCode::VfpSourceHash));
  // D11: under vfp-rig a REQUIRED rig section skips step 5, so the VOX0 payload answers first;
  // under vfp-static it is an unknown required section (step 5, before the VOX0 payload).
  RigFixture req;
  req.vox0.reserved = 1;
  FileSpec g = req.file_spec();
  g.sections[1].flags = kSectionRequired;
  EXPECT_TRUE(fails_with(decode(g.bytes(), kRig), ErrorCode::Vox0Reserved));
  EXPECT_TRUE(fails_with(decode(g.bytes(), kStatic), ErrorCode::VfpUnknownRequired));
  // ... and a later unknown REQUIRED section still fails in step 5 under vfp-rig.
  req.vox0.reserved = 0;
  FileSpec h = req.file_spec();
  h.sections[1].flags = kSectionRequired;
  h.sections.push_back(opt_section("QQQQ", {}));
  h.sections.back().flags = kSectionRequired;
  EXPECT_TRUE(fails_with(decode(h.bytes(), kRig), ErrorCode::VfpUnknownRequired));
}

// ---- rebind -----------------------------------------------------------------------------------

TEST(Rebind, BindsEveryHashToThisModel) {
  auto decoded = decode(RigFixture{}.file(), kRig);
  ASSERT_TRUE(succeeds(decoded));
  VfpFile m = decoded.value();
  m.vox0()->voxels[1] = 2;  // an edit: every stored hash is stale now
  auto stale = encode_vfp(m);
  ASSERT_TRUE(succeeds(stale));
  EXPECT_TRUE(fails_with(decode(stale.value(), kRig), ErrorCode::SkelBaseSourceHash));
  EXPECT_TRUE(succeeds(decode(stale.value(), kStatic)));  // header sourceHash is recomputed
  rebind(m);
  auto bound = encode_vfp(m);
  ASSERT_TRUE(succeeds(bound));
  auto again = decode(bound.value(), kRig);
  ASSERT_TRUE(succeeds(again));
  EXPECT_EQ(again.value(), m);
  // Independent expectation: the builder's file for the edited model, with hashes bound by hand.
  RigFixture edited;
  edited.vox0.voxels[1] = 2;
  EXPECT_EQ(bound.value(), edited.file());
}

TEST(Rebind, NoVox0OrNoSkelLeavesTheRestAlone) {
  VfpFile m;
  Skel s;
  s.base_source_hash[0] = 7;
  m.sections.push_back(Section{SectionHeader{make_tag("SKEL"), -1, 0, 0}, s});
  rebind(m);
  EXPECT_EQ(m.skel()->base_source_hash[0], 7);
}

// ---- the seed's chapter 6B example (D24) --------------------------------------------------------

// The model of examples/seed_rig.json, voxel by voxel: a 3x6x3 block of index 1 at x 3..5,
// y 0..5, z 2..4, index 2 at (4,6,3), index 3 at (4,7,3).
Bytes seed_voxels() {
  Bytes v(512, 0);
  for (int z = 2; z <= 4; ++z)
    for (int y = 0; y <= 5; ++y)
      for (int x = 3; x <= 5; ++x) v[x + 8 * (y + 8 * z)] = 1;
  v[4 + 8 * (6 + 8 * 3)] = 2;
  v[4 + 8 * (7 + 8 * 3)] = 3;
  return v;
}

VfpFile seed_model(bool rigged) {
  Vox0 v;
  v.size_x = v.size_y = v.size_z = 8;
  v.palette = {{0, 0, 0, 0}, {200, 60, 40, 255}, {40, 120, 220, 255}, {240, 200, 60, 255}};
  v.voxels = seed_voxels();
  VfpFile f;
  f.sections.push_back(Section{SectionHeader{make_tag("VOX0"), -1, 0, kSectionRequired}, v});
  if (!rigged) return f;
  Skel skel;
  skel.joints.push_back(SkelJoint{0, -1, Trs{}, "Root"});
  skel.joints.push_back(SkelJoint{1, 0, Trs{{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}, "Arm"});
  Vskn vskn;
  vskn.default_joint = 0;
  vskn.bindings = {VsknBinding{252, 1}};
  Anim anim;
  AnimTrack track{1, {}};
  track.keys.push_back(AnimKey{0, skel.joints[1].bind});  // key TRS defaults to the bind pose
  track.keys.push_back(AnimKey{800, Trs{{1, 0, 0}, {0, 0, 0.7071f, 0.7071f}, {1, 1, 1}}});
  anim.clips.push_back(AnimClip{0, 800, "wave", {track}});
  f.sections.push_back(Section{SectionHeader{make_tag("SKEL"), -1, 0, 0}, skel});
  f.sections.push_back(Section{SectionHeader{make_tag("VSKN"), -1, 0, 0}, vskn});
  f.sections.push_back(Section{SectionHeader{make_tag("ANIM"), -1, 0, 0}, anim});
  rebind(f);
  return f;
}

TEST(SeedExample, RiggedModelEncodesDecodesAndMatchesTheBuilder) {
  ASSERT_EQ(4 + 8 * (7 + 8 * 3), 252);
  auto bytes = encode_vfp(seed_model(true));
  ASSERT_TRUE(succeeds(bytes));

  // The same file assembled field by field.
  RigFixture fx;
  fx.vox0.sx = fx.vox0.sy = fx.vox0.sz = 8;
  fx.vox0.palette = {{0, 0, 0, 0}, {200, 60, 40, 255}, {40, 120, 220, 255}, {240, 200, 60, 255}};
  fx.vox0.voxels = seed_voxels();
  fx.vskn.records = {{252, 1}};
  fx.anim.clips = {ClipSpec{}};
  fx.anim.clips[0].name = "wave";
  fx.anim.clips[0].duration = 800;
  fx.anim.clips[0].tracks[0].keys = {key_at(0), key_at(800)};  // key t defaults to (1,0,0)
  fx.anim.clips[0].tracks[0].keys[1].r = {0, 0, 0.7071f, 0.7071f};
  EXPECT_EQ(bytes.value(), fx.file());

  auto r = decode(bytes.value(), kRig);
  ASSERT_TRUE(succeeds(r));
  const Vox0& v = *r->vox0();
  EXPECT_EQ(v.size_x, 8);
  EXPECT_EQ(v.voxels[v.index(4, 7, 3)], 3);
  EXPECT_EQ(v.palette[3], (Rgba{240, 200, 60, 255}));
  const Skel& s = *r->skel();
  ASSERT_EQ(s.joints.size(), 2u);
  EXPECT_EQ(s.joints[1].name, "Arm");
  EXPECT_EQ(s.joints[1].parent, 0);
  EXPECT_EQ(s.joints[1].bind.t, (Vec3{1, 0, 0}));
  EXPECT_EQ(s.base_source_hash, sha256(fx.vox0.bytes()));
  const Vskn& k = *r->vskn();
  EXPECT_EQ(k.default_joint, 0);
  ASSERT_EQ(k.bindings.size(), 1u);
  EXPECT_EQ(k.bindings[0], (VsknBinding{252, 1}));
  EXPECT_EQ(k.skeleton_hash, sha256(fx.skel_bytes()));
  const Anim& a = *r->anim();
  ASSERT_EQ(a.clips.size(), 1u);
  EXPECT_EQ(a.clips[0].name, "wave");
  EXPECT_EQ(a.clips[0].duration_ms, 800u);
  ASSERT_EQ(a.clips[0].tracks.size(), 1u);
  EXPECT_EQ(a.clips[0].tracks[0].joint, 1);
  const auto& keys = a.clips[0].tracks[0].keys;
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].time_ms, 0u);
  EXPECT_EQ(keys[0].trs, s.joints[1].bind);
  EXPECT_EQ(keys[1].time_ms, 800u);
  EXPECT_EQ(keys[1].trs.t, (Vec3{1, 0, 0}));
  EXPECT_EQ(keys[1].trs.r, (Quat{0, 0, 0.7071f, 0.7071f}));
  EXPECT_EQ(keys[1].trs.s, (Vec3{1, 1, 1}));
  EXPECT_EQ(r.value(), seed_model(true));
}

TEST(SeedExample, StaticTwinHasTheSameSourceHash) {
  auto rigged = encode_vfp(seed_model(true));
  auto twin = encode_vfp(seed_model(false));
  ASSERT_TRUE(succeeds(rigged));
  ASSERT_TRUE(succeeds(twin));
  const Bytes a(rigged->begin() + 12, rigged->begin() + 44);
  const Bytes b(twin->begin() + 12, twin->begin() + 44);
  EXPECT_EQ(a, b);
  Vox0Spec spec;
  spec.sx = spec.sy = spec.sz = 8;
  spec.palette = {{0, 0, 0, 0}, {200, 60, 40, 255}, {40, 120, 220, 255}, {240, 200, 60, 255}};
  spec.voxels = seed_voxels();
  const Sha256 h = sha256(spec.bytes());
  EXPECT_EQ(a, Bytes(h.begin(), h.end()));
  EXPECT_EQ(twin.value(), static_file(spec).bytes());
  auto r = decode(twin.value(), kRig);
  ASSERT_TRUE(succeeds(r));
  EXPECT_EQ(r->skel(), nullptr);
}

}  // namespace
}  // namespace voxrig
