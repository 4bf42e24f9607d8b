// Fuzz target: a VSKN payload through decode_vskn against a fixed context (fuzz_common.h
// fixed_vox0 / fixed_skel); both hashes are taken from the payload's own fields so every input
// reaches the record rules. Checks: no internal error, offsets inside the payload, the accepted
// bindings obey the VSKN rules (offsets increasing, in range, on non-empty voxels, existing
// joints different from the default) and re-encode to exactly the payload.
#include <algorithm>

#include "fuzz_common.h"
#include "voxrig/vfp.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr uint64_t kBase = 2000;
  const Vox0& vox0 = fuzz::fixed_vox0();
  const Skel& skel = fuzz::fixed_skel();
  const RigContext ctx = fuzz::fixed_rig_context({data, size}, 10);
  auto r = decode_vskn({data, size}, kBase, ctx, fuzz::fuzz_limits());
  if (!fuzz::ok_or_checked(r, kBase, size)) return 0;
  const Vskn& v = r.value();
  auto joint_exists = [&](uint16_t id) {
    return std::any_of(skel.joints.begin(), skel.joints.end(),
                       [&](const SkelJoint& j) { return j.id == id; });
  };
  VOXRIG_FUZZ_CHECK(joint_exists(v.default_joint), "accepted a missing default joint");
  for (size_t i = 0; i < v.bindings.size(); ++i) {
    const VsknBinding& b = v.bindings[i];
    if (i > 0) VOXRIG_FUZZ_CHECK(v.bindings[i - 1].voxel_offset < b.voxel_offset);
    VOXRIG_FUZZ_CHECK(b.voxel_offset < vox0.voxels.size() && vox0.voxels[b.voxel_offset] != 0);
    VOXRIG_FUZZ_CHECK(joint_exists(b.joint) && b.joint != v.default_joint);
  }
  VOXRIG_FUZZ_CHECK(fuzz::same_bytes(encode_vskn(v), {data, size}), "VSKN re-encode differs");
  return 0;
}
