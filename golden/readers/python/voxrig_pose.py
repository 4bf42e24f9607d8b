"""voxrig_pose.py — VFP pose evaluation for the example reader (Python 3, stdlib only).

Written from docs/spec/evaluation.md (D19, D20) and docs/spec/protocols.md (the pose
protocol) alone, never from the C++ sources: it is the second implementation that cross-checks
the reference's pose expectations.

  pose(model, clip_text, t, policy, mode) -> [[16 floats], ...]  one column-major model matrix
                                                                  per joint, in SKEL order

Everything is computed in Python floats (binary64) from the binary32 values of the file:
  * every stored quaternion is normalised before use (|q| < 1e-12 -> identity);
  * time: clamp to [0, duration], or loop = floor-modulo (negative t wraps, t = duration -> 0,
    duration 0 -> 0);
  * before the first key the first key, after the last key the last key; a key time returns
    the key; step = the last key at or before t; linear = lerp T and S, shortest-arc nlerp R;
    slerp = lerp T and S, shortest-arc slerp R, nlerp when the dot product exceeds 0.9995;
  * a joint without a track keeps its bind TRS; local = T * R * S; model = parent * local.

The BROKEN dictionary switches one rule off on purpose (golden/readers/broken/): the broken
testees set it to prove that `conform --pose` catches each mistake.
"""

import math

from voxrig_mutants import mutant

BROKEN = {"slerp_is_nlerp": False, "loop_is_clamp": False, "ignore_parents": False}


class PoseReject(Exception):
    def __init__(self, code, detail=""):
        super().__init__(code)
        self.code = code
        self.detail = detail


def _unit(q):
    n = math.sqrt(sum(c * c for c in q))
    if n < 1e-12:
        return (0.0, 0.0, 0.0, 1.0)
    return tuple(c / n for c in q)


def _lerp(a, b, u):
    return tuple(x + (y - x) * u for x, y in zip(a, b))


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def _nlerp(a, b, u):
    if _dot(a, b) < 0 and not mutant("D19.no_shortest_arc"):
        b = tuple(-c for c in b)
    return _unit(_lerp(a, b, u))


def _slerp(a, b, u):
    d = _dot(a, b)
    if d < 0 and not mutant("D19.no_shortest_arc"):
        b = tuple(-c for c in b)
        d = -d
    if d > 0.9995:
        return _nlerp(a, b, u)
    th = math.acos(d)
    s = math.sin(th)
    wa, wb = math.sin((1 - u) * th) / s, math.sin(u * th) / s
    return tuple(x * wa + y * wb for x, y in zip(a, b))


def _clip_time(t, duration, mode):
    if mode == "loop" and not BROKEN["loop_is_clamp"]:
        if duration == 0:
            return 0.0
        if mutant("D19.loop_end_is_duration") and t == duration:
            return float(duration)
        r = math.fmod(t, duration)
        if r < 0:
            r += duration
        if r >= duration:
            r = 0.0
        return r
    return min(max(t, 0.0), float(duration))


def _sample(keys, t, policy):
    """keys: [(time, T, R, S)] with R normalised."""
    if t <= keys[0][0]:
        return keys[0][1:]
    if t >= keys[-1][0]:
        return keys[-1][1:]
    i = 0
    while keys[i + 1][0] <= t:
        i += 1
    k0, k1 = keys[i], keys[i + 1]
    if policy == "step" or t == k0[0]:
        return k0[1:]
    u = (t - k0[0]) / (k1[0] - k0[0])
    rot = _slerp if policy == "slerp" and not BROKEN["slerp_is_nlerp"] else _nlerp
    return _lerp(k0[1], k1[1], u), rot(k0[2], k1[2], u), _lerp(k0[3], k1[3], u)


def _matrix(t, r, s):
    x, y, z, w = r
    cols = [
        ((1 - 2 * (y * y + z * z)) * s[0], 2 * (x * y + w * z) * s[0], 2 * (x * z - w * y) * s[0]),
        (2 * (x * y - w * z) * s[1], (1 - 2 * (x * x + z * z)) * s[1], 2 * (y * z + w * x) * s[1]),
        (2 * (x * z + w * y) * s[2], 2 * (y * z - w * x) * s[2], (1 - 2 * (x * x + y * y)) * s[2]),
    ]
    m = []
    for c in cols:
        m.extend(c)
        m.append(0.0)
    m.extend((t[0], t[1], t[2], 1.0))
    return m


def _mul(a, b):
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]


def pose(joints, clips, clip_text, t, policy="linear", mode="clamp"):
    """joints: [(id, parent, T, R, S)] as Python floats in SKEL order; clips: [(id, duration,
    name, [(joint_id, [(time, T, R, S)])])]. Returns the model matrices or raises PoseReject."""
    clip = None
    for c in clips:
        if str(c[0]) == clip_text or c[2] == clip_text:
            clip = c
            break
    if clip is None:
        try:
            want = float(clip_text)
            clip = next((c for c in clips if c[0] == want), None)
        except ValueError:
            pass
    if clip is None:
        raise PoseReject("eval.bad_clip", "no clip %r" % clip_text)
    if not math.isfinite(t):
        raise PoseReject("eval.bad_time", "time is not finite")
    ct = _clip_time(t, clip[1], mode)
    local = {j[0]: (j[2], _unit(j[3]), j[4]) for j in joints}
    if mutant("EVAL-1.untracked_joint_identity"):
        local = {j[0]: ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (1.0, 1.0, 1.0)) for j in joints}
    for joint_id, keys in clip[3]:
        ks = [(float(k[0]), k[1], _unit(k[2]), k[3]) for k in keys]
        if mutant("EVAL-1.before_first_key_bind") and ct < ks[0][0]:
            continue
        local[joint_id] = _sample(ks, ct, policy)
    parent = {j[0]: j[1] for j in joints}
    model = {}

    def resolve(jid, depth=0):
        if jid in model:
            return model[jid]
        if depth > len(joints):
            raise PoseReject("skel.parent_cycle")
        m = _matrix(*local[jid])
        p = parent[jid]
        if p >= 0 and not BROKEN["ignore_parents"]:
            m = _mul(resolve(p, depth + 1), m)
        model[jid] = m
        return m

    if mutant("EVAL-2.parents_listed_first"):
        for j in joints:  # one pass in SKEL order: a parent listed later is not posed yet
            m = _matrix(*local[j[0]])
            model[j[0]] = _mul(model[j[1]], m) if j[1] in model else m
    return [resolve(j[0]) for j in joints]
