#!/usr/bin/env python3
"""Turns a bench/run.sh JSON into the Markdown tables of docs/performance.md: medians over the
repetitions, ratios to the in-run baselines measured in the same process, and the verdict for
every performance target. Usage: bench/report.py [--targets] RESULTS.json > tables.md
(--targets: the run line and the "Targets" table only), or
bench/report.py --targets RUN1.json RUN2.json RUN3.json: the verdict over several runs, each
ratio target judged by the median of the runs' ratios (combine_runs).

Issue 15's ratio targets (MESH/ratio, RKCH/ratio, POSE/ratio, pose sampling and SKEL against the
frozen pre-issue copies of bench/baseline/) are read from whatever the run holds: a run of
`bench/run.sh --ratio-targets` holds exactly them, so its "Targets" table is the one-run status.

Rates are computed from CPU time (Google Benchmark's bytes_per_second / items_per_second), the
figure least disturbed by other processes on a shared 2-core VM.
"""
import argparse
import collections
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mesh_ratios import target as mesh_ratio_target  # noqa: E402  (the one home of those floors)


# One judged target of one run (Report.target / Report.ratio_target): its row text, the run's
# verdict, and for a target stated as a ratio the ratio, its floor and whether the row's other
# condition held (`also`; ratio and floor None otherwise).
Target = collections.namedtuple("Target", "what measured ok ratio floor also")


def verdict(ok):
    """The verdict column's text: "**not met**" in bold so that a failing row stands out."""
    return "met" if ok else "**not met**"


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
                    "allocs/iter", "solid", "vs_base", "vs_base_greedy", "vs_base_same",
                    "base_quads"):
            vals = [r[key] for r in rs if key in r]
            if vals:
                m[key] = statistics.median(vals)
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
        self.targets = []
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

    def target(self, what, measured, ok):
        """One row of the Targets table for a target that is not a ratio (met in every run)."""
        self.targets.append(Target(what, measured, bool(ok), None, None, True))

    def ratio_target(self, what, measured, ratio, floor, also=True):
        """One row for a target stated as a ratio: met when ratio >= floor and `also` (another
        condition of the row, such as no more quads than today). Keeping ratio, floor and `also`
        apart lets a verdict over several runs (combine_runs) judge the median ratio and ask
        `also` of every run."""
        self.targets.append(Target(what, measured, ratio >= floor and bool(also), ratio, floor,
                                   bool(also)))


def codec_tables(r):
    r.out("### VFP sections and files (decode + validate, encode)")
    r.out()
    r.out("Section decoders run without the container, so VOX0/decode has no SHA-256 in it; VFP "
          "rows are whole files (framing, SHA-256 of VOX0 and SKEL, every section). "
          "\"x memcpy\" = decode bytes/s / memcpy bytes/s of the same byte count, same run.")
    r.out()
    rows = []
    pat = re.compile(r"^(VOX0|SKEL|VSKN|ANIM|VFP)/(decode|decode_rig|decode_static|encode)/(.+)$")
    def order(n):
        parts = n.split("/")
        size = int(parts[-1]) if parts[-1].isdigit() else 0
        return (parts[0], "/".join(parts[2:-1]), size, parts[1])
    for name in sorted(r.med, key=order):
        m = pat.match(name)
        if not m:
            continue
        sec, op, inp = m.groups()
        bps = r.get(name, "bytes_per_second")
        size = inp.split("/")[-1]
        base = {"VOX0": "memcpy/vox0_" + size, "SKEL": "memcpy/skel_" + size,
                "ANIM": "memcpy/anim_" + size}.get(sec)
        if sec == "VSKN":
            base = "memcpy/vskn_" + inp.replace("/", "_")
        if sec == "VFP":
            base = "memcpy/vfp_" + inp.replace("/", "_")
        mb = r.get(base, "bytes_per_second") if base else None
        ratio = "%.2f" % (bps / mb) if bps and mb else ""
        items = "" if sec == "VFP" else si(r.get(name, "items_per_second") or 0, "/s")
        rows.append([sec, op, inp, gbs(bps) if bps else "", items, ratio,
                     "%g" % r.get(name, "allocs/iter")])
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
    rows = []
    pat = re.compile(r"^(RKCH|KV6|RVC|KFA)/(decode|encode|decode_frames)/(.+)$")
    def order2(n):
        parts = n.split("/")
        num = int(re.sub(r"\D", "", parts[-1]) or 0)
        return (parts[0], "/".join(parts[2:-1]), num, parts[-1], parts[1])
    for name in sorted(r.med, key=order2):
        m = pat.match(name)
        if not m:
            continue
        fmt, op, inp = m.groups()
        bps = r.get(name, "bytes_per_second")
        base = "memcpy/%s_%s" % (fmt.lower(), inp)
        mb = r.get(base, "bytes_per_second")
        rows.append([fmt, op, inp, gbs(bps) if bps else "",
                     si(r.get(name, "items_per_second") or 0, "/s"),
                     "%.3f" % (bps / mb) if bps and mb else "", "%g" % r.get(name, "allocs/iter")])
    r.table(["format", "op", "input", "throughput", "items/s", "x memcpy", "allocs"], rows)


