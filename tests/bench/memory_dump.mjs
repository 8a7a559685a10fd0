// Chrome's memory-infra dump, read through a CDP session (a page's or the browser's).

/** A detailed memory dump of every process, as {pid: {allocator: bytes}}; the session is detached after. */
export async function allocatorDump(cdp) {
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["disabled-by-default-memory-infra"], memoryDumpConfig: { triggers: [] } }, transferMode: "ReportEvents" });
  await cdp.send("Tracing.requestMemoryDump", { levelOfDetail: "detailed" });
  await cdp.send("Tracing.end");
  await done;
  await cdp.detach();
  const out = {};
  for (const e of events) {
    if (e.ph !== "v") continue;
    const p = (out[e.pid] ??= {});
    for (const [k, v] of Object.entries(e.args?.dumps?.allocators ?? {})) {
      const s = v.attrs?.size?.value ?? v.attrs?.effective_size?.value;
      if (s) p[k] = parseInt(s, 16);
    }
  }
  return out;
}
