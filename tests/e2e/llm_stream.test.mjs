// The worker's `llm` port: streaming in each wire format, tool calls, retries, Stop, fallbacks, errors.
import assert from "node:assert/strict";

const clickTool = {
  name: "click",
  description: "Clicks the element with this index.",
  parameters: { type: "object", properties: { index: { type: "integer" } }, required: ["index"] },
};

async function useProvider(env, kind) {
  const base = kind === "openai" || kind === "openai_compatible" ? `${env.llm.url}/v1` : env.llm.url;
  const ext = await env.extPage();
  await ext.evaluate((s) => chrome.storage.local.set({ settings: s }), {
    provider: kind,
    providers: [{ kind, model: "test-model", base_url: base, api_key: "sk-test" }],
  });
}

/** Runs one call on the port, as a UI page would; optionally presses Stop after N text deltas. */
async function stream(env, request, { stopAfterDeltas = 0 } = {}) {
  const page = await env.extPage();
  return page.evaluate(({ request, stopAfterDeltas }) => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: "llm" });
    const events = [];
    let deltas = 0;
    port.onMessage.addListener((m) => {
      events.push(m);
      if (m.type === "event" && m.event.type === "text_delta" && ++deltas === stopAfterDeltas) {
        port.postMessage({ type: "stop", request_id: "r1" });
      }
      if (m.type !== "event") { port.disconnect(); resolve(events); }
    });
    port.postMessage({ type: "complete", request_id: "r1", request });
  }), { request, stopAfterDeltas });
}

const ask = (text, extra = {}) => ({ messages: [{ role: "user", text }], stream: true, ...extra });
const deltas = (events) => events.filter((m) => m.type === "event" && m.event.type === "text_delta").map((m) => m.event.text);
const last = (events) => events[events.length - 1];

export const tests = [
  ...["openai", "anthropic", "gemini", "openai_compatible"].map((kind) => [`streams text deltas in order (${kind})`, async (env) => {
    await useProvider(env, kind);
    env.llm.script({ text: "Hello there, world", chunks: ["Hello", " there,", " world"], usage: { input: 7, output: 3 } });
    const events = await stream(env, ask("Say hello"));
    assert.deepEqual(deltas(events), ["Hello", " there,", " world"]);
    const done = last(events);
    assert.equal(done.type, "reply", JSON.stringify(done));
    assert.equal(done.reply.text, "Hello there, world");
    assert.equal(done.reply.usage.input_tokens, 7);
    assert.equal(done.reply.usage.output_tokens, 3);
    const req = env.llm.lastRequest();
    assert.equal(req.stream, true);
    assert.match(JSON.stringify(req.body), /Say hello/);
  }]),

  ...["openai", "anthropic", "gemini"].map((kind) => [`streams a tool call with its arguments (${kind})`, async (env) => {
    await useProvider(env, kind);
    env.llm.script({ toolCalls: [{ name: "click", args: { index: 3 } }] });
    const events = await stream(env, ask("Click the third button", { tools: [clickTool] }));
    const done = last(events);
    assert.equal(done.type, "reply", JSON.stringify(done));
    assert.equal(done.reply.tool_calls.length, 1);
    assert.equal(done.reply.tool_calls[0].name, "click");
    assert.deepEqual(done.reply.tool_calls[0].arguments, { index: 3 });
    assert.match(JSON.stringify(env.llm.lastRequest().body), /Clicks the element with this index/);
  }]),

  ["retries a 429 after Retry-After, then succeeds", async (env) => {
    await useProvider(env, "openai");
    env.llm.script({ status: 429, retryAfter: 1, message: "Rate limit reached" }, { text: "Recovered" });
    const t0 = Date.now();
    const events = await stream(env, ask("hi"));
    assert.equal(last(events).reply?.text, "Recovered", JSON.stringify(last(events)));
    const retry = events.find((m) => m.event?.type === "retrying");
    assert.ok(retry, "a retrying event tells the UI to wait");
    assert.ok(retry.event.delay_ms >= 1000, `honours Retry-After: ${retry.event.delay_ms}`);
    assert.ok(Date.now() - t0 >= 900, "it really waited");
    assert.equal(env.llm.requests().length, 2);
  }],

  ["retries 500s with backoff, then succeeds", async (env) => {
    await useProvider(env, "anthropic");
    env.llm.script({ status: 500 }, { status: 500 }, { text: "Third time lucky" });
    const events = await stream(env, ask("hi"));
    assert.equal(last(events).reply?.text, "Third time lucky", JSON.stringify(last(events)));
    assert.equal(env.llm.requests().length, 3);
  }],

  ["Stop aborts a stream mid-way and keeps what arrived", async (env) => {
    await useProvider(env, "openai");
    const chunks = Array.from({ length: 30 }, (_, i) => `word${i} `);
    env.llm.script({ text: chunks.join(""), chunks, chunkDelayMs: 80 });
    const events = await stream(env, ask("Tell me a long story"), { stopAfterDeltas: 2 });
    assert.equal(last(events).type, "stopped");
    const got = deltas(events);
    assert.ok(got.length >= 2 && got.length < 10, `stopped early: ${got.length} deltas`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(env.llm.lastRequest().aborted, true, "the HTTP request itself was aborted");
  }],

  ["a model that rejects tools is downgraded to the text protocol", async (env) => {
    await useProvider(env, "openai_compatible");
    env.llm.script({ rejectTools: true }, { text: 'Sure.\n```json\n{"tool": "click", "args": {"index": 2}}\n```' });
    const events = await stream(env, ask("Click the second link", { tools: [clickTool] }));
    const done = last(events);
    assert.equal(done.type, "reply", JSON.stringify(done));
    assert.equal(done.reply.tool_calls[0]?.name, "click");
    assert.deepEqual(done.reply.tool_calls[0].arguments, { index: 2 });
    const [first, second] = env.llm.requests();
    assert.ok(first.body.tools, "first try sent native tools");
    assert.equal(second.body.tools, undefined, "the retry describes tools in the prompt instead");
    assert.match(JSON.stringify(second.body.messages), /click/);
    env.llm.script({ text: '```json\n{"tool": "click", "args": {"index": 5}}\n```' });
    const again = last(await stream(env, ask("Click the fifth link", { tools: [clickTool] })));
    assert.deepEqual(again.reply?.tool_calls[0]?.arguments, { index: 5 }, JSON.stringify(again));
    assert.equal(env.llm.requests().length, 3, "the next call goes straight to the text protocol");
    assert.equal(env.llm.lastRequest().body.tools, undefined);
  }],

  ["a malformed reply is a clear error", async (env) => {
    await useProvider(env, "gemini");
    env.llm.script({ malformed: true });
    const done = last(await stream(env, ask("hi", { stream: false })));
    assert.equal(done.type, "failed");
    assert.match(done.message, /could not read/);
  }],

  ["a 401 fails at once with the provider's message", async (env) => {
    await useProvider(env, "anthropic");
    env.llm.script({ status: 401, message: "invalid x-api-key" });
    const done = last(await stream(env, ask("hi")));
    assert.equal(done.type, "failed");
    assert.match(done.message, /rejected the API key: invalid x-api-key/);
    assert.equal(env.llm.requests().length, 1, "no retry on a bad key");
  }],

  ["with no provider configured the call fails with a clear message", async (env) => {
    const done = last(await stream(env, ask("hi")));
    assert.equal(done.type, "failed");
    assert.match(done.message, /No LLM provider is configured/);
    assert.equal(env.llm.requests().length, 0);
  }],
];
