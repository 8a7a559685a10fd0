// Shared helpers for the dark-mode e2e tests (not a test file itself).
import assert from "node:assert/strict";
import { backgroundBehind } from "../lib/wcag.mjs";

export const fixture = (env, name, query = "") => `${env.base}/dark/${name}${query}`;

/** Switches dark mode for the site of `url` through the worker, as the popup does. */
export async function setSite(env, url, on) {
  const tabId = await env.tabIdFor(url);
  assert.ok(tabId, `no tab for ${url}`);
  const reply = await env.sendToWorker({ type: "dark_set_site", tab_id: tabId, on });
  assert.equal(reply.type, "dark_state", JSON.stringify(reply));
  return reply;
}

export async function state(env, url) {
  const tabId = await env.tabIdFor(url);
  return env.sendToWorker({ type: "dark_get_state", tab_id: tabId });
}

/** Forgets every dark-mode choice and the registered fallback. */
export async function resetMemory(env) {
  const ext = await env.extPage();
  await ext.evaluate(async () => {
    await chrome.storage.local.remove(["dark_sites", "dark_auto", "dark_mode"]);
    await chrome.scripting.unregisterContentScripts().catch(() => {});
  });
}

export const computed = (page, selector, prop) =>
  page.evaluate(([sel, p]) => {
    const el = document.querySelector(sel) ?? document.querySelector("x-card")?.shadowRoot?.querySelector(sel);
    return el ? getComputedStyle(el).getPropertyValue(p) : null;
  }, [selector, prop]);

export function luminance(css) {
  const p = css.match(/[\d.]+/g).map(Number);
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(p[0]) + 0.7152 * lin(p[1]) + 0.0722 * lin(p[2]);
}

/** Waits until `fn()` is truthy (the theme applies asynchronously after a storage change). */
export async function until(fn, what, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** Whether the colour behind `sel` is dark (ancestors composited, as a reader sees it). */
export const isDark = async (page, sel = "body") => luminance(await page.evaluate(backgroundBehind, sel)) < 0.05;

/** Unfolds the popup's Adjust section (folded by default) and waits for its sliders. */
export async function openAdjust(popup) {
  await popup.locator("#dark-adjust-fold summary").click();
  await popup.locator("#dark-adjust-brightness").waitFor();
}
