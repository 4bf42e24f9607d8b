#!/usr/bin/env python3
"""Writes the amplification files (docs/robustness.md) into OUTDIR:

  rvc_1m.rvc        7.7 KB: one empty key frame + 2^20 - 1 empty delta frames, deflated
  rvc_200001.rvc    1.5 KB: the same with 200,001 frames
  rvc_1m_time.rvc   the 2^20-frame clip plus a deflated TIME chunk of 2^20 values
  rkc_vclp_1m.rkc   rvc_1m.rvc as the one VCLP clip of a minimal RKCH
  rkc_20000_clips.rkc  20,000 tiny (4-frame) clips in one VCLP: the worst inline-entry ratio

Usage: scripts/make-bombs.py OUTDIR. Standard library only (struct, zlib).
"""
import os
import struct
import sys
import zlib


def deflate(raw):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw DEFLATE, docs/spec/rvc.md#file-framing
    return c.compress(raw) + c.flush()


def chunk(tag, raw):
    payload = struct.pack('<I', len(raw)) + deflate(raw)
    return tag + b'\x01' + struct.pack('<I', len(payload)) + payload


def rvc(frames, time=False):
    meta = struct.pack('<3I3ffBII', 1, 1, 1, 0.5, 0.5, 0.5, 1.0, 0, 33, frames)
    key = b'\x00' + struct.pack('<5I', 1, 0, 2, 0, 0) + struct.pack('<I', 0)
    frms = key + (b'\x01' + struct.pack('<I', 0)) * (frames - 1)
    out = b'RVCL' + struct.pack('<H', 2) + chunk(b'META', meta) + chunk(b'FRMS', frms)
    if time:
        out += chunk(b'TIME', struct.pack('<I', 33) * frames)
    return out


def rkc(clips):
    def c(tag, p):
        return tag + struct.pack('<I', len(p)) + p
    vclp = struct.pack('<I', len(clips)) + b''.join(struct.pack('<I', len(x)) + x for x in clips)
    return (b'RKCH' + struct.pack('<H', 3) + c(b'META', b'\x00' * 14) + c(b'MSHS', b'\x00' * 4)
            + c(b'BONS', b'\x00' * 4) + c(b'CLPS', b'\x00' * 4) + c(b'VCLP', vclp))


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: make-bombs.py OUTDIR')
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    files = {
        'rvc_1m.rvc': rvc(1 << 20),
        'rvc_200001.rvc': rvc(200001),
        'rvc_1m_time.rvc': rvc(1 << 20, True),
        'rkc_vclp_1m.rkc': rkc([rvc(1 << 20)]),
        'rkc_20000_clips.rkc': rkc([rvc(4)] * 20000),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
        print(f'{name}: {len(data)} bytes')


if __name__ == '__main__':
    main()
