#!/usr/bin/env python3
"""Every reading mutant of the example reader fails at least one golden case (CTest
golden_reading_mutants).

usage: reading_mutants.py VOXRIG_EXE GOLDEN_DIR [--python PY] [--jobs N] [--only NAME ...]
(--jobs: mutants run at a time, each conform run with one reader process; default 2)

A reading mutant (golden/readers/python/voxrig_mutants.py) is the Python example reader with one
statement of docs/spec/ read the other plausible way. For each mutant this runs
`voxrig conform` with `VOXRIG_MUTANT=<name>` on the golden cases of the mutant's rule (the rule ID
its name starts with; `voxrig rules --coverage --json` lists the reader and compile cases that
obey or break it; pose mutants take the rule's pose cases under their filter), under the
mutant's profiles, with `--recommended`, and requires conform to report a failure (exit 4). A mutant
that passes every case survives: the corpus does not pin that statement, and the fix is a case
that tells the two readings apart (given the rule in its `rules`).

Prints one line per mutant (killed or SURVIVED, the first case that caught it) and the count of
statements pinned. Exit 0 when every mutant is killed, 1 when one survives or a run goes wrong,
2 on usage errors.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import time

CAPABILITY_ARGS = {"dump": [], "writer": ["--writer"], "compile": ["--compile", "--no-dump"],
                   "pose": ["--pose", "--no-dump"]}


def coverage_cases(voxrig, golden):
    out = subprocess.run([voxrig, "rules", "--coverage", "--json", "--golden", golden],
                         check=True, capture_output=True, text=True).stdout
    return {r["id"]: r["obeying"] + r["breaking"] for r in json.loads(out)["rules"]}


def pose_cases(golden):
    with open(os.path.join(golden, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    by_rule = {}
    for c in manifest.get("pose_cases", []):
        for rule in c.get("rules", {}).get("obeys", []) + c.get("rules", {}).get("breaks", []):
            by_rule.setdefault(rule, []).append(c["id"])
    return by_rule


def cases_for(mutant, rule_cases, pose_by_rule):
    name, capability, profiles, pose_filter, _ = mutant
    rule = name.split(".", 1)[0]
    if capability == "pose":
        return [c for c in pose_by_rule.get(rule, []) if c.startswith(pose_filter)]
    ids = rule_cases.get(rule, [])
    if capability == "compile":
        return [c for c in ids if c.startswith("compile/")]
    families = ("vfp/", "unknown/")
    return [c for c in ids if c.startswith(families)]


def first_failure(output):
    for line in output.splitlines():
        m = re.match(r"\s*(FAIL|CRASH|TIMEOUT|XPASS)\s+(\S+)\s+(\S+)\s+(.*)", line)
        if m:
            return "%s %s %s: %s" % (m.group(1), m.group(2), m.group(3), m.group(4)[:110])
    return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("voxrig")
    ap.add_argument("golden")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--only", nargs="*", default=None)
    a = ap.parse_args()
    golden = os.path.abspath(a.golden)
    reader_dir = os.path.join(golden, "readers", "python")
    sys.path.insert(0, reader_dir)
    import voxrig_mutants  # noqa: E402  (the table lives next to the reader it mutates)
    mutants = voxrig_mutants.MUTANTS
    if a.only:
        unknown = set(a.only) - voxrig_mutants.NAMES
        if unknown:
            print("reading_mutants: no such mutant: %s" % ", ".join(sorted(unknown)))
            return 2
        mutants = [m for m in mutants if m[0] in a.only]
    rule_cases = coverage_cases(a.voxrig, golden)
    pose_by_rule = pose_cases(golden)
    # -S: the reader is standard library only, and a site-packages .pth can cost more than a run
    reader = "%s -S %s" % (shlex.quote(a.python),
                           shlex.quote(os.path.join(reader_dir, "voxrig_reader.py")))
    def run(m):
        """(verdict line, killed | survived | error, runs) of one mutant."""
        name, capability, profiles, _, reading = m
        rule = name.split(".", 1)[0]
        if rule not in rule_cases:
            return "ERROR    %-42s rule %s is not in golden/rules.json" % (name, rule), "error", 0
        cases = cases_for(m, rule_cases, pose_by_rule)
        if not cases:
            return ("SURVIVED %-42s no %s case of %s to run it on" % (name, capability, rule),
                    "survived", 0)
        cmd = [a.voxrig, "conform", "--golden", golden, "--jobs", "1", "--recommended",
               "--reader", "VOXRIG_MUTANT=%s %s" % (name, reader)] + CAPABILITY_ARGS[capability]
        for p in profiles.split():
            cmd += ["--profile", p]
        for c in cases:
            cmd += ["--filter", c]
        r = subprocess.run(cmd, capture_output=True, text=True)
        counted = re.search(r"^(\d+) passed, (\d+) failed$", r.stdout, re.M)
        runs = int(counted.group(1)) + int(counted.group(2)) if counted else 0
        if r.returncode == 4:
            return "killed   %-42s %s" % (name, first_failure(r.stdout)), "killed", runs
        if r.returncode == 0:
            return ("SURVIVED %-42s %d case(s) of %s pass: no case tells '%s' apart"
                    % (name, len(cases), rule, reading), "survived", runs)
        return ("ERROR    %-42s conform exited %d: %s"
                % (name, r.returncode, (r.stderr or r.stdout)[-300:]), "error", runs)

    # One conform run per mutant, --jobs of them at a time (each with one reader process), so
    # one run's start-up (reading the manifest, hashing every case file) overlaps another's work.
    start = time.monotonic()
    killed, survived, broken, runs = [], [], [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, int(a.jobs))) as pool:
        for m, (line, outcome, n) in zip(mutants, pool.map(run, mutants)):
            print(line, flush=True)
            runs += n
            {"killed": killed, "survived": survived, "error": broken}[outcome].append(m[0])
    pinned = sorted({n.split(".", 1)[0] for n in killed})
    print("reading mutants: %d of %d killed, %d survived, %d error(s); %d conform runs in %.1f s"
          % (len(killed), len(mutants), len(survived), len(broken), runs,
             time.monotonic() - start))
    print("statements pinned: %d (%d rules: %s)" % (len(killed), len(pinned), " ".join(pinned)))
    return 0 if not survived and not broken else 1


if __name__ == "__main__":
    sys.exit(main())
