#!/usr/bin/env python3
"""Writes the hostile-input files of docs/robustness.md into OUTDIR, written from the format
descriptions (docs/spec) with the standard library only (struct, zlib, hashlib).

Count amplification (the dump bound):
  rvc_1m.rvc            7.7 KB: one empty key frame + 2^20 - 1 empty delta frames, deflated
  rvc_200001.rvc        1.5 KB: the same with 200,001 frames
  rvc_1m_time.rvc       the 2^20-frame clip plus a deflated TIME chunk of 2^20 values
  rkc_vclp_1m.rkc       rvc_1m.rvc as the one VCLP clip of a minimal RKCH
  rkc_20000_clips.rkc   20,000 tiny (4-frame) clips in one VCLP: the worst inline-entry ratio

One class per bound (docs/robustness.md "Bounds per command" gives the bounds):
  inflate   rkc_zero_clips_8.rkc     2.1 MB: 8 valid clips, each 4 unknown chunks of 64 MiB of
                                     deflated zeros (the RVC inflate budget spent per clip)
            rkc_zero_clips_32.rkc    7.9 MiB: the same with 32 clips
            rkc_late_reject.rkc      one clip of 3 x 64 MiB of zeros, then a bone attached to
                                     voxel clip 1 (absent): rejected after everything inflated
            rkc_frame_clips_64.rkc   64 copies of rvc_1m.rvc (2^20 frames each) in one VCLP
            rkc_key_clips_4.rkc      4 clips, each one 64 MiB key frame (4096 x 2048 x 1)
  abort     vfp_checker_128.vfp      a valid 128^3 VOX0 checkerboard, 2.1 MB (also: output)
            (and stdin = /dev/zero, written by no file: `dump -`, `compile -`)
  info-cpu  rkc_zero_bones_clip.rkc  91 bytes: no bones, one skeletal clip of 2^32 - 1 frames
            rkc_zero_bones_8clips.rkc 231 bytes: eight such clips
  info-mem  rkc_bones_65536.rkc      4.6 MB: 65,536 bones of 70 bytes
            rkc_dup_chunks_1m.rkc    8 MiB: 1,048,575 empty unknown chunks
            kv6_217k.kv6             1.7 MB: a valid 64 x 64 x 53 KV6 of 217,088 voxels
  output    vfp_checker_rig_128.vfp  the checkerboard with a one-joint rig and a 1 s clip
            vfp_checker_64.vfp       a 64^3 checkerboard: 786,432 quads, outputs under the cap
            rkc_mesh_names.rkc       5.9 MB: 65,536 empty meshes, 98,304 static attachments
            vfp_joint_confetti.vfp   7.8 MiB: 330,000 lone voxels, each bound to its own joint
                                     in its 64^3 tile (the bone-aware mesher's chains)
            compile_4096.json        81 bytes: "size": [4096, 4096, 16]
            compile_flat_8m.json     8 MiB: one flat array of 4,194,303 zeros
            compile_flat_20m.json    20 MiB: 10,485,759 zeros (over the JSON value limit)
            compile_nul.json         a valid document followed by a NUL byte and garbage

Usage: scripts/make-bombs.py OUTDIR [NAME...]   (no NAME: every file; NAME may be a class)
"""
import hashlib
import os
import struct
import sys
import zlib


def deflate(raw):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw DEFLATE (RVC chunk flag bit 0)
    return c.compress(raw) + c.flush()


# ---- RVC (an RVCL clip: magic, u16 version 2, chunks tag | flags u8 | len u32 | payload) ----

def chunk(tag, raw, deflated=True):
    if not deflated:
        return tag + b'\x00' + struct.pack('<I', len(raw)) + raw
    payload = struct.pack('<I', len(raw)) + deflate(raw)
    return tag + b'\x01' + struct.pack('<I', len(payload)) + payload


def meta(frames, dims=(1, 1, 1)):
    # dims 3 x u32, pivot 3 x f32, voxel_world_size f32, loop_mode u8, default_frame_ms u32,
    # frame_count u32 (37 bytes)
    return struct.pack('<3I3ffBII', *dims, 0.5, 0.5, 0.5, 1.0, 0, 33, frames)


