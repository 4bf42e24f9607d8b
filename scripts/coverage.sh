#!/usr/bin/env bash
# Source-based coverage of the fuzz corpora (clang -fprofile-instr-generate -fcoverage-mapping,
# llvm-profdata-14, llvm-cov-14). Builds every fuzz target of fuzz/targets.txt in the `coverage`
# preset (clang++-14, no sanitizers, linked with fuzz/support/replay_main.cpp instead of
# libFuzzer), replays corpus/<target>/ + fuzz/regressions/<target>/ through each, merges the
# profiles and prints a per-file line table of reference/src/: covered / total lines, percent, and
# the set the file counts in: codec (core, vfp, rkc, json, dump: decoders, validators, writers),
# cli (core/limits.cpp, core/profile.cpp: CLI presentation no input reaches) or other (mesh,
# eval, export). The unreached lines of every file, as ranges, go to build/coverage/uncovered.txt.
# usage: scripts/coverage.sh [--min PCT] [--html DIR] [--corpus DIR]
#   --min PCT    exit 4 when the codec lines reached are below PCT percent
#   --html DIR   also write llvm-cov's HTML report (per-line counts) into DIR
#   --corpus DIR replay DIR/<target>/ instead of corpus/<target>/ (e.g. a storage-repo checkout's
#                corpus/ with fuzz_<target> folders: both namings are looked up)
# Exit: 0 ok, 2 usage, 4 below --min. Environment: VOXRIG_COVERAGE_BUILD (default build/coverage).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${VOXRIG_COVERAGE_BUILD:-$ROOT/build/coverage}"
MIN="" HTML="" CORPUS="$ROOT/corpus"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --min) MIN="${2:?--min needs a percentage}"; shift 2 ;;
    --html) HTML="${2:?--html needs a directory}"; shift 2 ;;
    --corpus) CORPUS="$(cd "${2:?--corpus needs a directory}" && pwd)"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "coverage.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
