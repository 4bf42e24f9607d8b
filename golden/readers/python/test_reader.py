#!/usr/bin/env python3
"""Unit tests of voxrig_reader.py: hand-built files, verdicts and codes written by hand.

Run: python3 -m unittest -v golden/readers/python/test_reader.py   (well under a second)

The builders below write bytes straight from the layouts in docs/spec/; nothing here asks the
reader what to expect.
"""

import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import voxrig_reader as vr  # noqa: E402

READER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "voxrig_reader.py")

ONE = 0x3F800000       # 1.0f
ZERO = 0x00000000
NAN = 0x7FC00000
INF = 0x7F800000
IDENT_T = (ZERO, ZERO, ZERO)
IDENT_R = (ZERO, ZERO, ZERO, ONE)
IDENT_S = (ONE, ONE, ONE)


def f(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def sha(b):
    return hashlib.sha256(b).digest()


# ---- builders (docs/spec/ layouts) ----------------------------------------------------------

def vox0(size=(2, 2, 2), palette=((0, 0, 0, 0), (255, 0, 0, 255)), voxels=None, version=1,
         reserved=0, reserved2=0, palette_count=None):
    sx, sy, sz = size
    if voxels is None:
        voxels = bytes([1] * (sx * sy * sz))
    pc = len(palette) if palette_count is None else palette_count
    return (struct.pack("<BBHHHHH", version, reserved, pc, sx, sy, sz, reserved2)
            + b"".join(bytes(c) for c in palette) + bytes(voxels))


def joint(jid, parent, t=IDENT_T, r=IDENT_R, s=IDENT_S, name=b"", pad=b"\0\0\0", name_len=None):
    nl = len(name) if name_len is None else name_len
    return (struct.pack("<Hh", jid, parent) + struct.pack("<10I", *(t + r + s))
            + struct.pack("<B", nl) + pad + name)


def skel(source_hash, joints, version=1, reserved=0, count=None):
    n = len(joints) if count is None else count
    return struct.pack("<BBH", version, reserved, n) + source_hash + b"".join(joints)


def vskn(source_hash, skel_hash, default=0, records=(), version=1, encoding=1, reserved=0,
         count=None):
    n = len(records) if count is None else count
    return (struct.pack("<BBHHI", version, encoding, default, reserved, n) + source_hash
            + skel_hash + b"".join(struct.pack("<IH", o, j) for o, j in records))


def key(time_ms, t=IDENT_T, r=IDENT_R, s=IDENT_S):
    return struct.pack("<I", time_ms) + struct.pack("<10I", *(t + r + s))


def track(jid, keys, reserved=0, count=None):
    n = len(keys) if count is None else count
    return struct.pack("<HHI", jid, reserved, n) + b"".join(keys)


def clip(cid, duration, tracks, name=b"", pad=b"\0\0\0", count=None):
    n = len(tracks) if count is None else count
    return struct.pack("<HHIB", cid, n, duration, len(name)) + pad + name + b"".join(tracks)


def anim(source_hash, skel_hash, clips, version=1, reserved=0, count=None):
    n = len(clips) if count is None else count
    return (struct.pack("<BBH", version, reserved, n) + source_hash + skel_hash
            + b"".join(clips))


def section(tag, payload, chunk_id=-1, codec=0, flags=0, reserved=0, length=None):
    n = len(payload) if length is None else length
    return tag + struct.pack("<iBBHI", chunk_id, codec, flags, reserved, n) + payload


def vfp(sections, source_hash, major=1, minor=3, flags=0, count=None):
    n = len(sections) if count is None else count
    return (b"VFP\0" + struct.pack("<BBHI", major, minor, flags, n) + source_hash
            + b"".join(sections))


class Rig:
    """A valid rigged 2x2x2 model: joints 0 (root) and 1 (child), voxel 3 bound to joint 1,
    one clip with one track of two keys. Fields can be overridden before build()."""

    def __init__(self):
        self.vox = vox0()
        self.sh = sha(self.vox)
        self.joints = [joint(0, -1, name=b"Root"), joint(1, 0, t=(ONE, ZERO, ZERO), name=b"Arm")]

    def skel(self, **kw):
        return skel(self.sh, self.joints, **kw)

    def build(self, skel_payload=None, vskn_payload=None, anim_payload=None, extra=(),
              with_anim=True):
        sp = self.skel() if skel_payload is None else skel_payload
        kh = sha(sp)
        vp = vskn(self.sh, kh, 0, [(3, 1)]) if vskn_payload is None else vskn_payload
        if anim_payload is None:
            anim_payload = anim(self.sh, kh, [clip(0, 800, [track(1, [key(0), key(800)])],
                                                   name=b"wave")])
        secs = [section(b"VOX0", self.vox, flags=1), section(b"SKEL", sp),
                section(b"VSKN", vp)]
        if with_anim:
            secs.append(section(b"ANIM", anim_payload))
        secs.extend(extra)
        return vfp(secs, self.sh)

    def hashes(self):
        return self.sh, sha(self.skel())


def static_file(extra=(), vox=None):
    v = vox0() if vox is None else vox
    return vfp([section(b"VOX0", v, flags=1)] + list(extra), sha(v))


def read(path):
    with open(path, "rb") as fh:
        return fh.read()


def verdict(data, profile):
    try:
        vr.decode(data, profile)
        return "accept"
    except vr.Reject as e:
        return e.code


# ---- tests ----------------------------------------------------------------------------------

class Floats(unittest.TestCase):
    def test_spelling(self):
        cases = {ONE: "1.0", 0x80000000: "-0.0", ZERO: "0.0", f(0.7071): "0.7071",
                 f(1e38): "1e+38", f(-2.5): "-2.5", f(0.1): "0.1", f(100.0): "100.0",
                 f(123456.0): "123456.0", f(1e-5): "1e-05", f(3.4028234663852886e38):
                 "3.4028235e+38", 0x00000001: "1e-45", 0x4D1FE09F: "167643632.0",
                 f(1e-4): "1e-04", f(1e5): "1e+05", f(1e-3): "0.001", NAN: '"f32:0x7FC00000"',
                 INF: '"f32:0x7F800000"', 0xFF800000: '"f32:0xFF800000"',
                 0x7F800001: '"f32:0x7F800001"'}
        for bits, text in cases.items():
            self.assertEqual(vr.f32_text(bits), text, hex(bits))

    def test_shortest_reads_back(self):
        for bits in (0x3DCCCCCD, 0x3F3504F3, 0x00800000, 0x007FFFFF, 0x4B7FFFFF, 0x3EAAAAAB,
                     0x42F6E979, 0xC0490FDB):
            text = vr.f32_text(bits)
            self.assertTrue("." in text or "e" in text, text)
            self.assertEqual(vr.f32_bits_of(float(text)), bits, text)

    def test_unit_quaternion_edges(self):
        self.assertTrue(vr.is_unit_quaternion((ZERO, ZERO, ZERO, ONE)))
        self.assertTrue(vr.is_unit_quaternion((ZERO, ZERO, f(0.7071), f(0.7071))))  # n=0.99998
        self.assertTrue(vr.is_unit_quaternion((ZERO, ZERO, ZERO, f(1.000999))))
        self.assertFalse(vr.is_unit_quaternion((ZERO, ZERO, ZERO, f(1.001001))))
        self.assertTrue(vr.is_unit_quaternion((ZERO, ZERO, ZERO, f(0.999001))))
        self.assertFalse(vr.is_unit_quaternion((ZERO, ZERO, ZERO, f(0.998999))))
        self.assertFalse(vr.is_unit_quaternion((ZERO, ZERO, ZERO, ZERO)))


class Utf8(unittest.TestCase):
    def test_table_3_7(self):
        good = [b"", b"Root", b"\x00", "Ärm".encode(), b"\xef\xbf\xbf", b"\xf4\x8f\xbf\xbf",
                b"\xed\x9f\xbf", b"\xee\x80\x80"]
        bad = [b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xed\xa0\x80",
               b"\xed\xbf\xbf", b"\xf0\x80\x80\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
               b"\xff", b"\x80", b"\xe2\x82", b"\xe2\x82\x41"]
        for b in good:
            self.assertTrue(vr.is_valid_utf8(b), b)
        for b in bad:
            self.assertFalse(vr.is_valid_utf8(b), b)


class Container(unittest.TestCase):
    def test_minimal_static_accepts_under_both(self):
        self.assertEqual(verdict(static_file(), "vfp-static"), "accept")
        self.assertEqual(verdict(static_file(), "vfp-rig"), "accept")

    def test_header(self):
        ok = static_file()
        self.assertEqual(verdict(b"VF", "vfp-rig"), "file.unknown_format")
        self.assertEqual(verdict(b"RKCH" + ok[4:], "vfp-rig"), "file.unknown_format")
        self.assertEqual(verdict(ok[:4], "vfp-rig"), "vfp.header.truncated")
        self.assertEqual(verdict(ok[:43], "vfp-rig"), "vfp.header.truncated")
        self.assertEqual(verdict(ok[:4] + b"\x02" + ok[5:], "vfp-rig"), "vfp.header.version_major")
        self.assertEqual(verdict(ok[:5] + b"\xff" + ok[6:], "vfp-rig"), "accept")  # any minor
        self.assertEqual(verdict(ok[:6] + b"\x01\x00" + ok[8:], "vfp-rig"), "vfp.header.flags")
        too_many = ok[:8] + struct.pack("<I", 4097) + ok[12:]
        self.assertEqual(verdict(too_many, "vfp-static"), "vfp.limit.sections")
        # the limit is checked when the count is read, before the hash is present
        self.assertEqual(verdict(too_many[:12], "vfp-static"), "vfp.limit.sections")

    def test_section_headers(self):
        v = vox0()
        sh = sha(v)
        good = section(b"VOX0", v, flags=1)
        self.assertEqual(verdict(vfp([good], sh, count=2), "vfp-static"), "vfp.section.truncated")
        self.assertEqual(verdict(vfp([good, b"ABCD" + b"\0" * 11], sh, count=2), "vfp-static"),
                         "vfp.section.truncated")
        self.assertEqual(verdict(vfp([good, section(b"abcd", b"")], sh), "vfp-static"),
                         "vfp.section.bad_tag")
        self.assertEqual(verdict(vfp([good, section(b"AB D", b"")], sh), "vfp-static"),
                         "vfp.section.bad_tag")
        self.assertEqual(verdict(vfp([good, section(b"ABCD", b"", chunk_id=-2)], sh),
                                 "vfp-static"), "vfp.section.bad_chunk_id")
        self.assertEqual(verdict(vfp([good, section(b"ABCD", b"", flags=2)], sh), "vfp-static"),
                         "vfp.section.reserved_flags")
        self.assertEqual(verdict(vfp([good, section(b"ABCD", b"", reserved=1)], sh),
                                 "vfp-static"), "vfp.section.reserved")
        self.assertEqual(verdict(vfp([good, section(b"ABCD", b"xy", length=3)], sh),
                                 "vfp-static"), "vfp.section.payload_truncated")
        self.assertEqual(verdict(vfp([good], sh) + b"\0", "vfp-static"), "vfp.trailing_bytes")
        # a bad tag in section 0 is found before a missing section 1 (lazy, file order)
        self.assertEqual(verdict(vfp([section(b"ab!d", b"")], sh, count=2), "vfp-static"),
                         "vfp.section.bad_tag")

    def test_vox0_presence_and_header(self):
        v = vox0()
        sh = sha(v)
        self.assertEqual(verdict(vfp([], sh), "vfp-static"), "vfp.vox0.missing")
        self.assertEqual(verdict(vfp([section(b"VOX0", v, flags=1)] * 2, sh), "vfp-static"),
                         "vfp.vox0.duplicate")
        self.assertEqual(verdict(vfp([section(b"VOX0", v, flags=1, chunk_id=0)], sh),
                                 "vfp-static"), "vfp.vox0.bad_chunk_id")
        self.assertEqual(verdict(vfp([section(b"VOX0", v, flags=1, codec=1)], sh), "vfp-static"),
                         "vfp.vox0.bad_codec")
        self.assertEqual(verdict(vfp([section(b"VOX0", v)], sh), "vfp-static"),
                         "vfp.vox0.not_required")
        # step 4 before step 5: an unknown required section earlier in the file loses
        self.assertEqual(verdict(vfp([section(b"ZZZZ", b"", flags=1), section(b"VOX0", v)], sh),
                                 "vfp-static"), "vfp.vox0.not_required")

    def test_unknown_and_cache_sections(self):
        v = vox0()
        sh = sha(v)
        base = section(b"VOX0", v, flags=1)
        f_ = lambda *s: vfp([base] + list(s), sh)  # noqa: E731
        for p in ("vfp-static", "vfp-rig"):
            self.assertEqual(verdict(f_(section(b"ZZZZ", b"abc")), p), "accept")
            self.assertEqual(verdict(f_(section(b"ZZZZ", b"abc", codec=7)), p), "accept")
            self.assertEqual(verdict(f_(section(b"ZZZZ", b"", flags=1)), p),
                             "vfp.section.unknown_required")
            self.assertEqual(verdict(f_(section(b"MSH0", b"x", chunk_id=5, flags=1)), p),
                             "accept")
            self.assertEqual(verdict(f_(section(b"PRVW", b"x", codec=3)), p), "accept")
            self.assertEqual(verdict(f_(section(b"ANM0", b"x", codec=3, flags=1)), p),
                             "vfp.section.unsupported_codec")
        # step 5 before step 6: a broken VOX0 payload loses to an unknown required section
        bad_v = vox0(version=9)
        self.assertEqual(verdict(vfp([section(b"VOX0", bad_v, flags=1),
                                      section(b"ZZZZ", b"", flags=1)], sha(bad_v)), "vfp-static"),
                         "vfp.section.unknown_required")

    def test_vox0_payload(self):
        cases = [
            (vox0(version=2), "vox0.bad_version"),
            (vox0(reserved=1), "vox0.reserved"),
            (vox0(palette=(), palette_count=0), "vox0.palette_count"),
            (vox0(palette=[(0, 0, 0, 0)] * 257), "vox0.palette_count"),
            (vox0(size=(0, 2, 2), voxels=b""), "vox0.zero_size"),
            (vox0(size=(2, 2, 0), voxels=b""), "vox0.zero_size"),
            (vox0(size=(1024, 1024, 257), voxels=b""), "vox0.limit.voxels"),
            (vox0()[:-1], "vox0.length"),
            (vox0() + b"\0", "vox0.length"),
            (vox0(reserved2=1), "vox0.reserved"),
            (vox0(voxels=bytes([1, 0, 1, 2, 1, 1, 1, 1])), "vox0.palette_index"),
            (vox0()[:7], "vox0.truncated"),
            (b"", "vox0.truncated"),
        ]
        for payload, code in cases:
            self.assertEqual(verdict(static_file(vox=payload), "vfp-static"), code, code)
        # edges that pass: 256 palette entries with index 255, 1x1x1, 2^28 voxels is the limit
        pal = [(i, i, i, 255) for i in range(256)]
        self.assertEqual(verdict(static_file(vox=vox0(palette=pal, voxels=bytes([255] * 8))),
                                 "vfp-static"), "accept")
        self.assertEqual(verdict(static_file(vox=vox0(size=(1, 1, 1), voxels=b"\0")),
                                 "vfp-static"), "accept")
        at_limit = vox0(size=(1024, 1024, 256), voxels=b"")  # limit passes, length fails
        self.assertEqual(verdict(static_file(vox=at_limit), "vfp-static"), "vox0.length")

    def test_source_hash(self):
        v = vox0()
        self.assertEqual(verdict(vfp([section(b"VOX0", v, flags=1)], b"\0" * 32), "vfp-static"),
                         "vfp.source_hash")
        # VOX0 payload before sourceHash
        bad = vox0(reserved=1)
        self.assertEqual(verdict(vfp([section(b"VOX0", bad, flags=1)], b"\0" * 32), "vfp-static"),
                         "vox0.reserved")


class RigFraming(unittest.TestCase):
    def test_valid_rig(self):
        data = Rig().build()
        self.assertEqual(verdict(data, "vfp-static"), "accept")
        self.assertEqual(verdict(data, "vfp-rig"), "accept")
        self.assertEqual(verdict(Rig().build(with_anim=False), "vfp-rig"), "accept")

    def test_duplicates_headers_completeness(self):
        rig = Rig()
        sh, kh = rig.hashes()
        dup = rig.build(extra=[section(b"ANIM", anim(sh, kh, []))])
        self.assertEqual(verdict(dup, "vfp-rig"), "rig.duplicate_section")
        self.assertEqual(verdict(dup, "vfp-static"), "accept")
        v = section(b"VOX0", rig.vox, flags=1)
        s = section(b"SKEL", rig.skel())
        k = section(b"VSKN", vskn(sh, kh, 0, [(3, 1)]))
        self.assertEqual(verdict(vfp([v, s], sh), "vfp-rig"), "rig.incomplete")
        self.assertEqual(verdict(vfp([v, k], sh), "vfp-rig"), "rig.incomplete")
        self.assertEqual(verdict(vfp([v, section(b"ANIM", anim(sh, kh, []))], sh), "vfp-rig"),
                         "rig.incomplete")
        self.assertEqual(verdict(vfp([v, s], sh), "vfp-static"), "accept")
        for kw in ({"chunk_id": 0}, {"codec": 1}, {"flags": 1}):
            bad = vfp([v, section(b"SKEL", rig.skel(), **kw), k], sh)
            self.assertEqual(verdict(bad, "vfp-rig"), "rig.section_header", kw)
        # FP-3: REQUIRED rig section under vfp-static = unknown required; codec != 0
        # and flags 0 = kept
        self.assertEqual(verdict(vfp([v, section(b"SKEL", rig.skel(), flags=1), k], sh),
                                 "vfp-static"), "vfp.section.unknown_required")
        self.assertEqual(verdict(vfp([v, section(b"SKEL", rig.skel(), codec=1), k], sh),
                                 "vfp-static"), "accept")
        # duplicates before headers; headers before completeness
        self.assertEqual(verdict(vfp([v, section(b"SKEL", rig.skel(), flags=1), k, k], sh),
                                 "vfp-rig"), "rig.duplicate_section")
        self.assertEqual(verdict(vfp([v, section(b"SKEL", rig.skel(), codec=2)], sh),
                                 "vfp-rig"), "rig.section_header")
        # D11: under vfp-rig, a REQUIRED rig section is not step 5's unknown required; but an
        # unknown required section later in the file still wins over the rig step
        self.assertEqual(verdict(vfp([v, section(b"SKEL", rig.skel(), flags=1), k,
                                      section(b"ZZZZ", b"", flags=1)], sh), "vfp-rig"),
                         "vfp.section.unknown_required")
        # the rig step comes after the sourceHash
        self.assertEqual(verdict(vfp([v, s], b"\1" * 32), "vfp-rig"), "vfp.source_hash")


class SkelRules(unittest.TestCase):
    def check(self, joints=None, code="accept", **kw):
        rig = Rig()
        if joints is not None:
            rig.joints = joints
        payload = kw.pop("payload", None)
        if payload is None:
            payload = rig.skel(**kw)
        # VSKN/ANIM rebuilt against this SKEL so only SKEL can fail
        kh = sha(payload)
        vp = vskn(rig.sh, kh, 0, [])
        data = vfp([section(b"VOX0", rig.vox, flags=1), section(b"SKEL", payload),
                    section(b"VSKN", vp)], rig.sh)
        self.assertEqual(verdict(data, "vfp-rig"), code)
        self.assertEqual(verdict(data, "vfp-static"), "accept")

    def test_header(self):
        self.check(version=2, code="skel.bad_version")
        self.check(reserved=1, code="skel.reserved")
        self.check(joints=[], code="skel.no_joints")
        self.check(count=16385, code="skel.limit.joints")
        self.check(count=3, code="skel.truncated")
        rig = Rig()
        self.check(payload=skel(b"\0" * 32, rig.joints), code="skel.base_source_hash")
        self.check(payload=rig.skel()[:20], code="skel.truncated")
        self.check(payload=rig.skel() + b"\0", code="skel.trailing_bytes")
        # no bytes-present check on jointCount: a broken joint 1 is found before the missing
        # joint 2 (docs/spec/vfp.md)
        self.check(payload=skel(rig.sh, [joint(0, -1), joint(0, -1)], count=3),
                   code="skel.joint_order")

    def test_joints(self):
        self.check([joint(0, -1), joint(0, 0)], "skel.joint_order")
        self.check([joint(1, -1), joint(0, 1)], "skel.joint_order")
        self.check([joint(0, -1, t=(NAN, ZERO, ZERO))], "skel.non_finite")
        self.check([joint(0, -1, r=(ZERO, ZERO, ZERO, INF))], "skel.non_finite")
        self.check([joint(0, -1, s=(ZERO, ZERO, 0xFF800000))], "skel.non_finite")
        self.check([joint(0, -1, r=(ZERO, ZERO, ZERO, f(2.0)))], "skel.non_unit_rotation")
        # non-unit rotation comes before a non-finite scale (byte order)
        self.check([joint(0, -1, r=(ZERO, ZERO, ZERO, ZERO), s=(NAN, NAN, NAN))],
                   "skel.non_unit_rotation")
        self.check([joint(0, -1, pad=b"\0\1\0")], "skel.reserved")
        self.check([joint(0, -1, name=b"\xc0\x80")], "skel.bad_utf8")
        self.check([joint(0, -1, name=b"\xed\xa0\x80")], "skel.bad_utf8")
        self.check([joint(0, -1, name=b"ab", name_len=5)], "skel.truncated")
        # FP-5/FP-6: scale zero / negative / -0.0 / denormal, empty name, leaf id > 32767
        self.check([joint(0, -1, s=(ZERO, f(-3.0), 0x80000000)),
                    joint(40000, 0, s=(1, 1, 1))], "accept")

    def test_parents(self):
        self.check([joint(0, -1), joint(1, 5)], "skel.parent_missing")
        self.check([joint(0, -2)], "skel.parent_missing")
        self.check([joint(0, 0)], "skel.parent_cycle")
        self.check([joint(0, -1), joint(1, 2), joint(2, 1)], "skel.parent_cycle")
        # a parent with a larger id than its child is fine
        self.check([joint(0, 2), joint(1, 0), joint(2, -1)], "accept")
        # parent_missing (all joints) before any cycle
        self.check([joint(0, 0), joint(1, 9)], "skel.parent_missing")
        # a joint with id > 32767 cannot be a parent: -32768 is a missing parent
        self.check([joint(0, -1), joint(32768, 0), joint(32769, -32768)], "skel.parent_missing")
        # payload errors (trailing bytes) come before parent checks
        rig = Rig()
        self.check(payload=skel(rig.sh, [joint(0, 7)]) + b"\0", code="skel.trailing_bytes")


class VsknRules(unittest.TestCase):
    def check(self, payload_fn, code):
        rig = Rig()
        sh, kh = rig.hashes()
        data = rig.build(vskn_payload=payload_fn(sh, kh), with_anim=False)
        self.assertEqual(verdict(data, "vfp-rig"), code)
        self.assertEqual(verdict(data, "vfp-static"), "accept")

    def test_rules(self):
        self.check(lambda sh, kh: vskn(sh, kh, 0, []), "accept")
        self.check(lambda sh, kh: vskn(sh, kh, 1, [(0, 0), (7, 0)]), "accept")
        self.check(lambda sh, kh: vskn(sh, kh, version=2), "vskn.bad_version")
        self.check(lambda sh, kh: vskn(sh, kh, encoding=0), "vskn.bad_encoding")
        self.check(lambda sh, kh: vskn(sh, kh, default=7), "vskn.default_joint_missing")
        self.check(lambda sh, kh: vskn(sh, kh, reserved=1), "vskn.reserved")
        self.check(lambda sh, kh: vskn(sh, kh, 0, [(3, 1)], count=2), "vskn.length")
        self.check(lambda sh, kh: vskn(sh, kh, 0, [(3, 1)]) + b"\0", "vskn.length")
        self.check(lambda sh, kh: vskn(sh, kh)[:9], "vskn.truncated")
        self.check(lambda sh, kh: vskn(b"\0" * 32, kh), "vskn.base_source_hash")
        self.check(lambda sh, kh: vskn(sh, b"\0" * 32), "vskn.skeleton_hash")
        self.check(lambda sh, kh: vskn(sh, kh, 0, [(3, 1), (3, 1)]), "vskn.offset_order")
        self.check(lambda sh, kh: vskn(sh, kh, 0, [(4, 1), (3, 1)]), "vskn.offset_order")
        self.check(lambda sh, kh: vskn(sh, kh, 0, [(8, 1)]), "vskn.offset_range")
        self.check(lambda sh, kh: vskn(sh, kh, 0, [(3, 9)]), "vskn.joint_missing")
        self.check(lambda sh, kh: vskn(sh, kh, 0, [(3, 0)]), "vskn.redundant_binding")
        # D13 order inside a record: order, range, non-empty, joint exists, != default
        self.check(lambda sh, kh: vskn(sh, kh, 0, [(8, 0)]), "vskn.offset_range")
        # the length rule right after the count: before the hashes
        self.check(lambda sh, kh: vskn(b"\0" * 32, kh, count=1), "vskn.length")
        # default joint is checked where it sits: before reserved
        self.check(lambda sh, kh: vskn(sh, kh, default=7, reserved=1),
                   "vskn.default_joint_missing")

    def test_empty_voxel(self):
        rig = Rig()
        rig.vox = vox0(voxels=bytes([1, 1, 1, 0, 1, 1, 1, 1]))
        rig.sh = sha(rig.vox)
        sh, kh = rig.hashes()
        data = rig.build(vskn_payload=vskn(sh, kh, 0, [(3, 9)]), with_anim=False)
        self.assertEqual(verdict(data, "vfp-rig"), "vskn.empty_voxel")


class AnimRules(unittest.TestCase):
    def check(self, payload_fn, code):
        rig = Rig()
        sh, kh = rig.hashes()
        data = rig.build(anim_payload=payload_fn(sh, kh))
        self.assertEqual(verdict(data, "vfp-rig"), code)
        self.assertEqual(verdict(data, "vfp-static"), "accept")

    def test_header(self):
        self.check(lambda sh, kh: anim(sh, kh, []), "accept")
        self.check(lambda sh, kh: anim(sh, kh, [], version=2), "anim.bad_version")
        self.check(lambda sh, kh: anim(sh, kh, [], reserved=1), "anim.reserved")
        self.check(lambda sh, kh: anim(b"\0" * 32, kh, []), "anim.base_source_hash")
        self.check(lambda sh, kh: anim(sh, b"\0" * 32, []), "anim.skeleton_hash")
        self.check(lambda sh, kh: anim(sh, kh, [])[:40], "anim.truncated")
        self.check(lambda sh, kh: anim(sh, kh, []) + b"\0", "anim.trailing_bytes")
        self.check(lambda sh, kh: anim(sh, kh, [], count=1), "anim.truncated")
        # clips and tracks have no bytes-present check; keys do (keyCount * 44 right after the
        # count, before the first key is read)
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 0, [], name=b"\xff")], count=2),
                   "anim.bad_utf8")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(1, [key(0)]), track(0, [])],
                                                     count=3)]), "anim.track_order")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(1, [key(5), key(1)],
                                                                count=3)])]), "anim.truncated")

    def test_clips_tracks_keys(self):
        k0, k8 = key(0), key(800)
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 0, [])]), "accept")   # FP-6
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 0, [track(0, [key(0)])])]), "accept")
        self.check(lambda sh, kh: anim(sh, kh, [clip(1, 0, []), clip(1, 0, [])]),
                   "anim.clip_order")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 0, [], pad=b"\0\0\1")]), "anim.reserved")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 0, [], name=b"\xf5")]), "anim.bad_utf8")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(1, [k0]), track(1, [k0])])]),
                   "anim.track_order")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(4, [k0])])]),
                   "anim.joint_missing")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(1, [k0], reserved=1)])]),
                   "anim.reserved")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(1, [])])]), "anim.no_keys")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(1, [], count=(1 << 20) + 1)])]),
                   "anim.limit.keys_per_track")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(1, [k0], count=2)])]),
                   "anim.truncated")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 800, [track(1, [k8, k0])])]),
                   "anim.key_time_order")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 800, [track(1, [k0, k0])])]),
                   "anim.key_time_order")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 799, [track(1, [k0, k8])])]),
                   "anim.key_time_range")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 800, [track(1, [key(0, t=(INF, 0, 0))])])]),
                   "anim.non_finite")
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 800, [track(1, [
            key(0, r=(ZERO, ZERO, ZERO, f(1.5)))])])]), "anim.non_unit_rotation")
        # key time order before range: [900, 100] with duration 800
        self.check(lambda sh, kh: anim(sh, kh, [clip(0, 800, [track(1, [key(900), key(100)])])]),
                   "anim.key_time_range")

    def test_total_keys_limit(self):
        # 16 tracks of 2^20 keys reach 2^24 exactly; a 17th track goes over. Counts only: the
        # limit is checked when the count is read, before the bytes are present.
        old = vr.Limits.anim_keys_total
        try:
            vr.Limits.anim_keys_total = 3
            self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(0, [key(0), key(1)]),
                                                                track(1, [key(0), key(1)])])]),
                       "anim.limit.keys_total")
            self.check(lambda sh, kh: anim(sh, kh, [clip(0, 9, [track(0, [key(0), key(1)])]),
                                                    clip(1, 9, [track(1, [key(0)])])]),
                       "accept")
        finally:
            vr.Limits.anim_keys_total = old


