// In-page probe for "time until the page stops changing": DOM mutations (exact times) plus the
// computed colours of a spread of elements, sampled continuously (adopted sheets cause no mutations).

/** Installs the probe; `window.__settle()` later resolves to { last, changes } (ms since epoch). */
export function installProbe() {
  const now = () => performance.timeOrigin + performance.now();
  const all = [...document.querySelectorAll("body *")];
  const step = Math.max(1, Math.floor(all.length / 200));
  const sample = [document.documentElement, document.body, ...all.filter((_, i) => i % step === 0)];
  const read = () => sample.map((el) => { const s = getComputedStyle(el); return s.color + s.backgroundColor + s.borderTopColor; }).join();
  let last = 0, changes = 0, prev = read();
  const mark = () => { last = now(); changes++; };
  new MutationObserver((records) => {
    if (records.some((r) => !(r.target instanceof Element && r.target.id === "__probe"))) mark();
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const check = () => { const v = read(); if (v !== prev) { prev = v; mark(); } };
  const channel = new MessageChannel();
  let running = true;
  channel.port1.onmessage = () => { check(); if (running) setTimeout(() => channel.port2.postMessage(0), 1); };
  channel.port2.postMessage(0);
  const raf = () => { check(); if (running) requestAnimationFrame(raf); };
  requestAnimationFrame(raf);
  window.__settle = (quietMs, maxMs) => new Promise((resolve) => {
    const started = now();
    const tick = () => {
      const t = now();
      if ((last && t - last >= quietMs) || t - started > maxMs) { running = false; resolve({ last, changes }); } else setTimeout(tick, 20);
    };
    tick();
  });
}
