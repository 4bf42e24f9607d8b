// Meshing (docs/spec/kv6.md#D22): naive equals the exposed-face oracle (voxrig::testing);
// greedy and bone-aware greedy cover exactly the naive faces per (direction, palette, joint) with
// at most as many quads, no quad spans two joints, one joint makes bone-aware equal greedy, and the
// mesh of a rig posed at its bind pose equals the unposed mesh.
#include <bit>
#include <sstream>

#include "eval_support.h"
#include "prop_gen_common.h"
#include "prop_gen_rkc.h"
#include "prop_gen_vfp.h"
#include "prop_support.h"
#include "voxrig/export.h"
#include "voxrig/mesh.h"
#include "voxrig/testing/face_oracle.h"

namespace voxrig::props {
namespace {

using testing::exposed_faces;
using testing::Face;
using testing::unit_faces;

// Fails the case with the first face one side has and the other lacks.
void same_faces(const std::vector<Face>& got, const std::vector<Face>& want, const char* what) {
  const std::string diff = testing::face_difference(got, want);
  if (!diff.empty()) RC_FAIL(std::string(what) + ": " + diff);
}

struct Grid {
  Vox0 vox0;
  std::vector<uint16_t> joints;  // one id per voxel, from a few ids
};

Grid gen_grid(size_t max_joints) {
  Grid g;
  g.vox0 = *gen_vox0(GridShape::Any, 2);
  const size_t n = pick<size_t>(1, max_joints + 1);
  std::vector<uint16_t> ids(n);
  for (uint16_t& id : ids) id = static_cast<uint16_t>(pick<int>(0, 65536));
  for (size_t i = 0; i < g.vox0.voxels.size(); ++i) g.joints.push_back(ids[pick<size_t>(0, n)]);
  return g;
}

std::vector<Quad> mesh(const char* which, const Vox0& v, const std::vector<uint16_t>& joints) {
  std::vector<Quad> out;
  MeshScratch scratch;
  const std::string w = which;
  const Status s = w == "naive"    ? mesh_naive(v, joints, out, scratch)
                   : w == "greedy" ? mesh_greedy(v, out, scratch)
                                   : mesh_bone_aware(v, joints, out, scratch);
  if (!s.ok()) RC_FAIL(w + " failed: " + s.error().to_text());
  return out;
}

}  // namespace

VOXRIG_PROP(Mesh, GreedyCoversExactlyTheNaiveFaces, 1500, ()) {
  const Vox0 v = *gen_vox0(GridShape::Any, 2);
  const std::vector<Quad> naive = mesh("naive", v, {}), greedy = mesh("greedy", v, {});
  same_faces(unit_faces(naive), exposed_faces(v, {}), "naive");
  same_faces(unit_faces(greedy), exposed_faces(v, {}),
             "greedy");  // sorted multisets: no face twice
  RC_ASSERT(greedy.size() <= naive.size());
}

VOXRIG_PROP(Mesh, BoneAwareCoversTheJointFacesAndNeverSpansTwoJoints, 1500, ()) {
  const Grid g = gen_grid(4);
  const std::vector<Quad> naive = mesh("naive", g.vox0, g.joints);
  const std::vector<Quad> bone = mesh("bone-aware", g.vox0, g.joints);
  same_faces(unit_faces(naive), exposed_faces(g.vox0, g.joints), "naive with joints");
  same_faces(unit_faces(bone), exposed_faces(g.vox0, g.joints), "bone-aware");
  RC_ASSERT(bone.size() <= naive.size());
  // Every voxel behind a quad belongs to the quad's joint and has its palette index.
  for (const Face& f : unit_faces(bone)) {
    uint32_t c[3] = {f.x, f.y, f.z};
    if (f.positive) c[f.axis] -= 1;
    const size_t i = g.vox0.index(c[0], c[1], c[2]);
    RC_ASSERT(g.joints[i] == f.joint);
    RC_ASSERT(g.vox0.voxels[i] == f.material);
  }
}

VOXRIG_PROP(Mesh, OneJointMakesBoneAwareEqualGreedy, 1000, ()) {
  const Vox0 v = *gen_vox0(GridShape::Any, 2);
  const uint16_t joint = static_cast<uint16_t>(pick<int>(0, 65536));
  std::vector<Quad> greedy = mesh("greedy", v, {});
  for (Quad& q : greedy) q.joint = joint;
  RC_ASSERT(mesh("bone-aware", v, std::vector<uint16_t>(v.voxels.size(), joint)) == greedy);
}

VOXRIG_PROP(Mesh, Kv6GreedyCoversExactlyTheVisFaces, 1000, ()) {
  const Kv6 m = *gen_kv6();
  std::vector<Quad> naive, greedy;
  MeshScratch scratch;
  VOXRIG_RC_OK(mesh_kv6_naive(m, naive));
  VOXRIG_RC_OK(mesh_kv6_greedy(m, greedy, scratch));
  size_t faces = 0;
  for (const Kv6Voxel& x : m.voxels) faces += size_t(std::popcount(unsigned(x.vis & 0x3F)));
  RC_ASSERT(naive.size() == faces);
  same_faces(unit_faces(greedy), unit_faces(naive), "kv6 greedy");
  RC_ASSERT(greedy.size() <= naive.size());
}

VOXRIG_PROP(Mesh, PosedAtTheBindPoseEqualsTheUnposedMesh, 300, ()) {
  VfpGenOptions o;
  o.rig = VfpGenOptions::Rig::Always;
  o.numbers = Numbers::Grid;  // D19's 1e-4 voxel units presumes voxel-sized transforms
  o.extras = false;
  VfpFile f = *gen_vfp_file(o);
  // A clip that holds the bind pose: no tracks, or keys that repeat each joint's bind TRS.
  Anim anim = f.anim() ? *f.anim() : Anim{};
  AnimClip hold;
  if (!anim.clips.empty()) {  // (RC_PRE evaluates both sides of || and &&: keep them apart)
    RC_PRE(anim.clips.back().id < 65535);
    hold.id = static_cast<uint16_t>(anim.clips.back().id + 1);
  }
  hold.duration_ms = 100;
  for (const SkelJoint& j : f.skel()->joints)
    if (one_in(2))
      hold.tracks.push_back(AnimTrack{j.id, {AnimKey{0, j.bind}, AnimKey{100, j.bind}}});
  anim.clips.push_back(hold);
  auto rt = RigRuntime::build(*f.skel(), &anim);
  VOXRIG_RC_OK(rt);
  auto joints = joint_map(*f.vox0(), *f.vskn());
  VOXRIG_RC_OK(joints);
  record("vfp", encode_vfp(f).value());
  const PoseRequest pose{anim.clips.size() - 1, double(uniform<int>(0, 101)), SamplePolicy::Slerp,
                         TimeMode::Clamp};
  auto posed = export_posed_obj(*f.vox0(), joints.value(), rt.value(), pose);
  VOXRIG_RC_OK(posed);
  const std::string unposed =
      export_obj(mesh("bone-aware", *f.vox0(), joints.value()), f.vox0()->palette);
  // Same lines; vertex positions within 1e-4 voxel units (D19).
  std::istringstream a(posed.value()), b(unposed);
  std::string la, lb;
  size_t line = 0;
  while (std::getline(a, la) && std::getline(b, lb)) {
    ++line;
    if (la.rfind("v ", 0) != 0 || lb.rfind("v ", 0) != 0) {
      if (la != lb) RC_FAIL("line " + std::to_string(line) + ": '" + la + "' vs '" + lb + "'");
      continue;
    }
    std::istringstream va(la.substr(2)), vb(lb.substr(2));
    double x, y;
    while (vb >> y) {
      if (!(va >> x) || std::fabs(x - y) > 1e-4)
        RC_FAIL("line " + std::to_string(line) + ": '" + la + "' vs '" + lb + "'");
    }
  }
  const bool more_posed = bool(std::getline(a, la));
  const bool more_unposed = bool(std::getline(b, lb));
  RC_ASSERT(!more_posed);
  RC_ASSERT(!more_unposed);
}

}  // namespace voxrig::props
