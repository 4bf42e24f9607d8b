"""voxrig_compile.py — JSON compile input -> VFP 1.3 + Voxel Rig v1 bytes (Python 3, stdlib only).

Written from docs/spec/compile.md (D16), docs/spec/writers.md (the section order) and
docs/spec/rig.md (the SKEL/VSKN/ANIM layouts) and the json.* rows of docs/spec/errors.md, never from the
C++ sources: it is the independent compiler that checks the golden compile cases
(docs/spec/protocols.md). `voxrig_reader.py compile IN OUT` runs it.

Check order (the first failure wins): the text (voxrig_json.py); then each object: its unknown
keys in JSON order, its missing required keys in schema order, then its fields in schema order
(top: vfp size palette voxels sections rig; rig: joints default_joint bindings animations;
joint: id parent name translation rotation scale; clip: id name duration_ms tracks; track:
joint keys; key: time_ms translation rotation scale; section: tag chunk_id flags payload_hex).
Checks that relate entries run where their inputs are complete: a duplicate id at the second
one, parents (exist, then cycles) after every joint, a voxel or binding conflict at the second
listing, key time order then range at each key.

Numbers (D16): integer fields take integer literals only, in range; float fields take any number,
rounded to the nearest double (the parser) and then to binary32 (struct, round to nearest even);
a binary32 result of infinity is json.float_overflow. Names are the UTF-8 bytes of the decoded
string, as written (no normalisation, D6), at most 255 bytes.
"""

import hashlib
import math
import struct

from voxrig_json import JsonError, path_text
from voxrig_mutants import mutant
from voxrig_reader import Limits  # docs/spec/limits.md: one home for the reader and the compiler

CACHE_TAGS = ("MSH0", "PMSH", "RND0", "PRVW", "ANM0")
RESERVED_TAGS = ("VOX0", "SKEL", "VSKN", "ANIM")
TAG_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
HEX_CHARS = frozenset("0123456789abcdefABCDEF")
REQUIRED = 0x01


def _err(code, node, path, detail):
    return JsonError(code, node.offset if node is not None else 0, path_text(path), detail)


class _Obj:
    """An object node checked against its schema: unknown keys in JSON order, then missing
    required keys in schema order."""

    def __init__(self, node, path, schema, required):
        if node.kind != "object":
            raise _err("json.type", node, path, "an object is expected")
        self.node = node
        self.path = path
        self.members = {k: v for k, v, _ in node.value}
        for k, v, _ in node.value:
            if k not in schema:
                raise _err("json.unknown_key", v, path + [k], "key %r is not in the schema" % k)
        for k in schema:
            if k in required and k not in self.members:
                raise _err("json.missing_key", node, path + [k], "key %r is required" % k)

    def get(self, k):
        return self.members.get(k)

    def at(self, k):
        return self.path + [k]


def _integer(node, path, lo, hi, what):
    if node.kind != "int":
        raise _err("json.type", node, path, "%s must be an integer literal" % what)
    if not lo <= node.value <= hi:
        raise _err("json.range", node, path, "%s must lie in %d..%d" % (what, lo, hi))
    return node.value


def _array(node, path, n=None):
    if node.kind != "array":
        raise _err("json.type", node, path, "an array is expected")
    if n is not None and len(node.value) != n:
        raise _err("json.type", node, path, "an array of %d elements is expected" % n)
    return node.value


def _f32(node, path):
    """A float field: any JSON number, nearest double, then binary32; returns the bit pattern."""
    if node.kind not in ("int", "float"):
        raise _err("json.type", node, path, "a number is expected")
    try:
        packed = struct.pack("<f", float(node.value))
    except OverflowError:
        raise _err("json.float_overflow", node, path, "rounds to infinity in binary32") from None
    return struct.unpack("<I", packed)[0]


def _vec(node, path, n):
    return tuple(_f32(e, path + [i]) for i, e in enumerate(_array(node, path, n)))


