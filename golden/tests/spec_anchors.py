#!/usr/bin/env python3
"""The rule catalogue and the specification agree both ways (CTest spec_anchors).

usage: spec_anchors.py REPO_ROOT

Checks, over golden/rules.json and every docs/spec/*.md:
- every rule ID of rules.json is anchored exactly once (`<a id="SKEL-8"></a>`) in docs/spec/;
- every anchor whose id has the shape of a rule ID is a rule of rules.json;
- the anchor is immediately followed by the statement's label `**SKEL-8.**`;
- each rule's "spec" is the repository path of the file holding its anchor, and its "section" is
  the text of the nearest `##` or `###` heading above the anchor;
- no anchor id appears twice in one file.
Anchors inside fenced code blocks and inline code spans are examples, not anchors. Every
mismatch is printed (file:line where there is one); exit 1 if there is any, 0 otherwise.
"""
import glob
import json
import os
import re
import sys

RULE_ID = re.compile(r"^(D[0-9]+|[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-[0-9]+)$")
ANCHOR = re.compile(r'<a\s+id="([^"]*)"\s*>\s*</a>')
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")


def scan(path, rel):
    """Yields (anchor id, line number, section or None, text after the anchor) of one file."""
    section = None
    in_fence = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            heading = HEADING.match(line)
            if heading:
                if len(heading.group(1)) in (2, 3):
                    section = heading.group(2)
                continue
            visible = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)
            for m in ANCHOR.finditer(visible):
                yield m.group(1), number, section, line[m.end():]


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = sys.argv[1]
    with open(os.path.join(root, "golden", "rules.json"), encoding="utf-8") as f:
        rules = {r["id"]: r for r in json.load(f)["rules"]}
    problems = []
    found = {}  # rule id -> [(rel, line, section)]
    files = sorted(glob.glob(os.path.join(root, "docs", "spec", "*.md")))
    if not files:
        problems.append("docs/spec/ holds no .md file")
    for path in files:
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        seen = {}
        for anchor, line, section, after in scan(path, rel):
            where = f"{rel}:{line}"
            if anchor in seen:
                problems.append(f"{where}: anchor '{anchor}' appears twice in this file "
                                f"(first at line {seen[anchor]})")
            seen.setdefault(anchor, line)
            if not RULE_ID.match(anchor):
                continue
            if anchor not in rules:
                problems.append(f"{where}: anchor '{anchor}' looks like a rule ID but is not a "
                                f"rule of golden/rules.json")
                continue
            if not after.startswith(f"**{anchor}.**"):
                problems.append(f"{where}: anchor '{anchor}' is not followed by its label "
                                f"'**{anchor}.**' (got {after.strip()[:40]!r})")
            found.setdefault(anchor, []).append((rel, line, section))
    for rid, rule in rules.items():
        places = found.get(rid, [])
        if not places:
            problems.append(f"rule {rid}: no anchor in docs/spec/ (rules.json says "
                            f"{rule.get('spec')!r}, section {rule.get('section')!r})")
            continue
        if len(places) > 1:
            problems.append(f"rule {rid}: anchored {len(places)} times: " +
                            ", ".join(f"{r}:{l}" for r, l, _ in places))
            continue
        rel, line, section = places[0]
        if rule.get("spec") != rel:
            problems.append(f"{rel}:{line}: rule {rid}: rules.json \"spec\" is "
                            f"{rule.get('spec')!r}, the anchor is in {rel!r}")
        if section is None:
            problems.append(f"{rel}:{line}: rule {rid}: no '##' or '###' heading above the anchor")
        elif rule.get("section") != section:
            problems.append(f"{rel}:{line}: rule {rid}: rules.json \"section\" is "
                            f"{rule.get('section')!r}, the anchor is under {section!r}")
    for p in problems:
        print(p)
    anchored = sum(1 for rid in rules if len(found.get(rid, [])) == 1)
    print(f"spec_anchors: {len(rules)} rules, {anchored} anchored once, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
