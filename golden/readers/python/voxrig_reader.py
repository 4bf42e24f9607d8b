#!/usr/bin/env python3
"""voxrig_reader.py — an independent reader of VFP 1.3 + Voxel Rig v1 (Python 3, stdlib only).

Written from docs/spec/, docs/spec/dump.md and reference/include/voxrig/errors.def
only (never from the C++ sources), so that where it disagrees with the reference one of the two is
wrong and the spec decides. It speaks the conformance reader protocol (docs/spec/protocols.md):

    voxrig_reader.py dump         --profile P FILE      accept: exit 0, JSON dump on stdout
                                                         reject: exit 1, {"error": code, ...}
    voxrig_reader.py roundtrip    --profile P IN OUT    parse, serialize in file order (D1)
    voxrig_reader.py canonicalize --profile P IN OUT    parse, serialize in canonical order (D1)
    voxrig_reader.py pose --profile P --clip C --t T [--policy step|linear|slerp]
                     [--mode clamp|loop] FILE            {"model": [[16 numbers], ...]}
                                                         (voxrig_pose.py, docs/spec/protocols.md)
    voxrig_reader.py compile IN.json OUT.vfp             JSON compile input -> VFP bytes
                                                         (voxrig_compile.py, docs/spec/protocols.md)

Profiles: vfp-static, vfp-rig. A file whose first four bytes are not "VFP\\0" (or that has fewer
than four bytes) is rejected with file.unknown_format under any profile. Usage errors exit 2.

Check order (docs/spec/vfp.md#FP-7, D11, D13, refined by docs/spec/vfp.md):
  1 file header, field by field       5 unknown REQUIRED sections, unsupported codecs
  2 each section header in file order 6 the VOX0 payload
  3 trailing bytes                    7 sourceHash
  4 VOX0 present, unique, its header  8 (vfp-rig) rig duplicates, rig section headers,
                                        completeness, SKEL, VSKN, ANIM payloads

Floats are kept as their 32-bit patterns (int) from file to dump to writer: nothing goes
through a conversion that could quiet a NaN or lose -0.0 (D5).
"""

import hashlib
import json
import math
import struct
import sys

from voxrig_mutants import check_active, mutant

# ---------------------------------------------------------------------------------------------
# Constants from docs/spec/

MAGIC = b"VFP\x00"
SECTION_HEADER_SIZE = 16
REQUIRED = 0x01
TAG_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
CACHE_TAGS = ("MSH0", "PMSH", "RND0", "PRVW", "ANM0")
RIG_TAGS = ("SKEL", "VSKN", "ANIM")
PROFILES = ("vfp-static", "vfp-rig")
OTHER_PROFILES = ("rkc-strict", "rkc-compat")  # valid names, but not this reader's family

# Byte layouts (docs/spec/), little-endian, packed:
#   file header 44 B   magic[4] versionMajor:u8 versionMinor:u8 headerFlags:u16
#                      sectionCount:u32 sourceHash[32]
#   section header 16 B tag[4] chunkId:i32 codec:u8 flags:u8 reserved:u16 length:u32
#   VOX0  12 B + 4*paletteCount + sx*sy*sz   <BBHHHHH> version reserved paletteCount sx sy sz
#                                            reserved, then RGBA8 palette, then voxels
#   SKEL  36 B <BBH32s>, joints <Hh3f4f3fB3x> = 48 B + name
#   VSKN  74 B <BBHHI32s32s>, records <IH> = 6 B
#   ANIM  68 B <BBH32s32s>, clips <HHIB3x> = 12 B + name, tracks <HHI> = 8 B,
#         keys <I3f4f3f> = 44 B
VSKN_HEADER_SIZE = 74
VSKN_RECORD_SIZE = 6
ANIM_KEY_SIZE = 44


class Limits:
    """docs/spec/limits.md defaults (VFP family)."""

    vfp_sections = 4096
    vox0_voxels = 1 << 28
    skel_joints = 16384
    anim_clips = 65535
    anim_keys_per_track = 1 << 20
    anim_keys_total = 1 << 24


# ---------------------------------------------------------------------------------------------
# Errors and the bounded reader


class Reject(Exception):
    """A verdict of reject: a stable code (errors.def), an absolute file offset and a path."""

    def __init__(self, code, offset=None, path=None, detail=""):
        super().__init__(code)
        self.code = code
        self.offset = offset
        self.path = path
        self.detail = detail

    def to_json(self):
        out = {"error": self.code}
        if self.offset is not None:
            out["offset"] = self.offset
        if self.path is not None:
            out["path"] = self.path
        return out


class Reader:
    """Little-endian reads bounded to data[start:end]; offsets are absolute file offsets.

    Every read is all-or-nothing; a short read raises Reject(truncated code) at the offset of
    the read that failed.
    """

    def __init__(self, data, start, end, truncated):
        self.data = data
        self.pos = start
        self.end = end
        self.truncated = truncated

    def remaining(self):
        return self.end - self.pos

    def _take(self, n, path):
        if n > self.end - self.pos:
            raise Reject(self.truncated, self.pos, path,
                         "need %d byte(s), %d remain" % (n, self.end - self.pos))
        p = self.pos
        self.pos += n
        return p

    def u8(self, path):
        p = self._take(1, path)
        return self.data[p]

    def u16(self, path):
        p = self._take(2, path)
        return self.data[p] | (self.data[p + 1] << 8)

    def i16(self, path):
        v = self.u16(path)
        return v - 0x10000 if v >= 0x8000 else v

    def u32(self, path):
        p = self._take(4, path)
        return int.from_bytes(self.data[p:p + 4], "little")

    def i32(self, path):
        v = self.u32(path)
        return v - 0x100000000 if v >= 0x80000000 else v

    def f32(self, path):
        """A binary32 as its bit pattern (int)."""
        return self.u32(path)

    def raw(self, n, path):
        p = self._take(n, path)
        return bytes(self.data[p:p + n])

    def check_table(self, count, elem_size, path, at):
        """A fixed-size table checked as a whole right after its count (and the count's limit,
        D13): count * elem_size must not exceed the bytes that remain."""
        if count * elem_size > self.remaining():
            raise Reject(self.truncated, at, path,
                         "count %d needs more than the %d byte(s) remaining"
                         % (count, self.remaining()))


# ---------------------------------------------------------------------------------------------
# Floats (D5, D15, D17)


def f32_is_finite(bits):
    return (bits >> 23) & 0xFF != 0xFF


def f32_value(bits):
    """The binary32 as a Python float (exact: every binary32 is a double). Finite values only
    are used numerically; non-finite values never go through here on the way to the dump."""
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f32_bits_of(x):
    """binary32 bits of the double x rounded to nearest (struct does round-to-nearest-even);
    None when it rounds to infinity (struct refuses: OverflowError)."""
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return None


