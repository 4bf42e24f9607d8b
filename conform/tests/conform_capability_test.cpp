// The capability judges: pose matrices (D19 tolerance, first joint and element named) and mesh
// properties (first bad quad or uncovered face named), on hand-made expectations; the faces a
// stored reference mesh stands for, by hand and against every mesh case of the golden corpus.
#include <gtest/gtest.h>

#include <tuple>

#include "voxrig/conform/capability_protocol.h"
#include "voxrig/conform/conform.h"
#include "voxrig/conform/corpus.h"

namespace voxrig::conform {
namespace {

RunOutcome exited(int code, std::string out) {
  RunOutcome r;
  r.exit_code = code;
  r.out = std::move(out);
  return r;
}

const Matrix16 kIdentity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

TEST(JudgePose, ToleranceIsAbsolutePlusRelative) {
  std::vector<Matrix16> want = {kIdentity, kIdentity};
  want[1][12] = 100;  // x translation 100: tolerance 1e-6 + 1e-3
  const PoseExpectation e{true, "", want};
  const std::string first = "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]";
  auto second = [](const char* tx) {
    return std::string("[1,0,0,0, 0,1,0,0, 0,0,1,0, ") + tx + ",0,0,1]";
  };
  EXPECT_EQ(judge_pose(e, exited(0, "{\"model\": [" + first + "," + second("100.0009") + "]}"),
                       CodeMode::Strict)
                .verdict,
            Verdict::Pass);
  const Judgement j = judge_pose(
      e, exited(0, "{\"model\": [" + first + "," + second("100.0011") + "]}"), CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_NE(j.reason.find("joint 1 element 12 (row 0, column 3)"), std::string::npos) << j.reason;
  // 1e-6 absolute near zero.
  const std::string off = "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0.0000011,1]";
  const Judgement z = judge_pose(PoseExpectation{true, "", std::span(want).first(1)},
                                 exited(0, "{\"model\": [" + off + "]}"), CodeMode::Strict);
  EXPECT_EQ(z.verdict, Verdict::Fail);
  EXPECT_NE(z.reason.find("joint 0 element 14"), std::string::npos) << z.reason;
}

TEST(JudgePose, CountsRejectsAndGarbage) {
  std::vector<Matrix16> want = {kIdentity};
  const PoseExpectation e{true, "", want};
  EXPECT_EQ(judge_pose(e, exited(0, "{\"model\": []}"), CodeMode::Strict).verdict, Verdict::Fail);
  EXPECT_EQ(judge_pose(e, exited(0, "not json"), CodeMode::Strict).verdict, Verdict::Crash);
  EXPECT_EQ(judge_pose(e, exited(1, "{\"error\": \"eval.bad_clip\"}"), CodeMode::Strict).verdict,
            Verdict::Fail);
  const PoseExpectation r{false, "eval.bad_clip", {}};
  EXPECT_EQ(judge_pose(r, exited(1, "{\"error\": \"eval.bad_clip\"}"), CodeMode::Strict).verdict,
            Verdict::Pass);
  EXPECT_EQ(judge_pose(r, exited(1, "{\"error\": \"eval.bad_time\"}"), CodeMode::Strict).verdict,
            Verdict::Fail);
}

// Two voxels side by side along x, (0,0,0) joint 0 and (1,0,0) joint 1, colour 1: with joints,
// the faces between them are exposed (12 faces); as one joint they would not be (10 faces).
MeshFaces two_joints() {
  MeshFaces f;
  f.size[0] = 2, f.size[1] = 1, f.size[2] = 1;
  for (uint32_t x = 0; x < 2; ++x)
    for (uint8_t d = 0; d < 6; ++d) f.faces.push_back({x, 0, 0, d, uint16_t(x), 1});
  return f;
}

std::string quad(const char* n, int x0, int x1, int joint) {
  return "{\"normal\": \"" + std::string(n) + "\", \"voxels\": [" + std::to_string(x0) +
         ", 0, 0, " + std::to_string(x1) + ", 0, 0], \"joint\": " + std::to_string(joint) +
         ", \"color\": 1}";
}

std::string all_quads(bool merge_across) {
  std::string q = "{\"quads\": [" + quad("-x", 0, 0, 0) + "," + quad("+x", 0, 0, 0) + "," +
                  quad("-x", 1, 1, 1) + "," + quad("+x", 1, 1, 1);
  for (const char* n : {"-y", "+y", "-z", "+z"}) {
    if (merge_across)
      q += "," + quad(n, 0, 1, 0);
    else
      q += "," + quad(n, 0, 0, 0) + "," + quad(n, 1, 1, 1);
  }
  return q + "]}";
}

TEST(JudgeMesh, ExactCoverPassesAndReportsQuality) {
  std::string quality;
  EXPECT_EQ(judge_mesh(two_joints(), 12, exited(0, all_quads(false)), &quality).verdict,
            Verdict::Pass);
  EXPECT_EQ(quality, "12 quads (reference 12)");
}

TEST(JudgeMesh, NamesTheFirstBadQuadOrUncoveredFace) {
  // Merging across joints: the quad claims joint 0 for voxel (1,0,0), which has joint 1.
  Judgement j = judge_mesh(two_joints(), 12, exited(0, all_quads(true)), nullptr);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_NE(j.reason.find("quad[4] (joint 0, color 1) covers the -y face of voxel (1, 0, 0)"),
            std::string::npos)
      << j.reason;
  // Dropping the faces between the joints: the first uncovered face is named.
  const std::string dropped = "{\"quads\": [" + quad("-x", 0, 0, 0) + "," + quad("+x", 1, 1, 1) +
                              "," + quad("-y", 0, 0, 0) + "]}";
  j = judge_mesh(two_joints(), 12, exited(0, dropped), nullptr);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_NE(j.reason.find("no quad covers the +x face of voxel (0, 0, 0)"), std::string::npos)
      << j.reason;
  // Twice, outside the grid, thick boxes, unknown normals.
  j = judge_mesh(
      two_joints(), 12,
      exited(0, "{\"quads\": [" + quad("-x", 0, 0, 0) + "," + quad("-x", 0, 0, 0) + "]}"), nullptr);
  EXPECT_NE(j.reason.find("already covered by quad[0]"), std::string::npos) << j.reason;
  j = judge_mesh(two_joints(), 12, exited(0, "{\"quads\": [" + quad("-y", 0, 2, 0) + "]}"),
                 nullptr);
  EXPECT_NE(j.reason.find("leaves the grid"), std::string::npos) << j.reason;
  j = judge_mesh(two_joints(), 12, exited(0, "{\"quads\": [" + quad("-x", 0, 1, 0) + "]}"),
                 nullptr);
  EXPECT_NE(j.reason.find("not one voxel thick"), std::string::npos) << j.reason;
  j = judge_mesh(two_joints(), 12, exited(0, "{\"quads\": [" + quad("+w", 0, 0, 0) + "]}"),
                 nullptr);
  EXPECT_EQ(j.verdict, Verdict::Fail);
  EXPECT_EQ(judge_mesh(two_joints(), 12, exited(0, "[]"), nullptr).verdict, Verdict::Fail);
  EXPECT_EQ(judge_mesh(two_joints(), 12, exited(3, ""), nullptr).verdict, Verdict::Crash);
}

auto key(const MeshFaces::Face& f) { return std::tie(f.x, f.y, f.z, f.dir, f.joint, f.color); }

TEST(MeshFacesFromReference, TheFacesTheStoredQuadsCover) {
  const std::string stored = "{\"size\": [2, 1, 1], " + all_quads(false).substr(1);
  std::string problem;
  const auto faces = mesh_faces_from_reference(stored, &problem);
  ASSERT_TRUE(faces) << problem;
  const MeshFaces want = two_joints();
  ASSERT_EQ(faces->faces.size(), want.faces.size());
  for (size_t i = 0; i < want.faces.size(); ++i)
    EXPECT_EQ(key(faces->faces[i]), key(want.faces[i])) << i;
  EXPECT_EQ(faces->size[0], 2u);
  // A quad outside the stored grid, or a document that is not a reference mesh: corpus bugs.
  EXPECT_FALSE(mesh_faces_from_reference("{\"size\": [1, 1, 1], " + all_quads(false).substr(1),
                                         &problem));
  EXPECT_NE(problem.find("leaves the grid"), std::string::npos) << problem;
  EXPECT_FALSE(mesh_faces_from_reference(all_quads(false), &problem));
}

// Every mesh case of the golden corpus: the faces its stored reference mesh covers are exactly
// the exposed faces of its decoded file, in the same order (what conform judges with is what the
// file says).
TEST(MeshFacesFromReference, AgreeWithTheDecodedGoldenFiles) {
  Corpus corpus;
  std::vector<std::string> problems;
  ASSERT_EQ(load_corpus(std::string(VOXRIG_SOURCE_DIR) + "/golden", corpus, problems),
            CorpusStatus::Ok);
  size_t meshes = 0;
  for (const CapabilityCase& c : corpus.manifest.capability_cases) {
    if (c.check != Check::Mesh) continue;
    ++meshes;
    const auto file = read_regular_file(corpus.file(c.path));
    const auto stored = read_regular_file(corpus.file(c.output));
    ASSERT_TRUE(file && stored) << c.id;
    std::string problem;
    const auto want = mesh_faces(*file, c.profile, &problem);
    const auto got = mesh_faces_from_reference(
        std::string_view(reinterpret_cast<const char*>(stored->data()), stored->size()), &problem);
    ASSERT_TRUE(want && got) << c.id << ": " << problem;
    ASSERT_EQ(got->faces.size(), want->faces.size()) << c.id;
    for (int a = 0; a < 3; ++a) EXPECT_EQ(got->size[a], want->size[a]) << c.id;
    for (size_t i = 0; i < want->faces.size(); ++i)
      ASSERT_EQ(key(got->faces[i]), key(want->faces[i])) << c.id << " face " << i;
  }
  EXPECT_EQ(meshes, 296u);
}

TEST(MeshGroupNames, TheFirstNamedBoneThatAttachesAMeshStatically) {
  Character c;
  c.meshes.resize(3);
  auto bone = [](std::string name, AttachmentKind kind, uint32_t index) {
    Bone b;
    b.name = std::move(name);
    Attachment a;
    a.kind = kind;
    a.index = index;
    b.attachments.push_back(a);
    return b;
  };
  c.bones = {bone("", AttachmentKind::Static, 2),       // unnamed: the mesh keeps mesh_2
             bone("arm", AttachmentKind::Static, 1),    // names mesh 1
             bone("leg", AttachmentKind::Static, 1),    // too late: mesh 1 is arm's
             bone("tail", AttachmentKind::Clip, 0),     // a voxel clip names no mesh
             bone("wing", AttachmentKind::Static, 7)};  // out of range: ignored
  const Skel names = mesh_group_names(c);
  ASSERT_EQ(names.joints.size(), 3u);
  EXPECT_EQ(names.joints[0].name, "mesh_0");
  EXPECT_EQ(names.joints[1].name, "arm");
  EXPECT_EQ(names.joints[2].name, "mesh_2");
  EXPECT_EQ(names.joints[2].id, 2u);
}

TEST(FindClip, IdFirstThenName) {
  Anim a;
  a.clips.resize(3);
  a.clips[0].id = 5;
  a.clips[0].name = "2";  // a name that looks like another clip's id
  a.clips[1].id = 2;
  a.clips[1].name = "walk";
  a.clips[2].id = 9;
  a.clips[2].name = "run";
  EXPECT_EQ(find_clip(a, "2"), 1u);  // the id wins over clip 0's name
  EXPECT_EQ(find_clip(a, "2.0"), 1u);
  EXPECT_EQ(find_clip(a, "run"), 2u);
  EXPECT_EQ(find_clip(a, "fly"), std::nullopt);
}

TEST(JudgeCompile, JsonPathCountsAtLevelAll) {
  WriterExpectation e;
  e.error = true;
  e.code = "json.unknown_key";
  const RunOutcome run = exited(1, "{\"error\": \"json.unknown_key\", \"path\": \"$.x\"}");
  EXPECT_EQ(judge_compile(e, "$.x", true, run, std::nullopt, CodeMode::Strict).verdict,
            Verdict::Pass);
  Judgement j = judge_compile(e, "$.y", false, run, std::nullopt, CodeMode::Strict);
  EXPECT_EQ(j.verdict, Verdict::Pass);
  EXPECT_NE(j.reason.find("expected $.y"), std::string::npos);
  EXPECT_EQ(judge_compile(e, "$.y", true, run, std::nullopt, CodeMode::Strict).verdict,
            Verdict::Fail);
}

TEST(ExpectedFailures, CapabilityChecksParse) {
  auto list = parse_expected_failures(
      "pose/seed/rig/0/linear/clamp/t400 vfp-rig pose\n"
      "compile/x vfp-json compile  # no\nmesh/a rkc-strict mesh\n");
  ASSERT_TRUE(list.problems.empty());
  ASSERT_EQ(list.entries.size(), 3u);
  EXPECT_EQ(list.entries[0].check, Check::Pose);
  EXPECT_EQ(list.entries[1].check, Check::Compile);
  EXPECT_EQ(list.entries[2].check, Check::Mesh);
}

}  // namespace
}  // namespace voxrig::conform
