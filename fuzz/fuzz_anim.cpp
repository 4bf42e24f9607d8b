// Fuzz target: an ANIM payload through decode_anim against the fixed SKEL (fuzz_common.h
// fixed_skel); both hashes are taken from the payload's own fields so every input reaches the
// clip rules. Checks: no internal error, offsets inside the payload, the accepted clips obey the
// ANIM rules (ids increasing, tracks on existing joints in order, keys >= 1, times increasing
// and within the duration, unit finite rotations) and re-encode to exactly the payload.
#include <algorithm>
#include <cmath>

#include "fuzz_common.h"
#include "voxrig/vfp.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr uint64_t kBase = 3000;
  const Skel& skel = fuzz::fixed_skel();
  const RigContext ctx = fuzz::fixed_rig_context({data, size}, 4);
  auto r = decode_anim({data, size}, kBase, ctx, fuzz::fuzz_limits());
  if (!fuzz::ok_or_checked(r, kBase, size)) return 0;
  const Anim& a = r.value();
  for (size_t c = 0; c < a.clips.size(); ++c) {
    const AnimClip& clip = a.clips[c];
    if (c > 0) VOXRIG_FUZZ_CHECK(a.clips[c - 1].id < clip.id, "clip ids not increasing");
    for (size_t t = 0; t < clip.tracks.size(); ++t) {
      const AnimTrack& tr = clip.tracks[t];
      if (t > 0) VOXRIG_FUZZ_CHECK(clip.tracks[t - 1].joint < tr.joint, "track order");
      VOXRIG_FUZZ_CHECK(std::any_of(skel.joints.begin(), skel.joints.end(),
                                    [&](const SkelJoint& j) { return j.id == tr.joint; }));
      VOXRIG_FUZZ_CHECK(!tr.keys.empty(), "accepted a track without keys");
      for (size_t k = 0; k < tr.keys.size(); ++k) {
        const AnimKey& key = tr.keys[k];
        if (k > 0) VOXRIG_FUZZ_CHECK(tr.keys[k - 1].time_ms < key.time_ms, "key time order");
        VOXRIG_FUZZ_CHECK(key.time_ms <= clip.duration_ms, "key after the duration");
        const Trs& x = key.trs;
        for (float f : {x.t.x, x.t.y, x.t.z, x.r.x, x.r.y, x.r.z, x.r.w, x.s.x, x.s.y, x.s.z})
          VOXRIG_FUZZ_CHECK(std::isfinite(f), "accepted a non-finite float");
        VOXRIG_FUZZ_CHECK(is_unit_quaternion(x.r), "accepted a non-unit rotation");
      }
    }
  }
  const auto enc = fuzz::must(encode_anim(a), "encode_anim of a decoded ANIM");
  VOXRIG_FUZZ_CHECK(fuzz::same_bytes(enc, {data, size}), "ANIM re-encode differs");
  return 0;
}
