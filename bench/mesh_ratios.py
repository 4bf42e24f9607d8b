#!/usr/bin/env python3
"""bench/mesh_ratios.py — issue 15's meshing targets from one Google Benchmark JSON run.

Reads the MESH/ratio/* benchmarks (bench/mesh_ratio_bench.cpp): each repetition carries
vs_base_greedy (today's plain greedy time / library time, measured alternately in the same
iterations), vs_base_same (today's same kernel / library) and the quad counts of both sides.
Prints one Markdown row per benchmark (median over repetitions) and the verdict per target:

  bone_aware_j8/_j64 vs today's PLAIN greedy: >= 1.5 on sphere and terrain, >= 1.0 on random50
  greedy vs today's greedy: >= 1.5 on sphere and terrain
  every kernel: quads <= today's quads

Usage:
  build/bench/bench/voxrig_bench --benchmark_filter='MESH/ratio/' \\
      --benchmark_repetitions=9 --benchmark_out=mesh.json --benchmark_out_format=json
  bench/mesh_ratios.py mesh.json [--check]
--check: exit 1 when a target is not met (default: report only, exit 0). Exit 2: no
MESH/ratio benchmarks in the file.
"""
import json
import statistics
import sys


def target(kernel, grid):
    """The ratio a kernel must reach against today's plain greedy (None: no target). A kernel
    name ending in _sse2 (the SSE2 build of mesh.h MeshKernels) has its default build's target."""
    kernel = kernel[:-len("_sse2")] if kernel.endswith("_sse2") else kernel
    if kernel == "greedy":
        return 1.5 if grid in ("sphere", "terrain") else None
    if kernel in ("bone_aware_j8", "bone_aware_j64"):
        return 1.5 if grid in ("sphere", "terrain") else 1.0
    return None


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    check = "--check" in argv[2:]
    with open(argv[1]) as f:
        data = json.load(f)
    runs = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        if not name.startswith("MESH/ratio/"):
            continue
        runs.setdefault(name, []).append(b)
    if not runs:
        print("mesh_ratios.py: no MESH/ratio benchmarks in " + argv[1], file=sys.stderr)
        return 2
    ctx = data.get("context", {})
    print("machine: %s, %s CPUs, libbenchmark %s build" % (ctx.get("cpu_model", ctx.get("host_name", "?")),
                                         ctx.get("num_cpus", "?"),
                                         ctx.get("library_build_type", "?")))
    print()
    print("| kernel | grid | N | reps | × today's greedy | × today's same kernel | quads | "
          "today's quads | target | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failed = 0
    for name in sorted(runs, key=lambda n: (n.split("/")[3], int(n.split("/")[4]),
                                           n.split("/")[2])):
        reps = runs[name]
        _, _, kernel, grid, n = name.split("/")
        med = lambda k: statistics.median(r[k] for r in reps if k in r)
        vs_greedy, vs_same = med("vs_base_greedy"), med("vs_base_same")
        quads, base_quads = med("quads"), med("base_quads")
        want = target(kernel, grid)
        ok_quads = quads <= base_quads
        ok = ok_quads and (want is None or vs_greedy >= want)
        verdict = ("met" if ok else "NOT met") if want is not None else (
            "quads ok" if ok_quads else "MORE QUADS")
        if not ok:
            failed += 1
        print("| %s | %s | %s | %d | %.2f | %.2f | %d | %d | %s | %s |" % (
            kernel, grid, n, len(reps), vs_greedy, vs_same, quads, base_quads,
            "≥ %.1f" % want if want is not None else "—", verdict))
    print()
    print("%d benchmark(s), %d not meeting their target" % (len(runs), failed))
    return 1 if check and failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