def f32_text(bits):
    """D17: the shortest decimal that reads back to the same binary32, always with a '.' or an
    exponent; non-finite values as "f32:0x%08X". Returns the JSON token (quotes included for
    the string form)."""
    if not f32_is_finite(bits):
        return '"f32:0x%08X"' % bits
    v = f32_value(bits)
    if v == 0.0:
        return "-0.0" if bits >> 31 else "0.0"
    text = None
    for p in range(1, 10):  # 9 significant digits always round-trip a binary32
        cand = "%.*g" % (p, v)
        if f32_bits_of(float(cand)) == bits:
            text = cand
            break
    if text is None:  # unreachable: %.9g round-trips every finite binary32
        text = "%.9g" % v
    return _spell_float(text, v)


def _spell_float(text, v):
    """Normalises %g output to the dump's spelling: fixed notation when it is not longer than
    scientific (the std::to_chars shortest rule), else d.ddde±XX (two exponent digits at least);
    '.0' added to bare integers. An integer in fixed notation is spelled with its exact digits
    (167643632.0, not 167643630.0: same length, both read back to the same binary32; the
    reference prints the exact value, so this keeps dumps textually equal too)."""
    neg = text.startswith("-")
    if neg:
        text = text[1:]
    if "e" in text:
        mant, exp = text.split("e")
        exp = int(exp)
    else:
        mant, exp = text, 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    digits = (ip + fp).lstrip("0")
    # decimal point position: value = 0.digits * 10^point
    if ip.strip("0"):
        point = len(ip.lstrip("0")) + exp
    else:
        lead = len(fp) - len(fp.lstrip("0"))
        point = -lead + exp
    digits = digits.rstrip("0") or "0"
    n = len(digits)
    # scientific form: d[.ddd]e±XX
    sexp = point - 1
    sci = digits[0] + ("." + digits[1:] if n > 1 else "") + "e" + ("-" if sexp < 0 else "+") \
        + "%02d" % abs(sexp)
    # fixed form
    if point <= 0:
        fixed = "0." + "0" * (-point) + digits
    elif point >= n:
        fixed = str(int(abs(v)))  # v is an integer here: as many digits as digits + zeros
    else:
        fixed = digits[:point] + "." + digits[point:]
    out = fixed if len(fixed) <= len(sci) else sci
    if "." not in out and "e" not in out:
        out += ".0"
    return ("-" if neg else "") + out


def is_unit_quaternion(q):
    """D15: sqrt(((x*x + y*y) + z*z) + w*w) in double, |n - 1| <= 1e-3. Python floats are IEEE
    doubles and CPython never contracts into FMA. Finite components only."""
    x, y, z, w = (f32_value(b) for b in q)
    if mutant("D15.squared_norm"):
        return abs(((x * x + y * y) + z * z) + w * w - 1.0) <= 2e-3
    if mutant("D15.binary32"):
        f = f32_round
        s = f(f(f(f(x * x) + f(y * y)) + f(z * z)) + f(w * w))
        return abs(f(f(math.sqrt(s)) - 1.0)) <= f(1e-3)
    if mutant("D15.right_to_left_sum"):
        n = math.sqrt(x * x + (y * y + (z * z + w * w)))
    elif mutant("D15.pairwise_sum"):
        n = math.sqrt((x * x + y * y) + (z * z + w * w))
    else:
        n = math.sqrt(((x * x + y * y) + z * z) + w * w)
    return abs(n - 1.0) <= 1e-3


