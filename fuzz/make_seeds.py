#!/usr/bin/env python3
"""Writes candidate seed inputs for every fuzz target into OUT/<target>/ (sha1 names).

Sources: the golden corpus (whole files; section / chunk / blob payloads cut out of them by
their length fields, without any validation: which seeds are interesting is decided by the
fuzzer's coverage when `scripts/fuzz.sh merge` minimizes them into corpus/<target>/) and small
hand-built inputs for the fixed contexts of the per-section targets (fuzz_common.h).

usage: fuzz/make_seeds.py GOLDEN_FILES_DIR OUT_DIR [EXTRA_JSON...]
"""
import hashlib
import math
import os
import random
import struct
import sys


def files(root, ext):
    for d, _, names in os.walk(root):
        for n in sorted(names):
            if n.endswith(ext):
                with open(os.path.join(d, n), 'rb') as f:
                    yield f.read()


def framed(b, magic, header, head, len_at):
    """(tag, payload) of every complete record after a `header`-byte file header: each record is a
    `head`-byte record header holding its tag at 0 and its u32 payload length at `len_at`."""
    if len(b) < header or b[:len(magic)] != magic:
        return
    pos = header
    while len(b) - pos >= head:
        n = struct.unpack_from('<I', b, pos + len_at)[0]
        if n > len(b) - pos - head:
            return
        yield b[pos:pos + 4], b[pos + head:pos + head + n]
        pos += head + n


def vfp_sections(b):
    """Sections after the 44-byte header (16-byte section headers, length at +12)."""
    return framed(b, b'VFP\0', 44, 16, 12)


def rkc_chunks(b):
    """Chunks after magic + version (8-byte chunk headers, length at +4)."""
    return framed(b, b'RKCH', 6, 8, 4)


def blobs(payload):
    """MSHS / VCLP: u32 count, then {u32 len, blob}."""
    if len(payload) < 4:
        return
    pos = 4
    for _ in range(struct.unpack_from('<I', payload, 0)[0]):
        if len(payload) - pos < 4:
            return
        n = struct.unpack_from('<I', payload, pos)[0]
        if n > len(payload) - pos - 4:
            return
        yield payload[pos + 4:pos + 4 + n]
        pos += 4 + n


# ---- hand-built inputs for the fixed contexts (fuzz_common.cpp fixed_vox0 / fixed_skel) -------

H = bytes(range(32))  # any hash: the per-section targets take hashes from the payload itself


def trs(t=(0.0, 0.0, 0.0), r=(0.0, 0.0, 0.0, 1.0), s=(1.0, 1.0, 1.0)):
    return struct.pack('<3f4f3f', *t, *r, *s)


def skel(joints):
    out = struct.pack('<BBH', 1, 0, len(joints)) + H
    for jid, parent, name, x in joints:
        out += struct.pack('<Hh', jid, parent) + x + struct.pack('<B3x', len(name)) + name
    return out


def vskn(default, records):
    out = struct.pack('<BBHHI', 1, 1, default, 0, len(records)) + H + H
    return out + b''.join(struct.pack('<IH', o, j) for o, j in records)


def anim(clips):
    out = struct.pack('<BBH', 1, 0, len(clips)) + H + H
    for cid, duration, name, tracks in clips:
        out += struct.pack('<HHIB3x', cid, len(tracks), duration, len(name)) + name
        for joint, keys in tracks:
            out += struct.pack('<HHI', joint, 0, len(keys))
            out += b''.join(struct.pack('<I', t) + x for t, x in keys)
    return out


def quat(axis, deg):
    h = math.radians(deg) / 2
    return tuple(a * math.sin(h) for a in axis) + (math.cos(h),)


def context_seeds():
    q = quat((0, 0, 1), 90)
    sk = [
        skel([(0, -1, b'root', trs())]),
        skel([(0, -1, b'root', trs()), (1, 0, b'arm', trs((1, 0, 0), q)),
              (2, 1, b'hand', trs((0, 1, 0))), (7, 0, b'leg', trs(s=(2, 2, 2)))]),
        skel([(3, 5, b'child first', trs()), (5, -1, b'', trs(r=quat((1, 0, 0), 30)))]),
        skel([(0, -1, b'\xe2\x82\xac', trs()), (40000, 0, b'leaf', trs(s=(-1, 0, 1e-30)))]),
    ]
    vs = [vskn(0, []), vskn(0, [(2, 1), (5, 2), (9, 7), (15, 1)]), vskn(7, [(0, 0), (12, 2)])]
    keys = [(0, trs()), (50, trs((0, 0, 1), q)), (100, trs(s=(1, 2, 1)))]
    an = [
        anim([]),
        anim([(0, 0, b'', [])]),
        anim([(1, 100, b'walk', [(0, keys), (1, keys[:1]), (7, keys[1:])]),
              (4, 0, b'pose', [(2, [(0, trs())])])]),
    ]
    return {'skel': sk, 'vskn': vs, 'anim': an}