log() { printf '[coverage.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
for tool in clang++-14 llvm-profdata-14 llvm-cov-14; do
  command -v "$tool" >/dev/null || { log "error: $tool not found (scripts/install-deps.sh)"; exit 2; }
done

mapfile -t targets < <(grep -v '^[[:space:]]*\(#\|$\)' "$ROOT/fuzz/targets.txt")
if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
  log "configuring the coverage preset in $BUILD"
  (cd "$ROOT" && cmake --preset coverage -B "$BUILD" >/dev/null)
fi
log "building ${#targets[@]} fuzz targets with coverage instrumentation"
cmake --build "$BUILD" -j 2 --target "${targets[@]/#/fuzz_}" >/dev/null || {
  cmake --build "$BUILD" -j 1 --target "${targets[@]/#/fuzz_}" 2>&1 | tail -30; exit 2; }

prof="$BUILD/profiles"
rm -rf "$prof" && mkdir -p "$prof"
for t in "${targets[@]}"; do
  inputs=()
  for d in "$CORPUS/$t" "$CORPUS/fuzz_$t" "$ROOT/fuzz/regressions/$t"; do
    [[ -d "$d" ]] && inputs+=("$d")
  done
  exe="$BUILD/fuzz/fuzz_$t"
  [[ ${#inputs[@]} -gt 0 ]] || { log "warning: $t has no corpus"; continue; }
  # A target aborts on a broken invariant; the profile of the inputs before it is still written
  # (the corpus is meant to pass: the fuzz-regress CTests check that).
  LLVM_PROFILE_FILE="$prof/$t.profraw" "$exe" "${inputs[@]}" >"$prof/$t.log" 2>&1 ||
    log "warning: $t did not replay cleanly: $(tail -1 "$prof/$t.log")"
  log "replayed $t: $(tail -1 "$prof/$t.log")"
done
llvm-profdata-14 merge -sparse "$prof"/*.profraw -o "$prof/all.profdata"
# The coverage mapping is read from the codec library's object files, not from the fuzz binaries:
# the linker leaves out every object no target calls (export/, most of limits.cpp), and those
# lines must count as unreached, not vanish from the table. The profile's counts apply to them.
objects=()
while IFS= read -r o; do objects+=(-object "$o"); done < <(find "$BUILD/reference" -name '*.cpp.o' | sort)
[[ ${#objects[@]} -gt 0 ]] || { log "error: no object files of the codec library under $BUILD/reference"; exit 2; }
# objects[0] is "-object"; llvm-cov takes the first file positionally.
cov=(llvm-cov-14 export "${objects[1]}" "${objects[@]:2}" -instr-profile="$prof/all.profdata"
     -ignore-filename-regex='^/usr/')
"${cov[@]}" -format=lcov >"$prof/all.lcov"
if [[ -n "$HTML" ]]; then
  llvm-cov-14 show "${objects[1]}" "${objects[@]:2}" -instr-profile="$prof/all.profdata" \
    -format=html -output-dir="$HTML" "$ROOT/reference/src"
  log "HTML report: $HTML/index.html"
fi

python3 - "$prof/all.lcov" "$ROOT" "$BUILD/uncovered.txt" "${MIN:-0}" <<'PY'
import os, sys
lcov, root, uncovered_path, minimum = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
src = os.path.join(root, "reference", "src") + os.sep
CODEC = ("core/", "vfp/", "rkc/", "json/", "dump/")  # decoders, validators, writers
# core/ files that no input reaches by design: `voxrig limits` output and profile-name parsing
# (CLI presentation); counted apart so the codec figure is about what input bytes drive.
CLI = ("core/limits.cpp", "core/profile.cpp")
def kind(name):
    if name in CLI:
        return "cli"
    return "codec" if name.startswith(CODEC) else "other"
files, cur = {}, None
for line in open(lcov):
    line = line.strip()
    if line.startswith("SF:"):
        path = os.path.realpath(line[3:])
        cur = files.setdefault(path[len(src):], {}) if path.startswith(src) else None
    elif line.startswith("DA:") and cur is not None:
        no, count = line[3:].split(",")[:2]
        # A line instantiated in several binaries is reached if any reaches it.
        cur[int(no)] = max(cur.get(int(no), 0), int(count))
def ranges(nums):
    out, start, prev = [], None, None
    for n in sorted(nums):
        if start is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append((start, prev))
        start = prev = n
    if start is not None:
        out.append((start, prev))
    return out
tot = {"codec": [0, 0], "cli": [0, 0], "other": [0, 0]}
print(f"{'file (reference/src/)':42} {'lines':>6} {'hit':>6} {'%':>7}  set")
with open(uncovered_path, "w") as un:
    for name in sorted(files):
        lines = files[name]
        hit = sum(1 for c in lines.values() if c > 0)
        k = kind(name)
        tot[k][0] += hit
        tot[k][1] += len(lines)
        pct = 100.0 * hit / len(lines) if lines else 100.0
        print(f"{name:42} {len(lines):6} {hit:6} {pct:6.1f}%  {k}")
        miss = ranges(n for n, c in lines.items() if c == 0)
        if miss:
            un.write(f"reference/src/{name}: " +
                     ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in miss) + "\n")
for k, label in (("codec", "codec (core vfp rkc json dump)"), ("cli", "cli (core/limits, core/profile)"),
                 ("other", "other (mesh eval export)")):
    hit, n = tot[k]
    print(f"{'TOTAL ' + label:42} {n:6} {hit:6} {100.0 * hit / max(n, 1):6.1f}%")
hit, n = tot["codec"]
pct = 100.0 * hit / max(n, 1)
print(f"unreached line ranges per file: {uncovered_path}")
if pct < minimum:
    print(f"coverage.sh: codec lines reached {pct:.1f}% < --min {minimum:g}%")
    sys.exit(4)
PY
