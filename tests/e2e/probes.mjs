// Bad input at every boundary: each probe is sent as a real caller would send it, and must get a
// clear answer in bounded time. Shared by bad_input.test.mjs (asserts) and tests/hardening_table.mjs
// (prints the table for the README).

const MB = "x".repeat(1024 * 1024);
/** Arrays nested `depth` deep, built from text in the page (Playwright can't carry them). */
const nested = (depth) => ({ __json: `${"[".repeat(depth)}1${"]".repeat(depth)}` });

/** [name, where ("content" RPC on the fixture page, or "worker"), message, expected: every pattern matches the JSON reply] */
export const PROBES = [
  ["1 MB selector", "content", { type: "count_elements", selector: MB }, [/"type":"error"/, /at most 4000/]],
  ["1 MB text to type", "content", { type: "type_text", index: 1, text: MB }, [/"type":"error"/, /at most 10000/]],
  ["1 MB query description", "content", { type: "query_elements", description: MB }, [/"type":"error"/, /at most 4000/]],
  ["invalid selector", "content", { type: "count_elements", selector: "a[[[" }, [/"type":"error"/, /invalid selector/]],
  ["invalid selector as a target", "content", { type: "click", selector: "::nope(" }, [/"success":false/, /"reason":"bad_target"/]],
  ["negative index", "content", { type: "click", index: -1 }, [/"type":"error"/, /malformed message: invalid value: integer `-1`/]],
  ["huge index", "content", { type: "click", index: 4294967295 }, [/"success":false/, /"reason":"not_found"/]],
  ["index past u32", "content", { type: "click", index: 1e12 }, [/"type":"error"/, /malformed message/]],
  ["limit 10^9", "content", { type: "get_elements", limit: 1e9 }, [/"type":"elements"/]],
  ["JSON nested 100 deep", "content", { type: "ping", junk: nested(100) }, [/"type":"pong"/]],
  ["JSON nested 1,000 deep", "content", { type: "ping", junk: nested(1000) }, [/"type":"pong"|recursion limit/]],
  // Refused by the sending browser (older Chromium), or sent and refused by the worker's reader.
  ["JSON nested 5,000 deep", "content", { type: "ping", junk: nested(5000) }, [/"thrown":"Error in invocation of runtime.sendMessage|"type":"error"/, /runtime\.sendMessage|recursion limit/]],
  ["wrong types", "content", { type: "scroll", direction: 42 }, [/"type":"error"/, /invalid type: integer `42`/]],
  ["unknown type", "content", { type: "launch_missiles" }, [/"type":"error"/, /unknown variant `launch_missiles`/]],
  ["NaN coordinates", "content", { type: "click", x: "NaN", y: null }, [/"type":"error"/, /invalid type/]],
  ["huge coordinates", "content", { type: "drag_drop", from: { x: 1e308, y: -1e308 }, to: { x: 0, y: 0 } }, [/"type":"error"/, /coordinates/]],
  ["RTL and emoji text", "content", { type: "type_text", selector: "#field", text: "مرحبا 👋🏽 שלום" }, [/"success":true/]],
  ["tab_rpc to no tab", "worker", { type: "tab_rpc", tab_id: 999999999, rpc: { type: "ping" } }, [/"type":"error"/]],
  ["tab_rpc with a wrong tab type", "worker", { type: "tab_rpc", tab_id: "seven", rpc: { type: "ping" } }, [/"type":"error"/, /malformed/]],
  ["unknown worker type", "worker", { type: "launch_missiles" }, [/"type":"error"/, /unknown variant/]],
  ["1 MB model name in test_connection", "worker", { type: "test_connection", provider: { kind: "openai", model: MB, base_url: "http://127.0.0.1:9/v1", api_key: "k" } }, [/"ok":false/]],
  ["worker message nested 1,000 deep", "worker", { type: "get_status", junk: nested(1000) }, [/"type":"status"|recursion limit/]],
];

/** Every content RPC and worker message type, each with every field of the wrong type. */
const CONTENT_TYPES = ["ping", "count_elements", "page_summary", "get_elements", "get_element_details", "inspect", "get_color_palette", "query_elements", "text_snapshot", "page_text", "page_facts", "detect_dark_mode", "theme_measure", "theme_preview", "apply_css", "remove_css", "click", "type_text", "select", "hover", "scroll", "press_key", "drag_drop", "set_files", "scroll_to", "highlight", "mask", "heartbeat", "unmask"];
const WORKER_TYPES = ["ping", "get_status", "tab_rpc", "get_settings", "save_settings", "test_connection", "get_usage", "on_device_status", "agent_stop", "dark_get_state", "dark_set_site", "dark_set_auto", "dark_set_mode", "dark_fetch_css", "dark_refine", "dark_stop", "dark_revert", "dark_back_to_instant"];
const WRONG = { index: "NaN", headings: 5, candidates: 5, limit: -5, offset: "x", text: 12, selector: 7, css: 5, id: 3, description: [], key: {}, indices: "all", y: "top", x: [], from: 1, to: 2, direction: "sideways", files: "x", ttl_ms: -1, duration_ms: "long", token_budget: -1, text_limit: -1, baseline: "yes", reset: 2, filter: "everything", visible_only: "no", value: 9, modifiers: 4, clear: "yes", label: 5, tab_id: "seven", rpc: 4, settings: 3, provider: 2, on: "yes", mode: "turbo", url: 9, window_id: [] };
// Types with no fields, or only optional ones that default, may simply answer; what matters is a clear, bounded reply.
const CLEAR = [/"type":"(error|pong|page_summary|elements|color_palette|text_snapshot|page_text|page_facts|dark_mode|theme_quality|mask|status|settings|usage|on_device|saved|dark_state|element_details|css_removed)"|"success":false|"ok":false/];
for (const t of CONTENT_TYPES) PROBES.push([`${t} with wrong field types`, "content", { type: t, ...WRONG }, CLEAR]);
for (const t of WORKER_TYPES) PROBES.push([`${t} with wrong field types`, "worker", { type: t, ...WRONG }, CLEAR]);

/** Port probes, posted from the side panel page (the one page every port serves): [name, port, message, expected]. */
export const PORT_PROBES = [
  ["chat: wrong types", "chat", { type: "ask", window_id: "one", question: 5, tab_ids: "all" }, [/"type":"failed"/, /invalid type/]],
  ["chat: unknown type", "chat", { type: "launch_missiles" }, [/"type":"failed"/, /unknown variant/]],
  ["agent: 1 MB task", "agent", { type: "start", window_id: -1, task: MB }, [/"type":"failed"/, /at most 10000/]],
  ["agent: unknown type", "agent", { type: "launch_missiles" }, [/"type":"error"/, /unknown variant/]],
  ["agent: approval for no card", "agent", { type: "approve", window_id: -1, run_id: "r", step: 1, digest: "d", token: "t" }, [/"type":"error"/, /no action is waiting/]],
  ["llm: wrong types", "llm", { type: "complete", request_id: 7, request: "hello" }, [/"type":"failed"/, /invalid type/]],
];

/** Sends every probe; returns [name, expected, observed (short), ms, ok]. */
export async function runProbes(env, pageUrl) {
  const ext = await env.extPage();
  const tabId = await env.tabIdFor(pageUrl);
  const rows = [];
  for (const [name, where, message, expected] of PROBES) {
    const t0 = Date.now();
    const reply = await ext.evaluate(async ([where, tabId, text]) => {
      const message = JSON.parse(text, (k, v) => (v && typeof v === "object" && "__json" in v ? JSON.parse(v.__json) : v));
      const m = where === "worker" ? message : { type: "tab_rpc", tab_id: tabId, rpc: message };
      try {
        const r = await Promise.race([chrome.runtime.sendMessage(m), new Promise((res) => setTimeout(() => res({ timeout: true }), 10_000))]);
        return JSON.stringify(where === "worker" ? r : (r?.type === "content" ? r.response : r));
      } catch (e) {
        return JSON.stringify({ thrown: String(e.message || e) });
      }
    }, [where, tabId, JSON.stringify(message)]);
    const ms = Date.now() - t0;
    const ok = expected.every((re) => re.test(reply)) && ms < 10_000;
    rows.push([name, expected.map((re) => String(re).slice(1, -1)).join(" & "), reply.length > 110 ? `${reply.slice(0, 110)}…` : reply, ms, ok]);
  }
  const panel = await env.open(env.extUrl("sidepanel.html"));
  for (const [name, port, message, expected] of PORT_PROBES) {
    const t0 = Date.now();
    const reply = await panel.evaluate(([port, text]) => new Promise((resolve) => {
      const p = chrome.runtime.connect({ name: port });
      // The agent's Failed arrives as an event: report the first message that says something.
      p.onMessage.addListener((m) => {
        const e = m.type === "event" ? m.event : m;
        if (["failed", "error"].includes(e.type)) { resolve(JSON.stringify(e)); p.disconnect(); }
      });
      setTimeout(() => resolve("no answer"), 5000);
      p.postMessage(JSON.parse(text));
    }), [port, JSON.stringify(message)]);
    const ms = Date.now() - t0;
    const ok = expected.every((re) => re.test(reply)) && ms < 10_000;
    rows.push([`${name} (port)`, expected.map((re) => String(re).slice(1, -1)).join(" & "), reply.length > 110 ? `${reply.slice(0, 110)}…` : reply, ms, ok]);
  }
  return rows;
}
