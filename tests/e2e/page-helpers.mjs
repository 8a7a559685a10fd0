// Helpers for page-layer tests: send one content RPC through the worker, find elements by text.
import assert from "node:assert/strict";

/** Sends a content RPC to the tab showing `url` via the worker and returns the content script's reply. */
export async function rpc(env, url, request) {
  const tabId = await env.tabIdFor(url);
  assert.ok(tabId, `no tab for ${url}`);
  const reply = await env.sendToWorker({ type: "tab_rpc", tab_id: tabId, rpc: request });
  assert.equal(reply.type, "content", JSON.stringify(reply));
  return reply.response;
}

/** Opens a page and returns a bound `call(request)` for it. */
export async function openPage(env, path) {
  const url = `${env.base}${path}`;
  const page = await env.open(url);
  await page.waitForLoadState("load");
  return { page, url, call: (request) => rpc(env, url, request) };
}

export async function elements(call, filter = "all", visibleOnly = false) {
  const r = await call({ type: "get_elements", filter, visible_only: visibleOnly });
  assert.equal(r.type, "elements", JSON.stringify(r));
  return r.elements;
}

export function byText(list, text) {
  const found = list.find((e) => e.text === text);
  assert.ok(found, `no element with text "${text}" in ${JSON.stringify(list.map((e) => e.text))}`);
  return found;
}

export async function act(call, request) {
  const r = await call(request);
  assert.equal(r.type, "action", JSON.stringify(r));
  return r;
}
