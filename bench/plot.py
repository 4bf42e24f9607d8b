#!/usr/bin/env python3
"""Trend plots of a series of Google Benchmark JSON files (bench/run.sh, voxrig bench-reader):
one image per kernel family, x = the runs in the order given, y = the median rate over each
run's repetitions (items/s, else bytes/s, from CPU time), the in-run baselines (benchmarks with
the counter baseline = 1) drawn dashed next to the library's kernels.

Usage: bench/plot.py [-o DIR] [--format png|svg] [--family NAME=REGEX ...] RUN.json [RUN.json ...]
Writes DIR/<family>.<format> for every family with at least one benchmark in the runs (default
DIR: docs/plots) and prints one line per image. Exit 0, 2 usage, 3 unreadable input.
Needs matplotlib (Debian: python3-matplotlib, in scripts/install-deps.sh).
"""
import argparse
import json
import os
import re
import statistics
import sys

# Kernel families: a name and the benchmarks it shows (library kernels, and the in-run
# reference of the same work where one is cheap enough to share the axis).
FAMILIES = [
    ("pose_sample_l2m",
     r"^POSE/(sample_l2m/linear/loop/(forward|random)|plain_sampler/forward)/(256|1024)$"),
    ("pose_l2m", r"^POSE/l2m(_sse2)?/(256|1024)$"),
    ("skel_decode", r"^SKEL/decode/(64|1024|4096)$"),
    ("rkch_decode", r"^RKCH/decode/(tiny/259|seed/b16f12|skel/1|skel/10|vclp/1)$"),
    ("mesh", r"^MESH/(greedy|bone_aware_j(8|64))/(sphere|terrain)/64$"),
    ("vox0_decode", r"^VOX0/decode/\w+/(64|256)$|^memcpy/vox0_(64|256)$"),
    ("bench_reader", r"^(READER|REFERENCE)/"),
]


UNITS = ("items/s", "bytes/s", "calls/s")  # preference order when a family shares several


def load(path):
    """{run_name: ({unit: median rate}, is_baseline)} and a label for the run."""
    with open(path) as f:
        doc = json.load(f)
    reps = {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        reps.setdefault(b.get("run_name", b["name"]), []).append(b)
    med = {}
    for name, rs in reps.items():
        rates = {}
        for key, unit in (("items_per_second", "items/s"), ("bytes_per_second", "bytes/s")):
            # A rate of 0 is a counter the benchmark did not set (a baseline that sets bytes
            # only; Google Benchmark still writes items_per_second: 0): not a rate.
            vals = [r[key] for r in rs if r.get(key)]
            if vals:
                rates[unit] = statistics.median(vals)
        vals = [r["cpu_time"] for r in rs if r.get("cpu_time")]
        if vals:  # calls per second from the CPU time: every benchmark has it
            scale = {"ns": 1e9, "us": 1e6, "ms": 1e3, "s": 1}.get(rs[0].get("time_unit", "ns"), 1e9)
            rates["calls/s"] = scale / statistics.median(vals)
        if rates:
            med[name] = (rates, any(r.get("baseline") for r in rs))
    ctx = doc.get("context", {})
    label = ctx.get("git_commit") or ctx.get("date", "")[:16] or os.path.basename(path)
    return med, str(label)[:12]


def family_unit(runs, names):
    """The first unit of UNITS that every benchmark of the family has in every run (one axis,
    one unit: a library decode in items/s next to its baseline in bytes/s would not compare)."""
    for unit in UNITS:
        if all(unit in med[n][0] for med, _ in runs for n in names if n in med):
            return unit
    return "calls/s"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("-o", default="docs/plots")
    ap.add_argument("--format", choices=("png", "svg"), default="svg")
    ap.add_argument("--family", action="append", default=[], metavar="NAME=REGEX")
    args = ap.parse_args(argv)
    families = list(FAMILIES)
    for f in args.family:
        if "=" not in f:
            ap.error("--family wants NAME=REGEX, got %r" % f)
        name, rx = f.split("=", 1)
        families.append((name, rx))
    try:
        runs = [load(p) for p in args.runs]
    except (OSError, ValueError, KeyError) as e:
        print("plot.py: cannot read a run: %s" % e, file=sys.stderr)
        return 3
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(args.o, exist_ok=True)
    labels = ["%d: %s" % (i + 1, lab) for i, (_, lab) in enumerate(runs)]
    for fam, rx in families:
        pat = re.compile(rx)
        names = sorted({n for med, _ in runs for n in med if pat.search(n)})
        if not names:
            continue
        fig, ax = plt.subplots(figsize=(9, 4.8))
        unit = family_unit(runs, names)
        for n in names:
            ys = [med[n][0][unit] if n in med else None for med, _ in runs]
            base = any(med[n][1] for med, _ in runs if n in med)
            xs = [i for i, y in enumerate(ys) if y is not None]
            ax.plot(xs, [ys[i] for i in xs], linestyle="--" if base else "-", marker="o",
                    label=n + (" (baseline)" if base else ""))
        ax.set_title("%s: median rate per run (in-run baselines dashed)" % fam)
        ax.set_ylabel(unit)
        ax.set_xticks(range(len(runs)))
        ax.set_xticklabels(labels, rotation=20, fontsize=8)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="best")
        fig.tight_layout()
        out = os.path.join(args.o, "%s.%s" % (fam, args.format))
        # SVG without a timestamp and with fixed ids, so the same input gives the same file.
        plt.rcParams["svg.hashsalt"] = "voxrig"
        fig.savefig(out, metadata={"Date": None} if args.format == "svg" else None)
        plt.close(fig)
        print("%s: %d benchmark(s), %d run(s)" % (out, len(names), len(runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
