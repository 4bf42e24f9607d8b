// bench/icount/icount_main.cpp — fixed workloads for the instruction-count gate (bench/icount.sh).
//
// `voxrig_icount <workload>` builds its input (untimed), then runs the measured region between
// two CALLGRIND_TOGGLE_COLLECT requests; icount.sh runs it under
//   valgrind --tool=callgrind --collect-atstart=no
// and counts the instructions executed in this executable's own code only (the statically
// linked voxrig library, inlined standard-library code included). Shared objects are not
// counted: libc (malloc/free, and memcpy/memmove whose variant depends on the CPU), libstdc++
// (operator new) and libcrypto (SHA-256, which no workload calls inside the region anyway). So
// allocation and SHA-256 are outside the count, and the count does not depend on the CPU.
// `voxrig_icount --list` prints the workloads; `--info` the build facts recorded with the
// baseline. Outside valgrind the client requests are no-ops and the program just runs.
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/rkc.h"
#include "voxrig/sha256.h"
#include "voxrig/testing/perf_inputs.h"
#include "voxrig/vfp.h"

namespace voxrig::bench {
namespace {

using namespace voxrig::perf;

// Runs `work` inside the collected region (its caller built the inputs before). `work` returns
// false on failure.
int measured(const std::function<bool()>& work) {
  CALLGRIND_TOGGLE_COLLECT;
  const bool ok = work();
  CALLGRIND_TOGGLE_COLLECT;
  if (!ok) std::fprintf(stderr, "voxrig_icount: workload failed\n");
  return ok ? 0 : 1;
}

int vox0_decode() {
  // VOX0 decode + validate, no SHA-256 (section level), random50 and sphere 64^3.
  const std::vector<uint8_t> a = encode_vox0(grid(GridKind::Random50, 64));
  const std::vector<uint8_t> b = encode_vox0(grid(GridKind::Sphere, 64));
  const Limits limits;
  return measured([&] { return decode_vox0(a, 0, limits).ok() && decode_vox0(b, 0, limits).ok(); });
}

struct Rig {
  VfpFile file;
  std::vector<uint8_t> vskn, anim;
  RigContext ctx;
};

Rig rig() {
  Rig r;
  r.file = rig_file(GridKind::Random50, 64, 64);
  r.vskn = encode_vskn(*r.file.vskn());
  r.anim = must(encode_anim(*r.file.anim()), "ANIM encode");
  r.ctx.source_hash = sha256(encode_vox0(*r.file.vox0()));
  r.ctx.skeleton_hash = sha256(must(encode_skel(*r.file.skel()), "SKEL encode"));
  r.ctx.skel = r.file.skel();
  r.ctx.vox0 = r.file.vox0();
  return r;
}

int vskn_anim_decode() {
  // VSKN (random50 64^3, 64 joints: ~129k bindings) and ANIM (64 tracks x 30 keys) decode.
  const Rig r = rig();
  Skel skel;
  const Anim big = anim_with_keys(10000, skel);
  const std::vector<uint8_t> big_bytes = must(encode_anim(big), "ANIM encode");
  RigContext big_ctx;
  big_ctx.skel = &skel;
  const Limits limits;
  return measured([&] {
    return decode_vskn(r.vskn, 0, r.ctx, limits).ok() &&
           decode_anim(r.anim, 0, r.ctx, limits).ok() &&
           decode_anim(big_bytes, 0, big_ctx, limits).ok();
  });
}

int rig_encode() {
  // SKEL, VSKN and ANIM encode of the random50 64^3 rig (64 joints, ~129k bindings). An encoder
  // whose byte stores may alias its input reloads the input's fields after every byte, which
  // doubles the instructions of a record writer and no timing gate reliably sees; this one does.
  const Rig r = rig();
  return measured([&] {
    return encode_skel(*r.file.skel()).ok() && !encode_vskn(*r.file.vskn()).empty() &&
           encode_anim(*r.file.anim()).ok();
  });
}

int mesh_bone_aware_64() {
  // Bone-aware meshing of sphere and random50 64^3 with the 64-joint map, into buffers grown by
  // an untimed first call (so the region does not allocate).
  const Vox0& sphere = grid(GridKind::Sphere, 64);
  const Vox0& random = grid(GridKind::Random50, 64);
  const std::vector<uint16_t>& joints = joint_map(64, 64);
  MeshScratch scratch;
  std::vector<Quad> out;
  if (!mesh_bone_aware(random, joints, out, scratch).ok()) return 1;
  return measured([&] {
    return mesh_bone_aware(sphere, joints, out, scratch).ok() &&
           mesh_bone_aware(random, joints, out, scratch).ok();
  });
}

int mesh_greedy_64() {
  // Plain greedy meshing of sphere, terrain and random50 64^3 into grown buffers.
  const Vox0& sphere = grid(GridKind::Sphere, 64);
  const Vox0& terrain = grid(GridKind::Terrain, 64);
  const Vox0& random = grid(GridKind::Random50, 64);
  MeshScratch scratch;
  std::vector<Quad> out;
  if (!mesh_greedy(random, out, scratch).ok()) return 1;
  return measured([&] {
    return mesh_greedy(sphere, out, scratch).ok() && mesh_greedy(terrain, out, scratch).ok() &&
           mesh_greedy(random, out, scratch).ok();
  });
}

// Pose workloads run LocalToModelJob on the SSE2 baseline kernels (pose.h PoseKernels), and mesh
// workloads the SSE2 build of the greedy kernel (mesh.h MeshKernels, set in main), so the counts
// do not depend on whether the CPU has AVX or AVX2; `voxrig_icount <workload> --kernels=auto`
// (by hand, not in the gate) counts the kernels the CPU would pick.
bool g_auto_kernels = false;

int pose(bool with_l2m) {
  // 256 joints, 30 keys per track, linear, loop, 60 frames of forward playback with a cache
  // (+ local-to-model per frame).
  set_pose_kernels(g_auto_kernels ? PoseKernels::Auto : PoseKernels::Sse2);
  const Skel skel = forest_skel(256, 0x9051u + 256);
  const Anim anim = pose_anim(skel, 30, 0xA0u + 256);
  const RigRuntime rt = must(RigRuntime::build(skel, &anim), "RigRuntime");
  SamplingCache cache(rt.max_track_count());
  std::vector<Trs> locals(256);
  std::vector<Mat4> models(256);
  SamplingJob job{&rt, 0, 0, SamplePolicy::Linear, TimeMode::Loop, &cache, locals};
  const LocalToModelJob l2m{&rt, locals, models};
  return measured([&] {
    bool ok = true;
    for (int f = 0; f < 60; ++f) {
      job.time_ms = f * (1000.0 / 60.0);
      ok &= job.run().ok();
      if (with_l2m) ok &= l2m.run().ok();
    }
    return ok;
  });
}

int skel_decode() {
  // SKEL decode + validate of a 1024-joint forest (the SKEL target's input, fast path + parent
  // table; no SHA-256: the header hash is zero, as the RigContext's).
  const std::vector<uint8_t> bytes =
      must(encode_skel(forest_skel(1024, 0x5CE1u + 1024)), "SKEL encode");
  const RigContext ctx;
  const Limits limits;
  return measured([&] { return decode_skel(bytes, 0, ctx, limits).ok(); });
}

int rkch_decode(const Character& c, int calls) {
  // RKCH decode + validate (rkc-strict) of one character, `calls` times (one untimed warm-up).
  const std::vector<uint8_t> bytes = must(encode_rkc(c), "RKCH encode");
  DecodeOptions o;
  o.profile = Profile::RkcStrict;
  if (!decode_rkc(bytes, o).ok()) return 1;
  return measured([&] {
    bool ok = true;
    for (int i = 0; i < calls; ++i) ok &= decode_rkc(bytes, o).ok();
    return ok;
  });
}

struct Workload {
  const char* name;
  int (*run)();
};
const Workload kWorkloads[] = {
    {"vox0_decode", vox0_decode},
    {"vskn_anim_decode", vskn_anim_decode},
    {"rig_encode", rig_encode},
    {"mesh_bone_aware_64", mesh_bone_aware_64},
    {"mesh_greedy_64", mesh_greedy_64},
    {"pose_sample_256", [] { return pose(false); }},
    {"pose_sample_l2m_256", [] { return pose(true); }},
    {"skel_decode_1024", skel_decode},
    {"rkch_decode_259b", [] { return rkch_decode(tiny_character(), 10); }},
    {"rkch_decode_10kb", [] { return rkch_decode(seed_character(16, 12), 1); }},
};

}  // namespace
}  // namespace voxrig::bench

int main(int argc, char** argv) {
  using voxrig::bench::kWorkloads;
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const auto& w : kWorkloads) std::printf("%s\n", w.name);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--info") == 0) {
    std::printf("{\"build_type\": \"%s\", \"compiler\": \"%s\"}\n", VOXRIG_ICOUNT_BUILD_TYPE,
                VOXRIG_ICOUNT_COMPILER);
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[2], "--kernels=auto") == 0) {
    voxrig::bench::g_auto_kernels = true;
    argc = 2;
  }
  voxrig::set_mesh_kernels(voxrig::bench::g_auto_kernels ? voxrig::MeshKernels::Auto
                                                         : voxrig::MeshKernels::Sse2);
  if (argc == 2)
    for (const auto& w : kWorkloads)
      if (std::strcmp(argv[1], w.name) == 0) return w.run();
  std::fprintf(stderr, "usage: voxrig_icount --list | --info | <workload> [--kernels=auto]\n");
  return 2;
}