def codec_targets(r):
    worst = None
    for n in sorted(r.med):
        m = re.match(r"^VOX0/decode/(\w+)/(\d+)$", n)
        if not m:
            continue
        mb = r.get("memcpy/vox0_" + m.group(2), "bytes_per_second")
        ratio = r.get(n, "bytes_per_second") / mb
        if worst is None or ratio < worst[0]:
            worst = (ratio, n)
    if worst:
        r.ratio_target("VOX0 decode+validate (no SHA-256) >= 0.5x memcpy (every grid, 32^3-256^3)",
                       "worst %.2fx (%s)" % worst, worst[0], 0.5)
    for sec, floor in (("VSKN", 0), ("ANIM", 1000)):
        vals = []
        for n in r.med:
            m = re.match(r"^%s/decode/(.+)$" % sec, n)
            if not m:
                continue
            if sec == "ANIM" and int(m.group(1)) < floor:
                continue
            vals.append((r.get(n, "bytes_per_second"), n))
        if vals:
            v = min(vals)
            r.target("%s decode+validate >= 1 GB/s%s" % (sec, " (>= 1000 keys)" if floor else ""),
                     "worst %s (%s)" % (gbs(v[0]), v[1]), v[0] >= 1e9)
    vals = [(r.get(n, "bytes_per_second"), n) for n in r.med if n.startswith("RKCH/decode/skel/")]
    if vals:
        v = min(vals)
        r.target("RKCH decode without voxel clips >= 500 MB/s", "worst %s (%s)" % (gbs(v[0]), v[1]),
                 v[0] >= 500e6)


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


def mesh_targets(r):
    for kind, floor in (("random50", 50e6), ("sphere", 500e6), ("terrain", 450e6)):
        vals = [(r.get("MESH/bone_aware_j%d/%s/64" % (j, kind), "items_per_second"), j)
                for j in (1, 8, 64)]
        vals = [v for v in vals if v[0]]
        if not vals:
            continue
        v = min(vals)
        r.target("bone-aware greedy %s 64^3 >= %s voxels/s (1/8/64 joints)" % (kind, si(floor)),
                 "worst %s (%d joints); %s" % (si(v[0]), v[1],
                                               ", ".join("%d j %s" % (j, si(x)) for x, j in vals)),
                 v[0] >= floor)
    for kind in ("sphere", "terrain"):
        ratios = []
        for j in (1, 8, 64):
            a = r.get("MESH/bone_aware_j%d/%s/64" % (j, kind), "items_per_second")
            b = r.get("MESH/pvgreedy_j%d/%s/64" % (j, kind), "items_per_second")
            if a and b:
                ratios.append((a / b, j))
        if ratios:
            v = min(ratios)
            r.ratio_target("bone-aware greedy >= 10x per-voxel greedy, %s 64^3" % kind,
                           "worst %.1fx (%d joints)" % v, v[0], 10)


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


def ratio_target(r, what, lib, base, floor):
    a, b = r.get(lib, "items_per_second") or r.get(lib, "bytes_per_second"), \
        r.get(base, "items_per_second") or r.get(base, "bytes_per_second")
    if a and b:
        r.ratio_target(what, "%.2fx (%s / %s)" % (a / b, si(a), si(b)), a / b, floor)


