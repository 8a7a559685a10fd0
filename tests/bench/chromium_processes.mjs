// The memory benches' view of one Chromium: its processes by kind with their PSS and USS, read
// from /proc, and a garbage collection of Dusk's service worker before a reading.
import { readFileSync, readdirSync } from "node:fs";

/** PSS and USS of one process, MB. PSS shares Chromium's own code among every process mapping it
 * (other browsers' too), so the private part (USS) is kept beside it: it moves only with what the
 * process itself holds. */
export function rollupOf(pid) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (k) => Number(rollup.match(new RegExp(`^${k}:\\s+(\\d+)`, "m"))?.[1] ?? 0);
  return { pss: kb("Pss") / 1024, uss: (kb("Private_Clean") + kb("Private_Dirty")) / 1024 };
}

/** The browser started with `profile` and its descendants: pid, kind (browser, extension, tab,
 * gpu-process, utility:<sub-type>, …), PSS and USS. */
export function processesOf(profile) {
  const all = readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map((pid) => {
    try {
      // Zygote children rewrite their command line into one space-separated string.
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/\0| (?=--)/);
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      return { pid: Number(pid), ppid, cmd };
    } catch { return null; }
  }).filter(Boolean);
  const browser = all.find((p) => p.cmd.some((a) => a === `--user-data-dir=${profile}`) && !p.cmd.some((a) => a.startsWith("--type=")));
  if (!browser) return [];
  const mine = new Set([browser.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  return all.filter((p) => mine.has(p.pid)).map((p) => {
    const arg = (k) => p.cmd.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3) ?? "";
    let memory = { pss: 0, uss: 0 };
    try { memory = rollupOf(p.pid); } catch {}
    const type = arg("type") || "browser";
    const kind = type === "renderer" ? (p.cmd.includes("--extension-process") ? "extension" : "tab") : type === "utility" ? `utility:${arg("utility-sub-type")}` : type;
    return { pid: p.pid, kind, ...memory };
  });
}

/** The extension process's pid (the renderer of Dusk's worker and pages). */
export function extensionPid(profile) {
  return processesOf(profile).find((p) => p.kind === "extension")?.pid;
}

/** Garbage-collects the service worker (as the tabs are) and says whether it is running. */
export async function gcWorker(env) {
  const cdp = await env.ctx.browser().newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send("Target.getTargets");
    const sw = targetInfos.find((t) => t.type === "service_worker" && t.url === env.extUrl("worker.js"));
    if (!sw) return false;
    const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: sw.targetId, flatten: false });
    const done = new Promise((r) => cdp.on("Target.receivedMessageFromTarget", (e) => e.sessionId === sessionId && JSON.parse(e.message).id === 1 && r(true)));
    await cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" }) });
    await Promise.race([done, new Promise((r) => setTimeout(r, 3000))]);
    await cdp.send("Target.detachFromTarget", { sessionId }).catch(() => {});
    return true;
  } finally {
    await cdp.detach();
  }
}
