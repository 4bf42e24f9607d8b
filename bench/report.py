#!/usr/bin/env python3
"""Turns a bench/run.sh JSON into the Markdown tables of docs/performance.md: medians over the
repetitions, each figure next to the in-run reference measured in the same process (memcpy of
the same bytes, a plain scan of the grid, the per-voxel greedy mesher, the plain float sampler),
and the checks a run can make by itself (no heap allocation in the loops that promise none).
Usage: bench/report.py [--checks] RESULTS.json > tables.md (--checks: the run line and the
Checks table only). Exit 0, 1 when a check fails (a script can gate on it), 2 usage, 3 an
unreadable file.

The performance targets are ratios to public peers measured outside the repository
(docs/performance.md); a run of this suite cannot judge them, and this script does not try.
Rates are computed from CPU time (Google Benchmark's bytes_per_second / items_per_second), the
figure least disturbed by other processes on a shared 2-core VM.
"""
import argparse
import json
import re
import statistics
import sys


def verdict(ok):
    """The verdict column's text: "**fails**" in bold so that a failing row stands out."""
    return "holds" if ok else "**fails**"


def load(path):
    with open(path) as f:
        doc = json.load(f)
    runs = {}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        runs.setdefault(b.get("run_name", b["name"]), []).append(b)
    med = {}
    for name, rs in runs.items():
        m = {"reps": len(rs)}
        for key in ("bytes_per_second", "items_per_second", "cpu_time", "real_time", "quads",
                    "allocs/iter"):
            vals = [r[key] for r in rs if key in r]
            if vals:
                m[key] = statistics.median(vals)
        allocs = [r["allocs/iter"] for r in rs if "allocs/iter" in r]
        if allocs:
            m["allocs_max"] = max(allocs)  # a contract holds in every repetition, not the median
        med[name] = m
    return doc["context"], med


def si(v, unit=""):
    for div, suffix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if v >= div:
            return "%.3g%s%s" % (v / div, suffix, unit)
    return "%.3g %s" % (v, unit)


def gbs(v):
    return "%.2f GB/s" % (v / 1e9) if v >= 1e9 else "%.0f MB/s" % (v / 1e6)


class Report:
    def __init__(self, med):
        self.med = med
        self.checks = []  # (what, measured, ok)
        self.lines = []

    def get(self, name, key):
        return self.med.get(name, {}).get(key)

    def out(self, line=""):
        self.lines.append(line)

    def table(self, header, rows):
        self.out("| " + " | ".join(header) + " |")
        self.out("|" + "---|" * len(header))
        for r in rows:
            self.out("| " + " | ".join(r) + " |")
        self.out()

    def check(self, what, measured, ok):
        """One row of the Checks table."""
        self.checks.append((what, measured, bool(ok)))


def decoder_rows(r, pattern, order, memcpy_of, items_of, digits):
    """One table row per benchmark matching `pattern` (groups: format, op, input), in `order`:
    its rate, items/s (items_of), the ratio to memcpy of the same bytes (memcpy_of names that
    benchmark; `digits` decimals) and its allocations per iteration."""
    rows = []
    pat = re.compile(pattern)
    for name in sorted(r.med, key=order):
        m = pat.match(name)
        if not m:
            continue
        fmt, op, inp = m.groups()
        bps = r.get(name, "bytes_per_second")
        mb = r.get(memcpy_of(fmt, inp), "bytes_per_second")
        rows.append([fmt, op, inp, gbs(bps) if bps else "", items_of(fmt, name),
                     "%.*f" % (digits, bps / mb) if bps and mb else "",
                     "%g" % r.get(name, "allocs/iter")])
    return rows


