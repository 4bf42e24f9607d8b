// `conform --html FILE`: one self-contained page (inline CSS and JS, no network) built around the
// JSON report. The data is the report_json() text embedded as an inert JSON script block; the
// script renders the summary, a spec-section x profile matrix, filters and the case table.
// Rows are rendered in pages of kPage (filtering works on the array, not on the DOM), so the page
// stays fast with tens of thousands of results.
#include "voxrig/conform/conform.h"

namespace voxrig::conform {
namespace {

// A JSON text made safe inside <script>: '<' only occurs inside JSON strings, where \u003c is
// the same character, so "</script>" and "<!--" in reader output cannot end the block.
std::string script_safe(std::string_view json) {
  std::string out;
  out.reserve(json.size() + 64);
  for (char c : json) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

constexpr std::string_view kHead = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>voxrig conform report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:12px 20px}
header h1{font-size:18px;margin:0 0 4px}
header .meta{font:12px ui-monospace,monospace;color:#c9d1d9;word-break:break-all}
main{padding:12px 20px}
.counts{display:flex;gap:10px;flex-wrap:wrap;margin:8px 0 14px}
.count{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;min-width:70px}
.count b{display:block;font-size:20px}
.count.bad b{color:#cf222e}.count.good b{color:#1a7f37}
.level{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;margin:8px 0}
.level.partial{border-color:#bf8700;background:#fff8c5}.level.full{border-color:#1a7f37}
td.sec{white-space:nowrap}
h2{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eaeef2;position:sticky;top:0}
#matrix td.cell{cursor:pointer;text-align:center;white-space:nowrap}
#matrix td.cell.bad{background:#ffebe9;color:#82071e;font-weight:600}
#matrix td.cell.ok{background:#dafbe1}
#matrix td.cell.none{color:#8c959f}
.filters{display:flex;gap:12px;flex-wrap:wrap;align-items:center;margin:8px 0;background:#fff;
  border:1px solid #d0d7de;border-radius:6px;padding:8px}
#cases{width:100%}
#cases tr.row{cursor:pointer}
#cases tr.row:hover{background:#f3f4f6}
.v{font-weight:600;text-transform:uppercase;font-size:12px}
.v-pass,.v-loose{color:#1a7f37}.v-fail,.v-crash,.v-timeout,.v-xpass{color:#cf222e}
.v-xfail{color:#9a6700}
tr.detail td{background:#fbfcfd}
pre{font:12px ui-monospace,monospace;white-space:pre-wrap;word-break:break-all;margin:4px 0}
.rule{margin:2px 0}.rel{font-size:11px;padding:0 4px;border-radius:3px;background:#eaeef2}
.rel.breaks{background:#ffebe9}.rel.obeys{background:#dafbe1}
#more{margin:8px 0}
</style>
</head>
<body>
<header><h1>voxrig conform report</h1><div class="meta" id="meta"></div></header>
<main>
<div class="level" id="level"></div>
<div class="counts">
 <div class="count" id="box-passed">passed<b id="count-passed"></b></div>
 <div class="count" id="box-failed">failed<b id="count-failed"></b></div>
 <div class="count">crash<b id="count-crash"></b></div>
 <div class="count">timeout<b id="count-timeout"></b></div>
 <div class="count">xfail<b id="count-xfail"></b></div>
 <div class="count">skipped<b id="count-skipped"></b></div>
 <div class="count">results<b id="count-results"></b></div>
</div>
<h2>Spec sections &times; profiles (failed / run; click a cell to filter)</h2>
<div style="overflow:auto;max-height:340px"><table id="matrix"></table></div>
<h2>Cases</h2>
<div class="filters">
 <label><input type="checkbox" id="f-failed"> failed only</label>
 <label>capability <select id="f-capability"><option value="">all</option></select></label>
 <label>section <select id="f-section"><option value="">all</option></select></label>
 <label>profile <select id="f-profile"><option value="">all</option></select></label>
 <label>id <input id="f-text" placeholder="substring" size="24"></label>
 <span><b id="shown">0</b> of <span id="total">0</span> shown</span>
</div>
<table id="cases"><thead><tr><th>verdict</th><th>case</th><th>profile</th><th>check</th>
<th>section</th><th>rules</th><th>reason</th></tr></thead><tbody id="rows"></tbody></table>
<button id="more" hidden>show more</button>
</main>
<script type="application/json" id="report-data">)HTML";

constexpr std::string_view kTail = R"HTML(</script>
<script>
"use strict";
(function () {
  const kPage = 300;
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const results = data.results;
  const bad = v => v === "fail" || v === "crash" || v === "timeout" || v === "xpass";
  const sec = r => r.section || "(no rule in the manifest)";
  const $ = id => document.getElementById(id);
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const c = data.summary.counted;
  $("meta").textContent = data.suite + " " + data.suite_version +
      (data.spec_version ? " | voxrig spec " + data.spec_version : "") +
      (data.corpus_version ? " | golden corpus " + data.corpus_version : "") + " | manifest sha256 " +
      data.manifest_sha256 + " | reader: " + data.reader + " | profiles: " +
      data.profiles.join(", ") + " | codes " + data.codes + " | cases " + data.cases +
      " | " + data.time_s + " s | " + data.checks_per_s.toFixed(1) + " checks/s" +
      (data.protocol ? " (" + data.protocol + ")" : "");
  // The rung reached on the adoption ladder; anything short of full conformance says so.
  const lv = data.level, full = lv.reached === "capabilities" && !lv.partial.length;
  $("level").className = "level " + (full ? "full" : "partial");
  $("level").textContent = "conformance level reached: " + lv.reached +
      (lv.run !== lv.reached ? " (run: " + lv.run + ")" : "") +
      (lv.partial.length ? " | partial run: " + lv.partial.join(", ") : "") +
      (full ? "" : " | not full conformance (the ladder: verdicts, dumps, writers, capabilities)");
  $("count-passed").textContent = c.passed;
  $("count-failed").textContent = c.failed;
  // Red only for a count that fails the run; green for passes.
  $("box-passed").className = "count" + (c.passed ? " good" : "");
  $("box-failed").className = "count" + (c.failed ? " bad" : "");
  for (const k of ["crash", "timeout"])
    $("count-" + k).parentNode.className = "count" + (c[k] ? " bad" : "");
  $("count-crash").textContent = c.crash;
  $("count-timeout").textContent = c.timeout;
  $("count-xfail").textContent = c.xfail;
  $("count-skipped").textContent = data.summary.skipped;
  $("count-results").textContent = results.length;
  $("total").textContent = results.length;

  // Matrix: spec sections x profiles, failed / run among counted results.
  const sections = [...new Set(results.map(sec))].sort();
  const profiles = data.profiles.filter(p => results.some(r => r.profile === p));
  const cell = {};
  for (const r of results) {
    const k = sec(r) + "\u0000" + r.profile;
    const x = cell[k] || (cell[k] = {run: 0, failed: 0});
    x.run++;
    if (r.counted && bad(r.verdict)) x.failed++;
  }
  const m = $("matrix");
  const hr = el("tr");
  hr.appendChild(el("th", "section"));
  for (const p of profiles) hr.appendChild(el("th", p));
  m.appendChild(hr);
  for (const s of sections) {
    const tr = el("tr");
    tr.appendChild(el("td", s, "sec"));
    for (const p of profiles) {
      const x = cell[s + "\u0000" + p];
      const td = el("td", x ? x.failed + " / " + x.run : "-",
                    "cell " + (!x ? "none" : x.failed ? "bad" : "ok"));
      td.dataset.section = s;
      td.dataset.profile = p;
      td.addEventListener("click", () => {
        $("f-section").value = s;
        $("f-profile").value = p;
        render();
      });
      tr.appendChild(td);
    }
    m.appendChild(tr);
  }
  const fill = (id, values) => {
    for (const v of values) $(id).appendChild(el("option", v)).value = v;
  };
  fill("f-capability", [...new Set(results.map(r => r.capability || "reader"))].sort());
  fill("f-section", sections);
  fill("f-profile", profiles);

  let shown = [], drawn = 0;
  function detail(r) {
    const td = el("td");
    td.colSpan = 7;
    const add = (label, text) => {
      if (text === undefined || text === null || text === "") return;
      td.appendChild(el("b", label));
      td.appendChild(el("pre", String(text)));
    };
    if (r.rules && r.rules.length) {
      td.appendChild(el("b", "rules"));
      for (const n of r.rules) {
        const d = el("div", "", "rule");
        d.appendChild(el("span", n.relation, "rel " + n.relation));
        d.appendChild(document.createTextNode(" " + n.id + " " + (n.summary || "") +
                                              (n.section ? "  [" + n.section + "]" : "")));
        td.appendChild(d);
      }
    }
    add("file", (data.golden ? data.golden + "/" : "") + (r.path || ""));
    add("expected", r.expected);
    add("outcome", r.verdict + ": " + r.reason + (r.exit_code >= 0 ? " (exit " + r.exit_code + ")" : ""));
    const diff = /dump differs at (\S+): (.*)$/.exec(r.reason || "");
    if (diff) add("dump diff", "path " + diff[1] + "\n" + diff[2]);
    add("hex context", r.hex_context);
    add("reader stdout (head)", r.output_head);
    add("reader stderr (tail)", r.stderr_tail);
    if (r.listed_reason) add("expected-failure entry", r.listed_reason);
    const tr = el("tr", undefined, "detail");
    tr.appendChild(td);
    return tr;
  }
  function row(r) {
    const tr = el("tr", undefined, "row v-row-" + r.verdict);
    tr.dataset.verdict = r.verdict;
    tr.appendChild(el("td", r.verdict, "v v-" + r.verdict));
    tr.appendChild(el("td", r.id));
    tr.appendChild(el("td", r.profile));
    tr.appendChild(el("td", r.check));
    tr.appendChild(el("td", sec(r), "sec"));
    tr.appendChild(el("td", (r.rules || []).map(n => n.id).join(" ")));
    tr.appendChild(el("td", r.reason));
    tr.addEventListener("click", () => {
      const next = tr.nextSibling;
      if (next && next.className === "detail") next.remove();
      else tr.after(detail(r));
    });
    return tr;
  }
  function draw() {
    const body = $("rows");
    const end = Math.min(shown.length, drawn + kPage);
    const frag = document.createDocumentFragment();
    for (; drawn < end; drawn++) frag.appendChild(row(shown[drawn]));
    body.appendChild(frag);
    $("more").hidden = drawn >= shown.length;
    $("more").textContent = "show more (" + (shown.length - drawn) + " left)";
  }
  function render() {
    const failed = $("f-failed").checked, cap = $("f-capability").value;
    const s = $("f-section").value, p = $("f-profile").value, t = $("f-text").value;
    shown = results.filter(r => (!failed || bad(r.verdict)) &&
                                (!cap || (r.capability || "reader") === cap) &&
                                (!s || sec(r) === s) && (!p || r.profile === p) &&
                                (!t || r.id.includes(t)));
    // failures first, then id order
    shown.sort((a, b) => (bad(b.verdict) - bad(a.verdict)) || (a.id < b.id ? -1 : a.id > b.id));
    $("rows").textContent = "";
    drawn = 0;
    $("shown").textContent = shown.length;
    draw();
  }
  for (const id of ["f-failed", "f-capability", "f-section", "f-profile"])
    $(id).addEventListener("change", render);
  $("f-text").addEventListener("input", render);
  $("more").addEventListener("click", draw);
  render();
  document.body.dataset.ready = "1";
})();
</script>
</body>
</html>
)HTML";

}  // namespace

std::string report_html(const RunInfo& info, const std::vector<CaseResult>& results,
                        const Summary& summary) {
  const std::string data = script_safe(report_json(info, results, summary));
  std::string out;
  out.reserve(kHead.size() + data.size() + kTail.size());
  out += kHead;
  out += data;
  out += kTail;
  return out;
}

}  // namespace voxrig::conform
