// Shared by the headless-Chromium checks (html_report_check.cjs, spec_html_check.cjs): loads
// puppeteer-core from TOOLS_DIR, exiting 77 (the CTests' skip code) when it is not installed, and
// opens one local page with every other request refused and recorded.
"use strict";
const path = require("path");
const {createRequire} = require("module");

/// puppeteer-core from TOOLS_DIR/node_modules, or exit 77 with the line that says how to install it.
function puppeteerOrSkip(tools) {
  try {
    return createRequire(path.join(path.resolve(tools), "package.json"))("puppeteer-core");
  } catch (e) {
    console.log("SKIP: puppeteer-core is not installed in " + tools +
                " (scripts/install-deps.sh installs it: cd tools && npm install)");
    process.exit(77);
  }
}

/// Launches headless CHROMIUM and loads the file PAGE_PATH (a fragment-less file:// URL): returns
/// {browser, page, url, foreign, errors}, where `foreign` collects every refused request and
/// `errors` every script error. The caller closes the browser.
async function openLocalPage(puppeteer, chromium, pagePath, viewport) {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const url = "file://" + path.resolve(pagePath);
  const foreign = [], errors = [];
  await page.setRequestInterception(true);
  page.on("request", req => {
    const same = req.url().split("#")[0] === url;
    if (!same) foreign.push(req.url());
    same ? req.continue() : req.abort();
  });
  page.on("pageerror", e => errors.push(String(e)));
  await page.goto(url, {waitUntil: "load"});
  return {browser, page, url, foreign, errors};
}

module.exports = {puppeteerOrSkip, openLocalPage};