EMPTY_KEY = b'\x00' + struct.pack('<5I', 1, 0, 2, 0, 0) + struct.pack('<I', 0)  # 1x1x1, empty


def rvc(frames, time=False):
    frms = EMPTY_KEY + (b'\x01' + struct.pack('<I', 0)) * (frames - 1)
    out = b'RVCL' + struct.pack('<H', 2) + chunk(b'META', meta(frames)) + chunk(b'FRMS', frms)
    if time:
        out += chunk(b'TIME', struct.pack('<I', 33) * frames)
    return out


_ZEROS_64M = None


def zero_chunk():
    """An unknown chunk of 64 MiB of deflated zeros (the per-chunk cap; ~65 KB stored)."""
    global _ZEROS_64M
    if _ZEROS_64M is None:
        _ZEROS_64M = chunk(b'ZERO', bytes(64 << 20))
    return _ZEROS_64M


def zero_clip(chunks):
    """A valid one-frame clip (META and FRMS stored raw) followed by `chunks` unknown chunks of
    64 MiB of zeros each: 4 spend exactly the 256 MiB RVC budget."""
    return (b'RVCL' + struct.pack('<H', 2) + chunk(b'META', meta(1), deflated=False)
            + chunk(b'FRMS', EMPTY_KEY, deflated=False) + zero_chunk() * chunks)


def key_clip():
    """One valid key frame of 4096 x 2048 x 1 (64 MiB of FRMS once inflated), all empty."""
    cols = 4096 * 2047
    frms = (b'\x00' + struct.pack('<I', cols) + bytes(4 * cols) + struct.pack('<I', cols + 1)
            + bytes(4 * (cols + 1)) + struct.pack('<I', 0))
    return (b'RVCL' + struct.pack('<H', 2) + chunk(b'META', meta(1, (4096, 2047, 1)))
            + chunk(b'FRMS', frms))


# ---- RKCH (magic, u16 version 3, chunks tag | len u32 | payload) ----

