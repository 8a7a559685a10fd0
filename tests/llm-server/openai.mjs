// OpenAI Chat Completions wire format (also used by OpenAI-compatible servers such as Ollama).
import { nonEmpty, randomId, splitText } from './reply.mjs';

export const name = 'openai';
export const streamContentType = () => 'text/event-stream; charset=utf-8';
export const isStream = (body) => body?.stream === true;
export const hasTools = (body) => nonEmpty(body?.tools) || nonEmpty(body?.functions);
export const modelOf = (body) => body?.model ?? 'gpt-4o-mini';
export const lastOf = (body) => (Array.isArray(body?.messages) ? body.messages.at(-1) : undefined);
export const promptOf = (body) => body?.messages ?? body;
export const newToolId = () => randomId('call_');
export const newResponseId = () => randomId('chatcmpl-', 29);
export const toolsUnsupported = (model) => `${model} does not support tools (function calling is not supported for this model)`;

const ERRORS = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
};

export function errorBody({ status, message, type, code, param }) {
  const [t, c] = ERRORS[status] ?? (status >= 500 ? ['server_error', null] : ['invalid_request_error', null]);
  return { error: { message, type: type ?? t, param: param ?? null, code: code ?? c } };
}

function finishReason(r) {
  if (r.finish === 'length') return 'length';
  return r.toolCalls.length ? 'tool_calls' : 'stop';
}

const usageBody = (u) => ({ prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.total });

export function response(r, ctx) {
  const message = { role: 'assistant', content: r.text || (r.toolCalls.length ? null : ''), refusal: null };
  if (r.toolCalls.length) {
    message.tool_calls = r.toolCalls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.argsJson } }));
  }
  const out = {
    id: ctx.id, object: 'chat.completion', created: ctx.created, model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(r) }],
  };
  if (!r.omitUsage) out.usage = usageBody(ctx.usage);
  return out;
}

const frame = (data) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

function chunkFactory(ctx) {
  // Real OpenAI adds usage:null to every chunk once include_usage is on.
  const extra = ctx.includeUsage ? { usage: null } : {};
  return (delta, finish_reason = null) => ({
    id: ctx.id, object: 'chat.completion.chunk', created: ctx.created, model: ctx.model, system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason }], ...extra,
  });
}

export function streamEvents(r, ctx) {
  const chunk = chunkFactory(ctx);
  const events = [{ raw: frame(chunk({ role: 'assistant', content: '', refusal: null })) }];
  for (const c of r.chunks) events.push({ raw: frame(chunk({ content: c })), delta: true });
  r.toolCalls.forEach((t, index) => {
    events.push({ raw: frame(chunk({ tool_calls: [{ index, id: t.id, type: 'function', function: { name: t.name, arguments: '' } }] })), delta: true });
    for (const part of splitText(t.argsJson)) {
      events.push({ raw: frame(chunk({ tool_calls: [{ index, function: { arguments: part } }] })), delta: true });
    }
  });
  events.push({ raw: frame(chunk({}, finishReason(r))), terminal: true });
  if (ctx.includeUsage && !r.omitUsage) {
    events.push({ raw: frame({ id: ctx.id, object: 'chat.completion.chunk', created: ctx.created, model: ctx.model, system_fingerprint: null, choices: [], usage: usageBody(ctx.usage) }), terminal: true });
  }
  events.push({ raw: frame('[DONE]'), terminal: true });
  return events;
}

export function malformedEvents(ctx) {
  const chunk = chunkFactory(ctx);
  return [
    { raw: frame(chunk({ role: 'assistant', content: '' })) },
    { raw: `data: {"id":"${ctx.id}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel\n\n`, delta: true },
    { raw: frame('[DONE]'), terminal: true },
  ];
}

export const malformedBody = (ctx) => `{"id":"${ctx.id}","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hel`;

export function modelsList() {
  const ids = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'o4-mini'];
  return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1715367049, owned_by: 'system' })) };
}
