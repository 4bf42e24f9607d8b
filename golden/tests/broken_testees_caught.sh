#!/usr/bin/env bash
# Proves that `voxrig conform --pose / --mesh / --compile` has teeth: each deliberately broken
# testee under golden/readers/broken/ must be caught (exit 4) on exactly the cases it should be:
#   pose_nlerp_for_slerp / pose_clamp_for_loop / pose_ignore_parents: the pose cases where the
#     mistake moves a matrix beyond D19's tolerance, computed here in-process with the Python
#     evaluator's BROKEN switch against the manifest (independent of the runner's judge);
#   broken_mesher.py merge-across-joints / drop-joint-faces: the stress grids declared below;
#   compile_rig_first.py: the compile cases whose expected output has a rig and a cache section.
# usage: golden/tests/broken_testees_caught.sh VOXRIG_EXE
set -euo pipefail
voxrig=${1:?usage: broken_testees_caught.sh VOXRIG_EXE}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
broken="$root/golden/readers/broken"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0

# run NAME READER ARGS... : conform with the broken testee, report in $tmp/NAME.json
run() {
  local name=$1 reader=$2
  shift 2
  set +e
  "$voxrig" conform --golden "$root/golden" --reader "$reader" --no-dump --jobs 2 \
    --report "$tmp/$name.json" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
  local rc=$?
  set -e
  if [ "$rc" -ne 4 ]; then
    echo "FAIL: $name: conform exited $rc (expected 4: caught)"; tail -3 "$tmp/$name.out"; fail=1
  fi
}

# The pose testees on the edge rig's clip 1 (84 cases: a chain under a translated root, large arcs,
# times past the end), which exercises all three mistakes in a few seconds.
for t in pose_nlerp_for_slerp pose_clamp_for_loop pose_ignore_parents; do
  run "$t" "python3 $broken/$t.py" --pose --profile vfp-rig --filter pose/edges/1/
done
run merge "python3 $broken/broken_mesher.py merge-across-joints" --mesh --profile vfp-rig \
  --profile vfp-static --filter mesh/stress/
run drop "python3 $broken/broken_mesher.py drop-joint-faces" --mesh --profile vfp-rig \
  --profile vfp-static --filter mesh/stress/
run order "python3 $broken/compile_rig_first.py $voxrig" --compile
[ "$fail" -eq 0 ] || exit 1

python3 - "$root/golden" "$tmp" <<'PY'
import json, os, sys
golden, tmp = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(golden, "readers", "python"))
import voxrig_pose, voxrig_reader
manifest = json.load(open(os.path.join(golden, "manifest.json")))

def failed(name):
    rep = json.load(open(os.path.join(tmp, name + ".json")))
    return {r["id"] for r in rep["results"] if r["verdict"] != "pass"}, len(rep["results"])

def pose_breaks(flag):
    """Pose cases (vfp-rig) where the evaluator with `flag` disagrees with the manifest."""
    out, models = set(), {}
    for c in manifest["pose_cases"]:
        if (c["profile"] != "vfp-rig" or c["expect"]["verdict"] != "accept"
                or not c["id"].startswith("pose/edges/1/")):
            continue
        key = c["path"]
        if key not in models:
            models[key] = voxrig_reader.pose_inputs(
                voxrig_reader.decode(open(os.path.join(golden, key), "rb").read(), "vfp-rig"))
        voxrig_pose.BROKEN[flag] = True
        got = voxrig_pose.pose(*models[key], c["clip"], float(c["t"]), c["policy"], c["mode"])
        voxrig_pose.BROKEN[flag] = False
        if any(not abs(g - w) <= 1e-6 + 1e-5 * abs(w)
               for gm, wm in zip(got, c["expect"]["model"]) for g, w in zip(gm, wm)):
            out.add(c["id"])
    return out

def compile_breaks():
    out = set()
    for c in manifest["compile_cases"]:
        if c["expect"]["verdict"] != "accept":
            continue
        m = voxrig_reader.decode(open(os.path.join(golden, c["expect"]["output"]), "rb").read(),
                                 "vfp-static")
        tags = [s.tag for s in m.sections]
        if "SKEL" in tags and any(t in voxrig_reader.CACHE_TAGS for t in tags):
            out.add(c["id"])
    return out

stress = lambda names: {"mesh/stress/%s/vfp-rig" % n for n in names}
want = {
    "pose_nlerp_for_slerp": pose_breaks("slerp_is_nlerp"),
    "pose_clamp_for_loop": pose_breaks("loop_is_clamp"),
    "pose_ignore_parents": pose_breaks("ignore_parents"),
    # merging along x by colour only crosses joints where x-neighbours of one colour have two
    # joints and share an exposed face direction: the wall and the boundary's corner voxel.
    "merge": stress(["wall", "boundary"]),
    # every grid with faces between two joints (the static slab and palette sheet have none).
    "drop": stress(["checker", "wall", "island", "boundary", "line"]),
    "order": compile_breaks(),
}
bad = False
for name, w in want.items():
    got, total = failed(name)
    if not w:
        print("FAIL: %s: the corpus has no case that should catch it" % name); bad = True
    elif got != w:
        print("FAIL: %s: missed %s; unexpected %s" % (name, sorted(w - got)[:5], sorted(got - w)[:5]))
        bad = True
    else:
        print("ok: %s caught on exactly %d of %d cases" % (name, len(w), total))
sys.exit(1 if bad else 0)
PY
