#!/usr/bin/env python3
"""bench/unit_faces.py: counts the unit faces of the bench meshing grids, plain and bone-aware.

A unit face is a solid voxel's side toward an empty voxel (or the grid's outside) or, bone-aware,
toward a voxel bound to another joint: what a naive mesher emits and what any greedy mesher
must cover. The grids and joint maps are rebuilt here from their definitions in
testing/src/perf_inputs.cpp (sphere, terrain; joint maps of 1, 8 and 64 joints), independently of
the library, so the counts can be checked against the naive mesher's `quads` counter
(MESH/naive/<grid>/<N>, MESH/naive_j64/<grid>/<N>): how many faces the seams between joints add
is what docs/performance.md compares with a mesher that does not emit them.

Usage: bench/unit_faces.py [N ...]    (default 64 256; needs numpy: Debian python3-numpy)
Prints one line per grid and size: the face counts for 1, 8 and 64 joints.
"""
import math
import sys

import numpy as np


def grid(kind, n):
    """Solid mask [z, y, x] of testing/src/perf_inputs.cpp's make_grid (sphere or terrain)."""
    z, y, x = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    if kind == "sphere":
        c, r = n / 2.0, n / 2.0 - 1
        return (x + 0.5 - c) ** 2 + (y + 0.5 - c) ** 2 + (z + 0.5 - c) ** 2 <= r * r
    u = np.arange(n) / n
    uu, vv = np.meshgrid(u, u, indexing="xy")  # [y, x]: uu = x / n, vv = y / n
    h = (0.45 + 0.18 * np.sin(2 * math.pi * 1.5 * uu) + 0.12 * np.cos(2 * math.pi * 2 * vv) +
         0.08 * np.sin(2 * math.pi * 3 * (uu + vv)) + 0.04 * np.sin(2 * math.pi * 7 * uu))
    height = np.maximum(1.0, h * n).astype(np.int64)
    return z < height[None, :, :]


def joint_map(joints, n):
    """Joint id [z, y, x] of testing/src/perf_inputs.cpp's joint_map (1, 8 or 64 joints)."""
    z, y, x = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    if joints == 1:
        return np.zeros((n, n, n), dtype=np.int64)
    if joints == 8:
        return 8 * x // n
    return 4 * x // n + 4 * (4 * y // n) + 16 * (4 * z // n)


def unit_faces(solid, joint):
    """Faces of solid voxels toward an empty voxel, the outside, or another joint."""
    total = 0
    for axis in range(3):
        pad = [(1, 1) if a == axis else (0, 0) for a in range(3)]
        s = np.pad(solid, pad)
        j = np.pad(joint, pad, constant_values=-1)
        inner = range(1, s.shape[axis] - 1)
        me, my_joint = np.take(s, inner, axis=axis), np.take(j, inner, axis=axis)
        for shift in (0, 2):  # the neighbour at -1 and at +1 along the axis
            side = range(shift, s.shape[axis] - 2 + shift)
            other, other_joint = np.take(s, side, axis=axis), np.take(j, side, axis=axis)
            total += int(np.sum(me & (~other | (my_joint != other_joint))))
    return total


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip())
        return 0
    try:
        sizes = [int(a) for a in argv] or [64, 256]
    except ValueError:
        print("unit_faces.py: sizes must be integers (try --help)", file=sys.stderr)
        return 2
    for kind in ("sphere", "terrain"):
        for n in sizes:
            solid = grid(kind, n)
            counts = [unit_faces(solid, joint_map(j, n)) for j in (1, 8, 64)]
            print(f"{kind} {n}: plain {counts[0]}, 8 joints {counts[1]}, 64 joints {counts[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
