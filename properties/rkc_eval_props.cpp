// RKCH seq evaluation (docs/spec/rkc-evaluation.md#the-evaluation-state, D21): RkcClipJob agrees with a slow reference
// written here from the fact sheet (phase 1 walked step by step, no closed-form loops), over
// random seq timelines with jumps and stop markers and sequences of clock advances.
#include <cmath>
#include <numeric>

#include "prop_gen_common.h"
#include "prop_support.h"
#include "voxrig/rkc_eval.h"

namespace voxrig::props {
namespace {

// ---- the reference (docs/spec/rkc-evaluation.md#the-evaluation-state), slow and literal ----

size_t ref_time2seq(const std::vector<Seq>& seq, int32_t t) {
  size_t lower = 0, upper = seq.size() - 1;
  while (upper - lower >= 2) {
    const size_t mid = (lower + upper) / 2;
    if (t >= seq[mid].tim)
      lower = mid;
    else
      upper = mid;
  }
  return lower;
}

BoneXform ref_blend(const BoneXform& a, const BoneXform& b, float t) {
  BoneXform x;
  for (int i = 0; i < 3; ++i) x.t[i] = a.t[i] + (b.t[i] - a.t[i]) * t;
  for (int i = 0; i < 3; ++i) x.s[i] = a.s[i] + (b.s[i] - a.s[i]) * t;
  double dot = 0;
  for (int i = 0; i < 4; ++i) dot += double(a.r[i]) * b.r[i];
  double q[4], len = 0;
  for (int i = 0; i < 4; ++i) {
    const double bi = dot < 0 ? -double(b.r[i]) : double(b.r[i]);
    q[i] = a.r[i] + (bi - a.r[i]) * t;
    len += q[i] * q[i];
  }
  len = std::sqrt(len);
  for (int i = 0; i < 4; ++i) x.r[i] = len < 1e-12 ? (i == 3 ? 1.0f : 0.0f) : float(q[i] / len);
  return x;
}

struct Bracket {
  int32_t lower_frm, upper_frm, trat;
};

Bracket ref_bracket(const std::vector<Seq>& seq, int32_t time) {
  const size_t z = ref_time2seq(seq, time), zz = z + 1;
  Bracket b{seq[z].frm, 0, 0};
  if (zz < seq.size() && seq[zz].frm != ~int32_t(zz)) {
    const int64_t span = int64_t(seq[zz].tim) - seq[z].tim;
    b.trat = span != 0 ? int32_t((int64_t(time - seq[z].tim) << 16) / span) : 0;
    b.upper_frm = seq[zz].frm < 0 ? seq[size_t(~seq[zz].frm)].frm : seq[zz].frm;
  }
  return b;
}

// One animsprite(ti). Where the seed would index a negative frame and panic (the clock on a
// jump or stop marker, as tied seq times allow, with a negative ratio at okfatim, which the seed
// cannot tell from its "no blend marker" value -1), the reference (docs/spec/notes.md) takes the
// blend marker's lower frame z0 without blending, and so does this port.
void ref_animsprite(const SkeletalClip& clip, const std::vector<Hinge>& hinges, int32_t ti,
                    RkcClock& clock, std::vector<BoneXform>& kfaval) {
  const std::vector<Seq>& seq = clip.seq;
  if (seq.empty() || clip.frame_count == 0) return;
  size_t z = ref_time2seq(seq, clock.kfatim);
  while (ti > 0) {  // phase 1, one seq entry at a time
    if (++z >= seq.size()) break;
    const int32_t dt = seq[z].tim - clock.kfatim;
    if (dt <= 0) break;
    if (dt > ti) {
      clock.kfatim += ti;
      break;
    }
    ti -= dt;
    if (seq[z].frm < 0) {
      const size_t target = size_t(~seq[z].frm);
      if (target == z) break;  // stop marker: the clock stays where it was
      z = target;
    }
    clock.kfatim = seq[z].tim;
  }
  const Bracket now = ref_bracket(seq, clock.kfatim);  // phase 2
  const bool blend_marker = now.lower_frm < 0;
  int32_t trat2 = 0, z0 = 0, zz0 = 0;
  if (blend_marker) {  // repeat the bracket at okfatim
    const Bracket old = ref_bracket(seq, clock.okfatim);
    z0 = old.lower_frm, zz0 = old.upper_frm, trat2 = old.trat;
    if (z0 < 0) z0 = zz0, trat2 = 0;
  }
  for (size_t i = 0; i < hinges.size(); ++i) {  // phase 3
    if (hinges[i].parent < 0) continue;
    auto frame = [&](int32_t f) { return clip.frames[size_t(f) * clip.numhin + i]; };
    BoneXform x = blend_marker ? frame(z0) : frame(now.lower_frm);
    if (trat2 > 0) x = ref_blend(x, frame(zz0), float(trat2) / 65536.0f);
    if (now.trat > 0) x = ref_blend(x, frame(now.upper_frm), float(now.trat) / 65536.0f);
    kfaval[i] = x;
  }
}

// ---- generated cases ----

struct Case {
  std::vector<Hinge> hinges;
  SkeletalClip clip;
  std::vector<int32_t> advances;
};

BoneXform pose() {
  BoneXform x;
  for (float& f : x.t) f = bounded_float(100);
  const auto q = unit_quat(false);
  std::copy(q.begin(), q.end(), x.r.begin());
  for (float& f : x.s) f = 0.5f + uniform<int>(0, 1501) / 1000.0f;
  return x;
}

Case gen_case() {
  Case c;
  const size_t bones = pick<size_t>(1, 6);
  for (size_t i = 0; i < bones; ++i) {
    Hinge h;
    h.parent = i == 0 || one_in(4) ? -1 : int32_t(uniform<size_t>(0, i));
    c.hinges.push_back(h);
  }
  c.clip.numhin = uint32_t(bones);
  c.clip.frame_count = pick<uint32_t>(1, 5);
  for (size_t i = 0; i < c.clip.frame_count * bones; ++i) c.clip.frames.push_back(pose());
  // Seq: increasing times (equal ones now and then), frames, stop markers, jumps to frames.
  const size_t n = pick<size_t>(1, 7);
  std::vector<int> kind(n);  // 0 frame, 1 stop marker, 2 jump
  for (size_t i = 0; i < n; ++i) kind[i] = i == 0 ? 0 : (one_in(5) ? 1 : one_in(4) ? 2 : 0);
  int32_t t = pick<int32_t>(0, 50);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) t += one_in(8) ? 0 : pick<int32_t>(1, 400);
    int32_t frm = uniform<int32_t>(0, int32_t(c.clip.frame_count));
    if (kind[i] == 1) frm = ~int32_t(i);
    if (kind[i] == 2) {
      std::vector<size_t> frames;
      for (size_t k = 0; k < n; ++k)
        if (kind[k] == 0) frames.push_back(k);
      frm = ~int32_t(frames[uniform<size_t>(0, frames.size())]);
    }
    c.clip.seq.push_back({t, frm});
  }
  for (size_t i = pick<size_t>(1, 8); i > 0; --i)
    c.advances.push_back(one_in(6)   ? uniform<int32_t>(-50, 1)
                         : one_in(5) ? uniform<int32_t>(0, 50000)
                                     : pick<int32_t>(0, 600));
  return c;
}

}  // namespace

