// Talking to the scripted LLM server from its self-tests: a server per test, posts, SSE parsing.
import assert from 'node:assert/strict';
import { startLlmServer } from '../llm-server/server.mjs';

export async function withServer(fn) {
  const llm = await startLlmServer();
  try { await fn(llm); } finally { await llm.close(); }
}

export const post = (url, body, headers = {}) => fetch(url, {
  method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
});

export const openaiBody = (extra = {}) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi there' }], ...extra });
export const anthropicBody = (extra = {}) => ({ model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'Hi there' }], ...extra });
export const geminiBody = (extra = {}) => ({ contents: [{ role: 'user', parts: [{ text: 'Hi there' }] }], ...extra });
export const geminiUrl = (llm, stream) => `${llm.url}/v1beta/models/gemini-2.5-flash:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;

export const openaiTools = [{ type: 'function', function: { name: 'click', parameters: { type: 'object', properties: { index: { type: 'number' } } } } }];
export const anthropicTools = [{ name: 'click', input_schema: { type: 'object', properties: { index: { type: 'number' } } } }];
export const geminiTools = [{ functionDeclarations: [{ name: 'click', parameters: { type: 'object', properties: { index: { type: 'number' } } } }] }];

// Parses a complete SSE body into [{ event, data }], tolerating LF and CRLF framing.
export function parseSse(text) {
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
export async function readAll(res) {
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

export async function openaiStream(llm, body) {
  const res = await post(`${llm.url}/v1/chat/completions`, { ...body, stream: true });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /text\/event-stream/);
  return parseSse(await res.text());
}

export async function anthropicStream(llm, body) {
  const res = await post(`${llm.url}/v1/messages`, { ...body, stream: true });
  assert.equal(res.status, 200);
  return parseSse(await res.text()).map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
}

export async function geminiStream(llm, body) {
  const res = await post(geminiUrl(llm, true), body);
  assert.equal(res.status, 200);
  return parseSse(await res.text()).map((e) => JSON.parse(e.data));
}
