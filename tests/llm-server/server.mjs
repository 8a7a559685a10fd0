// Scripted stand-in for OpenAI, Anthropic and Gemini: HTTP, routing, recording and the control API.
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import * as openai from './openai.mjs';
import * as anthropic from './anthropic.mjs';
import * as gemini from './gemini.mjs';
import { createScript } from './script.mjs';
import { defaultMessage, normalizeReply, sleep, usageFor } from './reply.mjs';
import { writeCutBody, writeEvents } from './sse.mjs';

const JSON_TYPE = 'application/json';

function route(method, path, headers) {
  if (method === 'POST') {
    if (path.endsWith('/chat/completions')) return { provider: openai };
    if (path.endsWith('/messages')) return { provider: anthropic };
    const m = path.match(/\/models\/([^/:]+):(generateContent|streamGenerateContent)$/);
    if (m) return { provider: gemini, model: decodeURIComponent(m[1]), stream: m[2] === 'streamGenerateContent' };
  }
  if (method === 'GET' && path.endsWith('/models')) {
    // One path, three list formats: tell them apart the way each client identifies itself.
    if (path.includes('v1beta') || headers['x-goog-api-key']) return { provider: gemini, list: true };
    if (headers['anthropic-version'] || headers['x-api-key']) return { provider: anthropic, list: true };
    return { provider: openai, list: true };
  }
  return null;
}

function cors(req, res) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  // A bare "*" does not cover Authorization under the Fetch spec, so name it (and whatever was asked) too.
  const asked = req.headers['access-control-request-headers'];
  res.setHeader('Access-Control-Allow-Headers', asked ? `*, ${asked}` : '*, authorization');
  res.setHeader('Access-Control-Allow-Methods', '*');
  res.setHeader('Access-Control-Expose-Headers', '*');
  res.setHeader('Access-Control-Max-Age', '600');
  if (req.headers['access-control-request-private-network']) res.setHeader('Access-Control-Allow-Private-Network', 'true');
}

