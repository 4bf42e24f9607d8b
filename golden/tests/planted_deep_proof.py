#!/usr/bin/env python3
"""The rule-directed fuzz-reader proof (golden/README.md "Fuzz your reader"):

  planted  fuzz-reader against golden/readers/broken/planted_deep.py (five bugs behind rules
           broken deep inside a file) on vfp-rig and rkc-strict, on a --runs budget (so the run is
           reproducible): at least 4 of the 5 bugs are found, and every reported input is a real
           disagreement (the reference's answer differs from the planted reader's, and matches
           the class's "expected"). Which bug a finding shows is told by replaying its input
           through each bug alone (planted_deep.plant).
  rules    fuzz-reader against the reference itself on a --runs budget, under vfp-static,
           vfp-rig, rkc-strict and rkc-compat: every breakable rule is broken at least once
           (report.json rules.never_reached is empty), every rule of golden/rules.json is
           either breakable or declared not breakable with a decided reason, and no class is
           reported.

usage: planted_deep_proof.py VOXRIG_EXE planted|rules [--seconds VFP RKC] [--breakers off]
  --seconds 300 120  the issue's full budget (wall time, not reproducible; minutes)
  --breakers off     the same run with random stacking only (the "before" figure); the
                     at-least-4 requirement is not checked then, only reported
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "golden", "readers", "broken"))
import planted_deep  # noqa: E402

# Budgets of the default (CTest) run: executions, not seconds, so the result is deterministic.
PLANTED_RUNS = {"vfp-rig": 120, "rkc-strict": 60}
# Each is about twice what the directed phase needs to break every breakable rule once (29, 135,
# 125 and 77 executions at --seed 1), so adding a breaker does not fail the test at once.
RULES_RUNS = {"vfp-static": 60, "vfp-rig": 270, "rkc-strict": 250, "rkc-compat": 160}
BUGS = {1: "anim_key", 2: "skel_cycle", 3: "vskn_empty", 4: "rkc_parent", 5: "anim_clips"}


def fuzz(voxrig, reader, profile, out, budget, extra):
    cmd = [voxrig, "fuzz-reader", "--golden", os.path.join(ROOT, "golden"), "--reader", reader,
           "--profile", profile, "--jobs", "2", "--seed", "1", "--out", out] + budget + extra
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode not in (0, 4):
        sys.exit("FAIL: %s exited %d\n%s%s" % (" ".join(cmd), run.returncode, run.stdout,
                                                run.stderr))
    for line in run.stdout.splitlines():
        if "executions" in line or line.startswith("rules broken"):
            print("  " + line)
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def reference(voxrig, profile, path):
    run = subprocess.run([voxrig, "dump", "--profile", profile, path], capture_output=True,
                         text=True)
    return run.returncode, run.stdout


def expected_of(exit_code, stdout):
    return "accept" if exit_code == 0 else "reject " + json.loads(stdout)["error"]


def planted(voxrig, args):
    seconds = None
    if "--seconds" in args:
        at = args.index("--seconds")
        seconds = {"vfp-rig": args[at + 1], "rkc-strict": args[at + 2]}
    breakers_off = "--breakers" in args and args[args.index("--breakers") + 1] == "off"
    reader = "%s %s %s" % (sys.executable,
                           os.path.join(ROOT, "golden", "readers", "broken", "planted_deep.py"),
                           voxrig)
    found = set()
    with tempfile.TemporaryDirectory() as tmp:
        for profile, runs in PLANTED_RUNS.items():
            budget = ["--seconds", seconds[profile]] if seconds else ["--runs", str(runs)]
            out = os.path.join(tmp, profile)
            report = fuzz(voxrig, reader, profile, out,
                          budget, ["--breakers", "off"] if breakers_off else [])
            for c in report["classes"]:
                case_dir = os.path.join(out, "cases", c["id"].replace("/", "_"))
                path = os.path.join(case_dir, [f for f in os.listdir(case_dir)
                                               if f.startswith("input.")][0])
                ref = reference(voxrig, profile, path)
                if expected_of(*ref) != c["class"]["expected"]:
                    sys.exit("FAIL: %s: the reference says %s, the report %s" % (
                        c["id"], expected_of(*ref), c["class"]["expected"]))
                if planted_deep.plant({1, 2, 3, 4, 5}, *ref) == ref:
                    sys.exit("FAIL: %s is no disagreement: the planted reader answers as the "
                             "reference does" % c["id"])
                shows = [k for k in BUGS if planted_deep.plant({k}, *ref) != ref]
                print("  %s: %s -> bug %s" % (c["id"], c["class"]["expected"],
                                              ", ".join(BUGS[k] for k in shows) or "none"))
                found.update(shows)
    print("found %d of 5 planted bugs: %s" % (len(found), ", ".join(BUGS[k] for k in sorted(found))))
    if breakers_off:
        return 0
    if len(found) < 4:
        sys.exit("FAIL: fewer than 4 of the 5 planted bugs found")
    return 0


def rules(voxrig):
    with open(os.path.join(ROOT, "golden", "rules.json")) as f:
        catalogue = {r["id"] for r in json.load(f)["rules"]}
    with tempfile.TemporaryDirectory() as tmp:
        for profile, runs in RULES_RUNS.items():
            report = fuzz(voxrig, voxrig, profile, os.path.join(tmp, profile),
                          ["--runs", str(runs)], [])
            r = report["rules"]
            if not r["breakable"]:
                sys.exit("FAIL: %s declares no breakable rule" % profile)
            if r["never_reached"]:
                sys.exit("FAIL: %s: breakable rules never broken in %d runs: %s" % (
                    profile, runs, " ".join(r["never_reached"])))
            if report["classes"]:
                sys.exit("FAIL: the reference disagrees with itself under %s" % profile)
            # Totality: breakable + not breakable is the whole catalogue, each with a decision.
            declared = set(r["breakable"]) | {x["rule"] for x in r["not_breakable"]}
            missing = sorted(catalogue - declared)
            if missing:
                sys.exit("FAIL: %s: rules with no decision: %s" % (profile, " ".join(missing)))
            undecided = [x["rule"] for x in r["not_breakable"] if x["reason"].startswith("undecided")]
            if undecided:
                sys.exit("FAIL: %s: undecided rules: %s" % (profile, " ".join(undecided)))
            print("ok: %s: all %d breakable rules broken, %d declared not breakable" % (
                profile, len(r["breakable"]), len(r["not_breakable"])))
    return 0


def main(argv):
    if len(argv) < 2 or argv[1] not in ("planted", "rules"):
        sys.exit(__doc__)
    return planted(argv[0], argv[2:]) if argv[1] == "planted" else rules(argv[0])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