def seed_rig_file():
    """shared/design/examples/seed_rig.json (the chapter 6B example, D24) built by hand: an
    8x8x8 grid, a 3x6x3 block of colour 1 at x 3..5, y 0..5, z 2..4, colour 2 at [4,6,3],
    colour 3 at [4,7,3]; joints Root and Arm (translation [1,0,0]); the binding at [4,7,3]
    (offset 4 + 8*(7 + 8*3) = 252) to joint 1; clip "wave" of 800 ms whose keys default to the
    joint's bind pose (docs/spec/ JSON defaults)."""
    vox = bytearray(512)
    for z in range(2, 5):
        for y in range(0, 6):
            for x in range(3, 6):
                vox[x + 8 * (y + 8 * z)] = 1
    vox[4 + 8 * (6 + 8 * 3)] = 2
    vox[4 + 8 * (7 + 8 * 3)] = 3
    v = vox0(size=(8, 8, 8), palette=((0, 0, 0, 0), (200, 60, 40, 255), (40, 120, 220, 255),
                                       (240, 200, 60, 255)), voxels=bytes(vox))
    sh = sha(v)
    arm_t = (ONE, ZERO, ZERO)
    sp = skel(sh, [joint(0, -1, name=b"Root"), joint(1, 0, t=arm_t, name=b"Arm")])
    kh = sha(sp)
    ap = anim(sh, kh, [clip(0, 800, [track(1, [
        key(0, t=arm_t), key(800, t=arm_t, r=(ZERO, ZERO, f(0.7071), f(0.7071)))])],
        name=b"wave")])
    return vfp([section(b"VOX0", v, flags=1), section(b"SKEL", sp),
                section(b"VSKN", vskn(sh, kh, 0, [(252, 1)])), section(b"ANIM", ap)], sh)


