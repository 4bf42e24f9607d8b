#!/usr/bin/env bash
# Runs the voxrig fuzz targets (fuzz/targets.txt; sources fuzz/fuzz_<target>.cpp) with libFuzzer. See fuzz/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${VOXRIG_FUZZ_BUILD:-$ROOT/build/fuzz}"
FINDINGS="$ROOT/fuzz/findings"
REGRESSIONS="$ROOT/fuzz/regressions"

usage() {
  cat <<EOF
usage: scripts/fuzz.sh MODE [ARGS] [-- LIBFUZZER_FLAGS...]

Modes (every mode builds the \`fuzz\` preset first: clang++-14, libFuzzer, ASan + UBSan):
  smoke [SECONDS]        run every target for SECONDS (default 15) on one core each, JOBS
                         (default: nproc) at a time, over a scratch copy of its corpus; fails on
                         any crash, leak, timeout or OOM (the input is kept in
                         fuzz/findings/<target>/)
  overnight [HOURS]      fuzz all targets for HOURS in total (default 8), split evenly, each in
                         fork mode with -fork=JOBS (default: nproc) workers, going on past
                         crashes, timeouts and OOMs; new inputs collect in
                         fuzz/findings/<target>/corpus/, crashes in fuzz/findings/<target>/;
                         a per-target table (seconds, execs, cov, ft, corpus, findings) is
                         written to fuzz/findings/overnight-<UTC time>.tsv
  merge [TARGET...]      minimize corpus/<target>/ in place with -set_cover_merge=1 (the
                         smallest set found with the same features; also taking in
                         fuzz/findings/<target>/corpus/ and SEEDS_DIR/<target>/ or
                         SEEDS_DIR/fuzz_<target>/ when present);
                         MERGE=merge uses libFuzzer's plain -merge=1 instead
  triage CRASH TARGET    minimize a crashing input (-minimize_crash=1), classify it by its
                         sanitizer report and store it as fuzz/regressions/<target>/<sha1>,
                         which the fuzz-regress CTest replays from then on
  stats [TARGET...]      replay corpus/<target>/ (-runs=0) and print one tab-separated line per
                         target: inputs, bytes, cov (edges), ft (features), peak RSS of the
                         replay, the slowest input (ms) and the smallest -malloc_limit_mb (a
                         power of two) the corpus and fuzz/regressions/<target>/ pass under;
                         what fuzz/reports/corpus-minimization.md and the .options are made from
  differential LIB [SECONDS]
                         fuzz_differential (not in targets.txt): the reference against the
                         in-process testee LIB (voxrig/testee.h) for SECONDS (default 60),
                         seeded with the golden files of VOXRIG_TESTEE_PROFILE's family
                         (default vfp-static); stops at the first disagreement, printing both
                         outcomes, and keeps the input in fuzz/findings/differential/
  differential-proof [SECONDS]
                         builds the example C testee with its planted bug and checks that
                         fuzz_differential finds it within SECONDS (default 60), starting from
                         valid files only (.ci/run runs this)
  replay TARGET EXE INPUT...
                         run EXE once over the inputs (-runs=0) under the timeout,
                         malloc_limit_mb and rss_limit_mb of fuzz/TARGET.options (what the
                         fuzz-regress CTests run; does not build)
  list                   print the targets
  --help                 this text

Environment: TARGETS="vfp rkc ..." limits smoke/overnight to some targets; JOBS; SEEDS_DIR;
TRIAGE_SECONDS (minimization time, default 60);
VOXRIG_FUZZ_BUILD (default build/fuzz). Flags after -- go to every libFuzzer run.
EOF
}

log() { printf '[fuzz.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 2; }

# The one list of targets (fuzz/targets.txt: a name a line, # comments).
all_targets() { grep -v '^[[:space:]]*\(#\|$\)' "$ROOT/fuzz/targets.txt"; }

targets() { if [[ -n "${TARGETS:-}" ]]; then echo $TARGETS; else all_targets; fi; }

# libFuzzer flags from fuzz/<target>.options ([libfuzzer] dict = X.dict, max_len = N, timeout = S,
# malloc_limit_mb = M, rss_limit_mb = R); the dictionary lives in corpus/ (ClusterFuzzLite copies
# it next to the binary instead). Callers put their defaults before these, so the options win
# (libFuzzer takes the last value of a flag). The one parser of the .options files: the
# fuzz-regress CTests get theirs through `replay` below. VOXRIG_FUZZ_OPTIONS_DIR (default fuzz/)
# points at another directory of .options files (the limit proof test uses a tightened copy).
option_flags() {
  local opts="${VOXRIG_FUZZ_OPTIONS_DIR:-$ROOT/fuzz}/$1.options" dict key value
  [[ -f "$opts" ]] || return 0
  dict="$(sed -n 's/^[[:space:]]*dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$opts" | tail -1)"
  [[ -n "$dict" ]] && echo "-dict=$ROOT/corpus/$dict"
  for key in max_len timeout malloc_limit_mb rss_limit_mb; do
    value="$(sed -n "s/^[[:space:]]*$key[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p" "$opts" | tail -1)"
    [[ -n "$value" ]] && echo "-$key=$value"
  done
  return 0
}

# The per-input limits of a target's options only (timeout, malloc_limit_mb, rss_limit_mb): what a
# replay applies. Not max_len (libFuzzer would cut longer regression inputs) nor the dictionary.
limit_flags() { option_flags "$1" | grep -e '^-timeout=' -e '^-malloc_limit_mb=' -e '^-rss_limit_mb=' || true; }

# replay TARGET EXE INPUT...: runs EXE (a libFuzzer binary, or the GCC build's replay driver,
# fuzz/support/replay_main.cpp, which enforces the same three flags) once over the inputs under
# the target's limits. What the fuzz-regress.<target> CTests run; never builds.
replay() {
  [[ $# -ge 3 ]] || die "usage: scripts/fuzz.sh replay TARGET EXE INPUT..."
  local t="$1" exe="$2"
  shift 2
  # shellcheck disable=SC2046  # one flag a line
  exec "$exe" -runs=0 $(limit_flags "$t") "$@"
}

build() {
  command -v clang++-14 >/dev/null || die "clang++-14 not found (scripts/install-deps.sh)"
  if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
    log "configuring the fuzz preset in $BUILD"
    (cd "$ROOT" && cmake --preset fuzz >/dev/null)
  fi
  local t list=()
  for t in $(targets); do list+=("fuzz_$t"); done
  log "building ${#list[@]} fuzz targets (clang++-14, libFuzzer, ASan+UBSan)"
  cmake --build "$BUILD" -j 2 --target "${list[@]}" >/dev/null || {
    cmake --build "$BUILD" -j 1 --target "${list[@]}" 2>&1 | tail -30; die "build failed"; }
}

bin() { echo "$BUILD/fuzz/fuzz_$1"; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# Prints "cov: A ft: B corp: C exec/s: D" from a libFuzzer log.
summary() {
  local line execs
  line="$(grep -E '^#[0-9]+' "$1" | grep -E 'cov: ' | tail -1 || true)"
  execs="$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$1" | tail -1)"
  echo "$(echo "$line" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+' || echo 'no stats') exec/s: ${execs:-?}"
}

# One tab-separated report line for target $1 after an overnight run of $2 s with $3 fork
# workers, read from the last status line of libFuzzer's fork-mode log ("#EXECS: cov: A ft: B
# corp: C exec/s D oom/timeout/crash: O/T/X ...") and the artifacts left in findings/<target>/.
report_line() {
  local t="$1" line execs cov ft otc artifacts
  line="$(grep -E '^#[0-9]+: cov: ' "$FINDINGS/$t/logs/main.log" | tail -1 || true)"
  execs="$(echo "$line" | sed -n 's/^#\([0-9]*\):.*/\1/p')"
  cov="$(echo "$line" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')"
  ft="$(echo "$line" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')"
  otc="$(echo "$line" | sed -n 's/.* oom\/timeout\/crash: \([0-9/]*\).*/\1/p')"
  artifacts="$(ls "$FINDINGS/$t" | grep -cE '^(crash|leak|timeout|oom)-' || true)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$2" "$3" "${execs:-0}" "${cov:-0}" \
    "${ft:-0}" "$(ls "$FINDINGS/$t/corpus" | wc -l)" "${otc:-?}" "$artifacts"
}

SCRATCH=""
cleanup() { [[ -z "$SCRATCH" ]] || rm -rf "$SCRATCH"; }
trap cleanup EXIT

# One smoke run of target $1 for $2 seconds over scratch dir $3; exit status is libFuzzer's.
smoke_one() {
  local t="$1" seconds="$2" scratch="$3"
  mkdir -p "$FINDINGS/$t" "$scratch/$t"
  # shellcheck disable=SC2046
  "$(bin "$t")" "$scratch/$t" "$ROOT/corpus/$t" -timeout=10 -rss_limit_mb=2048 \
    $(option_flags "$t") -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$FINDINGS/$t/" "${EXTRA[@]}" >"$FINDINGS/$t/smoke.log" 2>&1
}

# Logs target $1's smoke result (exit status $2); returns 1 when it failed.
smoke_verdict() {
  local t="$1" rc="$2" log_file="$FINDINGS/$1/smoke.log"
  if [[ $rc -eq 0 ]]; then log "ok   $t: $(summary "$log_file")"; return 0; fi
  log "FAIL $t (exit $rc): $(grep -m1 -oE '(ERROR: [A-Za-z]+Sanitizer: [a-z-]+|runtime error:.*|INVARIANT BROKEN.*|ERROR: libFuzzer: [a-z-]+)' "$log_file" || echo 'see log')"
  log "  log: $log_file; artifact: $(ls -t "$FINDINGS/$t" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' | head -1)"
  return 1
}

smoke() {
  local seconds="${1:-15}" jobs="${JOBS:-$(nproc)}" t failed=() list pid
  local -A running=()
  build
  SCRATCH="$(mktemp -d)"
  list=($(targets))
  log "smoke: ${#list[@]} targets x ${seconds}s, $jobs at a time"
  # Each target is one single-threaded libFuzzer process, so JOBS of them fill JOBS cores.
  for t in "${list[@]}"; do
    while [[ ${#running[@]} -ge $jobs ]]; do smoke_reap; done
    smoke_one "$t" "$seconds" "$SCRATCH" &
    running[$!]="$t"
  done
  while [[ ${#running[@]} -gt 0 ]]; do smoke_reap; done
  if [[ ${#failed[@]} -gt 0 ]]; then
    log "smoke failed for: ${failed[*]} (triage with: scripts/fuzz.sh triage ARTIFACT TARGET)"
    exit 1
  fi
  log "smoke passed (${#list[@]} targets, ${seconds}s each)"
}

# Waits for one of smoke()'s running targets and records its verdict (uses smoke's locals).
smoke_reap() {
  local rc=0 done_pid
  wait -n -p done_pid "${!running[@]}" || rc=$?
  smoke_verdict "${running[$done_pid]}" "$rc" || failed+=("${running[$done_pid]}")
  unset "running[$done_pid]"
}

overnight() {
  local hours="${1:-8}" jobs="${JOBS:-$(nproc)}" list per t report
  build
  list=($(targets))
  per=$(( $(awk "BEGIN{print int($hours*3600)}") / ${#list[@]} ))
  [[ $per -ge 1 ]] || per=1
  log "overnight: ${#list[@]} targets x ${per}s, -fork=$jobs each"
  mkdir -p "$FINDINGS"
  report="$FINDINGS/overnight-$(date -u +%Y%m%dT%H%M%SZ).tsv"
  printf 'target\tseconds\tworkers\texecs\tcov\tft\tcorpus_inputs\toom/timeout/crash\tartifacts\n' >"$report"
  for t in "${list[@]}"; do
    mkdir -p "$FINDINGS/$t/corpus" "$FINDINGS/$t/logs"
    log "fuzzing $t for ${per}s"
    # Fork mode (not -jobs): the time limit holds for the whole run, a crash, timeout or OOM is
    # saved and counted without ending the run, and new inputs are merged into one corpus.
    # shellcheck disable=SC2046
    (cd "$FINDINGS/$t/logs" && "$(bin "$t")" "$FINDINGS/$t/corpus" "$ROOT/corpus/$t" \
      -timeout=25 -rss_limit_mb=2048 $(option_flags "$t") -max_total_time="$per" \
      -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -print_final_stats=1 \
      -artifact_prefix="$FINDINGS/$t/" "${EXTRA[@]}" >"$FINDINGS/$t/logs/main.log" 2>&1) || true
    report_line "$t" "$per" "$jobs" >>"$report"
    log "  $(tail -1 "$report" | tr '\t' ' ')"
  done
  log "per-target report (tab-separated, one line per target): $report"
  column -t -s $'\t' "$report" >&2 || cat "$report" >&2
  log "done; artifacts are in fuzz/findings/<target>/, then: scripts/fuzz.sh triage FILE TARGET;"
  log "fold new coverage into the committed corpus with: scripts/fuzz.sh merge"
}

merge() {
  local t list new before after
  [[ $# -gt 0 ]] && TARGETS="$*"
  build
  for t in $(targets); do
    new="$(mktemp -d)"
    list=("$ROOT/corpus/$t")
    [[ -d "$FINDINGS/$t/corpus" ]] && list+=("$FINDINGS/$t/corpus")
    [[ -n "${SEEDS_DIR:-}" && -d "$SEEDS_DIR/$t" ]] && list+=("$SEEDS_DIR/$t")
    # A checkout of the storage repository's corpus/ names the folders after the binaries.
    [[ -n "${SEEDS_DIR:-}" && -d "$SEEDS_DIR/fuzz_$t" ]] && list+=("$SEEDS_DIR/fuzz_$t")
    mkdir -p "$ROOT/corpus/$t"
    before="$(ls "$ROOT/corpus/$t" | wc -l)"
    # shellcheck disable=SC2046
    # -set_cover_merge=1 (greedy set cover) keeps the same features as -merge=1 with ~25% fewer
    # bytes on this corpus (fuzz/reports/corpus-minimization.md).
    "$(bin "$t")" -"${MERGE:-set_cover_merge}"=1 "$new" "${list[@]}" -timeout=10 $(option_flags "$t") \
      "${EXTRA[@]}" >"$new.log" 2>&1 || { tail -20 "$new.log"; die "merge of $t failed"; }
    # libFuzzer names merged inputs by the SHA-1 of their content.
    rm -f "$ROOT/corpus/$t"/*
    cp "$new"/* "$ROOT/corpus/$t"/ 2>/dev/null || true
    after="$(ls "$ROOT/corpus/$t" | wc -l)"
    log "merged $t: $before -> $after inputs, $(du -sb "$ROOT/corpus/$t" | cut -f1) bytes; $(grep -oE '[0-9]+ new features added; [0-9]+ new coverage edges' "$new.log" | tail -1)"
    rm -rf "$new" "$new.log"
  done
  log "corpus/ is now $(du -sb "$ROOT/corpus" | cut -f1) bytes"
}

# stats TARGET...: what the corpus of each target covers and costs (see usage).
stats() {
  local t b dir files ms rss cov ft mb inputs
  [[ $# -gt 0 ]] && TARGETS="$*"
  build
  SCRATCH="$(mktemp -d)"
  printf 'target\tinputs\tbytes\tcov\tft\trss_mb\tslowest_ms\tmalloc_limit_mb\n'
  for t in $(targets); do
    b="$(bin "$t")"
    dir="$ROOT/corpus/$t"
    files=("$dir")
    [[ -d "$REGRESSIONS/$t" ]] && files+=("$REGRESSIONS/$t")
    inputs="$(find "$dir" -type f | wc -l)"
    # -runs=0 over a directory: libFuzzer's INITED line is the coverage of the whole corpus.
    # shellcheck disable=SC2046
    read -r cov ft rss < <("$b" -runs=0 "$dir" $(option_flags "$t" | grep -v -e timeout -e malloc_limit) 2>&1 |
      sed -n 's/.*INITED cov: \([0-9]*\) ft: \([0-9]*\).* rss: \([0-9]*\)Mb.*/\1 \2 \3/p' | tail -1)
    # Named files (not a directory) make libFuzzer print "Executed FILE in N ms" for each.
    ms="$(find "${files[@]}" -type f -print0 | xargs -0 -r "$b" 2>&1 |
      sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' | sort -n | tail -1)"
    # The smallest power-of-two single-allocation limit the inputs pass under.
    for mb in 1 2 4 8 16 32 64 128 256 512 1024 2048; do
      "$b" -runs=0 -malloc_limit_mb="$mb" -rss_limit_mb=4096 -artifact_prefix="$SCRATCH/" \
        "${files[@]}" >/dev/null 2>&1 && break
    done
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$inputs" "$(du -sb "$dir" | cut -f1)" \
      "${cov:-?}" "${ft:-?}" "${rss:-?}" "${ms:-?}" "$mb"
  done
}

triage() {
  [[ $# -ge 2 ]] || die "usage: scripts/fuzz.sh triage CRASH_FILE TARGET"
  local crash="$1" t="$2" work min report kind hash
  [[ -f "$crash" ]] || die "no such file: $crash"
  TARGETS="$t" build
  work="$(mktemp -d)"
  min="$work/minimized"
  log "minimizing $crash with -minimize_crash=1"
  # shellcheck disable=SC2046
  "$(bin "$t")" "$crash" -minimize_crash=1 -max_total_time="${TRIAGE_SECONDS:-60}" -exact_artifact_path="$min" \
    -timeout=25 $(option_flags "$t") >"$work/minimize.log" 2>&1 || true
  [[ -s "$min" ]] || { log "could not minimize (does it still crash?); keeping it as is"; cp "$crash" "$min"; }
  "$(bin "$t")" "$min" -timeout=25 -runs=1 >"$work/report.log" 2>&1 && {
    log "the input does not crash $t any more:"; tail -3 "$work/report.log"; rm -rf "$work"; exit 1; }
  report="$work/report.log"
  if grep -q 'INVARIANT BROKEN' "$report"; then kind="invariant: $(grep -m1 -oE 'INVARIANT BROKEN.*' "$report")"
  elif grep -q 'ERROR: AddressSanitizer' "$report"; then kind="asan: $(grep -m1 -oE 'AddressSanitizer: [a-z-]+' "$report")"
  elif grep -q 'runtime error:' "$report"; then kind="ubsan: $(grep -m1 -oE 'runtime error:.*' "$report")"
  elif grep -q 'LeakSanitizer' "$report"; then kind="leak"
  elif grep -q 'out-of-memory' "$report"; then kind="oom: $(grep -m1 -oE 'out-of-memory.*' "$report")"
  elif grep -q 'ERROR: libFuzzer: timeout' "$report"; then kind="timeout"
  else kind="other: $(grep -m1 -E 'ERROR|deadly signal' "$report" || echo unknown)"; fi
  hash="$(sha1sum "$min" | cut -c1-40)"
  mkdir -p "$REGRESSIONS/$t"
  cp "$min" "$REGRESSIONS/$t/$hash"
  log "class: $kind"
  log "stack (first frames):"
  grep -E '^[[:space:]]+#[0-9]+ ' "$report" | head -12 >&2 || true
  log "stored fuzz/regressions/$t/$hash ($(stat -c %s "$min") bytes); full report: $report"
  log "re-run cmake (cmake --preset ci) so the fuzz-regress.$t CTest replays it"
}

# differential LIB [SECONDS] [SEEDS_FROM...]: runs fuzz_differential against LIB; returns
# libFuzzer's status (0: no disagreement in the time given).
differential() {
  local lib="${1:-}" seconds="${2:-60}"
  [[ -n "$lib" && -f "$lib" ]] || die "differential needs a testee library (got '${lib}')"
  shift 2 || shift $#
  local profile="${VOXRIG_TESTEE_PROFILE:-vfp-static}" family
  case "$profile" in vfp-*) family=vfp ;; rkc-*) family="rkc kv6 rvc kfa" ;; *) die "unknown profile $profile" ;; esac
  TARGETS=differential build
  local out="$FINDINGS/differential" work
  mkdir -p "$out"
  work="$(mktemp -d)"
  mkdir -p "$work/corpus"
  if [[ $# -gt 0 ]]; then
    local i=0 f
    for f in "$@"; do i=$((i + 1)); cp "$f" "$work/corpus/$i-$(basename "$f")"; done
  else
    local f
    for f in $family; do find "$ROOT/golden/files/$f" -type f -exec cp {} "$work/corpus/" \; ; done
  fi
  log "fuzz_differential: $lib under $profile for $seconds s ($(ls "$work/corpus" | wc -l) seed files)"
  local rc=0
  VOXRIG_TESTEE="$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")" VOXRIG_TESTEE_PROFILE="$profile" \
    "$BUILD/fuzz/fuzz_differential" -max_total_time="$seconds" -artifact_prefix="$out/" \
    -print_final_stats=1 "${EXTRA[@]}" "$work/corpus" > "$work/log" 2>&1 || rc=$?
  grep -E '==voxrig-differential==' "$work/log" >&2 || true
  log "$(summary "$work/log")"
  if [[ $rc -ne 0 ]]; then
    log "disagreement (or crash): input kept in $out/ (see the lines above); log: $work/log"
  else
    rm -rf "$work"
  fi
  return $rc
}

# differential-proof [SECONDS]: the planted-bug C testee must be caught from valid seeds only.
differential_proof() {
  local seconds="${1:-60}"
  TARGETS=differential build
  cmake --build "$BUILD" --target voxrig_testee_c_planted >/dev/null || die "testee build failed"
  local lib="$BUILD/golden/examples/testee_c/libvoxrig_testee_c_planted.so" rc=0 log
  log="$(mktemp)"
  VOXRIG_TESTEE_PROFILE=vfp-static differential "$lib" "$seconds" \
    "$ROOT"/golden/files/vfp/min/*.vfp "$ROOT"/golden/files/vfp/seed/*.vfp 2> "$log" || rc=$?
  cat "$log" >&2
  if [[ $rc -ne 0 ]] && grep -q 'DISAGREE under vfp-static' "$log" && grep -q 'vox0.palette_index' "$log"; then
    log "ok: fuzz_differential found the planted palette-index bug"
    rm -f "$log"
    return 0
  fi
  rm -f "$log"
  die "fuzz_differential did not find the planted bug within $seconds s"
}

MODE="${1:-}"
[[ -n "$MODE" ]] || { usage; exit 2; }
shift || true
ARGS=()
EXTRA=()
while [[ $# -gt 0 ]]; do
  if [[ "$1" == "--" ]]; then shift; EXTRA=("$@"); break; fi
  ARGS+=("$1"); shift
done
case "$MODE" in
  smoke) smoke "${ARGS[@]}" ;;
  overnight) overnight "${ARGS[@]}" ;;
  merge) merge "${ARGS[@]}" ;;
  triage) triage "${ARGS[@]}" ;;
  stats) stats "${ARGS[@]}" ;;
  differential) differential "${ARGS[@]}" ;;
  differential-proof) differential_proof "${ARGS[@]}" ;;
  replay) replay "${ARGS[@]}" ;;
  list) targets ;;
  -h|--help|help) usage ;;
  *) usage; exit 2 ;;
esac