def bone(name, parent, attachments):
    out = struct.pack('<H', len(name)) + name + struct.pack('<I', len(attachments))
    for kind, index in attachments:
        out += struct.pack('<HI', kind, index) + trs() + struct.pack('<iI', 256, 0)
    hinge = struct.pack('<i3f3f3f3f', parent, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0)
    return out + hinge + struct.pack('<hhB7s', -100, 100, 0, b'\0' * 7)


def rkc_context_seeds():
    bons = [
        struct.pack('<I', 0),
        struct.pack('<I', 2) + bone(b'root', -1, [(0, 0), (1, 0)]) + bone(b'arm', 0, [(0, 0)]),
        struct.pack('<I', 3) + bone(b'a', -1, []) + bone(b'b', 2, [(1, 0)]) + bone(b'c', 0, []),
    ]

    def skeletal(frames, seq, numhin=2):
        body = struct.pack('<II', frames, numhin) + trs() * (frames * numhin)
        body += struct.pack('<I', len(seq)) + b''.join(struct.pack('<ii', t, f) for t, f in seq)
        return body

    def clps(clips):
        out = struct.pack('<I', len(clips))
        for name, kind, body in clips:
            out += struct.pack('<H', len(name)) + name + struct.pack('<HI', kind, len(body)) + body
        return out

    cl = [
        clps([]),
        clps([(b'idle', 0, skeletal(0, []))]),
        clps([(b'walk', 0, skeletal(2, [(0, 0), (100, 1), (200, -1)])),
              (b'x', 7, b'opaque')]),
        clps([(b'jump', 0, skeletal(3, [(0, 0), (50, 2), (60, ~0), (70, -3)]))]),
    ]
    meta = [struct.pack('<H', 4) + b'fuzz' + struct.pack('<3f', 0, 0, 0),
            struct.pack('<H', 2) + b'\xc0\x80' + struct.pack('<3f', 1, 2, 3) + b'tail']
    return {'rkc_bons': bons, 'rkc_clps': cl, 'rkc_meta': meta}


def main():
    golden, out = sys.argv[1], sys.argv[2]
    seeds = {}

    def add(target, data):
        seeds.setdefault(target, set()).add(bytes(data))

    for b in files(os.path.join(golden, 'vfp'), '.vfp'):
        for t in ('vfp', 'vfp_roundtrip', 'vfp_structured'):
            add(t, b)
        for tag, payload in vfp_sections(b):
            if tag in (b'VOX0', b'SKEL', b'VSKN', b'ANIM'):
                add(tag.decode().lower(), payload)
    for b in files(os.path.join(golden, 'compile'), '.json'):
        add('json', b)
    for extra in sys.argv[3:]:
        with open(extra, 'rb') as f:
            add('json', f.read())
    for b in files(golden, '.rkc'):
        add('rkc', b)
        add('rkc_structured', b)
        for tag, payload in rkc_chunks(b):
            t = tag.decode('latin-1').lower()
            if t in ('meta', 'mshs', 'bons', 'clps', 'vclp'):
                add('rkc_' + t, payload)
            if tag == b'MSHS':
                for blob in blobs(payload):
                    add('kv6', blob)
            if tag == b'VCLP':
                for blob in blobs(payload):
                    add('rvc', blob)
                    add('rvc_structured', blob)
    for b in files(golden, '.kv6'):
        add('kv6', b)
        add('kv6_mesh', b)
        add('rkc_mshs', struct.pack('<II', 1, len(b)) + b)
    for b in files(golden, '.rvc'):
        add('rvc', b)
        add('rvc_structured', b)
        add('rkc_vclp', struct.pack('<II', 1, len(b)) + b)
    for b in files(golden, '.kfa'):
        add('kfa', b)
    for ext in ('.vfp', '.rkc', '.kv6', '.rvc', '.kfa', '.bin'):
        for b in files(golden, ext):
            add('any', b)
    for target, items in list(context_seeds().items()) + list(rkc_context_seeds().items()):
        for b in items:
            add(target, b)
    # Targets that read any bytes as a model (fuzz_common.h read_rig, read_rkc_rig, the mesh
    # grid): a few deterministic random inputs of several sizes.
    rnd = random.Random(20261130)
    for target, sizes in (('mesh', (8, 40, 300, 2000, 6000)), ('pose', (4, 64, 256, 900)),
                          ('rkc_eval', (4, 64, 256, 900))):
        for n in sizes:
            for _ in range(3):
                add(target, bytes(rnd.randrange(256) for _ in range(n)))
    for target, items in sorted(seeds.items()):
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for b in items:
            with open(os.path.join(d, hashlib.sha1(b).hexdigest()), 'wb') as f:
                f.write(b)
        print(f'{target}: {len(items)} seeds')


if __name__ == '__main__':
    main()
