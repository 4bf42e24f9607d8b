// Loads the rendered specification (scripts/spec-html.py) in headless Chromium (puppeteer-core)
// and checks it against the rule catalogue and the coverage it was rendered from: every rule ID
// of golden/rules.json is an element id of the page; every rule's case list is there with the
// counts of `voxrig rules --coverage` and one link per case, each to an existing case file;
// every link inside the page resolves; following a rule link shows the rule with its cases; the
// page loads nothing besides itself. Saves a screenshot of one rule.
// usage: node spec_html_check.cjs PAGE.html RULES.json COVERAGE.json SCREENSHOT.png CHROMIUM TOOLS_DIR
// Exit: 0 ok, 1 a check failed, 77 puppeteer-core is not installed (the CTest's skip code).
"use strict";
const fs = require("fs");
const path = require("path");
const {puppeteerOrSkip, openLocalPage} = require("./headless_page.cjs");

const [page_path, rules_path, coverage_path, shot_path, chromium, tools] = process.argv.slice(2);
const puppeteer = puppeteerOrSkip(tools);

const rules = JSON.parse(fs.readFileSync(rules_path, "utf8")).rules.map(r => r.id);
const coverage = JSON.parse(fs.readFileSync(coverage_path, "utf8")).rules;
const failures = [];
const check = (ok, what) => {
  console.log((ok ? "ok:   " : "FAIL: ") + what);
  if (!ok) failures.push(what);
};
// The rule whose case list the screenshot shows (any rule with obeying and breaking cases).
const SHOWN = "SKEL-8";

(async () => {
  const {browser, page, url, foreign, errors} =
      await openLocalPage(puppeteer, chromium, page_path, {width: 1300, height: 900});
  try {
    check(errors.length === 0, "no script errors" + (errors.length ? ": " + errors[0] : ""));

    // Every rule is an anchor of the page (docs/spec's anchors against rules.json: spec_anchors).
    const ids = await page.$$eval("[id]", es => es.map(e => e.id));
    const idset = new Set(ids);
    const missing = rules.filter(r => !idset.has(r));
    check(missing.length === 0, "every rule of rules.json (" + rules.length + ") is an element id" +
                                    (missing.length ? "; missing: " + missing.join(" ") : ""));
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    check(dupes.length === 0, "no id appears twice" + (dupes.length ? ": " + dupes[0] : ""));

    // Every rule's case list: the coverage's counts and one link per case, to an existing file.
    const blocks = await page.$$eval("div.cases", ds => ds.map(d => ({
      rule: d.dataset.rule, obeying: +d.dataset.obeying, breaking: +d.dataset.breaking,
      links: [...d.querySelectorAll("a.case")].map(a => ({id: a.textContent,
                                                           href: a.getAttribute("href")})),
      // the block sits in the list item or paragraph whose statement the rule anchor opens
      inRule: d.parentElement.querySelector("a[id='" + d.dataset.rule + "']") !== null,
    })));
    const byRule = new Map(blocks.map(b => [b.rule, b]));
    const wrong = [];
    for (const r of coverage) {
      const b = byRule.get(r.id);
      const want = r.obeying.length + r.breaking.length;
      if (!b || b.obeying !== r.obeying.length || b.breaking !== r.breaking.length ||
          b.links.length !== want || !b.inRule)
        wrong.push(r.id);
    }
    check(wrong.length === 0, "every rule's case list sits with its statement and lists the " +
                                  "coverage's cases (" + coverage.length + " rules)" +
                                  (wrong.length ? "; wrong: " + wrong.slice(0, 8).join(" ") : ""));
    const dir = path.dirname(path.resolve(page_path));
    const dead = [];
    for (const b of blocks)
      for (const l of b.links)
        if (!fs.existsSync(path.resolve(dir, decodeURI(l.href)))) dead.push(l.href);
    check(dead.length === 0, "every case link names an existing case file (" +
                                 blocks.reduce((n, b) => n + b.links.length, 0) + " links)" +
                                 (dead.length ? "; dead: " + dead[0] : ""));

    // Every link inside the page resolves (cross-file links were rewritten to in-page anchors).
    const hrefs = await page.$$eval("a[href^='#']", as => as.map(a => a.getAttribute("href")));
    const broken = hrefs.filter(h => !idset.has(decodeURIComponent(h.slice(1))));
    check(hrefs.length > 500 && broken.length === 0,
          "every in-page link resolves (" + hrefs.length + ")" +
              (broken.length ? "; broken: " + broken.slice(0, 5).join(" ") : ""));
    const stray = await page.$$eval("a[href]", as => as.map(a => a.getAttribute("href"))
                                                  .filter(h => /\.md(#|$)/.test(h) && !h.startsWith("..")));
    check(stray.length === 0, "no link is left pointing to a spec .md file" +
                                  (stray.length ? ": " + stray[0] : ""));

    // Following a rule link shows that rule with its case list.
    await page.goto(url + "#" + SHOWN, {waitUntil: "load"});
    const shown = await page.evaluate(rule => {
      const a = document.getElementById(rule);
      const cases = document.getElementById("cases-" + rule);
      const ra = a.getBoundingClientRect(), rc = cases.getBoundingClientRect();
      return {anchorTop: ra.top, casesVisible: rc.height > 0 && rc.top < window.innerHeight,
              text: cases.textContent, innerHeight: window.innerHeight};
    }, SHOWN);
    check(shown.anchorTop > -2 && shown.anchorTop < shown.innerHeight / 2,
          "#" + SHOWN + " scrolls the rule into view (top " + Math.round(shown.anchorTop) + ")");
    const want = coverage.find(r => r.id === SHOWN);
    check(shown.casesVisible && want.breaking.every(c => shown.text.includes(c)) &&
              want.obeying.every(c => shown.text.includes(c)),
          SHOWN + "'s case list is shown under it with every case (" +
              (want.obeying.length + want.breaking.length) + ")");
    await page.screenshot({path: shot_path});
    check(foreign.length === 0, "no request besides the page itself" +
                                    (foreign.length ? ": " + foreign[0] : ""));
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.log(failures.length + " check(s) failed");
    process.exit(1);
  }
  console.log("spec page ok: " + path.resolve(page_path) + " (screenshot " + shot_path + ")");
})().catch(e => {
  console.log("FAIL: " + (e && e.stack || e));
  process.exit(1);
});
