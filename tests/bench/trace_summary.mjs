// Where a page's main-thread time goes, from a Chrome trace (devtools.timeline): style
// recalculations and the elements they restyled, layouts, the ones script forced, and script by
// whose it was (an extension's by its chrome-extension:// URL).
const SCRIPT = new Set(["FunctionCall", "EvaluateScript", "TimerFire", "FireAnimationFrame", "RunMicrotasks", "EventDispatch", "v8.callFunction", "V8.Execute", "FireIdleCallback"]);

/** `events`: the trace's traceEvents. */
export function summarise(events) {
  const names = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
  const threads = new Map();
  for (const e of events) {
    if (e.ph !== "X" || names.get(`${e.pid}:${e.tid}`) !== "CrRendererMain") continue;
    const k = `${e.pid}:${e.tid}`;
    if (!threads.has(k)) threads.set(k, []);
    threads.get(k).push(e);
  }
  // The page's main thread: the one that recalculated style most.
  const main = [...threads.values()].sort((a, b) => b.filter((e) => e.name === "UpdateLayoutTree").length - a.filter((e) => e.name === "UpdateLayoutTree").length)[0] ?? [];
  main.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const out = { styleMs: 0, styleN: 0, restyled: 0, forcedStyleMs: 0, forcedStyleN: 0, layoutMs: 0, layoutN: 0, forcedLayoutMs: 0, forcedLayoutN: 0, extensionScriptMs: 0, observerMs: 0, frameCallbackMs: 0 };
  const stack = [];
  for (const e of main) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const inScript = stack.some((s) => SCRIPT.has(s.name));
    const ms = (e.dur ?? 0) / 1000;
    if (e.name === "UpdateLayoutTree") {
      out.styleMs += ms;
      out.styleN++;
      out.restyled += e.args?.elementCount ?? e.args?.data?.elementCount ?? 0;
      if (inScript) { out.forcedStyleMs += ms; out.forcedStyleN++; }
    } else if (e.name === "Layout") {
      out.layoutMs += ms;
      out.layoutN++;
      if (inScript) { out.forcedLayoutMs += ms; out.forcedLayoutN++; }
    } else if (SCRIPT.has(e.name) && !stack.some((s) => SCRIPT.has(s.name))) {
      const url = e.args?.data?.url ?? e.args?.data?.stackTrace?.[0]?.url ?? "";
      if (url.startsWith("chrome-extension://")) out.extensionScriptMs += ms;
      if (e.name === "RunMicrotasks") out.observerMs += ms;
      if (e.name === "FireAnimationFrame") out.frameCallbackMs += ms;
    }
    stack.push(e);
  }
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] * 10) / 10;
  return out;
}
