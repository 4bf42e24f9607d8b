#!/usr/bin/env python3
"""CTest cli_rough_edges: each CLI rough edge found by a new user, as a check
that fails if the edge comes back. Expectations are written here from the reported edge and the CLI's
conventions (exit 0 ok, 1 reject, 2 usage, 3 I/O, 4 check failed), never read back from the code
under test; hashes are recomputed with hashlib, counts are taken from the dump.

Usage: rough_edges_test.py VOXRIG SOURCE_DIR
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

VOXRIG, SRC = sys.argv[1], sys.argv[2]
GOLDEN = os.path.join(SRC, "golden")
RIG = os.path.join(GOLDEN, "files", "vfp", "rig", "base.vfp")
RKC = os.path.join(GOLDEN, "files", "rkc", "golem.rkc")
failures = []
checks = 0


def run(argv, stdin=None, timeout=60):
    p = subprocess.run([VOXRIG] + argv, input=stdin, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(name, ok, detail=""):
    global checks
    checks += 1
    if not ok:
        failures.append("%s%s" % (name, ": " + detail if detail else ""))


def main():
    tmp = tempfile.mkdtemp(prefix="voxrig-edges-")
    try:
        edges(tmp)
        first_hour_edges(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    print("cli_rough_edges: %d check(s), %d failure(s)" % (checks, len(failures)))
    return 1 if failures else 0


def edges(tmp):
    out = lambda name: os.path.join(tmp, name)
    unknown = out("x.rkc")  # named like an RKCH file, but no known magic
    with open(unknown, "wb") as f:
        f.write(b"not a voxel file at all")

    # 1. One error code for an unknown format, whatever the command.
    for argv in (["dump", unknown], ["validate", "--json", unknown],
                 ["roundtrip", unknown, out("r")], ["canonicalize", unknown, out("c")],
                 ["mesh", unknown, "--format", "obj", "-o", out("m.obj")],
                 ["pose", unknown, "--clip", "idle", "--t", "0", "-o", out("p.obj")],
                 ["export-gltf", unknown, "-o", out("e.glb")]):
        rc, so, se = run(argv)
        check("unknown format via %s" % argv[0],
              rc == 1 and '"error": "file.unknown_format"' in so and "bad_magic" not in so + se,
              "rc %s stdout %r stderr %r" % (rc, so[:200], se[:200]))

    # 2. A profile of the other family rejects the file as a format it does not read (D7):
    #    file.unknown_format, exit 1, the message naming the format and the profiles that apply.
    for f, p, fmt, allowed in ((RIG, "rkc-strict", "vfp", "vfp-static, vfp-rig"),
                               (RKC, "vfp-rig", "rkc", "rkc-strict, rkc-compat")):
        rc, so, se = run(["validate", "--profile", p, f])
        check("validate --profile %s on %s" % (p, fmt),
              rc == 1 and "file.unknown_format" in so and p in so and allowed in so,
              "rc %s stdout %r stderr %r" % (rc, so[:300], se[:200]))
        for argv in (["dump", "--profile", p, f], ["roundtrip", "--profile", p, f, out("o")],
                     ["canonicalize", "--profile", p, f, out("o")]):
            rc, so, se = run(argv)
            check("%s --profile %s on %s" % (argv[0], p, fmt),
                  rc == 1 and '"error": "file.unknown_format"' in so,
                  "rc %s stdout %r stderr %r" % (rc, so[:200], se[:200]))
    # ... and the profile of the file's own family is still accepted.
    rc, so, _ = run(["validate", "--profile", "vfp-static", RIG])
    check("validate --profile vfp-static on a vfp", rc == 0 and "vfp-static" in so, so)

    # 3. Every enum-valued option names itself and its allowed values.
    enums = [
        (["dump", RIG, "--profile"], "vfp-static, vfp-rig, rkc-strict, rkc-compat"),
        (["validate", RIG, "--profile"], "vfp-static, vfp-rig, rkc-strict, rkc-compat"),
        (["roundtrip", RIG, out("o"), "--profile"], "vfp-static, vfp-rig, rkc-strict, rkc-compat"),
        (["canonicalize", RIG, out("o"), "--profile"],
         "vfp-static, vfp-rig, rkc-strict, rkc-compat"),
        (["mesh", RIG, "-o", out("m"), "--format"], "json, obj, glb, gltf"),
        (["mesh", RIG, "-o", out("m"), "--mesher"], "bone-aware, greedy, naive"),
        (["pose", RIG, "--clip", "idle", "--t", "0", "-o", out("p"), "--policy"],
         "step, linear, slerp"),
        (["pose", RIG, "--clip", "idle", "--t", "0", "-o", out("p"), "--mode"], "clamp, loop"),
        (["conform", "--codes"], "strict, loose"),
        (["conform", "--level"], "verdicts, dumps, writers, capabilities"),
        (["conform", "--profile"], "vfp-static, vfp-rig, rkc-strict, rkc-compat"),
        (["conform", "--generated", "4", "--format"], "vfp, rkc, kv6, rvc, kfa, all"),
        (["conform", "--generated", "4", "--size"], "small, medium"),
        (["gen", "--out", out("g"), "--format"], "vfp, rkc, kv6, rvc, kfa, all"),
        (["gen", "--out", out("g"), "--size"], "small, medium"),
        (["fuzz-reader", "--reader", "x", "--profile"], "vfp-static, vfp-rig, rkc-strict, rkc-compat"),
        (["fuzz-reader", "--reader", "x", "--profile", "vfp-rig", "--codes"], "strict, loose"),
    ]
    for argv, allowed in enums:
        opt = argv[-1]
        rc, so, se = run(argv + ["bogus"])
        want = "voxrig: %s: 'bogus' is not one of %s\n" % (opt, allowed)
        check("%s %s bogus" % (argv[0], opt), rc == 2 and se == want,
              "rc %s stderr %r, want %r" % (rc, se, want))
    rc, _, se = run(["pose", RIG, "--clip", "idle", "--t", "0", "-o", out("p"), "--policy=cubic"])
    check("pose --policy=cubic", rc == 2 and "'cubic' is not one of step, linear, slerp" in se, se)

    # 4. conform fails at once on a reader that cannot start and on an unwritable report (no
    # case runs; the limit only allows for hashing the corpus on a busy CI host).
    for argv, code, what in (
            (["conform", "--golden", GOLDEN, "--reader", out("missing-reader")], 2, "--reader"),
            (["conform", "--golden", GOLDEN, "--report", "/nonexistent/r.json"], 3,
             "/nonexistent/r.json"),
            (["conform", "--golden", GOLDEN, "--junit", tmp], 3, tmp)):
        t0 = time.monotonic()
        rc, so, se = run(argv)
        dt = time.monotonic() - t0
        lines = [l for l in se.splitlines() if l.strip()]
        check("conform fails fast: %s" % " ".join(argv[3:]),
              rc == code and len(lines) == 1 and what in lines[0] and dt < 30 and
              "passed" not in so, "rc %s after %.1f s, stderr %r" % (rc, dt, se[:300]))

    # 5. errors CODE: every code has a meaning and a spec section; unknown codes list near ones.
    rc, so, _ = run(["errors"])
    rows = json.loads(so)
    check("errors lists codes", rc == 0 and len(rows) > 100, "rc %s, %d rows" % (rc, len(rows)))
    known = {(r["code"], r["category"] == "warning") for r in rows}
    for r in rows:
        # The section cites docs/spec: one or more "docs/spec/<file>.md#<anchor>" (CTest
        # spec_citations checks that each anchor resolves).
        check("errors.def documents %s" % r["code"], r["meaning"] and r["section"] and
              all(re.fullmatch(r"docs/spec/[a-z0-9-]+\.md(#[A-Za-z0-9.-]+)?", part)
                  for part in r["section"].split(", ")), str(r))
    for code in ("skel.parent_cycle", "rkc.duplicate_chunk", "vfp.header.bad_magic"):
        row = next(r for r in rows if r["code"] == code)
        rc, so, _ = run(["errors", code])
        check("errors %s" % code, rc == 0 and row["meaning"] in so and row["section"] in so and
              (row["category"] in so), so)
    rc, so, se = run(["errors", "skel.parent_cycl"])
    check("errors with a typo", rc == 2 and so == "" and "skel.parent_cycle" in se, se)
    # Every warning code validate prints (over the whole golden corpus, every profile that
    # applies) is in the list, as a warning.
    files = {"vfp": [], "rkc": []}
    for root, _, names in os.walk(os.path.join(GOLDEN, "files")):
        for n in names:
            if n.endswith((".vfp", ".rkc", ".kv6", ".rvc", ".kfa")):
                files["vfp" if n.endswith(".vfp") else "rkc"].append(os.path.join(root, n))
    printed = set()
    for fam, profiles in (("vfp", ("vfp-static", "vfp-rig")), ("rkc", ("rkc-strict",
                                                                      "rkc-compat"))):
        for p in profiles:
            _, so, _ = run(["validate", "--json", "--profile", p] + sorted(files[fam]),
                           timeout=300)
            for line in so.splitlines():
                for w in json.loads(line)["warnings"]:
                    printed.add(w["warning"])
    check("validate prints warnings over the corpus", len(printed) >= 3, str(printed))
    for w in sorted(printed):
        check("warning %s is in `voxrig errors`" % w, (w, True) in known)

    # 6. stdin, --version in --help, limits --help's section, golden fields on a foreign file.
    with open(RIG, "rb") as f:
        rig_bytes = f.read()
    _, dump_file, _ = run(["dump", RIG])
    rc, dump_stdin, se = run(["dump", "-"], stdin=rig_bytes)
    check("dump - reads stdin", rc == 0 and dump_stdin == dump_file and dump_file, se)
    rc, so, _ = run(["validate", "-"], stdin=rig_bytes)
    check("validate - reads stdin", rc == 0 and so.startswith("voxrig: -: ok"), so)
    rc, so, _ = run(["--help"])
    check("--version is in --help", rc == 0 and "--version" in so, so[-300:])
    # The spec and corpus versions, read here from their homes, in --version and the manifest.
    with open(os.path.join(SRC, "docs", "spec", "README.md")) as f:
        spec_version = re.search(r"^\*\*voxrig spec (\d+\.\d+)\*\*", f.read(), re.M).group(1)
    with open(os.path.join(SRC, "golden", "sources", "corpus-version.txt")) as f:
        corpus_version = [l for l in f.read().splitlines() if l and not l.startswith("#")][0]
    rc, so, _ = run(["--version"])
    check("--version names the spec and corpus versions",
          rc == 0 and so.startswith("voxrig ") and
          ("(voxrig spec %s, golden corpus %s)" % (spec_version, corpus_version)) in so, so)
    with open(os.path.join(SRC, "golden", "manifest.json")) as f:
        manifest = json.load(f)
    check("the manifest names the same versions",
          manifest.get("spec_version") == spec_version and
          manifest.get("corpus_version") == corpus_version,
          "%r %r" % (manifest.get("spec_version"), manifest.get("corpus_version")))
    rc, so, _ = run(["limits", "--help"])
    check("limits --help cites docs/spec/limits.md", rc == 0 and 'docs/spec/limits.md' in so
          and "D18" not in so, so)
    with open(os.path.join(SRC, "docs", "spec", "limits.md")) as f:
        check("docs/spec/limits.md, which limits --help cites, is the limits section",
              re.search(r"^# Resource limits\b", f.read(), re.M) is not None)
    rc, so, se = run(["golden", "fields", unknown])
    check("golden fields on a foreign file", rc == 1 and so == "" and
          len(se.strip().splitlines()) == 1 and unknown in se, "rc %s %r" % (rc, se))
    plain = out("plain")
    open(plain, "w").close()
    rc, _, se = run(["gen", "--out", plain, "--count", "50"])
    check("gen --out FILE: one error", rc == 3 and len(se.strip().splitlines()) == 1, se[:300])

    # 7. info: format, size, hashes, counts, parts, verdict per profile (text and --json).
    for f, fmt, profiles in ((RIG, "vfp", ("vfp-static", "vfp-rig")),
                             (RKC, "rkc", ("rkc-strict", "rkc-compat"))):
        with open(f, "rb") as fh:
            data = fh.read()
        rc, so, se = run(["info", "--json", f])
        info = json.loads(so) if rc == 0 else {}
        check("info --json %s" % fmt, rc == 0 and info["format"] == fmt and
              info["size"] == len(data) and info["sha256"] == hashlib.sha256(data).hexdigest() and
              sorted(info["verdicts"]) == sorted(profiles), so[:300] + se)
        dump = json.loads(run(["dump", f])[1])
        if fmt == "vfp":
            tags = [s["tag"] for s in dump["sections"]]
            check("info vfp sections", [p["tag"] for p in info["parts"]] == tags,
                  "%s vs %s" % (info.get("parts"), tags))
            by_tag = {s["tag"]: s for s in dump["sections"]}
            check("info vfp counts", info["counts"].get("joints") ==
                  len(by_tag["SKEL"]["skel"]["joints"]) and info["counts"].get("voxels") ==
                  by_tag["VOX0"]["vox0"]["non_empty_voxels"] and
                  [p["size"] for p in info["parts"]] == [16 + s["length"] for s in
                                                         dump["sections"]],
                  "%s / %s" % (info["counts"], info["parts"]))
        else:
            check("info rkc bones", info["counts"].get("bones") == len(dump["bones"]),
                  str(info["counts"]))
        for p in profiles:
            v = json.loads(run(["validate", "--json", "--profile", p, f])[1])
            check("info %s verdict %s" % (fmt, p), info["verdicts"][p]["valid"] == v["valid"])
        rc, text, _ = run(["info", f])
        check("info text %s" % fmt, rc == 0 and hashlib.sha256(data).hexdigest() in text and
              all(p + ": accept" in text for p in profiles) and "%d bytes" % len(data) in text,
              text)
    rc, so, _ = run(["info", unknown])
    check("info on an unknown file", rc == 0 and "file.unknown_format" in so and
          all(p in so for p in ("vfp-static", "vfp-rig", "rkc-strict", "rkc-compat")), so)



def commands():
    """The command names `voxrig --help` lists."""
    _, so, se = run(["--help"])
    return [l.split()[0] for l in (so + se).splitlines() if re.match(r"^  [a-z][a-z-]+ ", l)]


def first_hour_edges(tmp):
    """The rough edges of a new user's first hour."""
    out = lambda name: os.path.join(tmp, name)
    empty = out("empty.bin")
    open(empty, "wb").close()
    # Library exception text never reaches the user; every message line starts with `voxrig`.
    for argv in (["compile", empty, "-o", out("e.vfp")], ["mesh", empty], ["dump", empty],
                 ["pose", empty, "--clip", "a", "--t", "0"], ["export-gltf", empty, "-o",
                                                              out("e.glb")],
                 ["roundtrip", empty, out("e.out")], ["limits", "extra"]):
        rc, so, se = run(argv)
        check("no library text: %s" % argv[0], "json.exception" not in so + se and
              "parse_error" not in so + se, se)
        lines = [l for l in se.splitlines() if l.strip()]
        check("voxrig: prefix on stderr: %s" % argv[0],
              all(l.startswith("voxrig") for l in lines), se)
        for line in so.splitlines():  # stdout is the documented {"error": ...} shape only
            check("stdout is the error JSON: %s" % argv[0],
                  rc == 1 and json.loads(line).keys() >= {"error", "offset", "path"}, so)
    # One empty file, one message: mesh, pose and export-gltf say what dump/validate say.
    msgs = set()
    for argv in (["mesh", empty], ["pose", empty, "--clip", "a", "--t", "0"],
                 ["export-gltf", empty, "-o", out("e.glb")]):
        rc, so, se = run(argv)
        check("empty file rejected: %s" % argv[0], rc == 1 and "file.unknown_format" in so, so)
        msgs.add(se.split("file.unknown_format", 1)[-1].strip())
    check("empty file messages agree", msgs == {"at offset 0: fewer than 4 bytes"}, str(msgs))
    # validate's text lines take the prefix, and its rejection line is the one mesh prints.
    broken = os.path.join(GOLDEN, "files", "vfp", "anim", "skeleton_hash_before_clips.vfp")
    rc, so, se = run(["validate", RIG, broken, empty])
    lines = so.splitlines()
    check("validate lines start with voxrig:", rc == 1 and len(lines) == 3 and
          all(l.startswith("voxrig: ") for l in lines), so + se)
    _, _, mesh_err = run(["mesh", broken])
    check("validate and mesh say the same about a rejected file",
          mesh_err.strip() in lines and "anim.skeleton_hash at offset 485 (ANIM)" in mesh_err,
          "validate %r, mesh %r" % (so, mesh_err))
    # mesh -o - is stdout (the README's rule), JSON by default.
    rc, so, se = run(["mesh", RIG, "-o", "-"])
    check("mesh -o - writes JSON to stdout", rc == 0 and "quads" in json.loads(so), se)
    # limits takes no argument and says its exit codes.
    rc, so, se = run(["limits", "extra"])
    check("limits extra is a usage error", rc == 2 and "extra" in se and so == "", se)
    rc, so, se = run(["limits", "--help"])
    check("limits --help states exit codes", rc == 0 and "Exit: 0" in so + se and "2 usage" in so + se,
          so + se)
    # Every command's --help states its exit codes.
    for c in commands():
        rc, so, se = run([c, "--help"])
        check("%s --help states exit codes" % c, rc == 0 and "Exit:" in so + se, c)
    # conform's usage lines name every option its --help describes.
    _, so, se = run(["conform", "--help"])
    text = so + se
    usage = text[:text.index("Runs a reader")]
    described = set(re.findall(r"^  (--[a-z-]+)", text, re.M))
    missing = sorted(o for o in described if o not in usage)
    check("conform usage line is complete", len(described) > 15 and not missing, str(missing))
    # info prints counts when the default profile rejects the file (from the other profile).
    broken_rig = os.path.join(GOLDEN, "files", "vfp", "anim", "clip_count_plus1.vfp")
    rc, so, se = run(["info", broken_rig])
    check("info counts under vfp-static when vfp-rig rejects", rc == 0 and "vfp-rig: reject" in so
          and re.search(r"counts .*voxels=\d+", so) and "under vfp-static" in so, so)
    rc, so, se = run(["info", "--json", broken_rig])
    j = json.loads(so)
    check("info --json counts and their profile", j["counts"].get("voxels", 0) > 0 and
          j.get("counts_profile") == "vfp-static", so)
    # skipped: N is explained where it is printed; the summary names the level reached.
    rc, so, se = run(["conform", "--filter", "vfp/header/", "--jobs", "2"], timeout=300)
    skipped = [l for l in so.splitlines() if l.startswith("skipped: ")]
    check("skipped explained in the summary", rc == 0 and skipped and
          "not failures" in skipped[0] and len(skipped[0]) <= 200, str(skipped))
    check("summary names the level reached", "\nlevel reached: dumps (" in so, so[-400:])
    # A reader that prints nothing is told so, without library text.
    rc, so, se = run(["conform", "--reader", "true", "--filter", "vfp/header/", "--jobs", "2",
                      "--profile", "vfp-rig"], timeout=300)
    check("empty reader output named as such", rc == 4 and
          "exit 0 with nothing on stdout" in so and "json.exception" not in so, so[-600:])


if __name__ == "__main__":
    sys.exit(main())