def codec_tables(r):
    r.out("### VFP sections and files (decode + validate, encode)")
    r.out()
    r.out("Section decoders run without the container, so VOX0/decode has no SHA-256 in it; VFP "
          "rows are whole files (framing, SHA-256 of VOX0 and SKEL, every section). "
          "\"x memcpy\" = decode bytes/s / memcpy bytes/s of the same byte count, same run.")
    r.out()

    def order(n):
        parts = n.split("/")
        size = int(parts[-1]) if parts[-1].isdigit() else 0
        return (parts[0], "/".join(parts[2:-1]), size, parts[1])

    def vfp_memcpy(sec, inp):  # sections by their size, VSKN and whole files by their input
        tag = inp.split("/")[-1] if sec in ("VOX0", "SKEL", "ANIM") else inp.replace("/", "_")
        return "memcpy/%s_%s" % (sec.lower(), tag)

    def items(sec, name):
        return "" if sec == "VFP" else si(r.get(name, "items_per_second") or 0, "/s")

    rows = decoder_rows(r, r"^(VOX0|SKEL|VSKN|ANIM|VFP)/(decode|decode_rig|decode_static|encode)/(.+)$",
                        order, vfp_memcpy, items, 2)
    r.table(["section", "op", "input", "throughput", "items/s", "x memcpy", "allocs"], rows)

    r.out("### SHA-256 (OpenSSL EVP, CPU-dependent code path)")
    r.out()
    rows = []
    shas = [k for k in r.med if k.startswith("SHA256/")]
    for n in sorted(shas, key=lambda k: int(k.split("/")[1])):
        rows.append([n.split("/")[1] + " B", gbs(r.get(n, "bytes_per_second"))])
    r.table(["input", "throughput"], rows)

    r.out("### RKCH family (rkc-strict)")
    r.out()
    r.out("`skel/N` = N bones, one KV6 mesh per bone, a 30-frame skeletal clip, no VCLP; `vclp/N` "
          "adds one deflated 16^3 x 8-frame RVC clip per 10 bones.")
    r.out()

    def order2(n):
        parts = n.split("/")
        num = int(re.sub(r"\D", "", parts[-1]) or 0)
        return (parts[0], "/".join(parts[2:-1]), num, parts[-1], parts[1])

    rows = decoder_rows(r, r"^(RKCH|KV6|RVC|KFA)/(decode|encode|decode_frames)/(.+)$", order2,
                        lambda fmt, inp: "memcpy/%s_%s" % (fmt.lower(), inp),
                        lambda fmt, name: si(r.get(name, "items_per_second") or 0, "/s"), 3)
    r.table(["format", "op", "input", "throughput", "items/s", "x memcpy", "allocs"], rows)


def mesh_tables(r):
    r.out("### Meshing (voxels/s = grid voxels N^3 per second, CPU time)")
    r.out()
    r.out("`pv` = the per-voxel greedy baseline (bench/baselines.cpp) with the same joint map; "
          "`scan` = a plain pass over the grid. Quads in parentheses.")
    r.out()
    rows = []
    for kind in ("random50", "sphere", "terrain"):
        for n in (32, 64, 128, 256):
            suffix = "/%s/%d" % (kind, n)
            if "MESH/greedy" + suffix not in r.med:
                continue
            def cell(name):
                v = r.get(name + suffix, "items_per_second")
                q = r.get(name + suffix, "quads")
                return "" if v is None else "%s (%s)" % (si(v), si(q)) if q else si(v)
            def ratio(a, b):
                x, y = r.get(a + suffix, "items_per_second"), r.get(b + suffix, "items_per_second")
                return "%.1fx" % (x / y) if x and y else ""
            rows.append(["%s %d^3" % (kind, n), cell("MESH/scan"), cell("MESH/naive"),
                         cell("MESH/greedy"), cell("MESH/bone_aware_j1"),
                         cell("MESH/bone_aware_j8"),
                         cell("MESH/bone_aware_j64"), cell("MESH/pvgreedy_j64"),
                         ratio("MESH/bone_aware_j64", "MESH/pvgreedy_j64"),
                         ratio("MESH/bone_aware_j8", "MESH/pvgreedy_j8")])
    r.table(["grid", "scan", "naive", "greedy", "bone-aware 1 j", "bone-aware 8 j",
             "bone-aware 64 j", "pv greedy 64 j", "x pv (64 j)", "x pv (8 j)"], rows)
    rows = []
    for n in sorted(k for k in r.med if k.startswith("MESH/kv6_")):
        rows.append([n, si(r.get(n, "items_per_second")) + " stored voxels/s",
                     si(r.get(n, "quads"))])
    if rows:
        r.table(["KV6 mesher", "rate", "quads"], rows)


