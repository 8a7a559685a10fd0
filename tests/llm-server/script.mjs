// Reply queue plus persistent match rules; rules win so background requests can't eat queued replies.
const INITIAL_DEFAULT = Object.freeze({ text: 'OK' });

const isRule = (x) => x && typeof x === 'object' && !Array.isArray(x) && 'match' in x && 'reply' in x;

// Every string in the body, so matches ignore JSON escaping of quotes, newlines and unicode.
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

function found(needle, haystacks) {
  if (needle instanceof RegExp) return haystacks.some((h) => needle.test(h));
  return haystacks.some((h) => h.includes(String(needle)));
}

function matches(match, req) {
  if (match.provider && ![].concat(match.provider).includes(req.provider)) return false;
  if (match.model && !found(match.model, [req.model ?? ''])) return false;
  if (match.contains !== undefined && !found(match.contains, [req.raw ?? '', ...strings(req.body)])) return false;
  if (match.last !== undefined && !found(match.last, strings(req.last))) return false;
  if (match.hasTools !== undefined && Boolean(match.hasTools) !== req.hasTools) return false;
  return true;
}

// A reply may be a function of the request; what it returns is used like a static reply, and
// what it throws comes back as a 500 whose message is the exception's text.
function resolve(reply, req) {
  if (typeof reply !== 'function') return reply;
  try {
    const out = reply(req);
    if (out && typeof out.then === 'function') throw new Error('a reply function must return its reply, not a promise');
    return out;
  } catch (err) {
    return { status: 500, message: String(err?.message ?? err) };
  }
}

export function createScript() {
  let queue = [];
  let rules = [];
  let fallback = INITIAL_DEFAULT;
  return {
    add(...items) {
      for (const item of items.flat()) {
        if (isRule(item)) rules.push({ match: item.match ?? {}, reply: item.reply, times: item.times ?? Infinity, used: 0 });
        else queue.push(item);
      }
    },
    setDefault(reply) { fallback = reply ?? INITIAL_DEFAULT; },
    next(req) {
      for (const rule of rules) {
        if (rule.used < rule.times && matches(rule.match, req)) {
          rule.used++;
          return { reply: resolve(rule.reply, req), source: 'rule' };
        }
      }
      if (queue.length) return { reply: resolve(queue.shift(), req), source: 'queue' };
      return { reply: resolve(fallback, req), source: 'default' };
    },
    pending() { return queue.length; },
    reset() { queue = []; rules = []; fallback = INITIAL_DEFAULT; },
  };
}
