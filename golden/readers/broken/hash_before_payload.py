#!/usr/bin/env python3
"""A deliberately broken reader: the Python example reader, but it checks the header's sourceHash
before it decodes the VOX0 payload (FP-7 steps 6 and 7 swapped), so a file whose VOX0
payload is broken *and* whose hash no longer matches is rejected with vfp.source_hash instead of
the payload's own code. The fuzz-reader proof (golden/tests/fuzz_reader_proof.sh) must find it."""
import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import voxrig_reader  # noqa: E402

_decode_vox0 = voxrig_reader.decode_vox0


def _hash_first(payload, base, limits):
    # Step 7 reached early: the header's sourceHash sits at file offset 12..44, and `payload`
    # is a view into the file, so the whole file is its base object.
    data = payload.obj
    if hashlib.sha256(payload).digest() != bytes(data[12:44]):
        raise voxrig_reader.Reject("vfp.source_hash", 12, "header/sourceHash")
    return _decode_vox0(payload, base, limits)


voxrig_reader.decode_vox0 = _hash_first

if __name__ == "__main__":
    sys.exit(voxrig_reader.main())
