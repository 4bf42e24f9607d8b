#!/usr/bin/env python3
"""Renders docs/spec/ as one self-contained HTML page, each rule with the golden cases that obey
and break it.

usage: scripts/spec-html.py [--voxrig EXE | --coverage FILE.json] [--golden DIR] OUT.html

- Every docs/spec/*.md becomes one section of OUT.html (Debian's python3-markdown: tables, fenced
  code, heading ids), in the order of docs/spec/README.md's file table.
- Every rule anchor (`<a id="SKEL-8"></a>`) keeps its id, and the statement it names is followed
  by the golden cases that obey and break the rule, each linked to its file under GOLDEN/files
  (the coverage of `voxrig rules --coverage --json`: run with --voxrig, or read with --coverage).
- Links between the spec files resolve inside the page (`rig.md#SKEL-8` -> `#SKEL-8`, a heading
  of another file -> that file's heading); a link that resolves to nothing fails the run.
- Inline CSS, no script, no network: the page opens from disk.

Exit: 0 written, 1 a link or a rule anchor does not resolve, 2 usage, 3 I/O.
python3-markdown is a Debian package (scripts/install-deps.sh); a python3 that does not see it
(pyenv, a venv) is replaced by /usr/bin/python3 when that one has it.
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys

try:
    import markdown
    from markdown.extensions.toc import TocExtension
except ImportError:  # Debian's package lives in the system interpreter's dist-packages
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != \
            os.path.realpath("/usr/bin/python3") and not os.environ.get("SPEC_HTML_REEXEC"):
        os.environ["SPEC_HTML_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.stderr.write("spec-html: python3-markdown is not installed (scripts/install-deps.sh)\n")
    sys.exit(3)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "docs", "spec")
RAW_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
HREF = re.compile(r'href="([^"]*)"')
MANY = 12  # longer case lists fold into <details>


def github_slug(text):
    """The heading ids GitHub gives (lower case, punctuation dropped, spaces to hyphens), which
    the spec's own links use."""
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def spec_files():
    """docs/spec/*.md in the order of README.md's file table, then any file it does not list."""
    with open(os.path.join(SPEC, "README.md"), encoding="utf-8") as f:
        listed = re.findall(r"^\| \[([a-z0-9-]+\.md)\]", f.read(), re.M)
    present = sorted(n for n in os.listdir(SPEC) if n.endswith(".md"))
    return [n for n in listed if n in present] + [n for n in present if n not in listed]


def render(name):
    """(html, heading ids, raw anchor ids) of one spec file; heading ids are prefixed by the file
    stem so that equal headings of two files stay apart."""
    stem = name[:-3]
    with open(os.path.join(SPEC, name), encoding="utf-8") as f:
        text = f.read()
    headings = {}

    def slugify(value, sep):
        slug = github_slug(value)
        n, base = 0, slug
        while slug in headings:
            n += 1
            slug = "%s-%d" % (base, n)
        headings[slug] = "%s--%s" % (stem, slug)
        return headings[slug]

    md = markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists",
                                       TocExtension(slugify=slugify, toc_depth="1-4")])
    body = md.convert(text)
    return body, headings, RAW_ANCHOR.findall(body)


def case_paths(golden):
    with open(os.path.join(golden, "manifest.json"), encoding="utf-8") as f:
        m = json.load(f)
    paths = {}
    for key in ("cases", "compile_cases"):
        for c in m.get(key, []):
            paths[c["id"]] = c["path"]
    return paths


def case_links(ids, paths, golden, out_dir):
    links = []
    for cid in ids:
        p = paths.get(cid)
        href = os.path.relpath(os.path.join(golden, p), out_dir) if p else None
        label = html.escape(cid)
        links.append('<a class="case" href="%s">%s</a>' % (html.escape(href), label) if href
                     else '<span class="case">%s</span>' % label)
    return links


