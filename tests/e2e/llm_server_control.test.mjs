// Self-tests for the scripted LLM server's errors, faults and control API; no browser needed.
import assert from 'node:assert/strict';
import { anthropicBody, anthropicTools, geminiBody, geminiTools, geminiUrl, openaiBody, openaiStream, openaiTools, parseSse, post, readAll, withServer } from './llm_server_client.mjs';

export const tests = [
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
