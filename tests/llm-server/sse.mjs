// Writes pre-rendered stream events with pacing, client-abort detection and deliberate cuts.
import { sleep } from './reply.mjs';

const write = (res, raw) => new Promise((resolve) => res.write(raw, () => resolve()));

// events: [{ raw, delta?, terminal? }]; only delta events count towards cutAfterChunks and get chunkDelayMs.
export async function writeEvents(res, events, { contentType, chunkDelayMs = 0, cutAfterChunks, isGone, onCut = () => {} }) {
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  let deltas = 0;
  for (const ev of events) {
    if (isGone()) return 'aborted';
    if (cutAfterChunks != null && deltas >= cutAfterChunks && (ev.delta || ev.terminal || deltas > 0)) {
      onCut();
      res.destroy();
      return 'cut';
    }
    if (ev.delta && deltas > 0 && chunkDelayMs > 0) {
      await sleep(chunkDelayMs);
      if (isGone()) return 'aborted';
    }
    await write(res, ev.raw);
    if (ev.delta) deltas++;
  }
  res.end();
  return 'done';
}

// Non-streaming cut: half a body, then the socket goes away.
export async function writeCutBody(res, text, contentType) {
  res.writeHead(200, { 'content-type': contentType });
  await write(res, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
  res.destroy();
}