function sendJson(res, status, value, headers = {}) {
  const body = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

async function readBody(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  const raw = Buffer.concat(parts).toString('utf8');
  if (raw === '') return { raw, body: null };
  try { return { raw, body: JSON.parse(raw) }; } catch { return { raw, body: raw }; }
}

export async function startLlmServer({ port = 0, host = '127.0.0.1' } = {}) {
  const script = createScript();
  let log = [];
  let waiters = [];

  const record = (entry) => {
    log.push(entry);
    waiters = waiters.filter((w) => !w.check());
  };

  async function control(req, res, path, body) {
    if (req.method === 'POST' && path === '/__script') {
      script.add(...[].concat(body ?? []));
      return sendJson(res, 200, { ok: true, pending: script.pending() });
    }
    if (req.method === 'POST' && path === '/__default') {
      script.setDefault(body);
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/__reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'GET' && path === '/__requests') return sendJson(res, 200, log);
    return sendJson(res, 404, { error: { message: `unknown control route ${req.method} ${path}` } });
  }

  async function generate(req, res, provider, rt, entry, raw) {
    const { body } = entry;
    const model = provider.modelOf(body, rt);
    const hasTools = provider.hasTools(body);
    const { reply: scripted, source } = script.next({ provider: provider.name, body, raw, model, last: provider.lastOf(body), hasTools });
    entry.reply = scripted;
    entry.source = source;
    const r = normalizeReply(scripted);
    const isGone = () => res.destroyed || entry.aborted;

    if (r.delayMs > 0) await sleep(r.delayMs);
    if (isGone()) { entry.outcome = 'aborted'; return; }

    const headers = r.retryAfter != null ? { 'retry-after': String(r.retryAfter) } : {};
    let error = null;
    if (r.rejectTools && hasTools) error = { status: 400, message: r.message ?? provider.toolsUnsupported(model), param: 'tools' };
    else if (r.status >= 400) error = { status: r.status, message: r.message ?? defaultMessage(r.status), type: r.errorType, code: r.code };
    if (error) {
      entry.outcome = 'error';
      return sendJson(res, error.status, provider.errorBody({ ...error, retryAfter: r.retryAfter }), headers);
    }

    const toolCalls = r.toolCalls.map((t) => ({ ...t, id: t.id ?? provider.newToolId() }));
    const reply = { ...r, toolCalls };
    const ctx = {
      id: provider.newResponseId(),
      created: Math.floor(Date.now() / 1000),
      model: r.model ?? model,
      usage: usageFor(reply, provider.promptOf(body)),
      includeUsage: body?.stream_options?.include_usage === true,
      sse: rt.query?.get('alt') === 'sse',
    };

    if (entry.stream) {
      const events = r.malformed ? provider.malformedEvents(ctx) : provider.streamEvents(reply, ctx);
      const onCut = () => { entry.outcome = 'cut'; };
      const outcome = await writeEvents(res, events, {
        contentType: provider.streamContentType(ctx), chunkDelayMs: r.chunkDelayMs, cutAfterChunks: r.cutAfterChunks, isGone, onCut,
      });
      entry.outcome = r.malformed && outcome === 'done' ? 'malformed' : outcome;
      return;
    }
    if (r.malformed) {
      entry.outcome = 'malformed';
      return sendJson(res, 200, provider.malformedBody(ctx), headers);
    }
    if (r.cutAfterChunks != null) {
      entry.outcome = 'cut';
      return writeCutBody(res, JSON.stringify(provider.response(reply, ctx)), JSON_TYPE);
    }
    entry.outcome = 'done';
    sendJson(res, 200, provider.response(reply, ctx), headers);
  }

  async function handle(req, res) {
    cors(req, res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      return res.end();
    }
    const url = new URL(req.url, 'http://localhost');
    const path = url.pathname;
    const { raw, body } = await readBody(req);
    if (path.startsWith('/__')) return control(req, res, path, body);

    const rt = route(req.method, path, req.headers);
    const entry = {
      provider: rt?.provider.name ?? 'unknown',
      path,
      method: req.method,
      headers: { ...req.headers },
      body,
      stream: rt && !rt.list ? Boolean(rt.provider.isStream(body, rt)) : false,
      time: Date.now(),
      query: Object.fromEntries(url.searchParams),
      aborted: false,
    };
    // Lets Stop-button tests assert that the client really hung up mid-response.
    res.on('close', () => { if (!res.writableFinished && entry.outcome !== 'cut') entry.aborted = true; });
    record(entry);

    if (!rt) return sendJson(res, 404, { error: { message: `llm-server: no route for ${req.method} ${path}` } });
    if (rt.list) return sendJson(res, 200, rt.provider.modelsList());
    return generate(req, res, rt.provider, { ...rt, query: url.searchParams }, entry, raw);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `llm-server crashed: ${err?.stack ?? err}` } });
      else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const actualPort = server.address().port;

  function reset() {
    script.reset();
    log = [];
  }

  return {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    script: (...replies) => script.add(...replies),
    setDefault: (reply) => script.setDefault(reply),
    requests: () => [...log],
    lastRequest: () => log.at(-1),
    pending: () => script.pending(),
    waitForRequests(count = 1, { timeoutMs = 5000 } = {}) {
      return new Promise((resolve, reject) => {
        const w = { check: () => log.length >= count && (clearTimeout(w.timer), resolve([...log]), true) };
        if (w.check()) return;
        w.timer = setTimeout(() => {
          waiters = waiters.filter((x) => x !== w);
          reject(new Error(`llm-server: expected ${count} request(s), got ${log.length} after ${timeoutMs}ms`));
        }, timeoutMs);
        waiters.push(w);
      });
    },
    reset,
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : 8787;
  const llm = await startLlmServer({ port });
  console.log(`llm-server listening on ${llm.url}`);
  const stop = async () => { await llm.close(); process.exit(0); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
