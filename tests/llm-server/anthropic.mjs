// Anthropic Messages wire format.
import { nonEmpty, randomId, splitText } from './reply.mjs';

export const name = 'anthropic';
export const streamContentType = () => 'text/event-stream; charset=utf-8';
export const isStream = (body) => body?.stream === true;
export const hasTools = (body) => nonEmpty(body?.tools);
export const modelOf = (body) => body?.model ?? 'claude-sonnet-4-5';
export const lastOf = (body) => (Array.isArray(body?.messages) ? body.messages.at(-1) : undefined);
export const promptOf = (body) => ({ system: body?.system, messages: body?.messages ?? body });
export const newToolId = () => randomId('toolu_');
export const newResponseId = () => randomId('msg_');
export const toolsUnsupported = (model) => `tools: tool use is not supported for model ${model}`;

const ERRORS = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export function errorBody({ status, message, type }) {
  return { type: 'error', error: { type: type ?? ERRORS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
}

function stopReason(r) {
  if (r.finish === 'length') return 'max_tokens';
  return r.toolCalls.length ? 'tool_use' : 'end_turn';
}

// A text block only when there is text, unless it would leave content empty.
const wantsTextBlock = (r) => r.text !== '' || r.toolCalls.length === 0;

export function response(r, ctx) {
  const content = [];
  if (wantsTextBlock(r)) content.push({ type: 'text', text: r.text });
  for (const t of r.toolCalls) content.push({ type: 'tool_use', id: t.id, name: t.name, input: t.args });
  const out = {
    id: ctx.id, type: 'message', role: 'assistant', model: ctx.model, content,
    stop_reason: stopReason(r), stop_sequence: null,
  };
  if (!r.omitUsage) out.usage = { input_tokens: ctx.usage.input, output_tokens: ctx.usage.output };
  return out;
}

const frame = (data) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

function messageStart(r, ctx) {
  const message = { id: ctx.id, type: 'message', role: 'assistant', model: ctx.model, content: [], stop_reason: null, stop_sequence: null };
  if (!r.omitUsage) message.usage = { input_tokens: ctx.usage.input, output_tokens: 1 };
  return { raw: frame({ type: 'message_start', message }) };
}

export function streamEvents(r, ctx) {
  const events = [messageStart(r, ctx)];
  let index = 0;
  let pinged = false;
  // Anthropic sends a ping right after the first content_block_start.
  const ping = () => { if (!pinged) { pinged = true; events.push({ raw: frame({ type: 'ping' }) }); } };
  if (wantsTextBlock(r)) {
    events.push({ raw: frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }) });
    ping();
    for (const c of r.chunks) events.push({ raw: frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: c } }), delta: true });
    events.push({ raw: frame({ type: 'content_block_stop', index }) });
    index++;
  }
  for (const t of r.toolCalls) {
    events.push({ raw: frame({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: t.id, name: t.name, input: {} } }) });
    ping();
    for (const part of splitText(t.argsJson)) {
      events.push({ raw: frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }), delta: true });
    }
    events.push({ raw: frame({ type: 'content_block_stop', index }) });
    index++;
  }
  const messageDelta = { type: 'message_delta', delta: { stop_reason: stopReason(r), stop_sequence: null } };
  if (!r.omitUsage) messageDelta.usage = { output_tokens: ctx.usage.output };
  events.push({ raw: frame(messageDelta), terminal: true });
  events.push({ raw: frame({ type: 'message_stop' }), terminal: true });
  return events;
}

export function malformedEvents(ctx) {
  return [
    messageStart({}, ctx),
    { raw: frame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) },
    { raw: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel\n\n', delta: true },
    { raw: frame({ type: 'content_block_stop', index: 0 }), terminal: true },
    { raw: frame({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } }), terminal: true },
    { raw: frame({ type: 'message_stop' }), terminal: true },
  ];
}

export const malformedBody = (ctx) => `{"id":"${ctx.id}","type":"message","role":"assistant","content":[{"type":"text","text":"Hel`;

export function modelsList() {
  const ids = ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'];
  const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
  return { data, has_more: false, first_id: ids[0], last_id: ids.at(-1) };
}
