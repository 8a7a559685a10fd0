// Gemini generateContent wire format (SSE with alt=sse, otherwise a streamed JSON array).
import { nonEmpty, randomId } from './reply.mjs';

export const name = 'gemini';
export const streamContentType = (ctx) => (ctx.sse ? 'text/event-stream' : 'application/json; charset=UTF-8');
export const isStream = (body, route) => route.stream;
export const hasTools = (body) => nonEmpty(body?.tools);
export const modelOf = (body, route) => route.model;
export const lastOf = (body) => (Array.isArray(body?.contents) ? body.contents.at(-1) : undefined);
export const promptOf = (body) => ({ system: body?.systemInstruction, contents: body?.contents ?? body });
export const newToolId = () => undefined;
export const newResponseId = () => randomId('', 22);
export const toolsUnsupported = (model) => `Function calling is not enabled for models/${model}`;

const STATUSES = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function errorBody({ status, message, type, retryAfter }) {
  const error = { code: status, message, status: type ?? STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT') };
  if (retryAfter != null) error.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` }];
  return { error };
}

const finishReason = (r) => (r.finish === 'length' ? 'MAX_TOKENS' : 'STOP');

const usageBody = (u) => ({ promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.total });

function envelope(ctx, parts, extra = {}) {
  return { candidates: [{ content: { role: 'model', parts }, ...extra, index: 0 }], modelVersion: ctx.model, responseId: ctx.id };
}

export function response(r, ctx) {
  const parts = [];
  if (r.text !== '' || r.toolCalls.length === 0) parts.push({ text: r.text });
  for (const t of r.toolCalls) parts.push({ functionCall: { name: t.name, args: t.args } });
  const out = envelope(ctx, parts, { finishReason: finishReason(r) });
  if (!r.omitUsage) out.usageMetadata = usageBody(ctx.usage);
  return out;
}

// SSE frames use CRLF like the real endpoint; the array form mimics its pretty-printed JSON stream.
function render(ctx, items) {
  if (ctx.sse) {
    return items.map(({ data, ...flags }) => ({ raw: `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\r\n\r\n`, ...flags }));
  }
  const out = items.map(({ data, ...flags }, i) => ({ raw: (i === 0 ? '[' : ',\r\n') + (typeof data === 'string' ? data : JSON.stringify(data)), ...flags }));
  out.push({ raw: ']', terminal: true });
  return out;
}

export function streamEvents(r, ctx) {
  const items = r.chunks.map((c) => ({ data: envelope(ctx, [{ text: c }]), delta: true }));
  // Gemini never streams function-call arguments; each call arrives whole.
  for (const t of r.toolCalls) items.push({ data: envelope(ctx, [{ functionCall: { name: t.name, args: t.args } }]), delta: true });
  const last = envelope(ctx, [{ text: '' }], { finishReason: finishReason(r) });
  if (!r.omitUsage) last.usageMetadata = usageBody(ctx.usage);
  items.push({ data: last, terminal: true });
  return render(ctx, items);
}

export function malformedEvents(ctx) {
  const last = envelope(ctx, [{ text: '' }], { finishReason: 'STOP' });
  return render(ctx, [
    { data: `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hel`, delta: true },
    { data: last, terminal: true },
  ]);
}

export const malformedBody = () => `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hel`;

export function modelsList() {
  const ids = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash'];
  return {
    models: ids.map((id) => ({
      name: `models/${id}`, version: '001', displayName: id, inputTokenLimit: 1048576, outputTokenLimit: 8192,
      supportedGenerationMethods: ['generateContent', 'countTokens', 'streamGenerateContent'],
    })),
  };
}
