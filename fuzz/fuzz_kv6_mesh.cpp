// Fuzz target: KV6 meshing (mesh.h, docs/spec/kv6.md#D22) on a KV6 file decoded under rkc-compat (run
// tables that disagree are kept, as a reader would). Invariants: naive and greedy succeed or fail
// together; naive gives one quad per set vis bit of every voxel its run table reaches, carrying
// the voxel's col; greedy covers exactly the naive faces (as a multiset); meshing again with the
// same scratch gives the same quads.
#include <bit>

#include "fuzz_common.h"
#include "voxrig/kv6.h"
#include "voxrig/mesh.h"
#include "voxrig/testing/face_oracle.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto kv6 = decode_kv6({data, size}, 0, fuzz::options(Profile::RkcCompat));
  if (!fuzz::ok_or_checked(kv6, 0, size)) return 0;
  const Kv6& m = kv6.value();
  std::vector<Quad> naive, greedy, again;
  MeshScratch scratch;
  const Status a = mesh_kv6_naive(m, naive), b = mesh_kv6_greedy(m, greedy, scratch);
  VOXRIG_FUZZ_CHECK(a.ok() == b.ok(), "naive and greedy KV6 meshing disagree on the verdict");
  size_t reached = 0, bits = 0;  // voxels the run table reaches, in file order
  for (uint16_t n : m.ylen) reached += n;
  VOXRIG_FUZZ_CHECK(a.ok() == (reached <= m.voxels.size()), "verdict != run table fits");
  if (!a.ok()) {
    fuzz::check_error(a.error(), 0, UINT32_MAX);
    VOXRIG_FUZZ_CHECK(a.error().code == ErrorCode::EvalBufferSize, a.error().to_text());
    return 0;
  }
  for (size_t i = 0; i < reached; ++i)
    bits += size_t(std::popcount(unsigned(m.voxels[i].vis & 0x3F)));
  VOXRIG_FUZZ_CHECK(naive.size() == bits, "naive: not one quad per vis bit");
  for (const Quad& q : naive) VOXRIG_FUZZ_CHECK(q.w == 1 && q.h == 1 && q.joint == 0);
  VOXRIG_FUZZ_CHECK(testing::unit_faces(greedy) == testing::unit_faces(naive), "greedy != naive");
  VOXRIG_FUZZ_CHECK(mesh_kv6_greedy(m, again, scratch).ok() && again == greedy);
  return 0;
}
