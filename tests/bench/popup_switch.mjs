// Dark mode's "All sites" switch flipped as a user does it: the toolbar popup opened over a tab
// (chrome.action.openPopup, the popup Chrome shows for the toolbar button), the switch clicked, the
// popup closed, so only the worker stays in the extension's process (the memory benches).
// The popup and the worker are driven over bare CDP sessions with one-line expressions: Playwright's
// own pages and workers carry its injected scripts (two 330 KB sources, their code and a utility
// world), which a user's extension process never holds and which stay in it after the popup closes.
// PW_POPUP=1: the popup opened as a Playwright page instead (the benches' way before).

/** Evaluates `expression` (awaited, returned by value) in a target through a session of its own. */
async function evaluateIn(cdp, targetId, expression) {
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: false });
  const reply = new Promise((resolve) => {
    const heard = (e) => {
      if (e.sessionId !== sessionId) return;
      const message = JSON.parse(e.message);
      if (message.id !== 1) return;
      cdp.off("Target.receivedMessageFromTarget", heard);
      resolve(message);
    };
    cdp.on("Target.receivedMessageFromTarget", heard);
  });
  await cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression, awaitPromise: true, returnByValue: true } }) });
  const message = await reply;
  await cdp.send("Target.detachFromTarget", { sessionId }).catch(() => {});
  if (!message.result || message.result.exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(message)}`);
  return message.result.result.value;
}

async function until(test, what) {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const value = await test();
    if (value) return value;
  }
  throw new Error(`popup_switch: timed out waiting for ${what}`);
}

export async function setAllSites(env, port, on) {
  if (process.env.PW_POPUP === "1") return setAllSitesInPage(env, port, on);
  const tab = await env.ctx.newPage();
  await tab.goto(`http://switch.duckdns.org:${port}/readability/mozilla-1/index.html`);
  await tab.bringToFront();
  const cdp = await env.ctx.browser().newBrowserCDPSession();
  try {
    const targets = async () => (await cdp.send("Target.getTargets")).targetInfos;
    const sw = await until(async () => (await targets()).find((t) => t.type === "service_worker" && t.url === env.extUrl("worker.js")), "the worker");
    const opened = await evaluateIn(cdp, sw.targetId, "chrome.action.openPopup().then(() => 'opened', (e) => String(e))");
    if (opened !== "opened") throw new Error(`popup_switch: openPopup: ${opened}`);
    const popup = await until(async () => (await targets()).find((t) => t.url === env.extUrl("popup.html")), "the popup");
    const read = `(() => { const s = document.querySelector("#dark-auto"); return s && s.getAttribute("aria-busy") !== "true" && document.querySelector("#dark-host") ? s.getAttribute("aria-checked") : null; })()`;
    const was = await until(() => evaluateIn(cdp, popup.targetId, read), "the popup's state");
    if (was !== String(on)) await evaluateIn(cdp, popup.targetId, `document.querySelector("#dark-auto").click()`);
    await until(async () => (await evaluateIn(cdp, popup.targetId, read)) === String(on), "the switch");
    await cdp.send("Target.closeTarget", { targetId: popup.targetId });
    await until(async () => !(await targets()).some((t) => t.targetId === popup.targetId), "the popup to close");
  } finally {
    await cdp.detach();
  }
  await tab.close();
}

/** The popup opened as a tab of its own through Playwright (`?tab=` names the page's tab). */
async function setAllSitesInPage(env, port, on) {
  const tab = await env.ctx.newPage();
  await tab.goto(`http://switch.duckdns.org:${port}/readability/mozilla-1/index.html`);
  const sw = env.ctx.serviceWorkers()[0] ?? await env.ctx.waitForEvent("serviceworker");
  const tabId = await sw.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, tab.url());
  const popup = await env.ctx.newPage();
  await popup.goto(env.extUrl(`popup.html?tab=${tabId}`));
  const toggle = popup.locator("#dark-auto");
  await popup.waitForFunction(() => document.querySelector("#dark-auto")?.getAttribute("aria-busy") !== "true");
  if ((await toggle.getAttribute("aria-checked")) !== String(on)) await toggle.click();
  await popup.waitForFunction((want) => document.querySelector("#dark-auto")?.getAttribute("aria-checked") === want, String(on));
  await popup.close();
  await tab.close();
}