VOXRIG_PROP(RkcEval, SeqEvaluationAgreesWithASlowReference, 2000, ()) {
  const Case c = choose("bones, clip and clock advances", [] { return gen_case(); });
  auto rig = RkcRig::build(c.hinges);
  VOXRIG_RC_OK(rig);
  RkcClock clock, ref_clock;
  std::vector<BoneXform> kfaval(c.hinges.size()), ref(c.hinges.size());
  for (size_t step = 0; step < c.advances.size(); ++step) {
    clock.okfatim = clock.kfatim;  // the host remembers the previous time
    ref_clock.okfatim = ref_clock.kfatim;
    ref_animsprite(c.clip, c.hinges, c.advances[step], ref_clock, ref);
    VOXRIG_RC_OK((RkcClipJob{&rig.value(), &c.clip, c.advances[step], &clock, kfaval}.run()));
    RC_LOG() << "step " << step << " advance " << c.advances[step] << " kfatim " << clock.kfatim
             << " (reference " << ref_clock.kfatim << ")\n";
    RC_ASSERT(clock.kfatim == ref_clock.kfatim);
    for (size_t b = 0; b < ref.size(); ++b) {
      for (int k = 0; k < 10; ++k) {
        const float gk = k < 3 ? kfaval[b].t[k] : k < 7 ? kfaval[b].r[k - 3] : kfaval[b].s[k - 7];
        const float wk = k < 3 ? ref[b].t[k] : k < 7 ? ref[b].r[k - 3] : ref[b].s[k - 7];
        if (std::fabs(gk - wk) > 1e-6 + 1e-5 * std::max(std::fabs(gk), std::fabs(wk)))
          RC_FAIL("bone " + std::to_string(b) + " float " + std::to_string(k) + ": " +
                  std::to_string(gk) + " vs reference " + std::to_string(wk));
      }
    }
  }
}

VOXRIG_PROP(RkcEval, Kfatime2seqMatchesTheReference, 1000, ()) {
  const Case c = choose("clip", [] { return gen_case(); });
  // Half of the times sit exactly on a seq entry (where >= and > differ).
  const int32_t t = one_in(2) ? c.clip.seq[uniform<size_t>(0, c.clip.seq.size())].tim
                              : uniform<int32_t>(-100, 3000);
  RC_ASSERT(kfatime2seq(c.clip.seq, t) == ref_time2seq(c.clip.seq, t));
}

}  // namespace voxrig::props
