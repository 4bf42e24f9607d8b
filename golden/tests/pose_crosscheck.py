#!/usr/bin/env python3
"""Cross-checks the pose expectations of the manifest (computed by the reference in double) with
the independent Python evaluator (golden/readers/python/voxrig_pose.py), in one process: every VFP
pose case, element by element within 1e-10 (1 + |want|), the precision docs/evaluation.md states
for the reference's protocol output (D19 allows 1e-6 + 1e-5 |want|). Fails naming the first
case, joint and element where the two disagree, or when a case the reference rejects is posed.
usage: golden/tests/pose_crosscheck.py GOLDEN_DIR"""
import json
import os
import sys

golden = sys.argv[1]
sys.path.insert(0, os.path.join(golden, "readers", "python"))
import voxrig_pose  # noqa: E402
import voxrig_reader  # noqa: E402

manifest = json.load(open(os.path.join(golden, "manifest.json")))
models = {}
checked = rejects = 0
worst = 0.0
PRECISION = 1e-10
bad = []
for c in manifest.get("pose_cases", []):
    if c["profile"] not in ("vfp-static", "vfp-rig"):
        continue
    key = (c["path"], c["profile"])
    if key not in models:
        data = open(os.path.join(golden, c["path"]), "rb").read()
        models[key] = voxrig_reader.pose_inputs(voxrig_reader.decode(data, c["profile"]))
    joints, clips = models[key]
    want = c["expect"]
    try:
        if joints is None:
            raise voxrig_pose.PoseReject("eval.bad_clip")
        got = voxrig_pose.pose(joints, clips, c["clip"], float(c["t"]), c["policy"], c["mode"])
    except voxrig_pose.PoseReject as e:
        if want["verdict"] != "reject" or want["error"] != e.code:
            bad.append("%s: Python rejects with %s, the manifest expects %s" %
                       (c["id"], e.code, want.get("error", "matrices")))
        rejects += 1
        continue
    if want["verdict"] != "accept":
        bad.append("%s: Python poses it, the manifest expects %s" % (c["id"], want["error"]))
        continue
    if len(got) != len(want["model"]):
        bad.append("%s: %d matrices, manifest %d" % (c["id"], len(got), len(want["model"])))
        continue
    for j, (g, w) in enumerate(zip(got, want["model"])):
        for e, (gv, wv) in enumerate(zip(g, w)):
            worst = max(worst, abs(gv - wv) / (1 + abs(wv)))
            # The stated precision of the reference's protocol output (docs/evaluation.md
            # "Precision"): 1e-10 (1 + |want|), five orders of magnitude inside D19.
            if not abs(gv - wv) <= PRECISION * (1 + abs(wv)):
                bad.append("%s: joint %d element %d: Python %r, reference %r" % (c["id"], j, e, gv, wv))
                break
        else:
            continue
        break
    checked += 1
if checked == 0:
    sys.exit("FAIL: no VFP pose case in the manifest")
for b in bad[:20]:
    print("DISAGREE", b)
if bad:
    sys.exit("FAIL: %d of %d pose cases disagree between the reference and the Python evaluator"
             % (len(bad), checked + rejects))
print("ok: %d pose cases (%d rejects) agree within %g (1 + |want|); largest difference %.3g (1 + |want|)"
      % (checked + rejects, rejects, PRECISION, worst))
