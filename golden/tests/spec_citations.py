#!/usr/bin/env python3
"""Everything in the repository cites the specification in the repository (CTest spec_citations).

usage: spec_citations.py REPO_ROOT

Checks every text file of the repository (`git ls-files` when REPO_ROOT is a git checkout, else
every file outside build*/, .git/ and node_modules/):
- nothing names the design notes the specification replaced, which users do not have: the
  brief's folder outside the repository, its two format documents and its conformance and
  architecture notes (the patterns are spelled out in FORBIDDEN below);
- every citation `docs/spec/<file>.md#<anchor>` resolves: the file exists and the anchor is a rule
  anchor (`<a id="SKEL-8"></a>`) or the GitHub id of one of its headings.
Every offence is printed as file:line; exit 1 if there is any, 0 otherwise.
"""
import os
import re
import subprocess
import sys

# Built from pieces so that this file does not match itself.
_MD = r"\.md"
FORBIDDEN = re.compile("|".join([
    r"\.\./shared", "/work/" + "shared",
    "formats" + _MD, "rkc-family" + _MD,
    "design/" + "conformance" + _MD, "design/" + "architecture" + _MD]))
CITATION = re.compile(r"docs/spec/([A-Za-z0-9_-]+\.md)#([A-Za-z0-9_.-]+)")
ANCHOR = re.compile(r'<a\s+id="([^"]*)"\s*>')
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
SKIP_DIRS = {".git", "node_modules"}


def github_slug(text):
    """The id GitHub gives a heading (the one scripts/spec-html.py gives it too)."""
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path):
    """Every anchor id a link into this Markdown file may name."""
    ids, in_fence, slugs = set(), False, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            ids.update(ANCHOR.findall(line))
            m = HEADING.match(line)
            if m:
                slug = github_slug(m.group(1))
                n = slugs.get(slug, 0)
                slugs[slug] = n + 1
                ids.add(slug if n == 0 else "%s-%d" % (slug, n))
    return ids


def repo_files(root):
    if os.path.isdir(os.path.join(root, ".git")) or os.path.isfile(os.path.join(root, ".git")):
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True)
        if r.returncode == 0:
            return [f for f in r.stdout.decode("utf-8", "replace").split("\0") if f]
    out = []
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and
                   not (rel == "." and x.startswith("build"))]
        out += [os.path.normpath(os.path.join(rel, f)).replace(os.sep, "/") for f in files]
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = sys.argv[1]
    spec = os.path.join(root, "docs", "spec")
    targets = {}
    problems, scanned, citations = [], 0, 0
    for rel in sorted(repo_files(root)):
        path = os.path.join(root, rel)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue  # binary files (the golden corpus) cite nothing
        scanned += 1
        for number, line in enumerate(lines, 1):
            m = FORBIDDEN.search(line)
            if m:
                problems.append("%s:%d: cites %r, which is not in the repository: cite "
                                "docs/spec/<file>.md#<RULE> instead" % (rel, number, m.group(0)))
            for c in CITATION.finditer(line):
                citations += 1
                name, anchor = c.group(1), c.group(2)
                if name not in targets:
                    p = os.path.join(spec, name)
                    targets[name] = anchors_of(p) if os.path.isfile(p) else None
                if targets[name] is None:
                    problems.append("%s:%d: %s: docs/spec/%s does not exist"
                                    % (rel, number, c.group(0), name))
                elif anchor not in targets[name]:
                    problems.append("%s:%d: %s: docs/spec/%s has no anchor or heading '%s'"
                                    % (rel, number, c.group(0), name, anchor))
    for p in problems:
        print(p)
    print("spec_citations: %d files, %d docs/spec citations, %d problem(s)"
          % (scanned, citations, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
