#!/usr/bin/env python3
"""A deliberately broken reader with five bugs planted behind rules broken deep inside a file,
where the golden corpus (small files, elements 0..2) cannot see them. It is the reference (the
voxrig binary given as the first argument, kept alive as `voxrig serve`) with its answer changed
when the reference's own answer shows the deep condition:

  1 anim_key   an ANIM key out of order (ANIM-11) at key index >= 5 is accepted
  2 skel_cycle a SKEL parent cycle (SKEL-8) reported at joint index >= 3 is called
               skel.parent_missing
  3 vskn_empty a VSKN record on an empty voxel (VSKN-11) at record index >= 4 is accepted
  4 rkc_parent an RKCH hinge parent out of range (RKC-BONS-4) at bone index >= 2 is called
               rkc.parent_cycle
  5 anim_clips an accepted VFP with >= 6 ANIM clips loses every clip from the 6th on in its dump

VOXRIG_PLANTED=1,3 plants only those bugs (default: all five; "none": the reference unchanged),
so a test can tell which bug a finding shows. golden/tests/planted_deep_proof.py is the proof.

usage (the reader protocol; `serve` speaks the persistent one, docs/spec/protocols.md):
  planted_deep.py VOXRIG dump --profile P FILE
  planted_deep.py VOXRIG serve
"""
import json
import os
import re
import subprocess
import sys

STUB = {"schema": "voxrig-dump/2", "format": "vfp", "sections": []}


def planted():
    want = os.environ.get("VOXRIG_PLANTED", "all")
    if want == "all":
        return {1, 2, 3, 4, 5}
    return {int(x) for x in want.split(",") if x.strip().isdigit()}


def index_in(path, name):
    """The index of `name[i]` in an error path, or -1."""
    m = re.search(re.escape(name) + r"\[(\d+)\]", path or "")
    return int(m.group(1)) if m else -1


def plant(bugs, exit_code, stdout):
    """The reference's (exit, stdout) changed by the planted bugs whose condition holds."""
    try:
        answer = json.loads(stdout)
    except ValueError:
        return exit_code, stdout
    if exit_code == 1:
        code, path = answer.get("error"), answer.get("path", "")
        if 1 in bugs and code == "anim.key_time_order" and index_in(path, "key") >= 5:
            return 0, json.dumps(STUB) + "\n"
        if 2 in bugs and code == "skel.parent_cycle" and index_in(path, "joint") >= 3:
            return 1, json.dumps({"error": "skel.parent_missing"}) + "\n"
        if 3 in bugs and code == "vskn.empty_voxel" and index_in(path, "record") >= 4:
            return 0, json.dumps(STUB) + "\n"
        if 4 in bugs and code == "rkc.parent_range" and index_in(path, "bone") >= 2:
            return 1, json.dumps({"error": "rkc.parent_cycle"}) + "\n"
        return exit_code, stdout
    if exit_code == 0 and 5 in bugs and answer.get("format") == "vfp":
        for section in answer.get("sections", []):
            clips = section.get("anim", {}).get("clips") if isinstance(section, dict) else None
            if isinstance(clips, list) and len(clips) >= 6:
                del clips[5:]
                return 0, json.dumps(answer) + "\n"
    return exit_code, stdout


def serve(voxrig, bugs):
    ref = subprocess.Popen([voxrig, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True, bufsize=1)
    for line in sys.stdin:
        req = json.loads(line)
        ref.stdin.write(json.dumps(req) + "\n")
        ref.stdin.flush()
        reply = json.loads(ref.stdout.readline())
        if req.get("op") == "hello":
            reply["ops"] = ["dump"]
        elif req.get("op") == "dump":
            reply["exit"], reply["stdout"] = plant(bugs, reply["exit"], reply["stdout"])
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    ref.stdin.close()
    return ref.wait()


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    voxrig, rest = argv[0], argv[1:]
    bugs = planted()
    if rest[0] == "serve":
        return serve(voxrig, bugs)
    run = subprocess.run([voxrig] + rest, capture_output=True, text=True)
    code, out = plant(bugs, run.returncode, run.stdout) if rest[0] == "dump" else (
        run.returncode, run.stdout)
    sys.stdout.write(out)
    sys.stderr.write(run.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
