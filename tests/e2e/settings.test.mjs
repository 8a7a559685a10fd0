// Options page: per-provider settings, Save, and "Test connection" against the scripted LLM server.
import assert from "node:assert/strict";

const kinds = [
  { kind: "openai", name: "OpenAI", path: "/v1", auth: (h) => h.authorization === "Bearer sk-test-openai" },
  { kind: "anthropic", name: "Anthropic", path: "", auth: (h) => h["x-api-key"] === "sk-test-anthropic" },
  { kind: "gemini", name: "Google Gemini", path: "", auth: (h) => h["x-goog-api-key"] === "sk-test-gemini" },
  { kind: "openai_compatible", name: "OpenAI-compatible server", path: "/v1", auth: (h) => h.authorization === "Bearer sk-test-openai_compatible" },
];

async function fill(page, env, { kind, path }, model = "test-model") {
  await page.locator("#provider").waitFor();
  await page.selectOption("#provider", kind);
  await page.fill("#model", model);
  await page.fill("#base-url", env.llm.url + path);
  await page.fill("#api-key", `sk-test-${kind}`);
}

async function resultOf(page) {
  const result = page.locator("#result");
  await page.waitForFunction(() => /\b(ok|error)\b/.test(document.querySelector("#result").className));
  return { cls: await result.getAttribute("class"), text: await result.textContent() };
}

export const tests = [
  ...kinds.map((k) => [`Test connection succeeds for ${k.kind}`, async (env) => {
    const page = await env.open(env.extUrl("options.html"));
    await fill(page, env, k);
    await page.click("#test");
    const { cls, text } = await resultOf(page);
    assert.match(cls, /\bok\b/, text);
    assert.match(text, new RegExp(`^Connected to ${k.name} \\(test-model\\) in \\d+ ms`));
    const req = env.llm.lastRequest();
    assert.equal(req.provider, k.kind === "openai_compatible" ? "openai" : k.kind);
    assert.ok(k.auth(req.headers), `credentials header: ${JSON.stringify(req.headers)}`);
    assert.match(JSON.stringify(req.body) + req.path, /test-model/);
    // The usage line reads in words, with no price for the scripted model.
    assert.match(await page.locator("#usage").textContent(), /^Used so far: 1 request · [\d,]+ tokens in · [\d,]+ out · cost unknown$/);
    if (k.kind === "gemini") {
      // Gemini refuses an object schema with empty `properties`: a tool without arguments has none.
      const [decl] = req.body.tools[0].functionDeclarations;
      assert.equal(decl.name, "report_ok");
      assert.equal("parameters" in decl, false, JSON.stringify(decl));
    }
  }]),

  ["Test connection shows the provider's 401 message", async (env) => {
    env.llm.script({ status: 401, message: "Incorrect API key provided: sk-test-***" });
    const page = await env.open(env.extUrl("options.html"));
    await fill(page, env, kinds[0]);
    await page.click("#test");
    const { cls, text } = await resultOf(page);
    assert.match(cls, /\berror\b/);
    assert.match(text, /rejected the API key/);
    assert.match(text, /Incorrect API key provided/);
  }],

  ["Test connection reports a rate limit clearly", async (env) => {
    env.llm.script({ status: 429, retryAfter: 1, message: "Rate limit reached for requests" });
    const page = await env.open(env.extUrl("options.html"));
    await fill(page, env, kinds[1]);
    await page.click("#test");
    const { cls, text } = await resultOf(page);
    assert.match(cls, /\berror\b/);
    assert.match(text, /rate limiting/i);
    assert.match(text, /Rate limit reached/);
  }],

  ["Test connection without a provider asks for one", async (env) => {
    const page = await env.open(env.extUrl("options.html"));
    await page.locator("#test").click();
    assert.match(await page.locator("#result").textContent(), /Choose a provider/);
    assert.equal(env.llm.requests().length, 0);
  }],

  ["saved settings survive a reload, keep the key out of the page, and reach the status line", async (env) => {
    let page = await env.open(env.extUrl("options.html"));
    await fill(page, env, kinds[2], "gemini-test");
    await page.click("#save");
    await page.waitForFunction(() => document.querySelector("#result").textContent === "Saved.");
    await page.reload();
    await page.locator("#provider").waitFor();
    assert.equal(await page.inputValue("#provider"), "gemini");
    assert.equal(await page.inputValue("#model"), "gemini-test");
    assert.equal(await page.inputValue("#api-key"), "<redacted>", "the real key never reaches the page");
    assert.match(await page.locator("#status .provider").textContent(), /^Provider: Google Gemini$/);
    const stored = await (await env.extPage()).evaluate(() => chrome.storage.local.get("settings"));
    assert.equal(stored.settings.providers[0].api_key, "sk-test-gemini");
    await page.click("#test");
    const { cls } = await resultOf(page);
    assert.match(cls, /\bok\b/);
    assert.equal(env.llm.lastRequest().headers["x-goog-api-key"], "sk-test-gemini", "a redacted key means the stored one");
  }],
];