class SeedDump(unittest.TestCase):
    """The dump of the seed example against the values docs/spec/dump.md prints for it."""

    def test_seed_rig_dump(self):
        model = vr.decode(seed_rig_file(), "vfp-rig")
        doc = json.loads(vr.to_json_text(vr.dump_model(model)))
        sh = "49054c00518177f8a949fd8255b778df4bbb98d3021ea504605710f9931fe29b"
        self.assertEqual(set(doc), {"schema", "format", "version_minor", "source_hash",
                                    "sections"})
        self.assertEqual((doc["schema"], doc["format"], doc["version_minor"], doc["source_hash"]),
                         ("voxrig-dump/2", "vfp", 3, sh))
        secs = doc["sections"]
        self.assertEqual([(x["tag"], x["length"], x["flags"]) for x in secs],
                         [("VOX0", 540, 1), ("SKEL", 139, 0), ("VSKN", 80, 0), ("ANIM", 180, 0)])
        v = secs[0]["vox0"]
        self.assertEqual(v["size"], [8, 8, 8])
        self.assertEqual(v["palette"][3], [240, 200, 60, 255])
        self.assertEqual(v["voxels"], {"count": 512, "sha256":
                         "484d4e0fab82ecf4f468f294481a048e85008c8bf25334ce4c074315ab0a8d60"})
        self.assertEqual(v["non_empty_voxels"], 56)
        j = secs[1]["skel"]["joints"]
        self.assertEqual(j[1], {"id": 1, "parent": 0, "name": "Arm", "translation": [1.0, 0, 0],
                                "rotation": [0, 0, 0, 1.0], "scale": [1.0, 1.0, 1.0]})
        k = secs[2]["vskn"]
        self.assertEqual(k["bindings"], {"count": 1, "sha256": sha(bytes.fromhex(
            "fc0000000100")).hex()})
        self.assertEqual(k["bindings"]["sha256"],
                         "79421df0b148664e02c1de5e6c70fdd3c7d5d087b62a82476c043e88437179d0")
        self.assertEqual(k["base_source_hash"], sh)
        key1 = secs[3]["anim"]["clips"][0]["tracks"][0]["keys"][1]
        self.assertEqual(key1["time_ms"], 800)
        text = vr.to_json_text(vr.dump_model(model))
        self.assertIn('"rotation": [0.0, 0.0, 0.7071, 0.7071]', text)
        # vfp-static: the rig sections are opaque digests of their payloads
        st = json.loads(vr.to_json_text(vr.dump_model(vr.decode(seed_rig_file(), "vfp-static"))))
        self.assertEqual(sorted(st["sections"][1]), ["chunk_id", "codec", "flags", "length",
                                                     "opaque", "tag"])
        self.assertEqual(st["sections"][2]["opaque"]["count"], 80)

    def test_non_finite_and_negative_zero_in_dump(self):
        rig = Rig()
        rig.joints = [joint(0, -1, t=(0x80000000, ZERO, ZERO))]
        sh, kh = rig.hashes()
        data = rig.build(vskn_payload=vskn(sh, kh, 0, []), anim_payload=anim(sh, kh, []))
        text = vr.to_json_text(vr.dump_model(vr.decode(data, "vfp-rig")))
        self.assertIn('"translation": [-0.0, 0.0, 0.0]', text)


