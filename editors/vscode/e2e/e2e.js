// The extension in a real VS Code: code-server (started by run.sh with the
// built .vsix installed and the inbox example open) driven in Debian's
// chromium by playwright-core. Asserts from the page that the Problems view
// shows the rule-of-two finding, applies the quick fix with Ctrl+. and
// asserts that the finding is gone. Saves a screenshot of the finding.
//
//   node e2e.js URL SCREENSHOT.png
"use strict";

const { chromium } = require(process.env.ACG_PLAYWRIGHT || "playwright-core");

const [url, shot] = process.argv.slice(2);
const t0 = Date.now();
const step = (s) => console.log(`e2e: ${((Date.now() - t0) / 1000).toFixed(1)} s ${s}`);

async function problems(page) {
  // The Problems view's rows (a virtualised tree): their accessible text.
  return page.$$eval(".markers-panel .monaco-list-row", (rows) => rows.map((r) => r.textContent || ""));
}

async function waitFor(what, ms, fn) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    page.on("pageerror", (e) => console.log(`e2e: page error: ${e.message}`));
    await page.goto(url);
    await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
    step("workbench loaded");
    // Open agent.py with Quick Open, as a user would.
    await page.waitForSelector(".explorer-folders-view", { timeout: 60000 });
    await page.click(".monaco-workbench .part.editor");
    await page.keyboard.press("Control+P");
    await page.waitForSelector(".quick-input-widget input", { state: "visible" });
    await page.keyboard.type("agent.py");
    await page.waitForSelector(".quick-input-list .monaco-list-row", { state: "visible" });
    await page.keyboard.press("Enter");
    await page.waitForSelector(".tab.active[aria-label*='agent.py']", { timeout: 30000 });
    step("agent.py open");
    await page.keyboard.press("Control+Shift+M");
    await page.waitForSelector(".markers-panel", { timeout: 30000 });
    const rows = await waitFor("the rule-of-two finding in the Problems view", 90000, async () => {
      const r = await problems(page);
      return r.some((t) => t.includes("rule-of-two")) && r;
    });
    step(`Problems view: ${rows.filter((t) => t.includes("rule-of-two")).join(" | ")}`);
    if (!rows.some((t) => t.includes("inbox_assistant"))) {
      throw new Error(`the finding does not name the agent: ${rows.join(" | ")}`);
    }
    await page.screenshot({ path: shot });
    step(`screenshot ${shot}`);
    // The quick fix: go to the finding (F8 moves the cursor onto it), Ctrl+.
    // opens the code action menu, pick the approval gate.
    await page.click(".monaco-editor .view-lines");
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("F8");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+.");
    const actions = ".action-widget .monaco-list-row, .action-widget .action";
    await page.waitForSelector(actions, { state: "visible", timeout: 30000 });
    const titles = await page.$$eval(actions, (els) => els.map((e) => (e.textContent || "").trim()));
    step(`code actions offered: ${titles.join(" | ")}`);
    const idx = titles.findIndex((t) => /approval|interrupt/i.test(t));
    if (idx < 0) throw new Error(`no approval-gate quick fix among: ${titles.join(" | ")}`);
    // The menu takes keys (a pointer block covers the page): move the focus
    // to the fix and press Enter.
    const focused = () => page.$eval(".action-widget .monaco-list-row.focused", (e) => e.textContent || "").catch(() => "");
    for (let i = 0; i < titles.length && !/approval|interrupt/i.test(await focused()); i++) {
      await page.keyboard.press("ArrowDown");
    }
    if (!/approval|interrupt/i.test(await focused())) throw new Error("could not focus the approval-gate fix");
    await page.keyboard.press("Enter");
    step("quick fix applied");
    // Gone for good: a Problems view that is still open shows no
    // rule-of-two for 3 s running (re-analysis can empty it for a moment).
    let since = 0;
    await waitFor("the rule-of-two finding to clear", 60000, async () => {
      const r = await problems(page);
      const clear = (await page.isVisible(".markers-panel")) && !r.some((t) => t.includes("rule-of-two"));
      since = clear ? since || Date.now() : 0;
      return clear && Date.now() - since >= 3000;
    });
    const after = await problems(page);
    // The fix was applied as an edit: agent.py (still the active editor)
    // now gives the agent a checkpointer, which interrupt() needs.
    const text = await page.$eval(".editor-group-container.active .view-lines", (e) => e.textContent || "");
    if (!text.includes("checkpointer")) throw new Error(`agent.py was not edited by the fix: ${text}`);
    step(`the finding is gone from the Problems view (${after.length} rows left)`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(`e2e: FAIL: ${e.stack || e}`);
  process.exit(1);
});
