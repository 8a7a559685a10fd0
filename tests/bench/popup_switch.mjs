// Dark mode's "All sites" switch flipped as a user does it: the popup shown for a tab of its own,
// then closed, so only the worker stays in the extension's process (the memory benches).
export async function setAllSites(env, port, on) {
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
