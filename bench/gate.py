#!/usr/bin/env python3
"""The regression gate behind bench/compare.sh: per benchmark, the ratio of the median time in
NEW.json to the median time in BASE.json (Google Benchmark JSON, --benchmark_repetitions >= 1);
exit 4 (the CLI's "check failed") when any library benchmark's ratio exceeds 1 + threshold.

- Output: a short table of only the benchmarks that changed (ratio outside 1 +- threshold,
  faster or slower, or errored), then the one verdict line "gate: PASS|FAIL: ..."; --all prints
  every benchmark, --quiet only the regressions.
- Exit: 0 pass, 4 regression (or an errored benchmark), 2 usage, 3 a file cannot be read.

- Repetitions: every "iteration" run of a benchmark counts; a file written with
  --benchmark_report_aggregates_only falls back to its "_median" aggregate.
- Time: cpu_time by default (a descheduled process on a shared 2-core VM loses wall time, not
  CPU time); --time real for wall-clock.
- In-run baselines (counter "baseline" = 1: memcpy, grid scan, per-voxel greedy, plain sampler)
  are shown but never gated: they are not library code. With --normalize every library ratio is
  divided by the geometric mean of the baselines' ratios, which cancels a machine that is
  uniformly faster or slower between the two runs (a shared VM drifts by up to 2x).
- A benchmark that errored in NEW (e.g. it allocated in a zero-allocation loop) fails the gate.
- CPU class: when BASE and NEW record different context.cpu_class values (bench/machine.sh:
  vendor, family, model, vector ISA; run.sh records it), a note says so before the table. The
  verdict is unchanged, but rows then measure two CPUs as much as two builds: gate against the
  checked-in baseline of this machine's class (`bench/machine.sh --baseline`).
"""
import argparse
import json
import math
import re
import signal
import statistics
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load(path, field):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("gate: cannot read %s: %s (an unfinished run?)" % (path, e), file=sys.stderr)
        sys.exit(3)
    reps, medians, errors, baseline = {}, {}, set(), set()
    for b in doc.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("error_occurred"):
            errors.add(name)
            continue
        if b.get("baseline", 0) == 1:
            baseline.add(name)
        value = b[field] * UNIT_NS[b.get("time_unit", "ns")]
        run_type = b.get("run_type", "iteration")
        if run_type == "iteration":
            reps.setdefault(name, []).append(value)
        elif b.get("aggregate_name") == "median":
            medians[name] = value
    out = {name: statistics.median(v) for name, v in reps.items()}
    for name, v in medians.items():
        out.setdefault(name, v)
    counts = {name: len(v) for name, v in reps.items()}
    return out, counts, errors, baseline, doc.get("context", {})


def cpu_class_note(base_path, base_context, new_path, new_context):
    """The warning line when the two runs record different CPU classes, else None. A file
    without the field (run by hand, or before run.sh recorded it) is named as unknown, and only
    warned about when the other file has a class: two unknowns say nothing either way."""
    a, b = base_context.get("cpu_class"), new_context.get("cpu_class")
    if a == b:
        return None
    return ("gate: note: BASE (%s) ran on CPU class '%s', NEW (%s) on '%s': every row also "
            "measures the other CPU; gate against a baseline of this class "
            "(bench/machine.sh --baseline)" % (base_path, a or "unknown", new_path, b or "unknown"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--threshold", type=float, default=0.10,
                    help="fail when median(new)/median(base) > 1 + threshold (default 0.10)")
    ap.add_argument("--normalize", action="store_true",
                    help="divide by the geometric mean ratio of the in-run baselines")
    ap.add_argument("--time", choices=("cpu", "real"), default="cpu")
    ap.add_argument("--filter", default="", help="regex: gate only matching benchmarks")
    ap.add_argument("--quiet", action="store_true", help="print only regressions and the summary")
    ap.add_argument("--all", action="store_true",
                    help="print every benchmark, not only the ones that changed")
    args = ap.parse_args()
    field = args.time + "_time"
    base, base_n, base_err, base_bl, base_context = load(args.base, field)
    new, new_n, new_err, new_bl, new_context = load(args.new, field)
    note = cpu_class_note(args.base, base_context, args.new, new_context)
    if note:
        print(note)
    pattern = re.compile(args.filter)
    baselines = base_bl | new_bl

    common = sorted(n for n in base if n in new and pattern.search(n))
    drift = 1.0
    if args.normalize:
        logs = [math.log(new[n] / base[n]) for n in common if n in baselines and base[n] > 0]
        if not logs:
            print("gate: --normalize needs in-run baselines in both files", file=sys.stderr)
            return 2
        drift = math.exp(sum(logs) / len(logs))
        print("gate: machine drift (geomean of %d baseline ratios) = %.3f; library ratios are "
              "divided by it" % (len(logs), drift))

    regressions, gated, unchanged = [], 0, 0
    width = max([len(n) for n in common] + [20])
    header = False
    for n in common:
        ratio = new[n] / base[n] if base[n] > 0 else float("inf")
        is_baseline = n in baselines
        if not is_baseline:
            ratio /= drift
            gated += 1
        verdict = "baseline" if is_baseline else "ok"
        if not is_baseline and ratio > 1 + args.threshold:
            verdict = "REGRESSION"
            regressions.append(n)
        elif not is_baseline and ratio < 1 - args.threshold:
            verdict = "faster"
        changed = verdict in ("REGRESSION", "faster")
        unchanged += not changed
        show = verdict == "REGRESSION" or (not args.quiet and (changed or args.all))
        if show:
            if not header:
                print("%-*s %12s %12s     %-6s  %s" % (width, "benchmark", "base", "new", "ratio",
                                                        "verdict"))
                header = True
            print("%-*s %12.0f %12.0f ns  x%.3f  %s  (reps %d/%d)"
                  % (width, n, base[n], new[n], ratio, verdict, base_n.get(n, 1), new_n.get(n, 1)))
    if not args.all and unchanged:
        print("gate: %d benchmark(s) within x%.2f..x%.2f not shown (--all shows them)"
              % (unchanged, 1 - args.threshold, 1 + args.threshold))
    errored = sorted(n for n in new_err if pattern.search(n))
    for n in errored:
        print("%-*s ERROR in %s" % (width, n, args.new))
    only_base = sorted(n for n in base if n not in new and n not in new_err and pattern.search(n))
    only_new = sorted(n for n in new if n not in base and pattern.search(n))
    if only_base:
        print("gate: %d benchmark(s) only in BASE (filtered out of NEW, or removed): %s"
              % (len(only_base), ", ".join(only_base[:5]) + (" ..." if len(only_base) > 5 else "")))
    if only_new:
        print("gate: %d benchmark(s) only in NEW (not gated)" % len(only_new))
    low_reps = [n for n in common if min(base_n.get(n, 1), new_n.get(n, 1)) < 9]
    if low_reps:
        print("gate: note: %d benchmark(s) have fewer than 9 repetitions on one side; medians of "
              "few runs are noisy" % len(low_reps))
    status = "FAIL" if regressions or errored else "PASS"
    print("gate: %s: %d library benchmark(s) compared, %d over x%.2f, %d errored (time=%s%s)"
          % (status, gated, len(regressions), 1 + args.threshold, len(errored), args.time,
             ", normalized" if args.normalize else ""))
    return 4 if status == "FAIL" else 0


if __name__ == "__main__":
    # `compare.sh ... | head` ends quietly, as a shell tool does, instead of with a traceback.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
