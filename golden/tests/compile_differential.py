#!/usr/bin/env python3
"""Differential run of the two JSON compilers: the reference (`voxrig compile`) and the independent
Python compiler (golden/readers/python/voxrig_compile.py, written from docs/spec/).

usage: compile_differential.py VOXRIG GOLDEN_DIR [--runs N] [--seed S] [--keep DIR]

Inputs are the golden compile cases, mutated: half by tree edits of the accepted documents
(delete / duplicate / reorder entries, replace a value with an edge value: 65535, 65536, 32768,
2^32, -0.0, 1e-45, 3.5e38, null, true, a 256-byte name, a non-unit quaternion, ...), half by
byte edits of any case (delete bytes, insert tokens or slices of other cases). Both compilers
must agree on the verdict, the error code, the JSON path and, for accepts, every output byte.
Run i depends only on the seed and i. One known difference is not counted: the reference lexes
the token after a syntax error first, so `[1"\\ud800"]` is its json.bad_name and Python's
json.syntax (the text breaks two rules; neither order is specified). Syntax error paths are not
compared either (golden/README.md: an implementation may stop elsewhere).

Exit 0 all agree, 4 a disagreement (each printed, and written to --keep DIR), 2 usage.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "readers", "python"))
import voxrig_compile  # noqa: E402
from voxrig_json import JsonError  # noqa: E402

EDGE_VALUES = [0, 1, -1, 2, 3, 255, 256, 65535, 65536, 32767, 32768, 4294967295, 4294967296,
               -0.0, 0.5, 1.0, 1e-45, 3.4e38, 3.5e38, None, True, "", "PRVW", "EXT1", "VOX0",
               "x" * 256, [], {}, [0, 0, 0, 1], [0, 0, 0, 1.002], [1, 0, 0]]
TOKENS = [b"0", b"1", b"-1", b"65536", b"-0", b"1.0", b"1e0", b"null", b"true", b'""',
          b'"\\ud800"', b"[]", b"{}", b"[0,0,0,1]", b"32768", b"4294967296", b"3.5e38", b","]


def containers(v, out):
    if isinstance(v, (list, dict)) and v:
        out.append(v)
        for x in (v if isinstance(v, list) else v.values()):
            containers(x, out)
    return out


def tree_mutation(rnd, doc):
    d = json.loads(json.dumps(doc))
    for _ in range(rnd.randint(1, 3)):
        cs = containers(d, [])
        if not cs:
            break
        c = rnd.choice(cs)
        op = rnd.randrange(4)
        if isinstance(c, list):
            i = rnd.randrange(len(c))
            if op == 0:
                del c[i]
            elif op == 1:
                c.append(json.loads(json.dumps(c[i])))
            elif op == 2:
                c[i] = rnd.choice(EDGE_VALUES)
            else:
                c.insert(0, c.pop())
        else:
            k = rnd.choice(list(c))
            if op == 0:
                del c[k]
            elif op in (1, 2):
                c[k] = rnd.choice(EDGE_VALUES)
            else:
                c[k] = c.pop(k)  # moves the key to the end
    return json.dumps(d).encode()


def byte_mutation(rnd, data, texts):
    d = bytearray(data)
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randrange(len(d) + 1)
        op = rnd.randrange(3)
        if op == 0 and d:
            del d[i:i + rnd.randint(1, 4)]
        elif op == 1:
            d[i:i] = rnd.choice(TOKENS)
        else:
            s = rnd.choice(texts)
            a = rnd.randrange(len(s))
            d[i:i] = s[a:a + rnd.randint(1, 20)]
    return bytes(d)


def outcome_ref(voxrig, path, out):
    r = subprocess.run([voxrig, "compile", path, out], capture_output=True)
    if r.returncode == 0:
        with open(out, "rb") as fh:
            return ("accept", fh.read())
    if r.returncode == 1:
        o = json.loads(r.stdout)
        return ("reject", o["error"], o.get("path"))
    return ("crash", r.returncode, r.stderr.decode("utf-8", "replace")[-200:])


def outcome_py(data):
    try:
        return ("accept", voxrig_compile.compile_json(data))
    except JsonError as e:
        return ("reject", e.code, e.path)


def agree(ref, py):
    if ref[0] != py[0] or ref[0] == "crash":
        return False
    if ref[0] == "accept":
        return ref[1] == py[1]
    if ref[1] == py[1] == "json.syntax":
        return True
    if (ref[1], py[1]) == ("json.bad_name", "json.syntax"):  # the known difference above
        return True
    return ref[1:] == py[1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("voxrig")
    ap.add_argument("golden")
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep")
    a = ap.parse_args()
    with open(os.path.join(a.golden, "manifest.json")) as fh:
        cases = json.load(fh)["compile_cases"]
    texts, docs = [], []
    for c in cases:
        with open(os.path.join(a.golden, c["path"]), "rb") as fh:
            t = fh.read()
        if 0 < len(t) < 20000:
            texts.append(t)
            if c["expect"]["verdict"] == "accept":
                docs.append(json.loads(t))
    bad = accepted = 0
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "in.json"), os.path.join(tmp, "out.vfp")
        for i in range(a.runs):
            rnd = random.Random(a.seed * 1000003 + i)
            data = (tree_mutation(rnd, rnd.choice(docs)) if i % 2 == 0
                    else byte_mutation(rnd, rnd.choice(texts), texts))
            with open(src, "wb") as fh:
                fh.write(data)
            ref, py = outcome_ref(a.voxrig, src, out), outcome_py(data)
            accepted += ref[0] == "accept"
            if not agree(ref, py):
                bad += 1
                show = lambda o: "accept" if o[0] == "accept" else o  # noqa: E731
                print("run %d (seed %d): reference %s, python %s\n  input: %r"
                      % (i, a.seed, show(ref), show(py), data[:400]))
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    with open(os.path.join(a.keep, "run%d.json" % i), "wb") as fh:
                        fh.write(data)
    print("compile differential: %d runs (seed %d), %d accepted, %d disagreements"
          % (a.runs, a.seed, accepted, bad))
    return 4 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