def _value_of(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _rotation(node, path):
    q = _vec(node, path, 4)
    x, y, z, w = (_value_of(b) for b in q)
    if abs(math.sqrt(((x * x + y * y) + z * z) + w * w) - 1.0) > 1e-3:  # D15
        raise _err("json.non_unit_rotation", node, path, "the rotation is not unit length")
    return q


def _name(node, path):
    if node is None:
        return b""
    if node.kind != "str":
        raise _err("json.type", node, path, "a name is a string")
    b = node.value.encode("utf-8")
    if len(b) > (256 if mutant("JSON-9.name_256_bytes") else 255):
        raise _err("json.bad_name", node, path, "a name is at most 255 UTF-8 bytes")
    return b


ONE = 0x3F800000
IDENT_T, IDENT_R, IDENT_S = (0, 0, 0), (0, 0, 0, ONE), (ONE, ONE, ONE)


class Model:
    def __init__(self):
        self.size = None
        self.palette = []
        self.voxels = None        # bytearray, x-fastest
        self.sections = []        # (tag, chunk_id, flags, payload)
        self.rig = None


def _top(root, limits):
    m = Model()
    o = _Obj(root, [], ("vfp", "size", "palette", "voxels", "sections", "rig"),
             ("size", "palette", "voxels"))
    v = o.get("vfp")
    if v is not None:
        if v.kind != "str":
            raise _err("json.type", v, o.at("vfp"), "vfp is a string")
        if v.value != "1.3":
            raise _err("json.version", v, o.at("vfp"), "vfp must be \"1.3\"")
    p = o.at("size")
    m.size = tuple(_integer(e, p + [i], 1, 65535, "a size")
                   for i, e in enumerate(_array(o.get("size"), p, 3)))
    sx, sy, sz = m.size
    if sx * sy * sz > limits.vox0_voxels:
        raise _err("json.limit", o.get("size"), p, "more voxels than the limit")
    p = o.at("palette")
    entries = _array(o.get("palette"), p)
    if not 1 <= len(entries) <= 256:
        raise _err("json.range", o.get("palette"), p, "a palette has 1..256 entries")
    for i, e in enumerate(entries):
        m.palette.append(bytes(_integer(c, p + [i, k], 0, 255, "a colour")
                               for k, c in enumerate(_array(e, p + [i], 4))))
    _voxels(m, o.get("voxels"), o.at("voxels"))
    if o.get("sections") is not None:
        _sections(m, o.get("sections"), o.at("sections"))
    if o.get("rig") is not None:
        m.rig = _rig(m, o.get("rig"), o.at("rig"), limits)
    if 1 + len(m.sections) + (3 if m.rig and m.rig["clips"] else 2 if m.rig else 0) \
            > limits.vfp_sections:
        raise _err("json.limit", o.get("sections"), o.at("sections"), "more sections than the limit")
    return m


def _voxels(m, node, p):
    sx, sy, sz = m.size
    grid = bytearray(sx * sy * sz)
    for i, e in enumerate(_array(node, p)):
        q = p + [i]
        xyzc = _array(e, q, 4)
        xyz = []
        for k in range(3):
            c = xyzc[k]
            if c.kind != "int":
                raise _err("json.type", c, q + [k], "a coordinate is an integer literal")
            if not 0 <= c.value < m.size[k]:
                raise _err("json.voxel_range", c, q + [k], "the voxel lies outside the grid")
            xyz.append(c.value)
        idx = _integer(xyzc[3], q + [3], 1, len(m.palette) - 1, "a voxel's palette index")
        off = xyz[0] + sx * (xyz[1] + sy * xyz[2])
        if grid[off] not in (0, idx) and not mutant("JSON-11.last_voxel_wins"):
            raise _err("json.voxel_conflict", e, q, "the voxel is listed with another index")
        grid[off] = idx
    m.voxels = grid


def _sections(m, node, p):
    for i, e in enumerate(_array(node, p)):
        q = p + [i]
        o = _Obj(e, q, ("tag", "chunk_id", "flags", "payload_hex"), ("tag", "payload_hex"))
        t = o.get("tag")
        if t.kind != "str":
            raise _err("json.type", t, o.at("tag"), "a tag is a string")
        if len(t.value) != 4 or any(c not in TAG_CHARS for c in t.value):
            raise _err("json.range", t, o.at("tag"), "a tag is four characters of A-Z0-9")
        if t.value in RESERVED_TAGS:
            raise _err("json.reserved_tag", t, o.at("tag"), "the compiler writes this section")
        chunk = -1
        if o.get("chunk_id") is not None:
            chunk = _integer(o.get("chunk_id"), o.at("chunk_id"), -1, 2**31 - 1, "chunk_id")
        flags = 0
        if o.get("flags") is not None:
            flags = _integer(o.get("flags"), o.at("flags"), 0, 1, "flags")
        if flags & REQUIRED and t.value not in CACHE_TAGS:
            raise _err("json.unknown_required", o.get("flags"), o.at("flags"),
                       "an unknown section may not be REQUIRED")
        h = o.get("payload_hex")
        if h.kind != "str":
            raise _err("json.type", h, o.at("payload_hex"), "payload_hex is a string")
        if len(h.value) % 2 or any(c not in HEX_CHARS for c in h.value):
            raise _err("json.bad_hex", h, o.at("payload_hex"), "even-length hexadecimal expected")
        m.sections.append((t.value, chunk, flags, bytes.fromhex(h.value)))


def _time_of(key_node):
    """A key's time_ms for the JSON-20 reading mutant that sorts keys (0 when not an integer)."""
    if key_node.kind != "object":
        return 0
    t = {k: v for k, v, _ in key_node.value}.get("time_ms")
    return t.value if t is not None and t.kind == "int" else 0


def _rig(m, node, p, limits):
    o = _Obj(node, p, ("joints", "default_joint", "bindings", "animations"), ("joints",))
    jp = o.at("joints")
    jnodes = _array(o.get("joints"), jp)
    if not jnodes:
        raise _err("json.range", o.get("joints"), jp, "a rig has at least one joint")
    if len(jnodes) > limits.skel_joints:
        raise _err("json.limit", o.get("joints"), jp, "more joints than the limit")
    joints = {}   # id -> dict, in JSON order
    for i, e in enumerate(jnodes):
        q = jp + [i]
        j = _Obj(e, q, ("id", "parent", "name", "translation", "rotation", "scale"), ("id",))
        jid = _integer(j.get("id"), j.at("id"), 0, 65535, "a joint id")
        if jid in joints:
            raise _err("json.duplicate_id", j.get("id"), j.at("id"), "joint id %d twice" % jid)
        parent = -1
        if j.get("parent") is not None:
            if j.get("parent").kind == "null" and mutant("JSON-5.parent_null_is_root"):
                pass
            elif j.get("parent").kind == "null":
                raise _err("json.type", j.get("parent"), j.at("parent"), "parent may not be null")
            else:
                parent = _integer(j.get("parent"), j.at("parent"), 0, 32767, "a parent id")
        joints[jid] = {
            "index": i, "parent": parent, "pnode": j.get("parent"), "ppath": j.at("parent"),
            "name": _name(j.get("name"), j.at("name")),
            "t": _vec(j.get("translation"), j.at("translation"), 3)
            if j.get("translation") is not None else IDENT_T,
            "r": _rotation(j.get("rotation"), j.at("rotation"))
            if j.get("rotation") is not None else IDENT_R,
            "s": _vec(j.get("scale"), j.at("scale"), 3) if j.get("scale") is not None else IDENT_S,
        }
    for jid, j in joints.items():
        if j["parent"] != -1 and j["parent"] not in joints:
            raise _err("json.parent_missing", j["pnode"], j["ppath"], "no joint has that id")
    # JSON order: the first joint whose parent chain never reaches a root (a joint leading into
    # a cycle counts, as in SKEL: docs/spec/vfp.md); a self-parent is a cycle.
    for jid, j in joints.items():
        seen, cur = set(), jid
        while cur != -1 and cur not in seen:
            seen.add(cur)
            cur = joints[cur]["parent"]
        if cur != -1:
            raise _err("json.parent_cycle", j["pnode"], j["ppath"], "the parents form a cycle")
    default = next(iter(joints))
    if o.get("default_joint") is not None:
        dp = o.at("default_joint")
        default = _integer(o.get("default_joint"), dp, 0, 65535, "default_joint")
        if default not in joints:
            raise _err("json.joint_missing", o.get("default_joint"), dp, "no joint has that id")
    bindings = {}
    if o.get("bindings") is not None:
        bp = o.at("bindings")
        for i, e in enumerate(_array(o.get("bindings"), bp)):
            q = bp + [i]
            b = _Obj(e, q, ("position", "joint"), ("position", "joint"))
            pos = []
            pn = _array(b.get("position"), b.at("position"), 3)
            for k, c in enumerate(pn):
                if c.kind != "int":
                    raise _err("json.type", c, b.at("position") + [k], "an integer literal")
                if not 0 <= c.value < m.size[k]:
                    raise _err("json.voxel_range", c, b.at("position") + [k],
                               "the position lies outside the grid")
                pos.append(c.value)
            jid = _integer(b.get("joint"), b.at("joint"), 0, 65535, "a joint id")
            off = pos[0] + m.size[0] * (pos[1] + m.size[1] * pos[2])
            if mutant("JSON-17.default_bindings_dropped_first") and jid == default:
                continue
            if m.voxels[off] == 0:  # the fields first, then non-empty, joint exists (D16)
                raise _err("json.binding_empty_voxel", b.get("position"), b.at("position"),
                           "the voxel is empty")
            if jid not in joints:
                raise _err("json.joint_missing", b.get("joint"), b.at("joint"), "no such joint")
            if bindings.get(off, jid) != jid:
                raise _err("json.binding_conflict", e, q, "the voxel is bound to two joints")
            bindings[off] = jid
    clips = {}
    total_keys = 0
    if o.get("animations") is not None:
        ap = o.at("animations")
        cnodes = _array(o.get("animations"), ap)
        if len(cnodes) > limits.anim_clips:
            raise _err("json.limit", o.get("animations"), ap, "more clips than the limit")
        for i, e in enumerate(cnodes):
            q = ap + [i]
            c = _Obj(e, q, ("id", "name", "duration_ms", "tracks"), ("id", "duration_ms"))
            cid = _integer(c.get("id"), c.at("id"), 0, 65535, "a clip id")
            if cid in clips:
                raise _err("json.duplicate_id", c.get("id"), c.at("id"), "clip id %d twice" % cid)
            name = _name(c.get("name"), c.at("name"))
            dur = _integer(c.get("duration_ms"), c.at("duration_ms"), 0, 2**32 - 1, "duration_ms")
            tracks = {}
            tnodes = _array(c.get("tracks"), c.at("tracks")) if c.get("tracks") is not None else []
            for ti, te in enumerate(tnodes):
                tq = c.at("tracks") + [ti]
                t = _Obj(te, tq, ("joint", "keys"), ("joint", "keys"))
                tj = _integer(t.get("joint"), t.at("joint"), 0, 65535, "a joint id")
                if tj not in joints:
                    raise _err("json.joint_missing", t.get("joint"), t.at("joint"), "no such joint")
                if tj in tracks:
                    raise _err("json.duplicate_id", t.get("joint"), t.at("joint"),
                               "two tracks for joint %d" % tj)
                knodes = _array(t.get("keys"), t.at("keys"))
                if not knodes:
                    raise _err("json.no_keys", t.get("keys"), t.at("keys"), "a track needs a key")
                if len(knodes) > limits.anim_keys_per_track:
                    raise _err("json.limit", t.get("keys"), t.at("keys"), "too many keys")
                total_keys += len(knodes)
                if total_keys > limits.anim_keys_total:
                    raise _err("json.limit", t.get("keys"), t.at("keys"), "too many keys in all")
                bind = joints[tj]
                keys, prev = [], None
                if mutant("JSON-20.keys_sorted"):
                    knodes = sorted(knodes, key=_time_of)
                for ki, ke in enumerate(knodes):
                    kq = t.at("keys") + [ki]
                    k = _Obj(ke, kq, ("time_ms", "translation", "rotation", "scale"), ("time_ms",))
                    tm = _integer(k.get("time_ms"), k.at("time_ms"), 0, 2**32 - 1, "time_ms")
                    if prev is not None and tm <= prev:
                        raise _err("json.key_time_order", k.get("time_ms"), k.at("time_ms"),
                                   "key times must increase")
                    if tm > dur:
                        raise _err("json.key_time_range", k.get("time_ms"), k.at("time_ms"),
                                   "the key lies past duration_ms")
                    prev = tm
                    if mutant("JSON-26.key_defaults_identity"):
                        bind = {"t": IDENT_T, "r": IDENT_R, "s": IDENT_S}
                    keys.append((tm,
                                 _vec(k.get("translation"), k.at("translation"), 3)
                                 if k.get("translation") is not None else bind["t"],
                                 _rotation(k.get("rotation"), k.at("rotation"))
                                 if k.get("rotation") is not None else bind["r"],
                                 _vec(k.get("scale"), k.at("scale"), 3)
                                 if k.get("scale") is not None else bind["s"]))
                tracks[tj] = keys
            clips[cid] = (name, dur, tracks)
    return {"joints": joints, "default": default, "bindings": bindings, "clips": clips}


# ---------------------------------------------------------------------------------------------
# Writing (docs/spec/vfp.md and "Voxel Rig v1"; every hash bound, D2)


def _f32s(bits):
    return struct.pack("<%dI" % len(bits), *bits)


def _payloads(m):
    sx, sy, sz = m.size
    vox = b"".join([struct.pack("<BBHHHHH", 1, 0, len(m.palette), sx, sy, sz, 0)]
                   + m.palette + [bytes(m.voxels)])
    source = hashlib.sha256(vox).digest()
    caches = [s for s in m.sections if s[0] in CACHE_TAGS]
    others = [s for s in m.sections if s[0] not in CACHE_TAGS]
    out = [("VOX0", -1, REQUIRED, vox)] + caches
    if m.rig is not None:
        joints = m.rig["joints"]
        skel = [struct.pack("<BBH", 1, 0, len(joints)), source]
        for jid in sorted(joints):
            j = joints[jid]
            skel += [struct.pack("<Hh", jid, j["parent"]), _f32s(j["t"] + j["r"] + j["s"]),
                     struct.pack("<B3x", len(j["name"])), j["name"]]
        skel = b"".join(skel)
        skel_hash = hashlib.sha256(skel).digest()
        recs = [(o, j) for o, j in sorted(m.rig["bindings"].items()) if j != m.rig["default"]]
        vskn = b"".join([struct.pack("<BBHHI", 1, 1, m.rig["default"], 0, len(recs)), source,
                         skel_hash] + [struct.pack("<IH", o, j) for o, j in recs])
        out += [("SKEL", -1, 0, skel), ("VSKN", -1, 0, vskn)]
        clips = m.rig["clips"]
        if clips:
            anim = [struct.pack("<BBH", 1, 0, len(clips)), source, skel_hash]
            for cid in sorted(clips):
                name, dur, tracks = clips[cid]
                anim += [struct.pack("<HHIB3x", cid, len(tracks), dur, len(name)), name]
                for tj in sorted(tracks):
                    anim.append(struct.pack("<HHI", tj, 0, len(tracks[tj])))
                    for tm, t, r, s in tracks[tj]:
                        anim += [struct.pack("<I", tm), _f32s(t + r + s)]
            out.append(("ANIM", -1, 0, b"".join(anim)))
    return source, out + others


def compile_json(data, limits=Limits):
    """JSON text (bytes) -> VFP file bytes; raises JsonError (code, offset, path)."""
    from voxrig_json import parse
    m = _top(parse(data), limits)
    source, sections = _payloads(m)
    out = [b"VFP\x00", struct.pack("<BBHI", 1, 3, 0, len(sections)), source]
    for tag, chunk, flags, payload in sections:
        out += [tag.encode("ascii"), struct.pack("<iBBHI", chunk, 0, flags, 0, len(payload)),
                payload]
    return b"".join(out)
