#!/usr/bin/env python3
"""A deliberately broken compiler: the reference's `voxrig compile`, with the sections then written
in another order: VOX0, SKEL, VSKN, ANIM, then every other section in input order (docs/spec/
wants the caches before the rig and the unknown sections after it).
usage: compile_rig_first.py VOXRIG_EXE compile IN.json OUT.vfp
golden/tests/broken_testees_caught.sh checks that `voxrig conform --compile` catches it on exactly
the compile cases whose output has a rig and a cache section."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import voxrig_reader  # noqa: E402


def main(argv):
    if len(argv) != 4 or argv[1] != "compile":
        sys.stderr.write(__doc__)
        return 2
    voxrig, _, src, out = argv
    r = subprocess.run([voxrig, "compile", src, out], stdout=subprocess.PIPE)
    sys.stdout.write(r.stdout.decode("utf-8", "replace"))
    if r.returncode != 0:
        return r.returncode
    data = open(out, "rb").read()
    model = voxrig_reader.decode(data, "vfp-static")  # rig sections kept as stored bytes
    order = {"VOX0": 0, "SKEL": 1, "VSKN": 2, "ANIM": 3}
    sections = sorted(model.sections, key=lambda s: (order.get(s.tag, 4), s.index))
    open(out, "wb").write(voxrig_reader.encode(model, sections))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