def f32_round(x):
    """x rounded to binary32 (a reading mutant computes the quaternion norm in binary32)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def is_valid_utf8(b):
    """D6 well-formedness (Unicode Table 3-7). CPython's strict UTF-8 decoder rejects overlongs,
    surrogates, values above U+10FFFF and the bytes C0, C1, F5-FF; U+0000 and noncharacters
    pass. test_reader.py pins this down."""
    try:
        b.decode("utf-8", "strict")
        return True
    except UnicodeDecodeError:
        return False


# ---------------------------------------------------------------------------------------------
# Model


# Plain records, positional in the order the decoders fill them, then keyword defaults; compared
# by identity and slotted (a large rig has many keys). Not dataclasses: importing that module
# costs more than a whole small dump, and the conformance runner starts this reader per case.
def _record(name, fields, **defaults):
    names = tuple(fields.split()) + tuple(defaults)

    def __init__(self, *args):
        for n, v in zip(names, args):
            setattr(self, n, v)
        for n in names[len(args):]:
            setattr(self, n, defaults[n])
    return type(name, (), {"__slots__": names, "__init__": __init__})


# tag: 4 chars A-Z0-9; payload: a memoryview into the file bytes, as stored (no copy);
# body: Vox0 / Skel / Vskn / Anim once decoded.
Section = _record("Section", "index tag chunk_id codec flags header_offset payload_offset payload",
                  body=None)
# size: (sx, sy, sz); palette: [(r, g, b, a)]; voxels: a memoryview, x-fastest (no copy).
Vox0 = _record("Vox0", "size palette voxels")
Joint = _record("Joint", "id parent t r s name")
Skel = _record("Skel", "base_source_hash joints")
# bindings: [(voxelOffset, jointId)]
Vskn = _record("Vskn", "default_joint base_source_hash skeleton_hash bindings")
Key = _record("Key", "time_ms t r s")
Track = _record("Track", "joint keys")
Clip = _record("Clip", "id duration_ms name tracks")
Anim = _record("Anim", "base_source_hash skeleton_hash clips")


class VfpFile(_record("VfpFile", "version_minor source_hash sections profile")):
    __slots__ = ()

    def first(self, tag):
        for s in self.sections:
            if s.tag == tag:
                return s
        return None


# ---------------------------------------------------------------------------------------------
# Decoding (FP-7 steps)


def is_vfp(data):
    return len(data) >= 4 and bytes(data[:4]) == MAGIC


def decode(data, profile, limits=Limits):
    """Decodes a whole VFP file under `profile`; raises Reject on the first failed check."""
    if not is_vfp(data):
        raise Reject("file.unknown_format", 0, "")
    rig = profile == "vfp-rig"

    # Step 1: the file header, field by field.
    if mutant("VFP-HDR-1.whole_header_first") and len(data) < 44:
        raise Reject("vfp.header.truncated", len(data), "header")
    r = Reader(data, 4, len(data), "vfp.header.truncated")
    at = r.pos
    if r.u8("header/versionMajor") != 1:
        raise Reject("vfp.header.version_major", at, "header/versionMajor")
    version_minor = r.u8("header/versionMinor")  # VFP-HDR-4: any value
    if mutant("VFP-HDR-4.minor_must_be_3") and version_minor != 3:
        raise Reject("vfp.header.version_major", 5, "header/versionMinor")
    at = r.pos
    if r.u16("header/headerFlags") != 0:
        raise Reject("vfp.header.flags", at, "header/headerFlags")
    at = r.pos
    section_count = r.u32("header/sectionCount")
    if section_count > limits.vfp_sections or (
            mutant("LIM-1.limit_exclusive") and section_count == limits.vfp_sections):
        raise Reject("vfp.limit.sections", at, "header/sectionCount")
    source_hash = r.raw(32, "header/sourceHash")
    if mutant("FP-7.sections_counted_up_front") and section_count * 16 > r.remaining():
        raise Reject("vfp.section.truncated", r.pos, "section")

    # Step 2: each section header in file order (lazily: a short header is found where it sits).
    # Payloads are zero-copy views: a 2^28-voxel VOX0 is held once, as the file.
    view = memoryview(data)
    sections = []
    r.truncated = "vfp.section.truncated"
    for i in range(section_count):
        path = "section[%d]" % i
        h = r.pos
        if mutant("VFP-SEC-1.tag_before_length") and r.remaining() >= 4 and any(
                c not in TAG_CHARS for c in data[h:h + 4]):
            raise Reject("vfp.section.bad_tag", h, path + "/tag")
        if r.remaining() < SECTION_HEADER_SIZE:
            raise Reject("vfp.section.truncated", h, path)
        tag_bytes = r.raw(4, path + "/tag")
        if mutant("VFP-SEC-2.printable_tag"):
            if any(not 0x20 <= c <= 0x7E for c in tag_bytes):
                raise Reject("vfp.section.bad_tag", h, path + "/tag")
        elif any(c not in TAG_CHARS for c in tag_bytes):
            raise Reject("vfp.section.bad_tag", h, path + "/tag")
        tag = tag_bytes.decode("ascii")
        path = "%s[%d]" % (tag, i)
        if mutant("FP-7.payload_fit_first") and int.from_bytes(
                data[h + 12:h + 16], "little") > r.end - (h + 16):
            raise Reject("vfp.section.payload_truncated", h + 12, path + "/length")
        chunk_id = r.i32(path)
        if chunk_id < -1:
            raise Reject("vfp.section.bad_chunk_id", h + 4, path + "/chunkId")
        codec = r.u8(path)
        flags = r.u8(path)
        if flags & ~REQUIRED & 0xFF:
            raise Reject("vfp.section.reserved_flags", h + 9, path + "/flags")
        if r.u16(path) != 0:
            raise Reject("vfp.section.reserved", h + 10, path + "/reserved")
        length = r.u32(path)
        if length > r.remaining():
            raise Reject("vfp.section.payload_truncated", h + 12, path + "/length")
        p = r.pos
        payload = view[p:p + length]
        r.pos += length
        if mutant("FP-7.required_at_scan") and flags & REQUIRED and tag != "VOX0" and (
                tag not in CACHE_TAGS and not (rig and tag in RIG_TAGS)):
            raise Reject("vfp.section.unknown_required", h, path)
        sections.append(Section(i, tag, chunk_id, codec, flags, h, p, payload))

    # Step 3: trailing bytes.
    trailing = r.pos if r.remaining() else None
    if trailing is not None and not mutant("FP-7.trailing_after_vox0"):
        raise Reject("vfp.trailing_bytes", trailing, "")

    # Step 4: VOX0 present and unique, then its section header.
    vox = [s for s in sections if s.tag == "VOX0"]
    if not vox:
        raise Reject("vfp.vox0.missing", len(data), "")
    if len(vox) > 1 and not mutant("VFP-VOX0-2.header_before_duplicate"):
        raise Reject("vfp.vox0.duplicate", vox[1].header_offset, "VOX0[%d]" % vox[1].index)
    v = vox[0]
    vpath = "VOX0[%d]" % v.index
    header_checks = [
        (v.chunk_id != -1, "vfp.vox0.bad_chunk_id", 4, "/chunkId"),
        (v.codec != 0, "vfp.vox0.bad_codec", 8, "/codec"),
        (not v.flags & REQUIRED, "vfp.vox0.not_required", 9, "/flags"),
    ]
    if mutant("VFP-VOX0-3.codec_before_chunk_id"):
        header_checks[0:2] = header_checks[1::-1]
    if mutant("VFP-VOX0-4.required_before_codec"):
        header_checks[1:3] = header_checks[2:0:-1]
    for failed, code, at, field in header_checks:
        if failed:
            raise Reject(code, v.header_offset + at, vpath + field)
    if len(vox) > 1:
        raise Reject("vfp.vox0.duplicate", vox[1].header_offset, "VOX0[%d]" % vox[1].index)

    # Step 5: unknown REQUIRED sections and unsupported codecs on REQUIRED sections, in file
    # order. Under vfp-rig the rig sections are left to step 8 (D11); under vfp-static they are
    # unknown sections like any other (FP-3).
    for s in sections:
        spath = "%s[%d]" % (s.tag, s.index)
        known = s.tag == "VOX0" or s.tag in CACHE_TAGS or (rig and s.tag in RIG_TAGS)
        if mutant("VFP-SEC-8.optional_codec_checked") and not known and s.codec != 0 \
                and not s.flags & REQUIRED:
            raise Reject("vfp.section.unsupported_codec", s.header_offset + 8, spath + "/codec")
        if mutant("FP-3.static_checks_rig_codec") and not rig and s.tag in RIG_TAGS \
                and s.codec != 0 and not s.flags & REQUIRED:
            raise Reject("rig.section_header", s.header_offset + 8, spath + "/codec")
        if s.tag == "VOX0" or not s.flags & REQUIRED:
            continue
        if s.tag in RIG_TAGS and (rig or mutant("D11.static_skips_required_rig")):
            continue
        if s.tag not in CACHE_TAGS:
            raise Reject("vfp.section.unknown_required", s.header_offset, spath)
        if s.codec != 0 and not mutant("FP-4.required_cache_any_codec"):
            raise Reject("vfp.section.unsupported_codec", s.header_offset + 8, spath + "/codec")

    # Steps 6 and 7: the VOX0 payload, then sourceHash.
    hash_ok = hashlib.sha256(v.payload).digest() == source_hash
    if not hash_ok and mutant("FP-7.hash_before_vox0_payload"):
        raise Reject("vfp.source_hash", 12, "header/sourceHash")
    v.body = decode_vox0(v.payload, v.payload_offset, limits)
    if not hash_ok:
        raise Reject("vfp.source_hash", 12, "header/sourceHash")
    if trailing is not None:
        raise Reject("vfp.trailing_bytes", trailing, "")

    model = VfpFile(version_minor, source_hash, sections, profile)
    if rig:
        decode_rig(model, v, limits)
    return model


def decode_vox0(payload, base, limits):
    """VOX0 payload: fields in byte order; the voxel limit and the exact length as soon as
    sizeZ (the last input of both) is read."""
    r = Reader(payload, 0, len(payload), "vox0.truncated")

    def fail(code, rel, path):
        raise Reject(code, base + rel, "VOX0/" + path)

    def rd(fn, name):
        try:
            return fn(name)
        except Reject as e:
            e.offset += base
            e.path = "VOX0/" + name
            raise

    if mutant("VOX0-1.whole_header_first") and len(payload) < 12:
        fail("vox0.truncated", len(payload), "header")
    if rd(r.u8, "version") != 1:
        fail("vox0.bad_version", 0, "version")
    if rd(r.u8, "reserved") != 0:
        fail("vox0.reserved", 1, "reserved")
    pc = rd(r.u16, "paletteCount")
    if not 1 <= pc <= 256:
        fail("vox0.palette_count", 2, "paletteCount")
    size = []
    for k, name in enumerate(("sizeX", "sizeY", "sizeZ")):
        s = rd(r.u16, name)
        if s == 0 and not mutant("VOX0-5.zero_size_after_all_sizes"):
            fail("vox0.zero_size", 4 + 2 * k, name)
        size.append(s)
    if 0 in size:
        fail("vox0.zero_size", 4 + 2 * size.index(0), "size")
    if mutant("VOX0-3.reserved_u16_in_byte_order") and rd(r.u16, "reserved2") != 0:
        fail("vox0.reserved", 10, "reserved2")
    count = size[0] * size[1] * size[2]
    length_ok = len(payload) == 12 + 4 * pc + count
    if not length_ok and mutant("LIM-2.length_before_limit"):
        fail("vox0.length", 0, "length")
    if count > limits.vox0_voxels:
        fail("vox0.limit.voxels", 4, "size")
    if not length_ok:
        fail("vox0.length", 0, "length")
    if not mutant("VOX0-3.reserved_u16_in_byte_order") and rd(r.u16, "reserved2") != 0:
        fail("vox0.reserved", 10, "reserved2")
    pal = payload[12:12 + 4 * pc]
    palette = [tuple(pal[4 * i:4 * i + 4]) for i in range(pc)]
    voxels = payload[12 + 4 * pc:]
    if pc < 256:
        # Map every index to 0 (valid) or 1 (>= paletteCount) and find the first bad one, a
        # bounded chunk at a time (C speed, bounded extra memory).
        last = pc if mutant("VOX0-7.index_up_to_count") else pc - 1
        table = bytes(0 if i <= last else 1 for i in range(256))
        for start in range(0, len(voxels), _CHUNK):
            bad = bytes(voxels[start:start + _CHUNK]).translate(table).find(b"\x01")
            if bad >= 0:
                bad += start
                fail("vox0.palette_index", 12 + 4 * pc + bad, "voxel[%d]" % bad)
    return Vox0(tuple(size), palette, voxels)


_CHUNK = 1 << 20


def count_non_zero(view):
    return len(view) - sum(bytes(view[i:i + _CHUNK]).count(0)
                           for i in range(0, len(view), _CHUNK))


def decode_rig(model, vox_section, limits):
    """Step 8 (vfp-rig only): duplicates, section headers, completeness, then the payloads."""
    seen = {}
    for s in model.sections:
        if s.tag in RIG_TAGS:
            seen.setdefault(s.tag, s)
    skel_s, vskn_s, anim_s = seen.get("SKEL"), seen.get("VSKN"), seen.get("ANIM")

    def duplicates():
        tags = set()
        for s in model.sections:
            if s.tag in RIG_TAGS:
                if s.tag in tags:
                    raise Reject("rig.duplicate_section", s.header_offset,
                                 "%s[%d]" % (s.tag, s.index))
                tags.add(s.tag)

    def headers():
        for s in model.sections:
            if s.tag in RIG_TAGS:
                spath = "%s[%d]" % (s.tag, s.index)
                if s.chunk_id != -1:
                    raise Reject("rig.section_header", s.header_offset + 4, spath + "/chunkId")
                if s.codec != 0:
                    raise Reject("rig.section_header", s.header_offset + 8, spath + "/codec")
                if s.flags != 0:
                    raise Reject("rig.section_header", s.header_offset + 9, spath + "/flags")

    def completeness():
        if (vskn_s or anim_s) and not skel_s:
            s = vskn_s or anim_s
            if vskn_s and anim_s and anim_s.index < vskn_s.index:
                s = anim_s
            raise Reject("rig.incomplete", s.header_offset, "%s[%d]" % (s.tag, s.index))
        if skel_s and not vskn_s:
            raise Reject("rig.incomplete", skel_s.header_offset, "SKEL[%d]" % skel_s.index)

    steps = [duplicates, headers, completeness]
    if mutant("RIG-1.headers_before_duplicates"):
        steps = [headers, duplicates, completeness]
    if mutant("RIG-2.completeness_before_headers"):
        steps = [duplicates, completeness, headers]
    for step in steps:
        step()
    if not skel_s:
        return
    skeleton_hash = hashlib.sha256(skel_s.payload).digest()
    skel_s.body = decode_skel(skel_s.payload, skel_s.payload_offset, model.source_hash, limits)
    ids = frozenset(j.id for j in skel_s.body.joints)
    vskn_s.body = decode_vskn(vskn_s.payload, vskn_s.payload_offset, model.source_hash,
                              skeleton_hash, ids, vox_section.body)
    if anim_s:
        anim_s.body = decode_anim(anim_s.payload, anim_s.payload_offset, model.source_hash,
                                  skeleton_hash, ids, limits)


class _Sub:
    """A reader over one payload with absolute offsets and a path prefix for errors."""

    def __init__(self, payload, base, truncated, root):
        self.r = Reader(payload, 0, len(payload), truncated)
        self.base = base
        self.root = root

    def at(self):
        return self.base + self.r.pos

    def rd(self, kind, path, n=None):
        try:
            if n is not None:
                return self.r.raw(n, path)
            return getattr(self.r, kind)(path)
        except Reject as e:
            e.offset += self.base
            e.path = self.root + "/" + path
            raise

    def fail(self, code, at, path, detail=""):
        raise Reject(code, at, self.root + "/" + path, detail)

    def table(self, count, elem, path, at):
        try:
            self.r.check_table(count, elem, path, at)
        except Reject as e:
            e.path = self.root + "/" + path
            raise


def _read_vec(sub, n, path, non_finite):
    at = sub.at()
    v = tuple(sub.rd("f32", path) for _ in range(n))
    for k, b in enumerate(v):
        if not f32_is_finite(b):
            sub.fail(non_finite, at + 4 * k, path)
    return v


def _read_version_reserved(sub, base, section):
    """SKEL's and ANIM's first two bytes: version 1 (SECTION.bad_version), reserved 0."""
    if sub.rd("u8", "version") != 1:
        sub.fail(section + ".bad_version", base, "version")
    if sub.rd("u8", "reserved") != 0:
        sub.fail(section + ".reserved", base + 1, "reserved")


def _read_padded_name(sub, path, section):
    """A joint's or clip's name: nameLen (u8), 3 reserved zero bytes (SECTION.reserved), then
    nameLen bytes of UTF-8 (SECTION.bad_utf8)."""
    name_len = sub.rd("u8", path + "/nameLen")
    pat = sub.at()
    if sub.rd(None, path + "/pad", 3) != b"\x00\x00\x00":
        sub.fail(section + ".reserved", pat, path + "/pad")
    nat = sub.at()
    name = sub.rd(None, path + "/name", name_len)
    if not is_valid_utf8(name):
        sub.fail(section + ".bad_utf8", nat, path + "/name")
    return name


def _read_trs(sub, path, non_finite, non_unit):
    t = _read_vec(sub, 3, path + "/translation", non_finite)
    at = sub.at()
    if mutant("SKEL-10.unit_before_finite") and non_unit == "skel.non_unit_rotation":
        r = tuple(sub.rd("f32", path + "/rotation") for _ in range(4))
        if not is_unit_quaternion(r):  # a NaN component makes the norm NaN: not unit
            sub.fail(non_unit, at, path + "/rotation")
        for k, b in enumerate(r):
            if not f32_is_finite(b):
                sub.fail(non_finite, at + 4 * k, path + "/rotation")
    else:
        r = _read_vec(sub, 4, path + "/rotation", non_finite)
    if not is_unit_quaternion(r):
        sub.fail(non_unit, at, path + "/rotation")
    s = _read_vec(sub, 3, path + "/scale", non_finite)
    return t, r, s


def decode_skel(payload, base, source_hash, limits):
    sub = _Sub(payload, base, "skel.truncated", "SKEL")
    _read_version_reserved(sub, base, "skel")
    at = sub.at()
    n = sub.rd("u16", "jointCount")
    if n == 0:
        sub.fail("skel.no_joints", at, "jointCount")
    if n > limits.skel_joints:
        sub.fail("skel.limit.joints", at, "jointCount")
    if mutant("SKEL-1.joint_table_up_front") and 48 * n > sub.r.remaining():
        sub.fail("skel.truncated", at, "jointCount")
    at_hash = sub.at()
    bsh = sub.rd(None, "baseSourceHash", 32)
    if bsh != source_hash:
        sub.fail("skel.base_source_hash", at_hash, "baseSourceHash")
    joints = []
    joint_at = []
    prev = -1
    for i in range(n):
        path = "joint[%d]" % i
        jat = sub.at()
        jid = sub.rd("u16", path + "/jointId")
        if jid <= prev and not (mutant("SKEL-6.ids_may_repeat") and jid == prev):
            sub.fail("skel.joint_order", jat, path + "/jointId")
        prev = jid
        parent = sub.rd("i16", path + "/parentId")
        if mutant("SKEL-7.parent_below_minus1_when_read") and parent < -1:
            sub.fail("skel.parent_missing", jat + 2, path + "/parentId")
        t, r, s = _read_trs(sub, path, "skel.non_finite", "skel.non_unit_rotation")
        name = _read_padded_name(sub, path, "skel")
        joints.append(Joint(jid, parent, t, r, s, name))
        joint_at.append(jat)
    trailing_at = sub.at() if sub.r.remaining() else None
    if trailing_at is not None and not mutant("SKEL-12.parents_before_trailing"):
        sub.fail("skel.trailing_bytes", trailing_at, "")
    # Parents after the whole payload, in joint order; then cycles (a self-parent is a cycle).
    by_id = {j.id: j for j in joints}

    def missing():
        for i, j in enumerate(joints):
            if j.parent != -1 and j.parent not in by_id:
                sub.fail("skel.parent_missing", joint_at[i] + 2, "joint[%d]/parentId" % i)

    def cycles():
        state = {}  # id -> 1 on the current walk, 2 reaches a root (or a missing parent)
        for i, j in enumerate(joints):
            walk = []
            cur = j.id
            while True:
                st = state.get(cur)
                if st == 2:
                    break
                if st == 1:
                    sub.fail("skel.parent_cycle", joint_at[i] + 2, "joint[%d]/parentId" % i)
                state[cur] = 1
                walk.append(cur)
                p = by_id[cur].parent
                if p == -1 or p not in by_id:
                    break
                cur = p
            for w in walk:
                state[w] = 2

    for step in ((cycles, missing) if mutant("SKEL-7.cycles_before_missing") else (missing, cycles)):
        step()
    if trailing_at is not None:
        sub.fail("skel.trailing_bytes", trailing_at, "")
    return Skel(bsh, joints)



def decode_vskn(payload, base, source_hash, skeleton_hash, ids, vox0):
    sub = _Sub(payload, base, "vskn.truncated", "VSKN")
    if mutant("VSKN-1.whole_header_first") and len(payload) < VSKN_HEADER_SIZE:
        sub.fail("vskn.truncated", base + len(payload), "header")
    if sub.rd("u8", "version") != 1:
        sub.fail("vskn.bad_version", base, "version")
    if sub.rd("u8", "encoding") != 1:
        sub.fail("vskn.bad_encoding", base + 1, "encoding")
    default = sub.rd("u16", "defaultJointId")
    if default not in ids:
        sub.fail("vskn.default_joint_missing", base + 2, "defaultJointId")
    if sub.rd("u16", "reserved") != 0:
        sub.fail("vskn.reserved", base + 4, "reserved")
    n = sub.rd("u32", "bindingCount")
    length_ok = len(payload) == VSKN_HEADER_SIZE + VSKN_RECORD_SIZE * n
    if not length_ok and not mutant("VSKN-5.length_after_hashes"):
        sub.fail("vskn.length", base + 6, "bindingCount")
    if sub.rd(None, "baseSourceHash", 32) != source_hash:
        sub.fail("vskn.base_source_hash", base + 10, "baseSourceHash")
    if sub.rd(None, "skeletonHash", 32) != skeleton_hash:
        sub.fail("vskn.skeleton_hash", base + 42, "skeletonHash")
    if not length_ok:
        sub.fail("vskn.length", base + 6, "bindingCount")
    voxels = vox0.voxels
    total = len(voxels)
    bindings = []
    prev = -1
    for i in range(n):
        path = "record[%d]" % i
        rat = sub.at()
        off = sub.rd("u32", path + "/voxelOffset")
        joint = sub.rd("u16", path + "/jointId")
        if off <= prev:
            sub.fail("vskn.offset_order", rat, path + "/voxelOffset")
        prev = off
        if off >= total:
            sub.fail("vskn.offset_range", rat, path + "/voxelOffset")
        if joint not in ids and mutant("VSKN-11.joint_before_empty"):
            sub.fail("vskn.joint_missing", rat + 4, path + "/jointId")
        if voxels[off] == 0:
            sub.fail("vskn.empty_voxel", rat, path + "/voxelOffset")
        if joint not in ids:
            sub.fail("vskn.joint_missing", rat + 4, path + "/jointId")
        if joint == default:
            sub.fail("vskn.redundant_binding", rat + 4, path + "/jointId")
        bindings.append((off, joint))
    return Vskn(default, source_hash, skeleton_hash, bindings)


def decode_anim(payload, base, source_hash, skeleton_hash, ids, limits):
    sub = _Sub(payload, base, "anim.truncated", "ANIM")
    _read_version_reserved(sub, base, "anim")
    at = sub.at()
    n = sub.rd("u16", "clipCount")
    if n > limits.anim_clips:
        sub.fail("anim.limit.clips", at, "clipCount")
    if sub.rd(None, "baseSourceHash", 32) != source_hash:
        sub.fail("anim.base_source_hash", base + 4, "baseSourceHash")
    if sub.rd(None, "skeletonHash", 32) != skeleton_hash:
        sub.fail("anim.skeleton_hash", base + 36, "skeletonHash")
    clips = []
    prev_clip = -1
    total_keys = 0
    for ci in range(n):
        cpath = "clip[%d]" % ci
        cat = sub.at()
        cid = sub.rd("u16", cpath + "/clipId")
        if cid <= prev_clip:
            sub.fail("anim.clip_order", cat, cpath + "/clipId")
        prev_clip = cid
        track_count = sub.rd("u16", cpath + "/trackCount")
        duration = sub.rd("u32", cpath + "/durationMs")
        name = _read_padded_name(sub, cpath, "anim")
        tracks = []
        prev_joint = -1
        for ti in range(track_count):
            tpath = "%s/track[%d]" % (cpath, ti)
            jat = sub.at()
            joint = sub.rd("u16", tpath + "/jointId")
            if joint not in ids and mutant("ANIM-8.existence_before_order"):
                sub.fail("anim.joint_missing", jat, tpath + "/jointId")
            if joint <= prev_joint:
                sub.fail("anim.track_order", jat, tpath + "/jointId")
            prev_joint = joint
            if joint not in ids:
                sub.fail("anim.joint_missing", jat, tpath + "/jointId")
            rat = sub.at()
            if sub.rd("u16", tpath + "/reserved") != 0:
                sub.fail("anim.reserved", rat, tpath + "/reserved")
            kat = sub.at()
            key_count = sub.rd("u32", tpath + "/keyCount")
            if key_count == 0:
                sub.fail("anim.no_keys", kat, tpath + "/keyCount")
            if mutant("LIM-5.bytes_before_limit"):
                sub.table(key_count, ANIM_KEY_SIZE, tpath + "/keyCount", kat)
            if key_count > limits.anim_keys_per_track:
                sub.fail("anim.limit.keys_per_track", kat, tpath + "/keyCount")
            total_keys += key_count
            if total_keys > limits.anim_keys_total:
                sub.fail("anim.limit.keys_total", kat, tpath + "/keyCount")
            # keys are the one variable table with a fixed element size: checked as a whole
            if not mutant("ANIM-1.keys_before_table_check"):
                sub.table(key_count, ANIM_KEY_SIZE, tpath + "/keyCount", kat)
            if mutant("ANIM-11.ranges_before_orders") or mutant("ANIM-12.orders_before_ranges"):
                _key_times_first(sub, key_count, duration, tpath)
            keys = []
            prev_time = -1
            for ki in range(key_count):
                kpath = "%s/key[%d]" % (tpath, ki)
                kt = sub.at()
                time_ms = sub.rd("u32", kpath + "/timeMs")
                if time_ms <= prev_time:
                    sub.fail("anim.key_time_order", kt, kpath + "/timeMs")
                prev_time = time_ms
                if time_ms > duration or (mutant("FP-6.duration_exclusive")
                                          and time_ms == duration):
                    sub.fail("anim.key_time_range", kt, kpath + "/timeMs")
                t, r, s = _read_trs(sub, kpath, "anim.non_finite", "anim.non_unit_rotation")
                keys.append(Key(time_ms, t, r, s))
            tracks.append(Track(joint, keys))
        clips.append(Clip(cid, duration, name, tracks))
    if sub.r.remaining():
        sub.fail("anim.trailing_bytes", sub.at(), "")
    return Anim(source_hash, skeleton_hash, clips)


def _key_times_first(sub, key_count, duration, tpath):
    """Two reading mutants: every key time of the track checked for its range (ANIM-11 mutant)
    or its order (ANIM-12 mutant) before the keys are read one by one."""
    first = sub.r.pos
    times = []
    for ki in range(key_count):
        at = first + ANIM_KEY_SIZE * ki
        if at + 4 > sub.r.end:
            break
        times.append(int.from_bytes(sub.r.data[at:at + 4], "little"))
    for ki, t in enumerate(times):
        kpath = "%s/key[%d]/timeMs" % (tpath, ki)
        if mutant("ANIM-11.ranges_before_orders") and t > duration:
            sub.fail("anim.key_time_range", sub.base + first + ANIM_KEY_SIZE * ki, kpath)
        if mutant("ANIM-12.orders_before_ranges") and ki and t <= times[ki - 1]:
            sub.fail("anim.key_time_order", sub.base + first + ANIM_KEY_SIZE * ki, kpath)


# ---------------------------------------------------------------------------------------------
# Writer (D1, D2): counts, lengths and the header sourceHash are computed from the content;
# baseSourceHash / skeletonHash are written as stored. Decoded sections are re-encoded from the
# model (so roundtrip really exercises a writer); opaque sections are written as stored.


def _f32s(bits):
    return b"".join(struct.pack("<I", b) for b in bits)


def encode_vox0(v):
    sx, sy, sz = v.size
    out = [struct.pack("<BBHHHHH", 1, 0, len(v.palette), sx, sy, sz, 0)]
    out.extend(bytes(c) for c in v.palette)
    out.append(bytes(v.voxels))
    return b"".join(out)


def encode_skel(k):
    out = [struct.pack("<BBH", 1, 0, len(k.joints)), k.base_source_hash]
    for j in k.joints:
        out.append(struct.pack("<Hh", j.id, j.parent))
        out.append(_f32s(j.t + j.r + j.s))
        out.append(struct.pack("<B3x", len(j.name)))
        out.append(j.name)
    return b"".join(out)


def encode_vskn(k):
    out = [struct.pack("<BBHHI", 1, 1, k.default_joint, 0, len(k.bindings)),
           k.base_source_hash, k.skeleton_hash]
    out.extend(struct.pack("<IH", o, j) for o, j in k.bindings)
    return b"".join(out)


def encode_anim(a):
    out = [struct.pack("<BBH", 1, 0, len(a.clips)), a.base_source_hash, a.skeleton_hash]
    for c in a.clips:
        out.append(struct.pack("<HHIB3x", c.id, len(c.tracks), c.duration_ms, len(c.name)))
        out.append(c.name)
        for t in c.tracks:
            out.append(struct.pack("<HHI", t.joint, 0, len(t.keys)))
            for key in t.keys:
                out.append(struct.pack("<I", key.time_ms))
                out.append(_f32s(key.t + key.r + key.s))
    return b"".join(out)


_ENCODERS = {Vox0: encode_vox0, Skel: encode_skel, Vskn: encode_vskn, Anim: encode_anim}


def section_payload(s):
    if s.body is None:
        return s.payload
    return _ENCODERS[type(s.body)](s.body)


def encode(model, sections=None):
    """Serializes `sections` (default: the model's, in file order)."""
    if sections is None:
        sections = model.sections
    payloads = [section_payload(s) for s in sections]
    vox = [p for s, p in zip(sections, payloads) if s.tag == "VOX0"]
    out = [MAGIC, struct.pack("<BBHI", 1, model.version_minor, 0, len(sections)),
           hashlib.sha256(vox[0]).digest()]
    for s, p in zip(sections, payloads):
        out.append(s.tag.encode("ascii"))
        out.append(struct.pack("<iBBHI", s.chunk_id, s.codec, s.flags, 0, len(p)))
        out.append(p)
    return b"".join(out)


def canonical_order(sections):
    """D1 canonicalize: VOX0; MSH0 PMSH RND0 PRVW ANM0 in input order; every SKEL, every VSKN,
    every ANIM (each in input order); then everything else in input order."""
    rig_first = mutant("D1.canonical_rig_before_caches")

    def cls(s):
        if s.tag == "VOX0":
            return 0
        if s.tag in CACHE_TAGS:
            return 4 if rig_first else 1
        if s.tag in RIG_TAGS:
            return 1 + RIG_TAGS.index(s.tag) if rig_first else 2 + RIG_TAGS.index(s.tag)
        return 5
    return sorted(sections, key=lambda s: (cls(s), s.index))


# ---------------------------------------------------------------------------------------------
# The canonical JSON dump (docs/spec/dump.md)


class F32:
    """A binary32 dump value: written with f32_text, never through a Python float."""
    __slots__ = ("bits",)

    def __init__(self, bits):
        self.bits = bits


def to_json_text(value, indent=0):
    """Deterministic JSON writer that spells F32 values per D17 (two-space indent; short
    arrays of scalars inline)."""
    pad = "  " * indent
    if isinstance(value, F32):
        return f32_text(value.bits)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = ["%s  %s: %s" % (pad, json.dumps(k, ensure_ascii=False),
                                 to_json_text(v, indent + 1)) for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        if all(not isinstance(v, (dict, list, tuple)) for v in value):
            return "[" + ", ".join(to_json_text(v) for v in value) + "]"
        items = [pad + "  " + to_json_text(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    raise TypeError("not dumpable: %r" % (value,))


def digest(count, data):
    return {"count": count, "sha256": hashlib.sha256(data).hexdigest()}


def name_text(b):
    return b.decode("utf-8")


def _vec(bits):
    return [F32(b) for b in bits]


def dump_model(model):
    """The dump object of a decoded file: docs/spec/dump.md, schema voxrig-dump/2, VFP.
    Sections in file order; each has exactly one payload key (opaque / vox0 / skel / vskn /
    anim)."""
    sections = []
    for s in model.sections:
        d = {"tag": s.tag, "chunk_id": s.chunk_id, "codec": s.codec, "flags": s.flags,
             "length": len(s.payload)}
        b = s.body
        if isinstance(b, Vox0):
            d["vox0"] = {
                "size": list(b.size),
                "palette": [list(c) for c in b.palette],
                "voxels": digest(len(b.voxels), b.voxels),
                "non_empty_voxels": count_non_zero(b.voxels),
            }
        elif isinstance(b, Skel):
            d["skel"] = {
                "base_source_hash": b.base_source_hash.hex(),
                "joints": [{"id": j.id, "parent": j.parent, "name": name_text(j.name),
                            "translation": _vec(j.t), "rotation": _vec(j.r),
                            "scale": _vec(j.s)} for j in b.joints],
            }
        elif isinstance(b, Vskn):
            records = b"".join(struct.pack("<IH", o, j) for o, j in b.bindings)
            d["vskn"] = {
                "default_joint": b.default_joint,
                "base_source_hash": b.base_source_hash.hex(),
                "skeleton_hash": b.skeleton_hash.hex(),
                "bindings": digest(len(b.bindings), records),
            }
        elif isinstance(b, Anim):
            d["anim"] = {
                "base_source_hash": b.base_source_hash.hex(),
                "skeleton_hash": b.skeleton_hash.hex(),
                "clips": [{"id": c.id, "name": name_text(c.name), "duration_ms": c.duration_ms,
                           "tracks": [{"joint": t.joint, "keys": [
                               {"time_ms": k.time_ms, "translation": _vec(k.t),
                                "rotation": _vec(k.r), "scale": _vec(k.s)} for k in t.keys]}
                               for t in c.tracks]} for c in b.clips],
            }
        else:
            d["opaque"] = digest(len(s.payload), s.payload)
        sections.append(d)
    return {
        "schema": "voxrig-dump/2",
        "format": "vfp",
        "version_minor": model.version_minor,
        "source_hash": model.source_hash.hex(),
        "sections": sections,
    }


# ---------------------------------------------------------------------------------------------
# Command line (the reader protocol)

USAGE = """usage: voxrig_reader.py dump --profile P FILE
       voxrig_reader.py roundtrip --profile P IN OUT
       voxrig_reader.py canonicalize --profile P IN OUT
       voxrig_reader.py pose --profile P --clip C --t T [--policy P] [--mode M] FILE
       voxrig_reader.py compile IN.json OUT.vfp
profiles: vfp-static, vfp-rig"""


def _usage(msg):
    sys.stderr.write("voxrig_reader.py: %s\n%s\n" % (msg, USAGE))
    return 2


def _reject(e):
    sys.stdout.write(json.dumps(e.to_json()) + "\n")
    if e.detail:
        sys.stderr.write("%s at offset %s (%s): %s\n" % (e.code, e.offset, e.path, e.detail))
    return 1


def pose_inputs(model):
    """The SKEL joints and ANIM clips of a decoded model as floats for voxrig_pose.pose()."""
    skel = model.first("SKEL")
    anim = model.first("ANIM")
    vskn = model.first("VSKN")
    if not skel or skel.body is None or not vskn or vskn.body is None:
        return None, []

    def f(v):
        return tuple(f32_value(b) for b in v)
    joints = [(j.id, j.parent, f(j.t), f(j.r), f(j.s)) for j in skel.body.joints]
    clips = []
    if anim and anim.body is not None:
        for c in anim.body.clips:
            tracks = [(t.joint, [(k.time_ms, f(k.t), f(k.r), f(k.s)) for k in t.keys])
                      for t in c.tracks]
            name = bytes(c.name).decode("utf-8", "replace")
            clips.append((c.id, c.duration_ms, name, tracks))
    return joints, clips


def run_pose(rest):
    import voxrig_pose
    opts = {"--profile": None, "--clip": None, "--t": None, "--policy": "linear",
            "--mode": "clamp"}
    files = []
    i = 0
    while i < len(rest):
        if rest[i] in opts and i + 1 < len(rest):
            opts[rest[i]] = rest[i + 1]
            i += 2
        else:
            files.append(rest[i])
            i += 1
    if (len(files) != 1 or opts["--clip"] is None or opts["--t"] is None
            or opts["--policy"] not in ("step", "linear", "slerp")
            or opts["--mode"] not in ("clamp", "loop") or opts["--profile"] is None):
        return _usage("pose needs --profile P --clip C --t T [--policy] [--mode] FILE")
    try:
        t = float(opts["--t"])
    except ValueError:
        return _usage("--t is not a number")
    try:
        with open(files[0], "rb") as fh:
            data = fh.read()
    except OSError as e:
        sys.stderr.write("voxrig_reader.py: cannot read %s: %s\n" % (files[0], e))
        return 2
    if opts["--profile"] not in PROFILES or not is_vfp(data):
        return _reject(Reject("file.unknown_format", 0, "", "not a VFP file under a VFP profile"))
    try:
        model = decode(data, opts["--profile"])
    except Reject as e:
        return _reject(e)
    joints, clips = pose_inputs(model)
    try:
        if joints is None:
            raise voxrig_pose.PoseReject("eval.bad_clip", "no rig under this profile")
        models = voxrig_pose.pose(joints, clips, opts["--clip"], t, opts["--policy"],
                                  opts["--mode"])
    except voxrig_pose.PoseReject as e:
        return _reject(Reject(e.code, 0, "", e.detail))
    rows = ["[" + ", ".join(repr(v + 0.0) for v in m) + "]" for m in models]
    sys.stdout.write("{\"model\": [" + ",\n  ".join(rows) + "]}\n")
    return 0


def run_compile(rest):
    """compile IN.json OUT.vfp (docs/spec/protocols.md): 0 written, 1 rejected with {"error", "offset",
    "path"} on stdout (path is a JSON path), 2 usage, 3 I/O."""
    import voxrig_compile
    from voxrig_json import JsonError
    if len(rest) != 2 or any(a.startswith("--") for a in rest):
        return _usage("compile needs IN.json OUT.vfp")
    try:
        with open(rest[0], "rb") as fh:
            text = fh.read()
    except OSError as e:
        sys.stderr.write("voxrig_reader.py: cannot read %s: %s\n" % (rest[0], e))
        return 3
    try:
        out = voxrig_compile.compile_json(text)
    except JsonError as e:
        sys.stdout.write(json.dumps({"error": e.code, "offset": e.offset, "path": e.path}) + "\n")
        sys.stderr.write("%s at %s (offset %d): %s\n" % (e.code, e.path, e.offset, e.detail))
        return 1
    try:
        with open(rest[1], "wb") as fh:
            fh.write(out)
    except OSError as e:
        sys.stderr.write("voxrig_reader.py: cannot write %s: %s\n" % (rest[1], e))
        return 3
    return 0


def run(argv):
    """Returns the exit code; prints the protocol output."""
    if argv and argv[0] == "pose":
        return run_pose(argv[1:])
    if argv and argv[0] == "compile":
        return run_compile(argv[1:])
    if not argv or argv[0] not in ("dump", "roundtrip", "canonicalize"):
        return _usage("expected a command")
    cmd, rest = argv[0], argv[1:]
    profile = None
    files = []
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == "--profile" and i + 1 < len(rest):
            profile = rest[i + 1]
            i += 2
        elif a.startswith("--profile="):
            profile = a[len("--profile="):]
            i += 1
        else:
            files.append(a)
            i += 1
    need = 1 if cmd == "dump" else 2
    if profile is None or len(files) != need:
        return _usage("wrong arguments")
    if profile not in PROFILES and profile not in OTHER_PROFILES:
        return _usage("unknown profile %r" % profile)
    try:
        with open(files[0], "rb") as f:
            data = f.read()
    except OSError as e:
        sys.stderr.write("voxrig_reader.py: cannot read %s: %s\n" % (files[0], e))
        return 2
    if not is_vfp(data):
        return _reject(Reject("file.unknown_format", 0, "", "magic is not VFP\\0"))
    if profile not in PROFILES:
        sys.stderr.write("voxrig_reader.py: profile %s is not supported by this reader\n" % profile)
        return 2
    try:
        model = decode(data, profile)
    except Reject as e:
        return _reject(e)
    if cmd == "dump":
        sys.stdout.write(to_json_text(dump_model(model)) + "\n")
        return 0
    sections = model.sections if cmd == "roundtrip" else canonical_order(model.sections)
    out = encode(model, sections)
    try:
        with open(files[1], "wb") as f:
            f.write(out)
    except OSError as e:
        sys.stderr.write("voxrig_reader.py: cannot write %s: %s\n" % (files[1], e))
        return 2
    return 0


SERVE_PROTOCOL = "voxrig-serve/1"
SERVE_OPS = ("dump", "roundtrip", "canonicalize", "compile", "pose")


def answer(args):
    """One request of any protocol: (exit code, stdout text, stderr text) of `run(args)`."""
    import io
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = run(args)
    except Exception as e:  # a bug here must not look like a crash of the protocol
        out.write(json.dumps({"error": "internal.bug", "detail": repr(e)}) + "\n")
        code = 3
    finally:
        sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def serve():
    """`voxrig_reader.py serve`: the persistent protocol (docs/spec/protocols.md, "Persistent
    protocol (serve)"): one JSON request per line on stdin, one JSON answer per line on stdout."""
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except ValueError:
            req = None
        if not isinstance(req, dict) or not isinstance(req.get("op"), str):
            reply = {"id": None, "exit": 2, "stdout": "", "stderr": "not a request\n"}
        elif req["op"] == "hello":
            reply = {"id": req.get("id"), "protocol": SERVE_PROTOCOL, "ops": list(SERVE_OPS),
                     "profiles": list(PROFILES)}
        else:
            code, out, err = answer([req["op"]] + [str(a) for a in req.get("args", [])])
            reply = {"id": req.get("id"), "exit": code, "stdout": out}
            if err:
                reply["stderr"] = err
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


def main():
    check_active()
    if sys.argv[1:] == ["serve"]:
        return serve()
    code, out, err = answer(sys.argv[1:])
    sys.stdout.write(out)
    sys.stderr.write(err)
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
