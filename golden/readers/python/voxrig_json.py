"""voxrig_json.py — the strict JSON text parser behind voxrig_compile.py (Python 3, stdlib only).

Written from RFC 8259 and docs/spec/compile.md#top-level / D16, not from the C++ sources. Python's json
module is not used: it accepts NaN/Infinity, keeps the last of two duplicate keys, turns lone
surrogate escapes into unpaired code points, forgets whether `1` was written `1.0`, and says
nothing about where in the document it stopped. This parser gives the compiler what the spec
needs:

- every value is a Node (kind, value, offset); integers (no fraction, no exponent) stay Python
  ints so `1.0` and `1e0` can be refused where an integer is due; floats are the nearest double
  of their text (docs/spec/compile.md: "parsed to the nearest double");
- errors are JsonError(code, offset, path) with the JSON path where parsing stopped:
  json.syntax (not RFC 8259: NaN/Infinity, comments, trailing commas, leading zeros, control
  characters in strings, ill-formed UTF-8, text after the value), json.duplicate_key (at the
  second occurrence, by the decoded key), json.bad_name (a lone surrogate escape in any string),
  json.float_overflow (a float literal beyond the double range), json.range (an integer literal
  beyond the double range), json.limit (nesting deeper than MAX_DEPTH);
- a leading UTF-8 byte order mark is ignored (RFC 8259 section 8.1 allows it).

Nesting is capped at MAX_DEPTH (the root container is level 1), so the recursion is bounded; a
string is decoded in runs, so the work is linear in the text.
"""

import json
import re

from voxrig_mutants import mutant

MAX_DEPTH = 64
_WS = b" \t\n\r"
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_PLAIN = re.compile(rb'[^"\\\x00-\x1f]+')
_ESCAPES = {ord('"'): '"', ord("\\"): "\\", ord("/"): "/", ord("b"): "\b", ord("f"): "\f",
            ord("n"): "\n", ord("r"): "\r", ord("t"): "\t"}
_HEX = frozenset(b"0123456789abcdefABCDEF")


class JsonError(Exception):
    def __init__(self, code, offset, path, detail=""):
        super().__init__(code)
        self.code = code
        self.offset = offset
        self.path = path
        self.detail = detail


class Node:
    """One JSON value. kind: null bool int float str array object. value: None, bool, int,
    float, str, list of Node, or list of (key, Node, key_offset) in document order."""
    __slots__ = ("kind", "value", "offset")

    def __init__(self, kind, value, offset):
        self.kind = kind
        self.value = value
        self.offset = offset


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def path_text(segs):
    """A JSON path (D16): `$`, `.key` for a key that is an identifier, `["key"]` (a JSON string)
    for any other key, `[i]` for an array index."""
    out = ["$"]
    for s in segs:
        if isinstance(s, int):
            out.append("[%d]" % s)
        elif _IDENT.match(s):
            out.append("." + s)
        else:
            out.append("[%s]" % json.dumps(s, ensure_ascii=False))
    return "".join(out)


