// Loads a `voxrig conform --html` page in headless Chromium (puppeteer-core) and checks it against
// the JSON report of the same run: the counts shown equal the report's, the matrix shows every
// failure, the "failed only" filter hides every passing row, a detail row shows the rules and the
// hex context, the header names the protocol and the checks per second, and the page loads
// nothing from the network. Saves a screenshot. PASSING.html, a
// page of a run that passed, shows "failed 0" not in red and its conformance level as reached.
// usage: node html_report_check.cjs PAGE.html REPORT.json SCREENSHOT.png CHROMIUM TOOLS_DIR
//        [PASSING.html]
// Exit: 0 ok, 1 a check failed, 77 puppeteer-core is not installed (the CTest's skip code).
"use strict";
const fs = require("fs");
const path = require("path");
const {puppeteerOrSkip, openLocalPage} = require("./headless_page.cjs");

const [page_path, report_path, shot_path, chromium, tools, passing_path] = process.argv.slice(2);
const puppeteer = puppeteerOrSkip(tools);

const report = JSON.parse(fs.readFileSync(report_path, "utf8"));
const bad = v => ["fail", "crash", "timeout", "xpass"].includes(v);
const failures = [];
const check = (ok, what) => {
  console.log((ok ? "ok:   " : "FAIL: ") + what);
  if (!ok) failures.push(what);
};

(async () => {
  const {browser, page, foreign, errors} =
      await openLocalPage(puppeteer, chromium, page_path, {width: 1400, height: 1000});
  try {
    await page.waitForSelector("body[data-ready='1']", {timeout: 20000});
    check(errors.length === 0, "no script errors" + (errors.length ? ": " + errors[0] : ""));
    check(foreign.length === 0, "no request besides the page itself" +
                                    (foreign.length ? ": " + foreign[0] : ""));

    const text = async sel => page.$eval(sel, e => e.textContent.trim());
    const c = report.summary.counted;
    check(await text("#count-passed") === String(c.passed),
          "passed shown = report summary.counted.passed (" + c.passed + ")");
    check(await text("#count-failed") === String(c.failed),
          "failed shown = report summary.counted.failed (" + c.failed + ")");
    check(await text("#count-results") === String(report.results.length),
          "results shown = report results (" + report.results.length + ")");
    check(await text("#shown") === String(report.results.length), "no filter: every result listed");
    check(c.failed > 0, "the run has failures to show (a broken reader)");
    // The header says how fast the reader ran and through which protocol.
    const meta = await text("#meta");
    const rate = report.checks_per_s.toFixed(1) + " checks/s";
    check(meta.includes(rate) && (!report.protocol || meta.includes("(" + report.protocol + ")")),
          "header shows throughput and protocol (" + rate + ", " + report.protocol + ")");
    // Red is for counts that fail the run: failed (> 0 here) is red, a zero count is not.
    const colour = async sel => page.$eval(sel, e => getComputedStyle(e).color);
    const red = "rgb(207, 34, 46)";
    check(await colour("#count-failed") === red, "failed (" + c.failed + ") is red");
    for (const k of ["crash", "timeout", "xfail"])
      if (c[k] === 0)
        check(await colour("#count-" + k) !== red, k + " 0 is not red");
    // The section column stays on one line at 1400 px (no wrapping to 3-5 lines).
    const lines = await page.$$eval("#rows tr.row td.sec", tds => tds.slice(0, 50).map(td => {
      const r = document.createRange();
      r.selectNodeContents(td);
      return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size;
    }));
    check(lines.length > 0 && lines.every(n => n === 1),
          "section cells are one line at 1400 px (lines: " + Math.max(...lines) + ")");

    // The matrix: the failed counts of its cells add up to the counted failures.
    const matrix_failed = await page.$$eval("#matrix td.cell", tds =>
        tds.reduce((n, td) => n + (td.textContent.includes("/") ? parseInt(td.textContent, 10) : 0), 0));
    const counted_bad = report.results.filter(r => r.counted && bad(r.verdict)).length;
    check(matrix_failed === counted_bad,
          "matrix failed cells sum to the counted failures (" + counted_bad + ")");

    // The failed filter hides every passing row.
    await page.click("#f-failed");
    const want_bad = report.results.filter(r => bad(r.verdict)).length;
    check(await text("#shown") === String(want_bad), "failed filter: " + want_bad + " shown");
    const verdicts = await page.$$eval("#rows tr.row", trs => trs.map(t => t.dataset.verdict));
    check(verdicts.length === want_bad && verdicts.every(bad),
          "failed filter: every row drawn is a failure, no passing row left (" + verdicts.length + ")");

    // A section filter from the matrix narrows further; the detail row carries rules + hex.
    const first = report.results.find(r => bad(r.verdict) && r.hex_context && r.rules.length);
    check(!!first, "the report has a failure with rules and hex context");
    if (first) {
      await page.select("#f-section", first.section);
      await page.click("#rows tr.row");
      const detail = await text("#rows tr.detail");
      check(detail.includes(first.rules[0].id) && detail.includes("hex context"),
            "detail row shows the rule (" + first.rules[0].id + ") and the hex context");
      await page.select("#f-section", "");  // back to every failure, one detail open
      await page.click("#rows tr.row");
    }
    await page.screenshot({path: shot_path, fullPage: false});
    console.log("screenshot: " + shot_path);
    if (passing_path) {
      const ok = await browser.newPage();
      await ok.goto("file://" + path.resolve(passing_path), {waitUntil: "load"});
      await ok.waitForSelector("body[data-ready='1']", {timeout: 20000});
      const failed = await ok.$eval("#count-failed", e => [e.textContent.trim(),
                                                           getComputedStyle(e).color]);
      check(failed[0] === "0", "passing page: failed 0");
      check(failed[1] !== red, "passing page: failed 0 is not red (" + failed[1] + ")");
      const level = await ok.$eval("#level", e => [e.textContent, e.className]);
      check(/^conformance level reached: dumps .*partial run: filtered/.test(level[0]) &&
            level[1].includes("partial"), "passing page: level banner: " + level[0]);
    }
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.log(failures.length + " check(s) failed");
    process.exit(1);
  }
  console.log("html report checks passed");
})().catch(e => {
  console.log("FAIL: " + (e && e.stack || e));
  process.exit(1);
});