class WriterAndCli(unittest.TestCase):
    def run_cli(self, *args):
        p = subprocess.run([sys.executable, READER] + list(args), capture_output=True)
        return p.returncode, p.stdout

    def test_roundtrip_and_canonicalize(self):
        rig = Rig()
        sh, kh = rig.hashes()
        extra = [section(b"ZZZZ", b"opaque"), section(b"PRVW", b"png", chunk_id=3, flags=1)]
        data = vfp([section(b"ANIM", anim(sh, kh, [clip(0, 800, [track(1, [key(0)])])])),
                    section(b"VSKN", vskn(sh, kh, 0, [(3, 1)]))] + extra[:1]
                   + [section(b"SKEL", rig.skel()), section(b"VOX0", rig.vox, flags=1)]
                   + extra[1:], sh, minor=9)
        expected_canon = vfp([section(b"VOX0", rig.vox, flags=1), extra[1],
                              section(b"SKEL", rig.skel()),
                              section(b"VSKN", vskn(sh, kh, 0, [(3, 1)])),
                              section(b"ANIM", anim(sh, kh, [clip(0, 800, [track(1, [key(0)])])])),
                              extra[0]], sh, minor=9)
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "in.vfp")
            out = os.path.join(d, "out.vfp")
            with open(src, "wb") as fh:
                fh.write(data)
            for prof in ("vfp-static", "vfp-rig"):
                self.assertEqual(self.run_cli("roundtrip", "--profile", prof, src, out)[0], 0)
                self.assertEqual(read(out), data)
                self.assertEqual(self.run_cli("canonicalize", "--profile", prof, src, out)[0], 0)
                self.assertEqual(read(out), expected_canon)

    def test_model_reencodes_bit_exactly(self):
        # NaN payloads / -0.0 survive: a NaN in a key is invalid, so use -0.0 and denormals
        rig = Rig()
        rig.joints = [joint(0, -1, t=(0x80000000, 0x00000001, 0x807FFFFF),
                            name=b"\x00\xef\xbf\xbf")]
        sh, kh = rig.hashes()
        data = rig.build(vskn_payload=vskn(sh, kh, 0, []), anim_payload=anim(sh, kh, []))
        model = vr.decode(data, "vfp-rig")
        self.assertEqual(vr.encode(model), data)

    def test_dump_and_reject_protocol(self):
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "g.vfp")
            bad = os.path.join(d, "b.vfp")
            short = os.path.join(d, "s.bin")
            with open(good, "wb") as fh:
                fh.write(Rig().build())
            with open(bad, "wb") as fh:
                fh.write(Rig().build(extra=[section(b"ZZZZ", b"", flags=1)]))
            with open(short, "wb") as fh:
                fh.write(b"VF")
            rc, out = self.run_cli("dump", "--profile", "vfp-rig", good)
            self.assertEqual(rc, 0)
            doc = json.loads(out)
            self.assertEqual(doc["schema"], "voxrig-dump/2")
            rc, out = self.run_cli("dump", "--profile", "vfp-static", bad)
            self.assertEqual((rc, json.loads(out)["error"]), (1, "vfp.section.unknown_required"))
            rc, out = self.run_cli("dump", "--profile", "vfp-rig", short)
            self.assertEqual((rc, json.loads(out)), (1, {"error": "file.unknown_format",
                                                          "offset": 0, "path": ""}))
            self.assertEqual(self.run_cli("dump", "--profile", "nope", good)[0], 2)


