// RKCH skeletal clip evaluation: kfatime2seq and animsprite (docs/spec/rkc-evaluation.md#the-evaluation-state, D21).
//
// Seq entry (8 bytes on disk, CLPS skeletal body): tim i32 (ms), frm i32 (>= 0: frame index;
// < 0: jump to seq index ~frm; a jump to its own index is a stop/hold marker).
//
// All i32 time arithmetic of the seed (kfatim += ti, seq.tim - kfatim, span) wraps in two's
// complement; it is done here on uint32 and converted back (well defined in C++20).
#include <cmath>
#include <string>

#include "voxrig/rkc_eval.h"

namespace voxrig {
namespace {

std::string seq_path(size_t i) { return "seq[" + std::to_string(i) + "]"; }

inline int32_t wrap_sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t wrap_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

inline bool is_stop(std::span<const Seq> seq, size_t i) {
  return seq[i].frm < 0 && static_cast<size_t>(~seq[i].frm) == i;
}

// The upper bracket of lower index z at time t (docs/spec/rkc-evaluation.md#playing-animsprite phase 2): the 16.16 ratio and the upper
// frame (a jump resolves to the frame at its target). No upper bracket (end of seq or a stop
// marker): ratio 0, frame 0 (unused).
struct Bracket {
  int32_t trat = 0;
  int32_t upper = 0;
};
Bracket bracket(std::span<const Seq> seq, size_t z, int32_t t) {
  Bracket b;
  const size_t zz = z + 1;
  if (zz >= seq.size() || is_stop(seq, zz)) return b;
  const int32_t span = wrap_sub(seq[zz].tim, seq[z].tim);
  if (span != 0) {
    // i64 shift of a possibly negative value (defined in C++20), truncating division, then a
    // wrapping truncation to i32 (the seed's `as i32`).
    const int64_t num = static_cast<int64_t>(wrap_sub(t, seq[z].tim)) * 65536;
    b.trat = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(num / span)));
  }
  const int32_t frm = seq[zz].frm;
  b.upper = frm >= 0 ? frm : seq[static_cast<size_t>(~frm)].frm;
  return b;
}

inline float ratio(int32_t trat) { return static_cast<float>(trat) / 65536.0f; }

}  // namespace

size_t kfatime2seq(std::span<const Seq> seq, int32_t t) {
  if (seq.empty()) return 0;
  size_t lower = 0, upper = seq.size() - 1;
  while (upper - lower >= 2) {
    const size_t mid = (lower + upper) / 2;
    if (t >= seq[mid].tim) {
      lower = mid;
    } else {
      upper = mid;
    }
  }
  return lower;
}

BoneXform blend_xform(const BoneXform& a, const BoneXform& b, float t) {
  BoneXform x;
  for (int i = 0; i < 3; ++i) {
    x.t[i] = a.t[i] + (b.t[i] - a.t[i]) * t;
    x.s[i] = a.s[i] + (b.s[i] - a.s[i]) * t;
  }
  const float dot = a.r[0] * b.r[0] + a.r[1] * b.r[1] + a.r[2] * b.r[2] + a.r[3] * b.r[3];
  const float sign = dot < 0.0f ? -1.0f : 1.0f;
  float q[4];
  for (int i = 0; i < 4; ++i) q[i] = a.r[i] + (b.r[i] * sign - a.r[i]) * t;
  const float len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (len < 1e-12f) {  // false for NaN: NaN propagates, as in xform.rs
    x.r = {0, 0, 0, 1};
  } else {
    for (int i = 0; i < 4; ++i) x.r[i] = q[i] / len;
  }
  return x;
}

Status RkcClipJob::validate() const {
  if (rig == nullptr || clip == nullptr || clock == nullptr) {
    return model_error(ErrorCode::EvalBadArgument, "", "rig, clip and clock are required");
  }
  const size_t bones = rig->bone_count();
  if (clip->numhin != bones ||
      clip->frames.size() != static_cast<uint64_t>(clip->frame_count) * clip->numhin) {
    return model_error(ErrorCode::EvalBadClip, "", "frame table does not match the bones");
  }
  if (kfaval.size() < bones) {
    return model_error(ErrorCode::EvalBufferSize, "", "kfaval shorter than the bones");
  }
  const std::span<const Seq> seq = clip->seq;
  if (seq.empty() || clip->frame_count == 0) return ok_status();  // run() does nothing
  for (size_t i = 0; i < seq.size(); ++i) {
    const int32_t frm = seq[i].frm;
    if (frm >= 0) {
      if (static_cast<uint32_t>(frm) >= clip->frame_count) {
        return model_error(ErrorCode::EvalFrameIndex, seq_path(i),
                           "frame index past the frame table");
      }
      continue;
    }
    const size_t target = static_cast<size_t>(~frm);
    if (target == i) continue;  // stop marker
    if (target >= seq.size()) {
      return model_error(ErrorCode::EvalJumpTarget, seq_path(i), "jump target past the seq");
    }
    // The frame at a jump's target is used as an upper frame: it must be a frame.
    if (seq[target].frm < 0) {
      return model_error(ErrorCode::EvalJumpTarget, seq_path(i),
                         "jump target is itself a jump or stop marker");
    }
  }
  return ok_status();
}

