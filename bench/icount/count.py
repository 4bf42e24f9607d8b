#!/usr/bin/env python3
"""Sums the instructions (Ir) a callgrind output file attributes to one object (the workload
executable), exclusive of everything it calls in other objects (libc, libstdc++, libcrypto).

Usage: count.py CALLGRIND_OUT EXECUTABLE_PATH  -> prints {"own": N, "total": M} as JSON.

Format (callgrind "Callgrind Format Specification"): `ob=`/`fl=`/`fn=` name the current
object/file/function, possibly compressed as "(id) name" on first use and "(id)" later; `cob=`,
`cfi=`, `cfn=` name a callee; a `calls=` line is followed by one cost line holding the call's
inclusive cost, which is skipped here (it belongs to the callee's own lines). Every other cost
line ("<position> <Ir> ...") is exclusive cost of the current function.
"""
import json
import os
import re
import sys


def main() -> int:
    path, exe = sys.argv[1], os.path.realpath(sys.argv[2])
    names = {}          # compressed id -> object name
    current_ob = None
    own = total = 0
    skip_next = False
    events = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
                continue
            m = re.match(r"^(ob|cob)=(?:\((\d+)\))?\s*(.*)$", line)
            if m:
                kind, ident, name = m.groups()
                if ident is not None and name:
                    names[ident] = name
                resolved = names.get(ident, name) if ident is not None else name
                if kind == "ob":
                    current_ob = resolved
                continue
            if line.startswith("calls="):
                skip_next = True
                continue
            if line[0].isdigit() or line[0] in "+-*":
                if skip_next:
                    skip_next = False
                    continue
                parts = line.split()
                if len(parts) < 2:
                    continue
                ir = int(parts[1])
                total += ir
                if current_ob is not None and os.path.realpath(current_ob) == exe:
                    own += ir
                continue
            # fl=, fi=, fe=, fn=, cfi=, cfn=, jump=, totals:, summary: ... do not change the object
    if events is not None and (not events or events[0] != "Ir"):
        print("count.py: first event is not Ir: %s" % events, file=sys.stderr)
        return 2
    print(json.dumps({"own": own, "total": total}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