def fix_source_hash(d):
    """Sets the header sourceHash from the first VOX0 found by plain framing (if any)."""
    if len(d) < 44:
        return
    pos = 44
    for _ in range(struct.unpack_from("<I", d, 8)[0]):
        if pos + 16 > len(d):
            return
        n = struct.unpack_from("<I", d, pos + 12)[0]
        if d[pos:pos + 4] == b"VOX0" and pos + 16 + n <= len(d):
            d[12:44] = sha(bytes(d[pos + 16:pos + 16 + n]))
            return
        pos += 16 + n


class Hostile(unittest.TestCase):
    def test_mutations_never_escape(self):
        """Seeded byte mutations of valid files (hashes re-fixed half the time so the rig checks
        are reached): decode either rejects with a listed code or accepts a file that dumps and
        re-encodes to its own bytes. Any other exception fails."""
        import random
        codes = set()
        here = os.path.dirname(os.path.abspath(__file__))
        errors_def = os.path.join(here, "..", "..", "..", "reference", "include", "voxrig",
                                  "errors.def")
        if os.path.exists(errors_def):
            with open(errors_def) as fh:
                for line in fh:
                    if line.startswith("VOXRIG_ERROR("):
                        codes.add(line.split('"')[1])
        rnd = random.Random(2024)
        bases = [Rig().build(), seed_rig_file(), static_file()]
        seen = set()
        for _ in range(1500):
            d = bytearray(rnd.choice(bases))
            for _ in range(rnd.randint(1, 3)):
                op = rnd.random()
                if op < 0.6:
                    d[rnd.randrange(len(d))] = rnd.choice([0, 1, 0x7F, 0x80, 0xFF,
                                                           rnd.randrange(256)])
                elif op < 0.8:
                    del d[rnd.randrange(len(d)):][:rnd.randint(1, 6)]
                else:
                    i = rnd.randrange(len(d))
                    d[i:i] = bytes(rnd.randint(1, 6))
            if rnd.random() < 0.5:
                fix_source_hash(d)
            data = bytes(d)
            for prof in vr.PROFILES:
                try:
                    model = vr.decode(data, prof)
                except vr.Reject as e:
                    seen.add(e.code)
                    if codes:
                        self.assertIn(e.code, codes)
                    continue
                vr.to_json_text(vr.dump_model(model))
                self.assertEqual(vr.encode(model), data)
        self.assertGreater(len(seen), 15, sorted(seen))


