#!/usr/bin/env bash
# bench/run.sh — builds the `bench` preset (Release) and runs the benchmark suite.
#
# Usage: bench/run.sh [-o FILE.json] [-r REPS] [--filter REGEX] [--min-time SECONDS] [--no-build]
#                     [-- extra Google Benchmark flags]
#   -o          JSON output (default build/bench/results.json); every repetition is kept, so
#               bench/compare.sh can take medians and compare.py its U-test
#   -r          repetitions (default 9; compare.py's U-test needs >= 9)
#   --filter    passed to --benchmark_filter (a regex over names such as VOX0/decode/sphere/64)
#   --min-time  seconds per repetition (default 0.1)
#   --compact   rewrite the JSON with one benchmark entry per line (the checked-in baseline's
#               format: ~30 % smaller, readable diffs; every reader takes either form)
# Repetitions are randomly interleaved (--benchmark_enable_random_interleaving) so a slow phase
# of the shared machine hits every benchmark rather than a few. Progress goes to stderr: a
# heartbeat every minute while the repetitions run, then "[done/total] name  median ..." lines as
# the results print. The JSON records the CPU model, the CPU class (bench/machine.sh: vendor,
# family, model, vector ISA; `lscpu`'s model name alone does not tell Zen 4 from Zen 5) and the
# git commit.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/build/bench/results.json"
reps=9
filter=""
min_time=0.1
build=1
compact=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    -r) reps="$2"; shift ;;
    --filter) filter="$2"; shift ;;
    --min-time) min_time="$2"; shift ;;
    --no-build) build=0 ;;
    --compact) compact=1 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"; exit 0 ;;  # the header comment
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

if [ "$reps" -lt 9 ]; then
  echo "run.sh: note: $reps repetition(s); compare.py's U-test needs >= 9" >&2
fi
cd "$root"
if [ "$build" -eq 1 ]; then
  cmake --preset bench > /dev/null
  cmake --build --preset bench --target voxrig_bench
fi
bin="$root/build/bench/bench/voxrig_bench"
filter_args=()
[ -n "$filter" ] && filter_args=(--benchmark_filter="$filter")
total="$("$bin" --benchmark_list_tests "${filter_args[@]}" | wc -l)"
cpu="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
cpu_class="$("$root/bench/machine.sh" 2>/dev/null || echo unknown)"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
mkdir -p "$(dirname "$out")"
echo "run.sh: $total benchmark(s) x $reps repetition(s), ${min_time}s each -> $out" >&2
start=$SECONDS

# Interleaved repetitions are reported only when the last one has run, so the results print at
# the end; until then a heartbeat on stderr says how long the run has taken, and the least its
# timed loops alone take (benchmarks x repetitions x --min-time; setup and the slower loops add
# to it).
least_min="$(awk -v n="$total" -v r="$reps" -v t="$min_time" \
  'BEGIN { printf "%.0f", n * r * t / 60 }')"
(
  while sleep 60 && kill -0 "$$" 2>/dev/null; do
    echo "run.sh: $(( (SECONDS - start) / 60 )) min elapsed; the timed loops alone take" \
      "at least ${least_min} min; results print when every repetition has run" >&2
  done
) &
heartbeat=$!
trap 'kill "$heartbeat" 2>/dev/null' EXIT
set +e
"$bin" "${filter_args[@]}" \
  --benchmark_repetitions="$reps" \
  --benchmark_min_time="$min_time" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_display_aggregates_only=true \
  --benchmark_out="$out" --benchmark_out_format=json \
  --benchmark_context=cpu_model="$cpu" \
  --benchmark_context=cpu_class="$cpu_class" \
  --benchmark_context=git_commit="$commit" \
  --benchmark_color=false \
  "${extra[@]}" |
  awk -v total="$total" '
    /_median / { done++; printf("[%d/%d] %s\n", done, total, $0) > "/dev/stderr"; next }
    /^Benchmark|^---|_mean|_stddev|_cv/ { next }
    { print > "/dev/stderr" }'
status=${PIPESTATUS[0]}
set -e
if [ "$compact" -eq 1 ] && [ -f "$out" ]; then
  python3 - "$out" <<'EOF'
import json, sys
path = sys.argv[1]
doc = json.load(open(path))
with open(path, "w") as f:
    f.write('{"context": %s,\n"benchmarks": [\n' % json.dumps(doc["context"], sort_keys=True))
    f.write(",\n".join(json.dumps(b, separators=(",", ":")) for b in doc["benchmarks"]))
    f.write("\n]}\n")
EOF
fi
echo "run.sh: wrote $out (exit $status)" >&2
exit "$status"
