#!/usr/bin/env bash
# The persistent reader protocol under faults (docs/spec/protocols.md, "Persistent protocol
# (serve)"): a serve reader that hangs, crashes, exits or answers garbage on one case has exactly
# that case reported (timeout / crash) while every other case of the run passes; a reader
# without `serve` is detected and still runs one process per request.
# usage: golden/tests/serve_faults.sh VOXRIG_EXE
set -euo pipefail
voxrig=${1:?usage: serve_faults.sh VOXRIG_EXE}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
faulty="python3 $root/golden/readers/faulty/serve_faulty.py"
trigger=truncated_4.vfp
# The serve runs: 34 requests; the one-shot ones a few (a process start can take seconds on a
# loaded machine, hence their long timeout).
common=(--golden "$root/golden" --profile vfp-static --profile vfp-rig --jobs 2)
serve_args=(--filter vfp/header/ --timeout 3)
oneshot_args=(--filter vfp/header/version_minor --timeout 120)

# check NAME RC_WANT VERDICT_WANT REASON_WANT PROTOCOL_WANT: judges $tmp/NAME.{json,out}.
check() {
  python3 - "$tmp/$1.json" "$tmp/$1.out" "$2" "$3" "$4" "$5" "$trigger" <<'PY'
import json, sys
report_path, out_path, rc, verdict, reason, protocol, trigger = sys.argv[1:]
report = json.load(open(report_path))
out = open(out_path).read()
name = report_path.rsplit("/", 1)[1][:-5]
bad = [r for r in report["results"] if r["verdict"] != "pass"]
want_ids = {r["id"] for r in report["results"] if r["id"].endswith(trigger[:-4])}
problems = []
if report["protocol"] != protocol:
    problems.append("protocol %r, expected %r" % (report["protocol"], protocol))
if len(report["results"]) < (30 if protocol == "serve" else 6):
    problems.append("only %d results: the run did not go on" % len(report["results"]))
if verdict == "pass":
    if bad:
        problems.append("unexpected non-passes: %s" % [(r["id"], r["verdict"]) for r in bad])
else:
    if not want_ids or {r["id"] for r in bad} != want_ids:
        problems.append("non-passes %s, expected exactly %s" %
                        ([(r["id"], r["profile"], r["verdict"]) for r in bad], sorted(want_ids)))
    for r in bad:
        if r["verdict"] != verdict or reason not in r["reason"]:
            problems.append("%s %s: %s (%r), expected %s containing %r" %
                            (r["id"], r["profile"], r["verdict"], r["reason"], verdict, reason))
if problems:
    sys.exit("FAIL %s:\n  " % name + "\n  ".join(problems))
print("ok %s: %d results, %s, %d reported as %s" % (name, len(report["results"]), protocol,
                                                    len(bad), verdict))
PY
}

run() {  # run NAME RC_WANT READER [ARGS...]
  local name=$1 rc_want=$2 reader=$3 rc=0
  shift 3
  "$voxrig" conform "${common[@]}" --reader "$reader" --report "$tmp/$name.json" "$@" \
    > "$tmp/$name.out" 2> "$tmp/$name.err" || rc=$?
  if [ "$rc" -ne "$rc_want" ]; then
    cat "$tmp/$name.out" "$tmp/$name.err"
    echo "FAIL $name: conform exited $rc, expected $rc_want"
    exit 1
  fi
}

run hang 4 "$faulty hang $trigger" --protocol serve "${serve_args[@]}"
check hang 4 timeout "timed out" serve
run crash 4 "$faulty crash $trigger" --protocol serve "${serve_args[@]}"
check crash 4 crash "signal 11" serve
run exit 4 "$faulty exit $trigger" --protocol serve "${serve_args[@]}"
check exit 4 crash "serve: the reader ended (exit 0) before answering" serve
run garbage 4 "$faulty garbage $trigger" --protocol serve "${serve_args[@]}"
check garbage 4 crash "serve: the answer is not one JSON object: this is not a JSON object" serve

# The same reader one-shot (its faults are in serve mode only): every case passes.
run oneshot 0 "$faulty hang $trigger" --protocol oneshot "${oneshot_args[@]}"
check oneshot 0 pass "" oneshot
# A reader that does not know `serve` is detected (auto) and run one-shot.
run detected 0 "$root/golden/readers/faulty/oneshot_only.sh" "${oneshot_args[@]}"
check detected 0 pass "" oneshot
grep -q "no serve: the reader ended (exit 2) before answering hello" "$tmp/detected.out" ||
  { cat "$tmp/detected.out"; echo "FAIL detected: the header does not say why serve was not used"; exit 1; }
# --protocol serve with such a reader is a usage error naming why.
run required 2 "$root/golden/readers/faulty/oneshot_only.sh" --protocol serve "${oneshot_args[@]}"
grep -q "does not answer \`serve\`" "$tmp/required.err" ||
  { cat "$tmp/required.err"; echo "FAIL required: no reason given"; exit 1; }
echo "ok: serve faults are reported per case and the run goes on"