class ReadingMutants(unittest.TestCase):
    """voxrig_mutants.py's table and the guarded branches agree: every row is switched on at one
    place at least, every switch names a row, and every name starts with a rule ID of
    golden/rules.json (the CTest golden_reading_mutants runs them against the corpus)."""

    def test_table_and_branches_agree(self):
        import re
        import voxrig_mutants as vm
        here = os.path.dirname(os.path.abspath(__file__))
        used = set()
        for name in ("voxrig_reader.py", "voxrig_compile.py", "voxrig_json.py", "voxrig_pose.py"):
            with open(os.path.join(here, name), encoding="utf-8") as f:
                used |= set(re.findall(r'mutant\("([^"]+)"\)', f.read()))
        self.assertEqual(used, set(vm.NAMES))
        self.assertEqual(len(vm.NAMES), len(vm.MUTANTS), "a name appears twice")
        with open(os.path.join(here, "..", "..", "rules.json"), encoding="utf-8") as f:
            rules = {r["id"] for r in json.load(f)["rules"]}
        for name, capability, profiles, pose_filter, reading in vm.MUTANTS:
            self.assertIn(name.split(".", 1)[0], rules, name)
            self.assertIn(capability, ("dump", "writer", "compile", "pose"), name)
            self.assertEqual(pose_filter is not None, capability == "pose", name)
            self.assertTrue(reading, name)

    def test_unknown_mutant_is_a_usage_error(self):
        env = dict(os.environ, VOXRIG_MUTANT="SKEL-8.no_such_reading")
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(
            os.path.abspath(__file__)), "voxrig_reader.py"), "dump", "--profile", "vfp-rig",
            os.devnull], env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 2, r.stderr)


if __name__ == "__main__":
    unittest.main()
