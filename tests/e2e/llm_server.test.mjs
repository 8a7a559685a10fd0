// Self-tests for the scripted LLM server; no browser needed.
import assert from 'node:assert/strict';
import { startLlmServer } from '../llm-server/server.mjs';

async function withServer(fn) {
  const llm = await startLlmServer();
  try { await fn(llm); } finally { await llm.close(); }
}

const post = (url, body, headers = {}) => fetch(url, {
  method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
});

const openaiBody = (extra = {}) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi there' }], ...extra });
const anthropicBody = (extra = {}) => ({ model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'Hi there' }], ...extra });
const geminiBody = (extra = {}) => ({ contents: [{ role: 'user', parts: [{ text: 'Hi there' }] }], ...extra });
const geminiUrl = (llm, stream) => `${llm.url}/v1beta/models/gemini-2.5-flash:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;

const openaiTools = [{ type: 'function', function: { name: 'click', parameters: { type: 'object', properties: { index: { type: 'number' } } } } }];
const anthropicTools = [{ name: 'click', input_schema: { type: 'object', properties: { index: { type: 'number' } } } }];
const geminiTools = [{ functionDeclarations: [{ name: 'click', parameters: { type: 'object', properties: { index: { type: 'number' } } } }] }];

// Parses a complete SSE body into [{ event, data }], tolerating LF and CRLF framing.
function parseSse(text) {
  return text.split(/\r?\n\r?\n/).filter((b) => b.trim()).map((block) => {
    const ev = { event: null, data: '' };
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) ev.event = line.slice(6).trim();
      else if (line.startsWith('data:')) ev.data += line.slice(5).trimStart();
    }
    return ev;
  });
}

// Reads a body chunk by chunk, returning what arrived and whether the connection broke.
async function readAll(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, broken: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch (err) {
    return { text, broken: true, err };
  }
}

async function openaiStream(llm, body) {
  const res = await post(`${llm.url}/v1/chat/completions`, { ...body, stream: true });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /text\/event-stream/);
  return parseSse(await res.text());
}

async function anthropicStream(llm, body) {
  const res = await post(`${llm.url}/v1/messages`, { ...body, stream: true });
  assert.equal(res.status, 200);
  return parseSse(await res.text()).map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
}

async function geminiStream(llm, body) {
  const res = await post(geminiUrl(llm, true), body);
  assert.equal(res.status, 200);
  return parseSse(await res.text()).map((e) => JSON.parse(e.data));
}

export const tests = [
  ['llm-server: openai non-streaming text', () => withServer(async (llm) => {
    llm.script({ text: 'Hello from OpenAI' });
    const res = await post(`${llm.url}/v1/chat/completions`, openaiBody());
    assert.equal(res.status, 200);
    const json = await res.json();
    assert.equal(json.object, 'chat.completion');
    assert.equal(json.model, 'gpt-4o-mini');
    assert.equal(json.choices[0].message.role, 'assistant');
    assert.equal(json.choices[0].message.content, 'Hello from OpenAI');
    assert.equal(json.choices[0].finish_reason, 'stop');
    assert.equal(json.usage.total_tokens, json.usage.prompt_tokens + json.usage.completion_tokens);
  })],

  ['llm-server: anthropic non-streaming text', () => withServer(async (llm) => {
    llm.script({ text: 'Hello from Claude', usage: { input: 10, output: 5 } });
    const json = await (await post(`${llm.url}/v1/messages`, anthropicBody())).json();
    assert.equal(json.type, 'message');
    assert.equal(json.role, 'assistant');
    assert.deepEqual(json.content, [{ type: 'text', text: 'Hello from Claude' }]);
    assert.equal(json.stop_reason, 'end_turn');
    assert.deepEqual(json.usage, { input_tokens: 10, output_tokens: 5 });
  })],

  ['llm-server: gemini non-streaming text', () => withServer(async (llm) => {
    llm.script({ text: 'Hello from Gemini' });
    const json = await (await post(geminiUrl(llm, false), geminiBody())).json();
    const cand = json.candidates[0];
    assert.equal(cand.content.role, 'model');
    assert.deepEqual(cand.content.parts, [{ text: 'Hello from Gemini' }]);
    assert.equal(cand.finishReason, 'STOP');
    assert.equal(json.modelVersion, 'gemini-2.5-flash');
    assert.ok(json.usageMetadata.totalTokenCount > 0);
  })],

  ['llm-server: openai streaming text reassembles, with usage chunk and [DONE]', () => withServer(async (llm) => {
    llm.script({ text: 'Hello streaming world' }, { text: 'ab', chunks: ['a', 'b'], omitUsage: true });
    const events = await openaiStream(llm, openaiBody({ stream_options: { include_usage: true } }));
    assert.equal(events.at(-1).data, '[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, 'Hello streaming world');
    assert.ok(chunks.filter((c) => c.choices[0]?.delta.content).length >= 2, 'text split into several chunks');
    assert.equal(chunks.at(-2).choices[0].finish_reason, 'stop');
    assert.deepEqual(chunks.at(-1).choices, []);
    assert.ok(chunks.at(-1).usage.completion_tokens > 0);

    const second = (await openaiStream(llm, openaiBody({ stream_options: { include_usage: true } }))).slice(0, -1).map((e) => JSON.parse(e.data));
    assert.deepEqual(second.map((c) => c.choices[0]?.delta.content).filter(Boolean), ['a', 'b']);
    assert.ok(second.every((c) => c.choices.length === 1), 'omitUsage drops the usage chunk');
  })],

  ['llm-server: anthropic streaming text reassembles in the real event order', () => withServer(async (llm) => {
    llm.script({ text: 'Hi', chunks: ['H', 'i'], usage: { input: 7, output: 3 } });
    const events = await anthropicStream(llm, anthropicBody());
    assert.deepEqual(events.map((e) => e.event), [
      'message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta',
      'content_block_stop', 'message_delta', 'message_stop',
    ]);
    assert.ok(events.every((e) => e.event === e.data.type));
    assert.equal(events[0].data.message.usage.input_tokens, 7);
    const text = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.text).join('');
    assert.equal(text, 'Hi');
    assert.equal(events[6].data.delta.stop_reason, 'end_turn');
    assert.equal(events[6].data.usage.output_tokens, 3);
  })],

  ['llm-server: gemini streaming text reassembles (SSE and JSON array)', () => withServer(async (llm) => {
    llm.script({ text: 'Hello Gemini stream' }, { text: 'xy', chunks: ['x', 'y'] });
    const events = await geminiStream(llm, geminiBody());
    const text = events.flatMap((e) => e.candidates[0].content.parts.map((p) => p.text ?? '')).join('');
    assert.equal(text, 'Hello Gemini stream');
    assert.ok(events.length >= 3);
    assert.equal(events.at(-1).candidates[0].finishReason, 'STOP');
    assert.ok(events.at(-1).usageMetadata.candidatesTokenCount > 0);
    assert.equal(llm.lastRequest().stream, true);

    const res = await post(`${llm.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, geminiBody());
    const array = JSON.parse(await res.text());
    assert.equal(array.map((e) => e.candidates[0].content.parts[0].text).join(''), 'xy');
  })],

  ['llm-server: openai tool calls (streamed argument fragments reassemble)', () => withServer(async (llm) => {
    const toolCalls = [{ name: 'click', args: { index: 3, reason: 'open the "Settings" menu' } }, { name: 'scroll', args: { dy: 400 } }];
    llm.script({ toolCalls }, { text: 'Clicking now', toolCalls: [{ id: 'call_fixed', name: 'click', args: { index: 3 } }] });
    const events = await openaiStream(llm, openaiBody({ tools: openaiTools }));
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    const calls = [];
    let fragments = 0;
    for (const c of chunks) {
      for (const d of c.choices[0]?.delta.tool_calls ?? []) {
        if (d.id) calls[d.index] = { id: d.id, type: d.type, name: d.function.name, args: d.function.arguments };
        else { calls[d.index].args += d.function.arguments; fragments++; }
      }
    }
    assert.ok(fragments >= 4, 'arguments arrive in several fragments');
    assert.equal(calls.length, 2);
    assert.ok(calls.every((c) => c.id.startsWith('call_') && c.type === 'function'));
    assert.deepEqual(calls.map((c) => [c.name, JSON.parse(c.args)]), toolCalls.map((t) => [t.name, t.args]));
    assert.equal(chunks.at(-1).choices[0].finish_reason, 'tool_calls');

    const json = await (await post(`${llm.url}/v1/chat/completions`, openaiBody({ tools: openaiTools }))).json();
    const msg = json.choices[0].message;
    assert.equal(msg.content, 'Clicking now');
    assert.deepEqual(msg.tool_calls, [{ id: 'call_fixed', type: 'function', function: { name: 'click', arguments: '{"index":3}' } }]);
    assert.equal(json.choices[0].finish_reason, 'tool_calls');
  })],

  ['llm-server: anthropic tool_use (input_json_delta and non-streaming)', () => withServer(async (llm) => {
    const args = { index: 3, text: 'hello wörld 👋' };
    llm.script({ text: 'Let me click.', toolCalls: [{ name: 'click', args }] }, { toolCalls: [{ name: 'click', args }] });
    const events = await anthropicStream(llm, anthropicBody({ tools: anthropicTools }));
    const start = events.find((e) => e.event === 'content_block_start' && e.data.content_block.type === 'tool_use');
    assert.equal(start.data.index, 1);
    assert.match(start.data.content_block.id, /^toolu_/);
    assert.equal(start.data.content_block.name, 'click');
    const partials = events.filter((e) => e.data.delta?.type === 'input_json_delta');
    assert.ok(partials.length >= 2);
    assert.ok(partials.every((e) => e.data.index === 1));
    assert.deepEqual(JSON.parse(partials.map((e) => e.data.delta.partial_json).join('')), args);
    assert.equal(events.find((e) => e.event === 'message_delta').data.delta.stop_reason, 'tool_use');

    const json = await (await post(`${llm.url}/v1/messages`, anthropicBody({ tools: anthropicTools }))).json();
    assert.equal(json.content.length, 1);
    assert.equal(json.content[0].type, 'tool_use');
    assert.deepEqual(json.content[0].input, args);
    assert.equal(json.stop_reason, 'tool_use');
  })],

  ['llm-server: gemini functionCall (streaming and non-streaming)', () => withServer(async (llm) => {
    llm.script({ toolCalls: [{ name: 'click', args: { index: 3 } }] }, { text: 'ok', toolCalls: [{ name: 'type', args: { text: 'hi' } }] });
    const events = await geminiStream(llm, geminiBody({ tools: geminiTools }));
    const calls = events.flatMap((e) => e.candidates[0].content.parts).filter((p) => p.functionCall);
    assert.deepEqual(calls, [{ functionCall: { name: 'click', args: { index: 3 } } }]);

    const json = await (await post(geminiUrl(llm, false), geminiBody({ tools: geminiTools }))).json();
    assert.deepEqual(json.candidates[0].content.parts, [{ text: 'ok' }, { functionCall: { name: 'type', args: { text: 'hi' } } }]);
  })],

  ['llm-server: 429 carries Retry-After and a provider-shaped body', () => withServer(async (llm) => {
    llm.script({ status: 429, retryAfter: 1 }, { status: 429, retryAfter: 2 }, { status: 429, retryAfter: 3 });
    const a = await post(`${llm.url}/v1/chat/completions`, openaiBody({ stream: true }));
    assert.equal(a.status, 429);
    assert.equal(a.headers.get('retry-after'), '1');
    assert.equal((await a.json()).error.code, 'rate_limit_exceeded');
    const b = await post(`${llm.url}/v1/messages`, anthropicBody());
    assert.equal(b.headers.get('retry-after'), '2');
    assert.equal((await b.json()).error.type, 'rate_limit_error');
    const c = await post(geminiUrl(llm, true), geminiBody());
    assert.equal(c.headers.get('retry-after'), '3');
    const g = await c.json();
    assert.equal(g.error.code, 429);
    assert.equal(g.error.status, 'RESOURCE_EXHAUSTED');
  })],

  ['llm-server: 401 / 500 / 404 error bodies per provider', () => withServer(async (llm) => {
    const message = 'Incorrect API key provided';
    llm.script({ status: 401, message }, { status: 401, message }, { status: 401, message }, { status: 500 }, { status: 404, message: 'model not found' });
    const o = await post(`${llm.url}/v1/chat/completions`, openaiBody());
    assert.equal(o.status, 401);
    assert.deepEqual(await o.json(), { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    const a = await post(`${llm.url}/v1/messages`, anthropicBody());
    assert.deepEqual(await a.json(), { type: 'error', error: { type: 'authentication_error', message } });
    const g = await post(geminiUrl(llm, false), geminiBody());
    assert.deepEqual(await g.json(), { error: { code: 401, message, status: 'UNAUTHENTICATED' } });
    const s = await post(`${llm.url}/v1/messages`, anthropicBody());
    assert.equal(s.status, 500);
    assert.equal((await s.json()).error.type, 'api_error');
    const n = await post(geminiUrl(llm, false), geminiBody());
    assert.equal(n.status, 404);
    assert.deepEqual(await n.json(), { error: { code: 404, message: 'model not found', status: 'NOT_FOUND' } });
  })],

  ['llm-server: malformed bodies and SSE lines', () => withServer(async (llm) => {
    llm.script({ malformed: true }, { malformed: true }, { malformed: true }, { malformed: true });
    const body = await (await post(`${llm.url}/v1/chat/completions`, openaiBody())).text();
    assert.throws(() => JSON.parse(body));
    const oEvents = await openaiStream(llm, openaiBody());
    assert.equal(oEvents.at(-1).data, '[DONE]', 'malformed is not a cut');
    assert.ok(oEvents.slice(0, -1).some((e) => { try { JSON.parse(e.data); return false; } catch { return true; } }));
    const aRes = await post(`${llm.url}/v1/messages`, anthropicBody({ stream: true }));
    const aEvents = parseSse(await aRes.text());
    assert.ok(aEvents.some((e) => { try { JSON.parse(e.data); return false; } catch { return true; } }));
    const gRes = await post(geminiUrl(llm, true), geminiBody());
    assert.ok(parseSse(await gRes.text()).some((e) => { try { JSON.parse(e.data); return false; } catch { return true; } }));
  })],

  ['llm-server: cutAfterChunks drops the connection mid-stream', () => withServer(async (llm) => {
    llm.script({ chunks: ['a', 'b', 'c', 'd'], cutAfterChunks: 2 }, { chunks: ['x', 'y', 'z'], cutAfterChunks: 1 }, { text: 'whole body', cutAfterChunks: 1 });
    const o = await readAll(await post(`${llm.url}/v1/chat/completions`, openaiBody({ stream: true })));
    assert.equal(o.broken, true);
    assert.ok(!o.text.includes('[DONE]'));
    const got = parseSse(o.text).map((e) => JSON.parse(e.data).choices[0].delta.content ?? '').join('');
    assert.equal(got, 'ab');
    const a = await readAll(await post(`${llm.url}/v1/messages`, anthropicBody({ stream: true })));
    assert.equal(a.broken, true);
    assert.ok(!a.text.includes('message_stop'));
    assert.ok(a.text.includes('"text":"x"') && !a.text.includes('"text":"y"'));
    const n = await readAll(await post(`${llm.url}/v1/chat/completions`, openaiBody()));
    assert.equal(n.broken, true);
    assert.deepEqual(llm.requests().map((r) => [r.outcome, r.aborted]), [['cut', false], ['cut', false], ['cut', false]]);
  })],

  ['llm-server: rejectTools only fires when the request has tools', () => withServer(async (llm) => {
    llm.script({ rejectTools: true, text: 'no tools needed' }, { rejectTools: true }, { rejectTools: true }, { rejectTools: true, text: 'plain answer' });
    const o = await post(`${llm.url}/v1/chat/completions`, openaiBody({ tools: openaiTools }));
    assert.equal(o.status, 400);
    const oj = await o.json();
    assert.match(oj.error.message, /does not support tools/);
    assert.equal(oj.error.param, 'tools');
    const a = await post(`${llm.url}/v1/messages`, anthropicBody({ tools: anthropicTools }));
    assert.equal(a.status, 400);
    assert.equal((await a.json()).error.type, 'invalid_request_error');
    const g = await post(geminiUrl(llm, false), geminiBody({ tools: geminiTools }));
    assert.equal(g.status, 400);
    assert.match((await g.json()).error.message, /Function calling is not enabled/);
    const plain = await post(`${llm.url}/v1/chat/completions`, openaiBody());
    assert.equal(plain.status, 200);
    assert.equal((await plain.json()).choices[0].message.content, 'plain answer');
  })],

  ['llm-server: match rules beat the queue; default reply when empty', () => withServer(async (llm) => {
    llm.script(
      { text: 'queued 1' },
      { match: { provider: 'anthropic', contains: 'dark mode' }, reply: { text: 'ruled anthropic' } },
      { match: { contains: 'title "x"' }, reply: { text: 'matched escaped' }, times: 1 },
      { text: 'queued 2' },
    );
    const ask = async (content) => (await (await post(`${llm.url}/v1/messages`, anthropicBody({ messages: [{ role: 'user', content }] }))).json()).content[0].text;
    const askOpenai = async (content) => (await (await post(`${llm.url}/v1/chat/completions`, openaiBody({ messages: [{ role: 'user', content }] }))).json()).choices[0].message.content;
    assert.equal(await ask('please enable dark mode'), 'ruled anthropic');
    assert.equal(await askOpenai('please enable dark mode'), 'queued 1', 'provider filter');
    assert.equal(await ask('please enable dark mode'), 'ruled anthropic', 'rules persist');
    assert.equal(await askOpenai('set title "x"\nnow'), 'matched escaped');
    assert.equal(await askOpenai('set title "x"\nnow'), 'queued 2', 'times: 1 used up');
    assert.equal(llm.pending(), 0);
    assert.equal(await askOpenai('anything'), 'OK');
    llm.setDefault({ text: 'fallback' });
    assert.equal(await ask('anything'), 'fallback');
    assert.deepEqual(llm.requests().map((r) => r.source), ['rule', 'queue', 'rule', 'rule', 'queue', 'default', 'default']);
  })],

  ['llm-server: records method, path, lowercased headers, parsed body and stream flag', () => withServer(async (llm) => {
    await post(`${llm.url}/v1/chat/completions`, openaiBody({ stream: true }), { Authorization: 'Bearer sk-test-123' });
    await post(`${llm.url}/v1/messages`, anthropicBody(), { 'X-Api-Key': 'sk-ant-test', 'anthropic-version': '2023-06-01' });
    await post(`${llm.url}/v1beta/models/gemini-2.5-flash:generateContent?key=AIza-query`, geminiBody(), { 'x-goog-api-key': 'AIza-test' });
    await fetch(`${llm.url}/v1/chat/completions`, { method: 'POST', body: 'not json' });
    const [o, a, g, raw] = llm.requests();
    assert.deepEqual([o.provider, o.method, o.path, o.stream], ['openai', 'POST', '/v1/chat/completions', true]);
    assert.equal(o.headers.authorization, 'Bearer sk-test-123');
    assert.deepEqual(o.body.messages, [{ role: 'user', content: 'Hi there' }]);
    assert.equal(typeof o.time, 'number');
    assert.equal(a.headers['x-api-key'], 'sk-ant-test');
    assert.equal(a.headers['anthropic-version'], '2023-06-01');
    assert.equal(a.stream, false);
    assert.equal(g.provider, 'gemini');
    assert.equal(g.headers['x-goog-api-key'], 'AIza-test');
    assert.equal(g.query.key, 'AIza-query');
    assert.equal(raw.body, 'not json');
    assert.deepEqual(llm.lastRequest(), raw);
    const viaHttp = await (await fetch(`${llm.url}/__requests`)).json();
    assert.equal(viaHttp.length, 4);
    assert.equal(viaHttp[0].headers.authorization, 'Bearer sk-test-123');
  })],

  ['llm-server: CORS preflight and headers on every response', () => withServer(async (llm) => {
    const pre = await fetch(`${llm.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: { origin: 'chrome-extension://abcdefghijklmnop', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key,authorization' },
    });
    assert.ok(pre.status === 204 || pre.status === 200);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.ok(pre.headers.get('access-control-allow-headers').includes('*'));
    assert.ok(pre.headers.get('access-control-allow-headers').includes('authorization'));
    assert.equal(pre.headers.get('access-control-allow-methods'), '*');
    llm.script({ status: 500 });
    for (const res of [await post(`${llm.url}/v1/messages`, anthropicBody()), await post(`${llm.url}/v1/messages`, anthropicBody({ stream: true })), await fetch(`${llm.url}/nope`)]) {
      await res.arrayBuffer();
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.ok(res.headers.get('access-control-allow-headers').includes('*'));
      assert.equal(res.headers.get('access-control-allow-methods'), '*');
    }
    assert.equal(llm.requests().length, 3, 'preflights are not recorded');
  })],

  ['llm-server: HTTP control API scripts, resets and lists', () => withServer(async (llm) => {
    const s = await post(`${llm.url}/__script`, [{ text: 'from http' }, { match: { provider: 'gemini' }, reply: { text: 'gem rule' } }]);
    assert.equal((await s.json()).pending, 1);
    await post(`${llm.url}/__default`, { text: 'http default' });
    assert.equal((await (await post(geminiUrl(llm, false), geminiBody())).json()).candidates[0].content.parts[0].text, 'gem rule');
    assert.equal((await (await post(`${llm.url}/v1/chat/completions`, openaiBody())).json()).choices[0].message.content, 'from http');
    assert.equal((await (await post(`${llm.url}/v1/chat/completions`, openaiBody())).json()).choices[0].message.content, 'http default');
    await post(`${llm.url}/__reset`, {});
    assert.deepEqual(await (await fetch(`${llm.url}/__requests`)).json(), []);
    assert.equal((await (await post(geminiUrl(llm, false), geminiBody())).json()).candidates[0].content.parts[0].text, 'OK');
  })],

  ['llm-server: prefixed OpenAI-compatible routes and model lists', () => withServer(async (llm) => {
    llm.script('plain string reply');
    const res = await post(`${llm.url}/ollama/v1/chat/completions`, openaiBody({ model: 'llama3.2' }));
    const json = await res.json();
    assert.equal(json.choices[0].message.content, 'plain string reply');
    assert.equal(json.model, 'llama3.2');
    assert.equal((await (await fetch(`${llm.url}/v1/models`)).json()).object, 'list');
    assert.ok((await (await fetch(`${llm.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } })).json()).data[0].type === 'model');
    assert.ok((await (await fetch(`${llm.url}/v1beta/models`)).json()).models[0].name.startsWith('models/'));
    const miss = await post(`${llm.url}/v2/unknown`, {});
    assert.equal(miss.status, 404);
    assert.equal(llm.lastRequest().provider, 'unknown');
  })],

  ['llm-server: delayMs, chunkDelayMs pacing and client abort is recorded', () => withServer(async (llm) => {
    llm.script({ delayMs: 80, text: 'late' }, { chunks: ['a', 'b', 'c', 'd', 'e'], chunkDelayMs: 100 });
    const t0 = Date.now();
    await (await post(`${llm.url}/v1/chat/completions`, openaiBody())).json();
    assert.ok(Date.now() - t0 >= 70, 'first byte delayed');

    const res = await post(`${llm.url}/v1/messages`, anthropicBody({ stream: true }));
    const reader = res.body.getReader();
    let seen = '';
    const decoder = new TextDecoder();
    while (!seen.includes('"text":"b"')) {
      const { value, done } = await reader.read();
      assert.ok(!done, 'stream ended early');
      seen += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 250));
    const last = llm.lastRequest();
    assert.equal(last.aborted, true);
    assert.equal(last.outcome, 'aborted');
  })],

  ['llm-server: waitForRequests resolves once enough requests arrived', () => withServer(async (llm) => {
    const waiting = llm.waitForRequests(2, { timeoutMs: 2000 });
    await post(`${llm.url}/v1/chat/completions`, openaiBody());
    await post(`${llm.url}/v1/messages`, anthropicBody());
    assert.deepEqual((await waiting).map((r) => r.provider), ['openai', 'anthropic']);
    await assert.rejects(llm.waitForRequests(3, { timeoutMs: 50 }), /expected 3/);
  })],

  ['llm-server: replies may be functions of the request (queue, rules, default); a throw is a 500', () => withServer(async (llm) => {
    const seen = [];
    const echo = (req) => {
      seen.push(req);
      const last = req.last?.content;
      return { text: `${req.provider}/${req.model}/${req.hasTools}: ${typeof last === 'string' ? last : JSON.stringify(last)}` };
    };
    llm.script(echo, (req) => (req.hasTools ? { toolCalls: [{ name: 'click', args: { index: 7 } }] } : 'plain string'));
    llm.script({ match: { contains: 'use the rule' }, reply: (req) => `rule saw ${req.body.messages.length} message(s)` });
    llm.setDefault((req) => { throw new Error(`no reply for ${req.provider}`); });
    const waiting = llm.waitForRequests(5, { timeoutMs: 2000 });

    const first = await (await post(`${llm.url}/v1/chat/completions`, openaiBody())).json();
    assert.equal(first.choices[0].message.content, 'openai/gpt-4o-mini/false: Hi there');
    assert.equal(seen[0].body.model, 'gpt-4o-mini');
    assert.equal(typeof seen[0].raw, 'string');

    const second = await (await post(`${llm.url}/v1/messages`, anthropicBody({ tools: anthropicTools }))).json();
    assert.equal(second.content[0].type, 'tool_use');
    assert.deepEqual(second.content[0].input, { index: 7 });

    const ruled = await (await post(`${llm.url}/v1/chat/completions`, openaiBody({ messages: [{ role: 'user', content: 'please use the rule' }] }))).json();
    assert.equal(ruled.choices[0].message.content, 'rule saw 1 message(s)');

    const thrown = await post(geminiUrl(llm, false), geminiBody());
    assert.equal(thrown.status, 500);
    assert.equal((await thrown.json()).error.message, 'no reply for gemini');

    const streamed = await post(`${llm.url}/v1/chat/completions`, openaiBody({ stream: true }));
    assert.equal(streamed.status, 500, 'a throw is an error even when streaming was asked for');
    assert.equal((await streamed.json()).error.message, 'no reply for openai');

    const log = await waiting;
    assert.deepEqual(log.map((r) => r.source), ['queue', 'queue', 'rule', 'default', 'default']);
    assert.equal(log[0].reply.text, 'openai/gpt-4o-mini/false: Hi there', 'the log records the reply the function returned');
    assert.deepEqual(log.map((r) => r.outcome), ['done', 'done', 'done', 'error', 'error']);
  })],
];