def pose_targets(r):
    # Issue 15: ratios to the pre-issue-15 code kept in bench/baseline/, same run.
    for j in (256, 1024):
        for access, floor in (("forward", 1.6), ("random", 1.3)):
            ratio_target(r, "pose sample + local-to-model, %d joints, %s >= %.1fx the in-run baseline"
                         % (j, access, floor),
                         "POSE/sample_l2m/linear/loop/%s/%d" % (access, j),
                         "POSE/base_sample_l2m/linear/loop/%s/%d" % (access, j), floor)
        ratio_target(r, "local-to-model alone, %d joints, >= 1.5x the in-run baseline" % j,
                     "POSE/l2m/%d" % j, "POSE/base_l2m/%d" % j, 1.5)
    # SKEL: SKEL/ratio/<N> (both sides in every iteration) when the run has it; otherwise the
    # quotient of the SKEL/decode and SKEL/base_decode medians (runs recorded before it existed).
    ratios = {n: r.get(n, "vs_base") for n in r.med if re.match(r"^SKEL/ratio/\d+$", n)}
    interleaved = bool(ratios)
    if not interleaved:
        for n in r.med:
            m = re.match(r"^SKEL/decode/(\d+)$", n)
            base = r.get("SKEL/base_decode/%s" % m.group(1), "bytes_per_second") if m else None
            if base:
                ratios[n] = r.get(n, "bytes_per_second") / base
    ratios = {n: q for n, q in ratios.items() if q is not None}
    if ratios:
        worst = min(ratios, key=ratios.get)
        r.ratio_target("SKEL decode >= 3x the in-run baseline (every size, 16-4096 joints%s)"
                       % (", interleaved" if interleaved else ""),
                       "worst %.3fx (%s)" % (ratios[worst], worst), ratios[worst], 3)


def interleaved_targets(r):
    """Issue 15's targets measured with both sides in every iteration (counters vs_base*).
    Ratios print with three decimals: a row just under its floor must not read as on it."""
    kernels = {"greedy": "greedy", "bone_aware_j8": "bone-aware greedy (8 joints)",
               "bone_aware_j64": "bone-aware greedy (64 joints)"}
    kernels.update({k + "_sse2": v + " [SSE2 build]" for k, v in list(kernels.items())})

    def by_ratio(n):
        _, _, kernel, grid, size = n.split("/")
        return (grid, int(size), list(kernels).index(kernel) if kernel in kernels else 99)
    for n in sorted((n for n in r.med if n.startswith("MESH/ratio/")), key=by_ratio):
        _, _, kernel, grid, size = n.split("/")
        floor = mesh_ratio_target(kernel, grid)
        vs, same = r.get(n, "vs_base_greedy"), r.get(n, "vs_base_same")
        quads, base_quads = r.get(n, "quads"), r.get(n, "base_quads")
        if floor is None or vs is None or quads is None or base_quads is None:
            continue
        r.ratio_target("%s, %s %s^3 >= %.1fx today's plain greedy, no more quads than today"
                       % (kernels.get(kernel, kernel), grid, size, floor),
                       "%.3fx (%.2fx today's same kernel; %d quads, today %d)"
                       % (vs, same or 0, quads, base_quads),
                       vs, floor, also=quads <= base_quads)
    for n, floor, what in (("RKCH/ratio/tiny/259", 4.0, "RKCH decode, 259-byte character"),
                           ("RKCH/ratio/seed/b16f12", 2.0, "RKCH decode, 10 KB character")):
        vs = r.get(n, "vs_base")
        if vs is not None:
            r.ratio_target("%s >= %.0fx the in-run copy (%s)" % (what, floor, n), "%.3fx" % vs,
                           vs, floor)
    for j in (256, 1024):
        for kernels_tag in ("", "_sse2"):
            n = "POSE/ratio/l2m%s/%d" % (kernels_tag, j)
            vs = r.get(n, "vs_base")
            if vs is not None:
                r.ratio_target("local-to-model alone, %d joints, %s kernels, >= 1.5x the in-run "
                               "copy (interleaved)" % (j, "SSE2" if kernels_tag else "default"),
                               "%.3fx" % vs, vs, 1.5)