IDENTITY_XFORM = struct.pack('<10f', 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
ROOT_HINGE = struct.pack('<i12f2hB7x', -1, *([0.0] * 12), 0, 0, 0)  # 64 bytes


def rkc_chunk(tag, payload):
    return tag + struct.pack('<I', len(payload)) + payload


def rkc(clips=(), bones=b'\x00' * 4, clps=b'\x00' * 4, extra=b''):
    """META (empty name, root 0), empty MSHS, BONS, CLPS, then VCLP unless clips is None."""
    out = (b'RKCH' + struct.pack('<H', 3) + rkc_chunk(b'META', b'\x00' * 14)
           + rkc_chunk(b'MSHS', b'\x00' * 4) + rkc_chunk(b'BONS', bones)
           + rkc_chunk(b'CLPS', clps))
    if clips is not None:
        out += rkc_chunk(b'VCLP', struct.pack('<I', len(clips))
                         + b''.join(struct.pack('<I', len(x)) + x for x in clips))
    return out + extra


def bone(attachments=()):
    """name_len 0, attach_count, attachments (mesh_kind u16, index u32, xform, speed, phase)."""
    out = struct.pack('<HI', 0, len(attachments))
    for kind, index in attachments:
        out += struct.pack('<HI', kind, index) + IDENTITY_XFORM + struct.pack('<iI', 256, 0)
    return out + ROOT_HINGE


def mesh_names():
    """65,536 empty KV6 meshes and 96 bones of 1,024 static attachments each (98,304 in all):
    a valid character whose OBJ group names were found in meshes x attachments steps."""
    kv6 = b'Kvxl' + struct.pack('<3I3fI', 1, 1, 1, 0, 0, 0, 0) + struct.pack('<IH', 0, 0)
    mshs = struct.pack('<I', 65536) + (struct.pack('<I', len(kv6)) + kv6) * 65536
    bones = []
    for b in range(96):
        attachments = [(0, (b * 1024 + k) % 65536) for k in range(1024)]
        parent = -1 if b == 0 else 0
        hinge = struct.pack('<i12f2hB7x', parent, *([0.0] * 12), 0, 0, 0)
        record = bone(attachments)[:-64] + hinge
        bones.append(struct.pack('<H', 1) + b'b' + record[2:])
    return (b'RKCH' + struct.pack('<H', 3) + rkc_chunk(b'META', b'\x00' * 14)
            + rkc_chunk(b'MSHS', mshs) + rkc_chunk(b'BONS', struct.pack('<I', 96) + b''.join(bones)))


def zero_bone_clips(n):
    """CLPS of n skeletal clips with numfrm 2^32 - 1 and numhin 0 (hazard H2)."""
    clip = struct.pack('<HHI', 0, 0, 12) + struct.pack('<III', 0xFFFFFFFF, 0, 0)
    return struct.pack('<I', n) + clip * n


def kv6_columns(xs, ys, per_column):
    voxels = b''.join(struct.pack('<IHBB', 0x80FF8040, z, 0x3F, 0)
                      for _ in range(xs * ys) for z in range(per_column))
    return (b'Kvxl' + struct.pack('<3I3fI', xs, ys, per_column, xs / 2, ys / 2, per_column / 2,
                                  xs * ys * per_column)
            + voxels + struct.pack('<I', ys * per_column) * xs
            + struct.pack('<H', per_column) * (xs * ys))


# ---- VFP (44-byte header, 16-byte section headers; docs/spec/vfp.md) ----

def vfp_section(tag, payload, flags=0):
    return tag + struct.pack('<iBBHI', -1, 0, flags, 0, len(payload)) + payload


def checker(n):
    """A VOX0 payload of n^3 voxels, palette index 1 where x + y + z is even."""
    even = bytes([1, 0]) * (n // 2)
    odd = bytes([0, 1]) * (n // 2)
    rows = b''.join((even if (y + z) % 2 == 0 else odd) for z in range(n) for y in range(n))
    palette = struct.pack('<8B', 0, 0, 0, 0, 200, 120, 40, 255)
    return struct.pack('<BBHHHHH', 1, 0, 2, n, n, n, 0) + palette + rows


def vfp(vox0, rig=False):
    source = hashlib.sha256(vox0).digest()
    sections = [vfp_section(b'VOX0', vox0, flags=1)]
    if rig:
        joint = struct.pack('<Hh3f4f3fB3x', 0, -1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 4) + b'root'
        skel = struct.pack('<BBH', 1, 0, 1) + source + joint
        skeleton = hashlib.sha256(skel).digest()
        vskn = struct.pack('<BBHHI', 1, 1, 0, 0, 0) + source + skeleton
        key = struct.pack('<I3f4f3f', 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
        key_end = struct.pack('<I3f4f3f', 1000, 0, 0, 4, 0, 0, 0, 1, 1, 1, 1)
        clip = struct.pack('<HHIB3x', 1, 1, 1000, 4) + b'walk' + struct.pack('<HHI', 0, 0, 2)
        anim = struct.pack('<BBH', 1, 0, 1) + source + skeleton + clip + key + key_end
        sections += [vfp_section(b'SKEL', skel), vfp_section(b'VSKN', vskn),
                     vfp_section(b'ANIM', anim)]
    header = b'VFP\x00' + struct.pack('<BBHI', 1, 3, 0, len(sections)) + source
    return header + b''.join(sections)


def joint_confetti():
    """A valid 320 x 320 x 48 rig (25 tiles of 64^3) whose solid voxels stand alone on even
    coordinates, 330,000 of them each bound to its own joint within its tile (16,384 joints):
    3.7 M quads, but one bone-aware chain per (tile, joint)."""
    sx, sy, sz = 320, 320, 48
    grid = bytearray(sx * sy * sz)
    bindings, per_tile = [], {}
    for z in range(0, sz, 2):
        for y in range(0, sy, 2):
            for x in range(0, sx, 2):
                i = x + sx * (y + sy * z)
                grid[i] = 1
                tile = (x // 64, y // 64)
                k = per_tile.get(tile, 0)
                per_tile[tile] = k + 1
                bindings.append((i, 1 + k % 16383))
    bindings = sorted(bindings)[:330000]
    palette = struct.pack('<8B', 0, 0, 0, 0, 200, 120, 40, 255)
    vox0 = struct.pack('<BBHHHHH', 1, 0, 2, sx, sy, sz, 0) + palette + bytes(grid)
    source = hashlib.sha256(vox0).digest()
    joints = b''.join(struct.pack('<Hh3f4f3fB3x', j, -1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0)
                      for j in range(16384))
    skel = struct.pack('<BBH', 1, 0, 16384) + source + joints
    skeleton = hashlib.sha256(skel).digest()
    vskn = (struct.pack('<BBHHI', 1, 1, 0, 0, len(bindings)) + source + skeleton
            + b''.join(struct.pack('<IH', i, j) for i, j in bindings))
    sections = [vfp_section(b'VOX0', vox0, flags=1), vfp_section(b'SKEL', skel),
                vfp_section(b'VSKN', vskn)]
    return b'VFP\x00' + struct.pack('<BBHI', 1, 3, 0, len(sections)) + source + b''.join(sections)


def flat_json(values):
    return b'[' + b','.join([b'0'] * values) + b']'


# name -> (class, writer); classes are the docs/robustness.md table rows.
BOMBS = {
    'rvc_1m.rvc': ('count', lambda: rvc(1 << 20)),
    'rvc_200001.rvc': ('count', lambda: rvc(200001)),
    'rvc_1m_time.rvc': ('count', lambda: rvc(1 << 20, True)),
    'rkc_vclp_1m.rkc': ('count', lambda: rkc([rvc(1 << 20)])),
    'rkc_20000_clips.rkc': ('count', lambda: rkc([rvc(4)] * 20000)),
    'rkc_zero_clips_8.rkc': ('inflate', lambda: rkc([zero_clip(4)] * 8)),
    'rkc_zero_clips_32.rkc': ('inflate', lambda: rkc([zero_clip(4)] * 32)),
    'rkc_late_reject.rkc': ('inflate', lambda: rkc(
        [zero_clip(3)], bones=struct.pack('<I', 1) + bone([(1, 1)]))),
    'rkc_frame_clips_64.rkc': ('inflate', lambda: rkc([rvc(1 << 20)] * 64)),
    'rkc_key_clips_4.rkc': ('inflate', lambda: rkc([key_clip()] * 4)),
    'vfp_checker_128.vfp': ('output', lambda: vfp(checker(128))),
    'vfp_checker_rig_128.vfp': ('output', lambda: vfp(checker(128), rig=True)),
    'vfp_checker_64.vfp': ('output', lambda: vfp(checker(64))),
    'rkc_zero_bones_clip.rkc': ('info-cpu', lambda: rkc(None, clps=zero_bone_clips(1))),
    'rkc_zero_bones_8clips.rkc': ('info-cpu', lambda: rkc(None, clps=zero_bone_clips(8))),
    'rkc_bones_65536.rkc': ('info-mem', lambda: rkc(bones=struct.pack('<I', 65536)
                                                    + bone() * 65536)),
    'rkc_dup_chunks_1m.rkc': ('info-mem', lambda: rkc(extra=b'DUPE\x00\x00\x00\x00'
                                                      * ((8 << 20) // 8 - 10))),
    'kv6_217k.kv6': ('info-mem', lambda: kv6_columns(64, 64, 53)),
    'rkc_mesh_names.rkc': ('output', mesh_names),
    'vfp_joint_confetti.vfp': ('output', joint_confetti),
    'compile_4096.json': ('output', lambda: b'{"vfp": "1.3", "size": [4096, 4096, 16], '
                                            b'"palette": [[0, 0, 0, 0]], "voxels": []}'),
    'compile_flat_8m.json': ('output', lambda: flat_json((8 << 20) // 2 - 1)),
    'compile_flat_20m.json': ('output', lambda: flat_json((20 << 20) // 2 - 1)),
    'compile_nul.json': ('output', lambda: b'{"size": [1, 1, 1], "palette": [[0, 0, 0, 0], '
                                           b'[255, 0, 0, 255]], "voxels": [[0, 0, 0, 1]]}'
                                           b'\x00garbage'),
}


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: make-bombs.py OUTDIR [NAME-OR-CLASS...]')
    out = sys.argv[1]
    wanted = sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    for name, (cls, make) in BOMBS.items():
        if wanted and name not in wanted and cls not in wanted:
            continue
        data = make()
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
        print(f'{name}: {len(data)} bytes ({cls})')


if __name__ == '__main__':
    main()