def case_block(rule, paths, golden, out_dir):
    parts = []
    for kind, ids in (("obeyed", rule["obeying"]), ("broken", rule["breaking"])):
        if not ids:
            continue
        links = " ".join(case_links(ids, paths, golden, out_dir))
        what = '<span class="%s">%s by %d case%s</span>' % (
            kind, kind, len(ids), "" if len(ids) == 1 else "s")
        parts.append('<details><summary>%s</summary>%s</details>' % (what, links)
                     if len(ids) > MANY else "%s: %s" % (what, links))
    if rule.get("unbreakable") and not rule["breaking"]:
        parts.append('<span class="why">no file breaks it: %s</span>'
                     % html.escape(rule["unbreakable"]))
    if not parts:
        parts.append('<span class="why">no golden case</span>')
    return ('<div class="cases" id="cases-%s" data-rule="%s" data-obeying="%d" '
            'data-breaking="%d"><span class="lab">golden cases</span> %s</div>'
            % (rule["id"], rule["id"], len(rule["obeying"]), len(rule["breaking"]),
               " · ".join(parts)))


def misplaced_anchors(body, rules, name):
    """Rule anchors that do not open a list item or a paragraph: a statement swallowed by the
    paragraph before it (a Markdown list needs a blank line after a paragraph)."""
    bad = []
    for m in RAW_ANCHOR.finditer(body):
        if m.group(1) in rules and not re.search(r"<(li|p)>\s*$", body[max(0, m.start() - 8):m.start()]):
            bad.append("%s: rule %s does not open a list item or paragraph (a list without a "
                       "blank line before it?)" % (name, m.group(1)))
    return bad


def insert_case_blocks(body, rules, paths, golden, out_dir):
    """After each rule's statement (the end of the paragraph or list item its anchor opens), its
    case list; the rule label becomes a link to the rule."""
    out, pos = [], 0
    for m in RAW_ANCHOR.finditer(body):
        rid = m.group(1)
        if rid not in rules:
            continue
        end_li, end_p = body.find("</li>", m.end()), body.find("</p>", m.end())
        ends = [e for e in (end_li, end_p) if e >= 0]
        if not ends:
            continue
        end = min(ends)
        at = end if end == end_li else end + len("</p>")
        out.append(body[pos:m.start()])
        label = "<strong>%s.</strong>" % rid
        seg = body[m.start():at].replace(label, '<a class="rule" href="#%s">%s</a>' % (rid, label),
                                         1)
        out.append(seg + case_block(rules[rid], paths, golden, out_dir))
        pos = at
    out.append(body[pos:])
    return "".join(out)


CSS = """
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1b1f24}
nav{position:fixed;top:0;left:0;bottom:0;width:230px;overflow:auto;background:#f4f6f8;
    border-right:1px solid #d8dee4;padding:12px;font-size:13px}
nav a{display:block;color:#0b57d0;text-decoration:none;padding:1px 0}
main{margin-left:260px;max-width:1000px;padding:8px 28px 80px}
section.file{border-top:3px solid #d8dee4;margin-top:28px}
table{border-collapse:collapse;margin:8px 0;font-size:13.5px}
td,th{border:1px solid #d0d7de;padding:3px 7px;vertical-align:top}
th{background:#f4f6f8}
code{background:#f2f4f6;padding:0 3px;border-radius:3px;font-size:90%}
pre{background:#f6f8fa;padding:8px;overflow:auto}
a.rule{color:inherit;text-decoration:none}
:target{background:#fff6c9}
div.cases{font-size:12.5px;margin:3px 0 8px;padding:3px 8px;background:#f3f8ff;
          border-left:3px solid #7aa7e8;color:#3a4450}
div.cases .lab{font-weight:600;color:#3a5a8a}
div.cases a.case{display:inline-block;margin:0 5px 0 0;color:#0b57d0;font-family:monospace}
div.cases .obeyed{color:#17663a;font-weight:600}
div.cases .broken{color:#a1260d;font-weight:600}
div.cases .why{color:#666}
div.cases details,div.cases summary{display:inline}
table.rules td:nth-child(3),table.rules td:nth-child(4){text-align:right}
"""


