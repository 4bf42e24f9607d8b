#!/usr/bin/env bash
# bench/compare.sh — compares two runs of bench/run.sh and fails on a regression.
#
# Usage: bench/compare.sh BASE.json NEW.json [--threshold 0.10] [--normalize] [--time cpu|real]
#                         [--filter REGEX] [--quiet] [--all] [--full-table]
#  Runs the gate (bench/gate.py): per benchmark, median(NEW) / median(BASE) of the CPU time, and
#  prints a short table of only the benchmarks that changed (outside 1 +- threshold, or errored;
#  --all: every one; --quiet: only regressions), then its verdict line. A library benchmark
#  slower than 1 + threshold (default 10 %), or one that errored, is a regression.
#  --normalize divides by the in-run baselines' drift (use it across runs on shared VMs).
#  --full-table first prints Google Benchmark's compare.py table (every benchmark, with its
#  Mann-Whitney U-test at >= 9 repetitions; needs libbenchmark-tools and python3-scipy).
# Exit: 0 pass, 4 regression (the voxrig CLI's "check failed"), 2 usage, 3 a file cannot be read.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 2 ]; then
  sed -n '2,12p' "$0"
  exit 2
fi
base="$1" new="$2"
shift 2
table=0
gate_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-table) table=0 ;;  # the default now; kept for old command lines
    --full-table) table=1 ;;
    --all) gate_args+=("$1") ;;
    --threshold|--time|--filter) gate_args+=("$1" "$2"); shift ;;
    --normalize|--quiet) gate_args+=("$1") ;;
    *) echo "compare.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
for f in "$base" "$new"; do
  [ -f "$f" ] || { echo "compare.sh: cannot read $f: no such file" >&2; exit 3; }
done

if [ "$table" -eq 1 ]; then
  compare_py=""
  for c in /usr/share/benchmark/compare.py \
           $(dpkg -L libbenchmark-tools 2>/dev/null | grep '/compare\.py$' || true); do
    [ -f "$c" ] && { compare_py="$c"; break; }
  done
  # compare.py needs SciPy; the pyenv python3 on PATH may lack it while Debian's has it.
  py=""
  for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import scipy' 2>/dev/null; then py="$p"; break; fi
  done
  if [ -n "$compare_py" ] && [ -n "$py" ]; then
    echo "== compare.py benchmarks $base $new"
    "$py" "$compare_py" --no-color benchmarks "$base" "$new" || \
      echo "compare.sh: note: compare.py failed (table skipped)"
  else
    echo "compare.sh: note: compare.py or SciPy not found; table skipped"
  fi
  echo "== gate"
fi
exec python3 "$here/gate.py" "$base" "$new" "${gate_args[@]}"