def pose_tables(r):
    r.out("### Pose evaluation (joint-samples/s, CPU time)")
    r.out()
    rows = []
    for p in ("step", "linear", "slerp"):
        for mode in ("clamp", "loop"):
            row = [p, mode]
            for access in ("forward", "random"):
                v = r.get("POSE/sample/%s/%s/%s/256" % (p, mode, access), "items_per_second")
                row.append(si(v) if v else "")
            rows.append(row)
    r.out("Sampling alone, 256 joints, 30 keys/track (T, R, S), 1 s clip:")
    r.out()
    r.table(["policy", "mode", "forward 60 Hz (cache)", "random times"], rows)
    rows = []
    for j in (16, 64, 256, 1024):
        def g(name):
            v = r.get(name % j, "items_per_second")
            return si(v) if v else ""
        fw, pl = r.get("POSE/sample_l2m/linear/loop/forward/%d" % j, "items_per_second"), \
            r.get("POSE/plain_sampler/forward/%d" % j, "items_per_second")
        rows.append([str(j), g("POSE/sample/linear/loop/forward/%d"),
                     g("POSE/sample/linear/loop/random/%d"), g("POSE/l2m/%d"),
                     g("POSE/sample_l2m/linear/loop/forward/%d"),
                     g("POSE/sample_l2m/linear/loop/random/%d"), g("POSE/plain_sampler/forward/%d"),
                     g("POSE/skinning/%d")])
    r.out("Linear, loop; `sample+l2m` = SamplingJob + LocalToModelJob per frame; the plain float "
          "sampler (bench/baselines.cpp, upper_bound + lerp + nlerp, no cache) is the baseline:")
    r.out()
    r.table(["joints", "sample fwd", "sample rnd", "local-to-model", "sample+l2m fwd",
             "sample+l2m rnd", "plain sampler fwd", "skinning"], rows)
    rows = []
    for b in (1, 16, 64, 200):
        rows.append([str(b)] + [si(r.get("RKC/%s/%d" % (w, b), "items_per_second") or 0, "/s")
                                for w in ("clip_eval", "hinge_solve", "clip_eval_hinge")])
    r.out("RKCH evaluation (bones/s): animsprite clock + blend (RkcClipJob), solve_kfa_limbs "
          "(RkcHingeJob), both:")
    r.out()
    r.table(["bones", "clip eval", "hinge solve", "both"], rows)


def alloc_check(r):
    """Zero heap allocations in the loops that promise none: per-frame evaluation (POSE/, RKC/)
    and meshing into reused buffers (MESH/). Judged on every repetition of every benchmark that
    counts allocations (the harness' allocs/iter counter); a run with none of them has no row
    rather than a vacuous one."""
    zero = sorted(n for n in r.med if re.match(r"^(MESH/(naive|greedy|bone_aware|kv6)|POSE/|RKC/)", n)
                  and r.get(n, "allocs_max") is not None)
    if not zero:
        return
    bad = [n for n in zero if r.get(n, "allocs_max") != 0]
    r.check("zero heap allocations: per-frame evaluation, meshing into reused buffers",
            "%d benchmarks, %d allocate" % (len(zero), len(bad)) +
            (": " + ", ".join(bad) if bad else ""),
            not bad)


def judge(path):
    """Reads one run: (context, medians, Report with its tables and checks)."""
    context, med = load(path)
    r = Report(med)
    codec_tables(r)
    mesh_tables(r)
    pose_tables(r)
    alloc_check(r)
    return context, med, r


def run_line(context, med):
    reps = sorted({m["reps"] for m in med.values()})
    return ("Run: %s, %s, %d CPUs, load average %s, voxrig %s build, git %s, %s repetitions "
            "(medians), libbenchmark %s build." % (
                context.get("date"), context.get("cpu_model", "?"), context.get("num_cpus", 0),
                "/".join("%.1f" % x for x in context.get("load_avg", [])),
                context.get("voxrig_build_type"), context.get("git_commit", "?"),
                "/".join(map(str, reps)), context.get("library_build_type")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", metavar="RESULTS.json", help="a bench/run.sh (Google Benchmark) JSON")
    ap.add_argument("--checks", action="store_true",
                    help="print only the run line and the Checks table")
    args = ap.parse_args()
    try:
        context, med, r = judge(args.results)
    except (OSError, ValueError, KeyError) as e:
        print("report.py: cannot read %s: %s" % (args.results, e), file=sys.stderr)
        return 3
    print(run_line(context, med))
    print()
    print("### Checks")
    print()
    print("| check | measured | verdict |")
    print("|---|---|---|")
    for what, measured, ok in r.checks:
        print("| %s | %s | %s |" % (what, measured, verdict(ok)))
    if not args.checks:
        print()
        print("\n".join(r.lines))
    return 0 if all(ok for _, _, ok in r.checks) else 1


if __name__ == "__main__":
    sys.exit(main())