def alloc_target(r):
    # Only benchmarks that count allocations (the harness' allocs/iter counter) are judged; a run
    # with none of them (bench/run.sh --ratio-targets holds a few) has no row rather than a
    # vacuous one.
    zero = [n for n in r.med if re.match(r"^(MESH/(naive|greedy|bone_aware|kv6)|POSE/|RKC/)", n)
            and r.get(n, "allocs/iter") is not None]
    if not zero:
        return
    bad = [n for n in zero if r.get(n, "allocs/iter") != 0]
    r.target("zero heap allocations: per-frame evaluation, meshing into reused buffers",
             "%d benchmarks, %d allocate" % (len(zero), len(bad)) +
             (": " + ", ".join(bad) if bad else ""),
             not bad)


def judge(path):
    """Reads one run and judges every target it holds: (context, medians, Report)."""
    context, med = load(path)
    r = Report(med)
    codec_tables(r)
    mesh_tables(r)
    pose_tables(r)
    codec_targets(r)
    mesh_targets(r)
    pose_targets(r)
    interleaved_targets(r)
    alloc_target(r)
    return context, med, r


def run_line(context, med):
    reps = sorted({m["reps"] for m in med.values()})
    return ("Run: %s, %s, %d CPUs, load average %s, voxrig %s build, git %s, %s repetitions "
            "(medians), libbenchmark %s build." % (
                context.get("date"), context.get("cpu_model", "?"), context.get("num_cpus", 0),
                "/".join("%.1f" % x for x in context.get("load_avg", [])),
                context.get("voxrig_build_type"), context.get("git_commit", "?"),
                "/".join(map(str, reps)), context.get("library_build_type")))


def combine_runs(reports):
    """The verdict over several runs of the same targets, one row per target in first-seen order.
    A ratio target is judged by the median of its per-run ratios (with three runs, the middle
    one), so one slow moment on a shared machine cannot flip it, and whatever else its row asks
    (no more quads than today) must hold in every run. A target without a ratio must be met in
    every run. The measured column lists each run's ratio and how many runs met the floor: a row
    met by its median but not in every run is thin."""
    rows = collections.OrderedDict()
    for r in reports:
        for t in r.targets:
            rows.setdefault(t.what, []).append(t)
    out = []
    for what, ts in rows.items():
        met = sum(t.ok for t in ts)
        of = "met in %d of %d run%s" % (met, len(ts), "s" if len(ts) != 1 else "")
        if len(ts) < len(reports):
            of += " (absent from %d)" % (len(reports) - len(ts))
        if all(t.ratio is not None for t in ts):
            median = statistics.median(t.ratio for t in ts)
            rest_ok = all(t.also for t in ts)
            measured = "median %.3fx [%s]; %s" % (
                median, " / ".join("%.3f" % t.ratio for t in ts), of)
            if not rest_ok:
                measured += "; fails other than by its ratio: %s" % ts[-1].measured
            out.append((what, measured, verdict(median >= ts[0].floor and rest_ok)))
        else:
            out.append((what, "%s; last: %s" % (of, ts[-1].measured), verdict(met == len(ts))))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", metavar="RESULTS.json", nargs="+",
                    help="a bench/run.sh (Google Benchmark) JSON; with --targets, one or more "
                         "runs of the same targets (several: the verdict over all of them)")
    ap.add_argument("--targets", action="store_true",
                    help="print only the run line and the Targets table")
    args = ap.parse_args()
    if len(args.results) > 1 and not args.targets:
        ap.error("several RESULTS.json files need --targets (the other tables are one run's)")
    judged = [judge(path) for path in args.results]
    for context, med, _ in judged:
        print(run_line(context, med))
    print()
    if len(judged) == 1:
        rows = [(t.what, t.measured, verdict(t.ok)) for t in judged[0][2].targets]
        print("### Targets")
    else:
        rows = combine_runs([r for _, _, r in judged])
        print("### Targets over %d runs (median of the runs' ratios)" % len(judged))
    print()
    print("| target | measured | verdict |")
    print("|---|---|---|")
    for what, measured, v in rows:
        print("| %s | %s | %s |" % (what, measured, v))
    if args.targets:
        return
    print()
    print("\n".join(judged[0][2].lines))


if __name__ == "__main__":
    main()
