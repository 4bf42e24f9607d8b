// Fuzz target: a SKEL payload through decode_skel. The context's sourceHash is taken from the
// payload's own baseSourceHash field, so every input gets past the hash and reaches the joint
// rules. Checks: no internal error, offsets inside the payload, the accepted skeleton obeys the
// SKEL rules (ids increasing, parents exist, unit finite rotations) and re-encodes to its bytes.
#include <algorithm>
#include <cmath>
#include <vector>

#include "fuzz_common.h"
#include "voxrig/utf8.h"
#include "voxrig/vfp.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr uint64_t kBase = 1000;
  RigContext ctx;
  if (size >= 36) std::copy(data + 4, data + 36, ctx.source_hash.begin());
  auto r = decode_skel({data, size}, kBase, ctx, fuzz::fuzz_limits());
  if (!fuzz::ok_or_checked(r, kBase, size)) return 0;
  const Skel& s = r.value();
  VOXRIG_FUZZ_CHECK(!s.joints.empty() && s.base_source_hash == ctx.source_hash);
  const size_t n = s.joints.size();
  auto index_of = [&](int32_t id) {
    auto it = std::lower_bound(s.joints.begin(), s.joints.end(), id,
                               [](const SkelJoint& j, int32_t v) { return j.id < v; });
    return it != s.joints.end() && it->id == id ? size_t(it - s.joints.begin()) : n;
  };
  std::vector<uint8_t> reaches_root(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const SkelJoint& j = s.joints[i];
    if (i > 0) VOXRIG_FUZZ_CHECK(s.joints[i - 1].id < j.id, "joint ids not increasing");
    const Trs& b = j.bind;
    for (float f : {b.t.x, b.t.y, b.t.z, b.r.x, b.r.y, b.r.z, b.r.w, b.s.x, b.s.y, b.s.z})
      VOXRIG_FUZZ_CHECK(std::isfinite(f), "accepted a non-finite float");
    VOXRIG_FUZZ_CHECK(is_unit_quaternion(b.r), "accepted a non-unit rotation");
    VOXRIG_FUZZ_CHECK(
        is_valid_utf8(fuzz::View(reinterpret_cast<const uint8_t*>(j.name.data()), j.name.size())),
        "bad UTF-8 name");
    std::vector<size_t> path;  // parents exist and every chain reaches a root (no cycle)
    for (size_t k = i; k != n && !reaches_root[k];) {
      path.push_back(k);
      VOXRIG_FUZZ_CHECK(path.size() <= n, "accepted a parent cycle");
      const int32_t parent = s.joints[k].parent;
      k = parent == -1 ? n : index_of(parent);
      VOXRIG_FUZZ_CHECK(parent == -1 || k != n, "accepted a missing parent");
    }
    for (size_t k : path) reaches_root[k] = 1;
  }
  const auto enc = fuzz::must(encode_skel(s), "encode_skel of a decoded SKEL");
  VOXRIG_FUZZ_CHECK(fuzz::same_bytes(enc, {data, size}), "SKEL re-encode differs");
  return 0;
}
