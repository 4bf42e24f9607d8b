// Meshing (formats.md "Meshing", D22): naive equals an oracle written here; greedy and
// bone-aware greedy cover exactly the naive faces per (direction, palette, joint) with at most as
// many quads, no quad spans two joints, one joint makes bone-aware equal greedy, and the mesh of a
// rig posed at its bind pose equals the unposed mesh.
#include <algorithm>
#include <bit>
#include <map>
#include <sstream>

#include "eval_support.h"
#include "gen_common.h"
#include "gen_rkc.h"
#include "gen_vfp.h"
#include "prop_support.h"
#include "voxrig/export.h"
#include "voxrig/mesh.h"

namespace voxrig::props {
namespace {

// One unit face: normal axis, direction, minimum corner on the face plane, material, joint.
using Face = std::array<uint32_t, 7>;

std::vector<Face> unit_faces(const std::vector<Quad>& quads) {
  std::vector<Face> out;
  for (const Quad& q : quads) {
    const int u = (q.axis + 1) % 3, v = (q.axis + 2) % 3;
    for (uint32_t i = 0; i < q.w; ++i)
      for (uint32_t j = 0; j < q.h; ++j) {
        std::array<uint32_t, 3> c{q.x, q.y, q.z};
        c[u] += i;
        c[v] += j;
        out.push_back({q.axis, q.positive, c[0], c[1], c[2], q.material, q.joint});
      }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The oracle: a face is exposed toward a neighbour outside the grid, empty, or (with joints)
// bound to another joint.
std::vector<Face> oracle(const Vox0& v, const std::vector<uint16_t>& joints) {
  const int n[3] = {v.size_x, v.size_y, v.size_z};
  std::vector<Face> out;
  for (int z = 0; z < n[2]; ++z)
    for (int y = 0; y < n[1]; ++y)
      for (int x = 0; x < n[0]; ++x) {
        const size_t i = v.index(x, y, z);
        if (v.voxels[i] == 0) continue;
        const uint16_t joint = joints.empty() ? 0 : joints[i];
        for (uint32_t axis = 0; axis < 3; ++axis)
          for (uint32_t pos = 0; pos < 2; ++pos) {
            int c[3] = {x, y, z};
            c[axis] += pos ? 1 : -1;
            bool exposed = c[axis] < 0 || c[axis] >= n[axis];
            if (!exposed) {
              const size_t k = v.index(c[0], c[1], c[2]);
              exposed = v.voxels[k] == 0 || (!joints.empty() && joints[k] != joint);
            }
            if (!exposed) continue;
            uint32_t p[3] = {uint32_t(x), uint32_t(y), uint32_t(z)};
            p[axis] += pos;
            out.push_back({axis, pos, p[0], p[1], p[2], v.voxels[i], joint});
          }
      }
  std::sort(out.begin(), out.end());
  return out;
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
  const Status s = w == "naive"   ? mesh_naive(v, joints, out, scratch)
                   : w == "greedy" ? mesh_greedy(v, out, scratch)
                                   : mesh_bone_aware(v, joints, out, scratch);
  if (!s.ok()) RC_FAIL(w + " failed: " + s.error().to_text());
  return out;
}

}  // namespace

VOXRIG_PROP(Mesh, GreedyCoversExactlyTheNaiveFaces, 150, ()) {
  const Vox0 v = *gen_vox0(GridShape::Any, 2);
  const std::vector<Quad> naive = mesh("naive", v, {}), greedy = mesh("greedy", v, {});
  RC_ASSERT(unit_faces(naive) == oracle(v, {}));
  RC_ASSERT(unit_faces(greedy) == oracle(v, {}));  // sorted multisets: no face twice
  RC_ASSERT(greedy.size() <= naive.size());
}

VOXRIG_PROP(Mesh, BoneAwareCoversTheJointFacesAndNeverSpansTwoJoints, 150, ()) {
  const Grid g = gen_grid(4);
  const std::vector<Quad> naive = mesh("naive", g.vox0, g.joints);
  const std::vector<Quad> bone = mesh("bone-aware", g.vox0, g.joints);
  RC_ASSERT(unit_faces(naive) == oracle(g.vox0, g.joints));
  RC_ASSERT(unit_faces(bone) == oracle(g.vox0, g.joints));
  RC_ASSERT(bone.size() <= naive.size());
  // Every voxel behind a quad belongs to the quad's joint and has its palette index.
  for (const Face& f : unit_faces(bone)) {
    uint32_t c[3] = {f[2], f[3], f[4]};
    if (f[1]) c[f[0]] -= 1;
    const size_t i = g.vox0.index(c[0], c[1], c[2]);
    RC_ASSERT(g.joints[i] == f[6]);
    RC_ASSERT(g.vox0.voxels[i] == f[5]);
  }
}

VOXRIG_PROP(Mesh, OneJointMakesBoneAwareEqualGreedy, 100, ()) {
  const Vox0 v = *gen_vox0(GridShape::Any, 2);
  const uint16_t joint = static_cast<uint16_t>(pick<int>(0, 65536));
  std::vector<Quad> greedy = mesh("greedy", v, {});
  for (Quad& q : greedy) q.joint = joint;
  RC_ASSERT(mesh("bone-aware", v, std::vector<uint16_t>(v.voxels.size(), joint)) == greedy);
}

VOXRIG_PROP(Mesh, Kv6GreedyCoversExactlyTheVisFaces, 100, ()) {
  const Kv6 m = *gen_kv6();
  std::vector<Quad> naive, greedy;
  MeshScratch scratch;
  VOXRIG_RC_OK(mesh_kv6_naive(m, naive));
  VOXRIG_RC_OK(mesh_kv6_greedy(m, greedy, scratch));
  size_t faces = 0;
  for (const Kv6Voxel& x : m.voxels) faces += size_t(std::popcount(unsigned(x.vis & 0x3F)));
  RC_ASSERT(naive.size() == faces);
  RC_ASSERT(unit_faces(greedy) == unit_faces(naive));
  RC_ASSERT(greedy.size() <= naive.size());
}

VOXRIG_PROP(Mesh, PosedAtTheBindPoseEqualsTheUnposedMesh, 60, ()) {
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
    if (one_in(2)) hold.tracks.push_back(AnimTrack{j.id, {AnimKey{0, j.bind}, AnimKey{100, j.bind}}});
  anim.clips.push_back(hold);
  auto rt = RigRuntime::build(*f.skel(), &anim);
  VOXRIG_RC_OK(rt);
  auto joints = joint_map(*f.vox0(), *f.vskn());
  VOXRIG_RC_OK(joints);
  record("vfp", encode_vfp(f).value());
  const PoseRequest pose{anim.clips.size() - 1, double(uniform<int>(0, 101)), SamplePolicy::Slerp, TimeMode::Clamp};
  auto posed = export_posed_obj(*f.vox0(), joints.value(), rt.value(), pose);
  VOXRIG_RC_OK(posed);
  const std::string unposed = export_obj(mesh("bone-aware", *f.vox0(), joints.value()), f.vox0()->palette);
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
      if (!(va >> x) || std::fabs(x - y) > 1e-4) RC_FAIL("line " + std::to_string(line) + ": '" + la + "' vs '" + lb + "'");
    }
  }
  const bool more_posed = bool(std::getline(a, la));
  const bool more_unposed = bool(std::getline(b, lb));
  RC_ASSERT(!more_posed);
  RC_ASSERT(!more_unposed);
}

}  // namespace voxrig::props
