#!/usr/bin/env python3
"""Deliberately broken meshers for `voxrig conform --mesh` (VFP only), on top of the Python example
reader's decoder. usage: broken_mesher.py merge-across-joints|drop-joint-faces mesh --profile P FILE
  merge-across-joints  merges runs of faces along x by colour only (plain greedy on a rig): a quad
                       spans two joints and carries the joint of its first voxel
  drop-joint-faces     treats a neighbour of another joint as solid: the faces between joints
                       are missing
golden/tests/broken_testees_caught.sh checks that conform catches each on exactly its cases."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import voxrig_reader  # noqa: E402

NORMALS = ("-x", "+x", "-y", "+y", "-z", "+z")


def main(argv):
    mode, argv = argv[0], argv[1:]
    if len(argv) != 4 or argv[0] != "mesh" or argv[1] != "--profile":
        sys.stderr.write(__doc__)
        return 2
    data = open(argv[3], "rb").read()
    try:
        model = voxrig_reader.decode(data, argv[2])
    except voxrig_reader.Reject as e:
        print(json.dumps(e.to_json()))
        return 1
    vox = model.first("VOX0").body
    sx, sy, sz = vox.size
    cells = bytes(vox.voxels)
    vskn = model.first("VSKN")
    joint = [0] * len(cells)
    if vskn is not None and vskn.body is not None:
        joint = [vskn.body.default_joint] * len(cells)
        for off, j in vskn.body.bindings:
            joint[off] = j

    def at(x, y, z):
        return x + sx * (y + sy * z)

    faces = []
    for z in range(sz):
        for y in range(sy):
            for x in range(sx):
                i = at(x, y, z)
                if not cells[i]:
                    continue
                for d in range(6):
                    p = [x, y, z]
                    p[d // 2] += 1 if d % 2 else -1
                    inside = all(0 <= p[k] < (sx, sy, sz)[k] for k in range(3))
                    exposed = not inside or not cells[at(*p)]
                    if inside and cells[at(*p)] and mode != "drop-joint-faces":
                        exposed = joint[at(*p)] != joint[i]
                    if exposed:
                        faces.append((d, z, y, x, joint[i], cells[i]))
    quads = []
    faces.sort()
    by_pos = {f[:4]: f for f in faces}
    used = set()
    for f in faces:
        if f in used:
            continue
        d, z, y, x, j, c = f
        x1 = x
        if mode == "merge-across-joints" and d >= 2:
            while True:
                nxt = by_pos.get((d, z, y, x1 + 1))
                if nxt is None or nxt[5] != c or nxt in used:
                    break
                used.add(nxt)
                x1 += 1
        used.add(f)
        quads.append({"normal": NORMALS[d], "voxels": [x, y, z, x1, y, z], "joint": j, "color": c})
    print(json.dumps({"quads": quads}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
