#!/usr/bin/env python3
"""Unit tests of voxrig_compile.py / voxrig_json.py: expected bytes are built with the layout
builders of test_reader.py (docs/spec/ byte by byte) and every code and path is written by hand.

Run: python3 -m unittest -v golden/readers/python/test_compile.py   (well under a second)
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import voxrig_compile as vc  # noqa: E402
from test_reader import (ONE, ZERO, READER, Rig, anim, clip, key, read, section, sha,  # noqa: E402
                         static_file, track, vfp, vox0, vskn)
from voxrig_json import JsonError  # noqa: E402

# The JSON twin of test_reader.Rig: 2x2x2, every voxel palette index 1, voxel 3 = (1, 1, 0)
# bound to joint 1, clip 0 "wave" of 800 ms with identity keys at 0 and 800.
RIG_JSON = {
    "size": [2, 2, 2], "palette": [[0, 0, 0, 0], [255, 0, 0, 255]],
    "voxels": [[x, y, z, 1] for z in range(2) for y in range(2) for x in range(2)],
    "rig": {
        "joints": [{"id": 1, "parent": 0, "name": "Arm", "translation": [1, 0, 0]},
                   {"id": 0, "name": "Root"}],
        "default_joint": 0,
        "bindings": [{"position": [1, 1, 0], "joint": 1}, {"position": [0, 0, 0], "joint": 0}],
        "animations": [{"id": 0, "name": "wave", "duration_ms": 800, "tracks": [
            {"joint": 1, "keys": [{"time_ms": 0, "translation": [0, 0, 0]},
                                  {"time_ms": 800, "translation": [0, 0.0, -0e0]}]}]}],
    },
}


def compile_text(text):
    return vc.compile_json(text.encode("utf-8") if isinstance(text, str) else text)


def error_of(text):
    try:
        compile_text(text)
    except JsonError as e:
        return e.code, e.path
    return None


class Bytes(unittest.TestCase):
    def test_rig_equals_the_hand_built_file(self):
        # joints sorted by id, the default-joint binding dropped, "-0e0" is a float literal -0.0
        # in a float field, so the second key is not identity: build it the same way.
        got = compile_text(json.dumps(RIG_JSON))
        rig = Rig()
        sh, kh = rig.hashes()
        neg0 = 0x80000000
        a = anim(sh, kh, [clip(0, 800, [track(1, [key(0), key(800, t=(ZERO, ZERO, neg0))])],
                               name=b"wave")])
        self.assertEqual(got, rig.build(anim_payload=a))

    def test_missing_key_trs_is_the_bind_pose(self):
        doc = json.loads(json.dumps(RIG_JSON))
        doc["rig"]["animations"][0]["tracks"][0]["keys"] = [{"time_ms": 0}, {"time_ms": 800}]
        rig = Rig()
        sh, kh = rig.hashes()
        bind = (ONE, ZERO, ZERO)
        a = anim(sh, kh, [clip(0, 800, [track(1, [key(0, t=bind), key(800, t=bind)])],
                               name=b"wave")])
        self.assertEqual(compile_text(json.dumps(doc)), rig.build(anim_payload=a))

    def test_no_clip_no_anim_and_static_twin(self):
        doc = json.loads(json.dumps(RIG_JSON))
        doc["rig"]["animations"] = []
        rig = Rig()
        sh, kh = rig.hashes()
        self.assertEqual(compile_text(json.dumps(doc)), rig.build(with_anim=False))
        del doc["rig"]
        self.assertEqual(compile_text(json.dumps(doc)), static_file())

    def test_canonical_section_order(self):
        # docs/spec/vfp.md, Order: VOX0, caches in input order, SKEL VSKN ANIM, the rest
        doc = json.loads(json.dumps(RIG_JSON))
        doc["sections"] = [{"tag": "EXT1", "payload_hex": "01"},
                           {"tag": "PRVW", "chunk_id": 3, "flags": 1, "payload_hex": "aB"},
                           {"tag": "MSH0", "payload_hex": ""}]
        doc["rig"]["animations"] = []
        rig = Rig()
        sh, kh = rig.hashes()
        want = vfp([section(b"VOX0", rig.vox, flags=1),
                    section(b"PRVW", b"\xab", chunk_id=3, flags=1), section(b"MSH0", b""),
                    section(b"SKEL", rig.skel()), section(b"VSKN", vskn(sh, kh, 0, [(3, 1)])),
                    section(b"EXT1", b"\x01")], sh)
        self.assertEqual(compile_text(json.dumps(doc)), want)

    def test_float_rounding_goes_through_double(self):
        # docs/spec/compile.md: nearest double, then binary32. 1 + 2^-24 + 1e-36 -> double 1 + 2^-24
        # (exactly the binary32 midpoint) -> ties to even -> 1.0; one double ulp above the
        # midpoint rounds up to 1 + 2^-23.
        base = '{"size":[1,1,1],"palette":[[0,0,0,0]],"voxels":[],"rig":{"joints":[{"id":0,' \
               '"translation":[%s,0,0]}]}}'
        def first_t(text):
            out = compile_text(base % text)
            i = out.index(b"SKEL") + 16 + 36 + 4
            return int.from_bytes(out[i:i + 4], "little")
        self.assertEqual(first_t("1.000000059604644775390625000000000001"), 0x3F800000)
        self.assertEqual(first_t("1.0000000596046450"), 0x3F800001)
        self.assertEqual(first_t("1e-45"), 0x00000001)
        self.assertEqual(first_t("7e-46"), 0)
        self.assertEqual(first_t("-1e-50"), 0x80000000)
        self.assertEqual(first_t("3.4028235677973362e38"), 0x7F7FFFFF)
        self.assertEqual(error_of(base % "3.4028235677973366e38"),
                         ("json.float_overflow", "$.rig.joints[0].translation[0]"))


B = '{"size":[1,1,1],"palette":[[0,0,0,0],[255,128,0,255]],"voxels":[[0,0,0,1]]'


class Rejects(unittest.TestCase):
    def test_codes_and_paths(self):
        cases = [
            ('', "json.syntax", "$"),
            ('[1]', "json.type", "$"),
            (B + ',"size":[1,1,1]}', "json.duplicate_key", "$.size"),
            (B + ',"\\u0076oxels":[]}', "json.duplicate_key", "$.voxels"),
            (B + ',"a b":1}', "json.unknown_key", '$["a b"]'),
            ('{"size":[1,1,1],"voxels":[]}', "json.missing_key", "$.palette"),
            (B + ',"vfp":"1.30"}', "json.version", "$.vfp"),
            ('{"size":[1,1,1.0],"palette":[[0,0,0,0]],"voxels":[]}', "json.type", "$.size[2]"),
            ('{"size":[1,1,-0],"palette":[[0,0,0,0]],"voxels":[]}', "json.range", "$.size[2]"),
            ('{"size":[1,1,1],"palette":[[0,0,0,0]],"voxels":[[0,0,0,1]]}', "json.range",
             "$.voxels[0][3]"),
            ('{"size":[1,1,1],"palette":[[0,0,0,0],[1,1,1,1]],"voxels":[[0,1,0,1]]}',
             "json.voxel_range", "$.voxels[0][1]"),
            (B + ',"rig":{"joints":[{"id":0,"name":"\\ud800"}]}}', "json.bad_name",
             "$.rig.joints[0].name"),
            (B + ',"rig":{"joints":[{"id":0},{"id":1,"parent":2},{"id":2,"parent":1}]}}',
             "json.parent_cycle", "$.rig.joints[1].parent"),
            (B + ',"rig":{"joints":[{"id":0}],"bindings":[{"position":[0,0,0],"joint":0},'
             '{"position":[0,0,0],"joint":0}]}}', None, None),
            (B + ',"sections":[{"tag":"XTRA","flags":1,"payload_hex":""}]}',
             "json.unknown_required", "$.sections[0].flags"),
            (B + ',"sections":[{"tag":"PRVW","payload_hex":"0g"}]}', "json.bad_hex",
             "$.sections[0].payload_hex"),
        ]
        for text, code, path in cases:
            with self.subTest(text=text):
                self.assertEqual(error_of(text), None if code is None else (code, path))

    def test_nesting_limit(self):
        def nest(n):
            return B + ',"x":' + "[" * n + "]" * n + "}"
        self.assertEqual(error_of(nest(63)), ("json.unknown_key", "$.x"))
        self.assertEqual(error_of(nest(64))[0], "json.limit")
        self.assertEqual(error_of(nest(100000))[0], "json.limit")  # bounded recursion

    def test_ill_formed_utf8_is_syntax(self):
        for raw in (b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xff"):
            text = (B + ',"rig":{"joints":[{"id":0,"name":"@"}]}}').encode().replace(b"@", raw)
            self.assertEqual(error_of(text), ("json.syntax", "$.rig.joints[0].name"))


class Cli(unittest.TestCase):
    def test_protocol(self):
        def run(*args):
            p = subprocess.run([sys.executable, READER, "compile"] + list(args),
                               capture_output=True)
            return p.returncode, p.stdout
        with tempfile.TemporaryDirectory() as d:
            good, bad, out = (os.path.join(d, n) for n in ("g.json", "b.json", "o.vfp"))
            with open(good, "w") as fh:
                fh.write(B + "}")
            with open(bad, "w") as fh:
                fh.write(B + ',"colour":1}')
            self.assertEqual(run(good, out)[0], 0)
            v = vox0(size=(1, 1, 1), palette=((0, 0, 0, 0), (255, 128, 0, 255)), voxels=[1])
            self.assertEqual(read(out), vfp([section(b"VOX0", v, flags=1)], sha(v)))
            rc, text = run(bad, out)
            doc = json.loads(text)
            self.assertEqual((rc, doc["error"], doc["path"]), (1, "json.unknown_key", "$.colour"))
            self.assertEqual(run(good)[0], 2)
            self.assertEqual(run(os.path.join(d, "missing.json"), out)[0], 3)


if __name__ == "__main__":
    unittest.main()
