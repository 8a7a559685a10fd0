// The shared test environment: Chromium with dist/ loaded, a fixture server, helpers to reach the extension.
import { chromium } from "playwright-core";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFixtureServer } from "./fixture-server.mjs";
import { startLlmServer } from "../llm-server/server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// DUSK_DIST: another build to load instead (a benchmark's before and after in one run).
const dist = process.env.DUSK_DIST ? path.resolve(process.env.DUSK_DIST) : path.join(root, "dist");

/** The id Chromium derives from the manifest key: sha256 of the key, first 32 hex digits mapped to a-p. */
export function extensionId() {
  const key = JSON.parse(readFileSync(path.join(dist, "manifest.json"), "utf8")).key;
  const hex = createHash("sha256").update(Buffer.from(key, "base64")).digest("hex").slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join("");
}

/** `extensions`: more unpacked extension folders to load beside dist/ (benchmarks load peers). */
/** `lang`: the browser's UI language (chrome.i18n follows it), e.g. "zh-CN". */
/** `profile`: a user-data dir to start on and keep (a browser restart); a fresh temporary one otherwise. */
/** `colorScheme`: "light" or "dark", what every page's prefers-color-scheme says (screenshots). */
export async function launch({ extensions = [], lang = "", profile: kept = "", colorScheme = "" } = {}) {
  const fixtures = await startFixtureServer();
  const llm = await startLlmServer();
  const profile = kept || mkdtempSync(path.join(tmpdir(), "dusk-profile-"));
  // "Allow User Scripts" switched on for Dusk, as a user would on its details page (execute_js).
  const restarted = existsSync(path.join(profile, "Default", "Preferences"));
  if (!restarted) {
    mkdirSync(path.join(profile, "Default"), { recursive: true });
    writeFileSync(path.join(profile, "Default", "Preferences"), JSON.stringify({ extensions: { settings: { [extensionId()]: { user_scripts_enabled: true } } } }));
  }
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      `--disable-extensions-except=${[dist, ...extensions].join(",")}`,
      `--load-extension=${[dist, ...extensions].join(",")}`,
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
      "--disable-gpu",
      // Names under a private public suffix, for the agent's site tests; everything stays on loopback.
      "--host-resolver-rules=MAP *.duckdns.org 127.0.0.1",
      ...(lang ? [`--lang=${lang}`] : []),
    ],
    ...(colorScheme ? { colorScheme } : {}),
    ...(lang ? { locale: lang, env: { ...process.env, LANGUAGE: lang.replace("-", "_"), LANG: `${lang.replace("-", "_")}.UTF-8` } } : {}),
  });
  const extId = extensionId();
  // A restarted browser is no fresh install: no first-run page comes.
  const welcome = restarted ? Promise.resolve(null) : ctx.waitForEvent("page", { predicate: (p) => p.url().endsWith("/welcome.html"), timeout: 10_000 }).catch(() => null);
  let welcomePage;
  try {
    if (!ctx.serviceWorkers().length) await ctx.waitForEvent("serviceworker", { timeout: 15_000 });
    // A fresh install opens the first-run page; tests note it and close it so it is not in their way.
    welcomePage = await welcome;
    await welcomePage?.close();
  } catch (e) {
    // A browser that never started Dusk is closed here: no caller holds it to close it later.
    await ctx.close().catch(() => {});
    await fixtures.close();
    await llm.close();
    if (!kept) rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  const opened = [];

  const env = {
    ctx,
    extId,
    welcomeOpened: Boolean(welcomePage),
    base: fixtures.url,
    fixtures,
    /** The scripted LLM server on loopback; reset after every test. */
    llm,
    extUrl: (p) => `chrome-extension://${extId}/${p}`,
    /** Opens a URL in a new tab that the test runner closes afterwards. */
    async open(url, { waitUntil = "load" } = {}) {
      const page = await ctx.newPage();
      opened.push(page);
      await page.goto(url, { waitUntil });
      return page;
    },
    /** A hidden extension page used to call chrome.* APIs as the extension would. */
    async extPage() {
      if (!env._ext || env._ext.isClosed()) {
        env._ext = await ctx.newPage();
        await env._ext.goto(env.extUrl("options.html"));
      }
      return env._ext;
    },
    /** The service worker, woken if it was stopped. */
    async serviceWorker() {
      const [live] = ctx.serviceWorkers();
      if (live) return live;
      const started = ctx.waitForEvent("serviceworker", { timeout: 10_000 });
      await env.sendToWorker({ type: "ping" });
      return started;
    },
    async sendToWorker(message) {
      const page = await env.extPage();
      return page.evaluate((m) => chrome.runtime.sendMessage(m), message);
    },
    async tabIdFor(url) {
      const page = await env.extPage();
      return page.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
    },
    /** Switches "Allow User Scripts" for Dusk on or off, as its details page does. */
    async setUserScripts(on) {
      const page = await ctx.newPage();
      await page.goto("chrome://extensions/");
      await page.evaluate(([id, on]) => chrome.developerPrivate.updateExtensionConfiguration({ extensionId: id, userScriptsAccess: on }), [extId, on]);
      await page.close();
    },
    /** Kills the service worker through CDP, as Chromium does after 30 s idle. */
    async stopWorkers() {
      const page = await env.extPage();
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("ServiceWorker.enable");
      await cdp.send("ServiceWorker.stopAllWorkers");
      await cdp.detach();
    },
    async cleanup() {
      for (const p of opened.splice(0)) await p.close().catch(() => {});
      llm.reset();
      const ext = await env.extPage();
      await ext.evaluate(() => Promise.all([chrome.storage.local.clear(), chrome.storage.session.clear()]));
      // A worker the test left unable to answer is restarted, so the next test starts from a live one.
      if (!(await env.workerAnswers())) {
        await env.stopWorkers();
        throw new Error(`the service worker no longer answered a ping; it was restarted (${(await env.workerAnswers()) ? "it answers now" : "it still does not answer"})`);
      }
    },
    /** Whether the worker answers a ping within 5 s. */
    async workerAnswers() {
      const ext = await env.extPage();
      const pong = ext.evaluate(() => chrome.runtime.sendMessage({ type: "ping" })).then((r) => r?.type === "pong", () => false);
      let timer;
      const late = new Promise((resolve) => (timer = setTimeout(() => resolve(false), 5_000)));
      return Promise.race([pong, late]).finally(() => clearTimeout(timer));
    },
    async close() {
      await ctx.close();
      await fixtures.close();
      await llm.close();
      if (!kept) rmSync(profile, { recursive: true, force: true });
    },
  };
  return env;
}