def main():
    ap = argparse.ArgumentParser(description="render docs/spec as one HTML page")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--voxrig", help="the voxrig executable (runs voxrig rules --coverage --json)")
    src.add_argument("--coverage", help="a saved `voxrig rules --coverage --json` output")
    ap.add_argument("--golden", default=os.path.join(ROOT, "golden"))
    ap.add_argument("out")
    a = ap.parse_args()
    golden = os.path.abspath(a.golden)
    out_dir = os.path.dirname(os.path.abspath(a.out))
    try:
        if a.voxrig:
            cov = json.loads(subprocess.run(
                [a.voxrig, "rules", "--coverage", "--json", "--golden", golden],
                check=True, capture_output=True, text=True).stdout)
        else:
            with open(a.coverage, encoding="utf-8") as f:
                cov = json.load(f)
        paths = case_paths(golden)
    except (OSError, subprocess.CalledProcessError, ValueError) as e:
        sys.stderr.write("spec-html: cannot read the coverage or the manifest: %s\n" % e)
        return 3
    rules = {r["id"]: r for r in cov["rules"]}

    files = spec_files()
    rendered = {n: render(n) for n in files}
    anchor_file, problems = {}, []
    for n, (_, _, raws) in rendered.items():
        for rid in raws:
            if rid in anchor_file:
                problems.append("anchor %s is in %s and %s" % (rid, anchor_file[rid], n))
            anchor_file[rid] = n
    for rid in rules:
        if rid not in anchor_file:
            problems.append("rule %s has no anchor in docs/spec" % rid)
    for n, (body, _, _) in rendered.items():
        problems.extend(misplaced_anchors(body, rules, n))

    def resolve(href, here):
        if re.match(r"^[a-z]+:", href):
            return href
        target, _, frag = href.partition("#")
        name = os.path.basename(target) if target else here
        if target and (os.path.dirname(target) or name not in rendered):
            repo_path = os.path.normpath(os.path.join(SPEC, target))
            if not os.path.exists(repo_path):
                problems.append("%s: link %s: no such file" % (here, href))
            return os.path.relpath(repo_path, out_dir) + ("#" + frag if frag else "")
        if not frag:
            return "#file-" + name[:-3]
        _, headings, raws = rendered[name]
        if frag in raws:
            return "#" + frag
        if frag in headings:
            return "#" + headings[frag]
        problems.append("%s: link %s resolves to nothing" % (here, href))
        return href

    sections, nav = [], []
    for n in files:
        body, headings, _ = rendered[n]
        body = HREF.sub(lambda m: 'href="%s"' % html.escape(resolve(html.unescape(m.group(1)), n)),
                        body)
        body = insert_case_blocks(body, rules, paths, golden, out_dir)
        title = re.search(r"<h1[^>]*>(.*?)</h1>", body)
        title = re.sub(r"<[^>]+>", "", title.group(1)) if title else n
        nav.append('<a href="#file-%s">%s</a>' % (n[:-3], html.escape(n)))
        sections.append('<section class="file" id="file-%s" data-file="%s">%s</section>'
                        % (n[:-3], n, body))

    rows = []
    for r in cov["rules"]:
        rows.append('<tr><td><a href="#%s">%s</a></td><td>%s</td><td>%d</td><td>%d</td></tr>'
                    % (r["id"], r["id"], html.escape(r["summary"]), len(r["obeying"]),
                       len(r["breaking"])))
    t = cov.get("totals", {})
    index = ('<section class="file" id="rule-index"><h1>Rule index</h1><p>%d rules, %d with an '
             'obeying case, %d with a breaking case, %d that no file can break (the reason is '
             'given with the rule).</p><table class="rules"><tr><th>rule</th><th>summary</th>'
             '<th>obeyed by</th><th>broken by</th></tr>%s</table></section>'
             % (t.get("rules", len(rules)), t.get("with_obeying", 0), t.get("with_breaking", 0),
                t.get("unbreakable", 0), "".join(rows)))
    nav.append('<a href="#rule-index">Rule index</a>')

    if problems:
        for p in problems:
            sys.stderr.write("spec-html: %s\n" % p)
        return 1
    with open(os.path.join(SPEC, "README.md"), encoding="utf-8") as f:
        version = re.search(r"\*\*(voxrig spec [0-9.]+)\*\*", f.read())
    version = version.group(1) if version else "voxrig spec"
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>%s</title><style>%s</style></head><body>"
            "<nav><strong>%s</strong><br><span style=\"color:#666\">%d rules, golden cases "
            "inline</span>%s</nav><main>%s%s</main></body></html>\n"
            % (html.escape(version), CSS, html.escape(version), len(rules), "".join(nav),
               "".join(sections), index))
    try:
        os.makedirs(out_dir, exist_ok=True)
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        sys.stderr.write("spec-html: cannot write %s: %s\n" % (a.out, e))
        return 3
    print("spec-html: wrote %s (%d files, %d rules)" % (a.out, len(files), len(rules)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
