#!/usr/bin/env bash
# bench/icount.sh — the instruction-count gate: runs every workload of voxrig_icount under
# callgrind, counts the instructions executed in the project's own code inside the measured
# region (bench/icount/icount_main.cpp says exactly what is counted) and compares each count
# with bench/icount/baseline.json; any workload more than ±3 % away fails (faster too: a
# baseline that is too high would hide the next regression, so refresh it).
#
# Usage: bench/icount.sh [--update] [--bin PATH] [--tolerance 0.03]
#   --bin     the voxrig_icount binary (default: build/ci/bench/icount/voxrig_icount; the
#             baseline is for the `ci` preset, RelWithDebInfo, see bench/README.md)
#   --update  rewrite the baseline from this run (commit it with the change that moved it)
# Exit: 0 pass, 1 a workload out of tolerance or failed, 2 usage/setup error,
#       77 the baseline was recorded with another build type or compiler (not comparable; skip).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/ci/bench/icount/voxrig_icount"
baseline="$root/bench/icount/baseline.json"
update=0
tolerance=0.03
while [ $# -gt 0 ]; do
  case "$1" in
    --update) update=1 ;;
    --bin) bin="$2"; shift ;;
    --tolerance) tolerance="$2"; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "icount.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
command -v valgrind >/dev/null || { echo "icount.sh: valgrind not found" >&2; exit 2; }
[ -x "$bin" ] || { echo "icount.sh: $bin not built (cmake --build --preset ci)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
info="$("$bin" --info)"
cpu_flags="$(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2 | xargs || true)"
cpu_model="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | xargs || true)"

results="$work/results.json"
echo "{" > "$results"
first=1
for w in $("$bin" --list); do
  out="$work/$w.callgrind"
  start=$(date +%s%N)
  if ! valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out" \
       "$bin" "$w" > "$work/$w.log" 2>&1; then
    cat "$work/$w.log" >&2
    echo "icount.sh: workload $w failed" >&2
    exit 1
  fi
  counts="$(python3 "$root/bench/icount/count.py" "$out" "$bin")"
  printf '  icount: %-22s %s (%d ms)\n' "$w" "$counts" $((($(date +%s%N) - start) / 1000000))
  [ $first -eq 1 ] || echo "," >> "$results"
  first=0
  printf '"%s": %s' "$w" "$counts" >> "$results"
done
echo "}" >> "$results"

python3 - "$results" "$baseline" "$update" "$tolerance" "$info" "$cpu_model" "$cpu_flags" <<'EOF'
import json, sys
results_path, baseline_path, update, tol, info, cpu_model, cpu_flags = sys.argv[1:8]
results = json.load(open(results_path))
info = json.loads(info)
tol = float(tol)
if update == "1":
    doc = {
        "note": "Instructions executed in voxrig's own code per workload (bench/icount.sh). "
                "Refresh with bench/icount.sh --update in the ci preset build.",
        "build_type": info["build_type"],
        "compiler": info["compiler"],
        "cpu_model": cpu_model,
        "cpu_flags": cpu_flags,
        "tolerance": tol,
        "workloads": {k: v["own"] for k, v in sorted(results.items())},
    }
    with open(baseline_path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    print("icount: baseline written to %s" % baseline_path)
    sys.exit(0)
try:
    base = json.load(open(baseline_path))
except FileNotFoundError:
    print("icount: no baseline; run bench/icount.sh --update", file=sys.stderr)
    sys.exit(2)
for key in ("build_type", "compiler"):
    if base.get(key) != info[key]:
        print("icount: SKIP: baseline %s is %r, this build is %r (counts are not comparable)"
              % (key, base.get(key), info[key]))
        sys.exit(77)
if base.get("cpu_flags") != cpu_flags:
    print("icount: note: CPU flags differ from the baseline's (only the project's own code is "
          "counted, which is compiled for baseline x86-64, so this should not matter)")
failed = False
for name, r in sorted(results.items()):
    if name not in base["workloads"]:
        print("icount: %-22s %12d  NEW (not in the baseline; run --update)" % (name, r["own"]))
        failed = True
        continue
    b = base["workloads"][name]
    ratio = r["own"] / b if b else float("inf")
    verdict = "ok"
    if ratio > 1 + tol:
        verdict, failed = "REGRESSION", True
    elif ratio < 1 - tol:
        verdict, failed = "FASTER: refresh the baseline (--update)", True
    print("icount: %-22s %12d  baseline %12d  %+6.2f %%  %s"
          % (name, r["own"], b, (ratio - 1) * 100, verdict))
for name in base["workloads"]:
    if name not in results:
        print("icount: %-22s missing from this run" % name)
        failed = True
sys.exit(1 if failed else 0)
EOF