class _Parser:
    def __init__(self, data):
        self.d = data
        self.i = 0
        self.path = []

    def fail(self, code, detail, offset=None):
        raise JsonError(code, self.i if offset is None else offset, path_text(self.path), detail)

    def ws(self):
        d, i, n = self.d, self.i, len(self.d)
        while i < n and d[i] in _WS:
            i += 1
        self.i = i

    def value(self, depth):
        self.ws()
        d, i = self.d, self.i
        if i >= len(d):
            self.fail("json.syntax", "unexpected end of text, a value was expected")
        c = d[i]
        if c == 0x7B:  # {
            return self.obj(depth + 1)
        if c == 0x5B:  # [
            return self.arr(depth + 1)
        if c == 0x22:  # "
            return Node("str", self.string(), i)
        if c == 0x2D or 0x30 <= c <= 0x39:
            return self.number()
        for word, kind, val in ((b"true", "bool", True), (b"false", "bool", False),
                                (b"null", "null", None)):
            if d.startswith(word, i):
                self.i = i + len(word)
                return Node(kind, val, i)
        self.fail("json.syntax", "unexpected character %r" % chr(c))

    def number(self):
        start = self.i
        m = _NUMBER.match(self.d, start)
        if not m:
            self.fail("json.syntax", "malformed number")
        self.i = m.end()
        text = m.group(0)
        if m.group(1) is None and m.group(2) is None:
            digits = len(text) - (text[0] == 0x2D)
            if digits > 400:  # far beyond 2**1024 (309 digits); int() would refuse it anyway
                self.fail("json.range", "integer literal beyond the double range", start)
            v = int(text)
            try:
                float(v)
            except OverflowError:
                self.fail("json.range", "integer literal beyond the double range", start)
            return Node("int", v, start)
        v = float(text)
        if v in (float("inf"), float("-inf")):
            self.fail("json.float_overflow", "float literal beyond the double range", start)
        return Node("float", v, start)

    def string(self):
        d = self.d
        start = self.i
        i = start + 1
        parts = []
        pending_high = None  # a high surrogate escape waiting for its low half
        while True:
            m = _PLAIN.match(d, i)
            if m:
                if pending_high is not None:
                    self.fail("json.bad_name", "lone surrogate escape", pending_high)
                try:
                    parts.append(m.group(0).decode("utf-8"))
                except UnicodeDecodeError as e:
                    self.fail("json.syntax", "ill-formed UTF-8 in a string", i + e.start)
                i = m.end()
            if i >= len(d):
                self.i = i
                self.fail("json.syntax", "unterminated string")
            c = d[i]
            if c == 0x22:
                if pending_high is not None:
                    self.fail("json.bad_name", "lone surrogate escape", pending_high)
                self.i = i + 1
                return "".join(parts)
            if c < 0x20:
                self.i = i
                self.fail("json.syntax", "control character in a string")
            # a backslash
            if i + 1 >= len(d):
                self.i = i
                self.fail("json.syntax", "unterminated escape")
            e = d[i + 1]
            if e == 0x75:  # u
                hx = d[i + 2:i + 6]
                if len(hx) != 4 or any(h not in _HEX for h in hx):
                    self.i = i
                    self.fail("json.syntax", "malformed \\u escape")
                cp = int(hx, 16)
                if 0xDC00 <= cp <= 0xDFFF:
                    if pending_high is None:
                        self.fail("json.bad_name", "lone surrogate escape", i)
                    hi = parts.pop()
                    parts.append(chr(0x10000 + ((ord(hi) - 0xD800) << 10) + (cp - 0xDC00)))
                    pending_high = None
                else:
                    if pending_high is not None:
                        self.fail("json.bad_name", "lone surrogate escape", pending_high)
                    if 0xD800 <= cp <= 0xDBFF:
                        pending_high = i
                    parts.append(chr(cp))
                i += 6
                continue
            if pending_high is not None:
                self.fail("json.bad_name", "lone surrogate escape", pending_high)
            if e not in _ESCAPES:
                self.i = i
                self.fail("json.syntax", "unknown escape")
            parts.append(_ESCAPES[e])
            i += 2

    def arr(self, depth):
        start = self.i
        if depth > MAX_DEPTH:
            self.fail("json.limit", "nesting deeper than %d levels" % MAX_DEPTH)
        self.i += 1
        items = []
        self.ws()
        if self.i < len(self.d) and self.d[self.i] == 0x5D:
            self.i += 1
            return Node("array", items, start)
        while True:
            self.path.append(len(items))
            items.append(self.value(depth))
            self.ws()
            if self.i >= len(self.d):
                self.fail("json.syntax", "unexpected end of text in an array")
            c = self.d[self.i]
            self.path.pop()
            self.i += 1
            if c == 0x5D:
                return Node("array", items, start)
            if c != 0x2C:
                self.i -= 1
                self.path.append(len(items) - 1)
                self.fail("json.syntax", "',' or ']' expected")

    def obj(self, depth):
        start = self.i
        if depth > MAX_DEPTH:
            self.fail("json.limit", "nesting deeper than %d levels" % MAX_DEPTH)
        self.i += 1
        members = []
        seen = set()
        self.ws()
        if self.i < len(self.d) and self.d[self.i] == 0x7D:
            self.i += 1
            return Node("object", members, start)
        while True:
            self.ws()
            if self.i >= len(self.d) or self.d[self.i] != 0x22:
                self.fail("json.syntax", "a key (a string) expected")
            key_offset = self.i
            key = self.string()
            self.path.append(key)
            if key in seen and not mutant("JSON-2.duplicate_key_last_wins"):
                self.fail("json.duplicate_key", "key %r appears twice" % key, key_offset)
            seen.add(key)
            self.ws()
            if self.i >= len(self.d) or self.d[self.i] != 0x3A:
                self.fail("json.syntax", "':' expected")
            self.i += 1
            members.append((key, self.value(depth), key_offset))
            self.ws()
            if self.i >= len(self.d):
                self.fail("json.syntax", "unexpected end of text in an object")
            c = self.d[self.i]
            if c not in (0x2C, 0x7D):
                self.fail("json.syntax", "',' or '}' expected")
            self.path.pop()
            self.i += 1
            if c == 0x7D:
                return Node("object", members, start)


def parse(data):
    """Parses bytes `data` strictly; returns the root Node or raises JsonError."""
    p = _Parser(data)
    if data.startswith(b"\xef\xbb\xbf"):
        p.i = 3
    root = p.value(0)
    p.ws()
    if p.i != len(data):
        p.fail("json.syntax", "text after the JSON value")
    return root
