// Reply normalisation and helpers shared by every wire format.
import { randomBytes } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomId(prefix, len = 24) {
  const bytes = randomBytes(len);
  let s = '';
  for (const b of bytes) s += ALNUM[b % ALNUM.length];
  return prefix + s;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Split by code points so emoji never break into invalid halves.
export function splitText(text, parts = 3) {
  const chars = Array.from(text ?? '');
  if (chars.length === 0) return [];
  const size = Math.ceil(chars.length / Math.min(parts, chars.length));
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function safeParse(s) {
  try { return JSON.parse(s); } catch { return {}; }
}

// Accepts the loose shapes tests write and returns one canonical reply.
export function normalizeReply(input) {
  const r = typeof input === 'string' ? { text: input } : { ...(input ?? {}) };
  const toolCalls = (r.toolCalls ?? []).map((t) => {
    const args = t.args ?? t.arguments ?? t.input ?? {};
    // A string is passed through verbatim so tests can send deliberately invalid arguments.
    const argsJson = typeof args === 'string' ? args : JSON.stringify(args);
    return { id: t.id, name: t.name, args: typeof args === 'string' ? safeParse(args) : args, argsJson };
  });
  let text = r.text ?? (Array.isArray(r.chunks) ? r.chunks.join('') : undefined);
  if (text === undefined) text = toolCalls.length ? '' : 'OK';
  const chunks = Array.isArray(r.chunks) ? r.chunks.map(String) : splitText(text);
  return { ...r, text: String(text), chunks, toolCalls };
}

export function estimateTokens(value) {
  const s = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.max(1, Math.ceil(s.length / 4));
}

export function usageFor(r, promptValue) {
  const input = r.usage?.input ?? estimateTokens(promptValue);
  const output = r.usage?.output
    ?? estimateTokens(r.text + r.toolCalls.map((t) => t.name + t.argsJson).join(''));
  return { input, output, total: input + output };
}

const STATUS_MESSAGES = {
  400: 'Bad request',
  401: 'Invalid API key',
  403: 'Permission denied',
  404: 'Model not found',
  408: 'Request timed out',
  413: 'Request too large',
  429: 'Rate limit exceeded, please retry later',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  529: 'Overloaded',
};

export function defaultMessage(status) {
  return STATUS_MESSAGES[status] ?? `HTTP ${status}`;
}

export const nonEmpty = (a) => Array.isArray(a) && a.length > 0;