Status RkcClipJob::run() const {
  VOXRIG_TRY(validate());
  const std::span<const Seq> seq = clip->seq;
  if (seq.empty() || clip->frame_count == 0) return ok_status();
  const size_t len = seq.size();

  // ---- Phase 1: advance the clock ----
  int32_t ti = advance_ms;
  int32_t kfatim = clock->kfatim;
  size_t z = kfatime2seq(seq, kfatim);
  // Brent's cycle detection over jump landings: a landing state is (target, seq[target].tim),
  // so landing twice on one target with ti1 > ti2 left means every later cycle consumes
  // period = ti1 - ti2 exactly; skip whole periods at once.
  size_t saved_target = SIZE_MAX;
  int32_t saved_ti = 0;
  uint64_t power = 1, lam = 0;
  bool skipped = false;
  while (ti > 0) {
    ++z;
    if (z >= len) break;
    const int32_t dt = wrap_sub(seq[z].tim, kfatim);
    if (dt <= 0) break;
    if (dt > ti) {
      kfatim = wrap_add(kfatim, ti);
      break;
    }
    ti -= dt;  // 0 < dt <= ti: no overflow
    if (seq[z].frm < 0) {
      const size_t target = static_cast<size_t>(~seq[z].frm);
      if (target == z) break;  // stop marker: time never reaches it
      z = target;
      if (!skipped) {
        if (target == saved_target) {
          ti %= saved_ti - ti;  // period > 0: every step consumed dt > 0
          skipped = true;
        } else if (++lam == power) {
          saved_target = target;
          saved_ti = ti;
          power *= 2;
          lam = 0;
        }
      }
    }
    kfatim = seq[z].tim;
  }
  clock->kfatim = kfatim;

  // ---- Phase 2: brackets at kfatim (and at okfatim for a blend marker) ----
  z = kfatime2seq(seq, kfatim);
  const Bracket now = bracket(seq, z, kfatim);
  const int32_t z_frm = seq[z].frm;
  // A blend marker (z_frm < 0) is tracked on its own, not as the seed's trat2 >= 0: with
  // unsorted times or okfatim before the first key, trat2 comes out negative, and the seed then
  // indexes frmval[z_frm] with the negative marker (an index panic, docs/spec/rkc-evaluation.md#playing-animsprite). Here a
  // negative trat2 means "no blend" (as a negative trat does), and frame z0 is used.
  const bool blend_marker = z_frm < 0;
  int32_t trat2 = 0, z0_frm = 0, zz0_frm = 0;
  if (blend_marker) {
    const size_t z0 = kfatime2seq(seq, clock->okfatim);
    const Bracket then = bracket(seq, z0, clock->okfatim);
    z0_frm = seq[z0].frm;
    zz0_frm = then.upper;
    trat2 = then.trat;
    if (z0_frm < 0) {
      z0_frm = zz0_frm;
      trat2 = 0;
    }
  }

  // ---- Phase 3: per bone (roots skipped) ----
  const std::span<const Hinge> hinges = rig->hinges();
  const uint32_t numhin = clip->numhin;
  const BoneXform* frames = clip->frames.data();
  auto frame = [&](int32_t f, size_t bone) -> const BoneXform& {
    return frames[static_cast<size_t>(f) * numhin + bone];
  };
  for (size_t i = 0; i < hinges.size(); ++i) {
    if (hinges[i].parent < 0) continue;
    BoneXform x;
    if (!blend_marker) {
      x = frame(z_frm, i);
    } else {
      x = frame(z0_frm, i);
      if (trat2 > 0) x = blend_xform(x, frame(zz0_frm, i), ratio(trat2));
    }
    if (now.trat > 0) x = blend_xform(x, frame(now.upper, i), ratio(now.trat));
    kfaval[i] = x;
  }
  return ok_status();
}

}  // namespace voxrig
