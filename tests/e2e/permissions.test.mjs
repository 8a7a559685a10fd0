// Permissions: the manifest asks at install for exactly what the README's permissions table says,
// and Chrome's install prompt shows exactly the lines that table names.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../../dist/manifest.json", import.meta.url), "utf8"));
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The README's permissions table: one row per permission, its cells by column name. */
function documented() {
  const start = readme.indexOf("\n## Privacy and permissions\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const lines = section.split("\n").filter((l) => l.startsWith("|"));
  const head = lines[0].split("|").slice(1, -1).map((c) => c.trim());
  return lines.slice(2).map((l) => {
    const cells = l.split("|").slice(1, -1).map((c) => c.trim());
    const row = Object.fromEntries(head.map((h, i) => [h, cells[i]]));
    const name = row.permission.match(/`([^`]+)`/)[1];
    return { ...row, name, host: row.permission.startsWith("host") };
  });
}

/** What chrome://extensions reports of Dusk's permissions: the lines of its install prompt. */
async function promptLines(env) {
  const page = await env.ctx.newPage();
  await page.goto("chrome://extensions/");
  const info = await page.evaluate((id) => chrome.developerPrivate.getExtensionInfo(id), env.extId);
  await page.close();
  const lines = info.permissions.simplePermissions.map((p) => p.message);
  // Host access the user can limit is listed apart; on the install prompt it is this line.
  if (info.permissions.runtimeHostPermissions?.hasAllHosts) lines.push("Read and change all your data on all websites");
  return [...new Set(lines)].sort();
}

export const tests = [
  ["the manifest's install-time permissions are exactly the README's", async () => {
    const rows = documented();
    assert.ok(rows.length >= 8, `read ${rows.length} rows from the README's table`);
    const atInstall = (host) => rows.filter((r) => r.host === host && r.asked.startsWith("at install")).map((r) => r.name).sort();
    const later = rows.filter((r) => r.asked.startsWith("when first needed")).map((r) => r.name).sort();
    assert.deepEqual([...manifest.permissions].sort(), atInstall(false));
    assert.deepEqual([...(manifest.host_permissions ?? [])].sort(), atInstall(true));
    assert.deepEqual([...(manifest.optional_permissions ?? []), ...(manifest.optional_host_permissions ?? [])].sort(), later);
    for (const r of rows) assert.ok(r["what uses it"] && r["what you lose by refusing it"], `row ${r.name} says what uses it and what refusing costs`);
  }],

  ["Chrome's install prompt shows exactly the lines the README names, one per permission that has one", async (env) => {
    const named = documented().map((r) => r["line in Chrome's install prompt"].match(/^"([^"]+)"/)?.[1]).filter(Boolean).sort();
    assert.deepEqual(await promptLines(env), named);
  }],

  ["declarativeNetRequestWithHostAccess is granted and usable without a prompt of its own", async (env) => {
    const page = await env.extPage();
    const got = await page.evaluate(async () => {
      const granted = await chrome.permissions.contains({ permissions: ["declarativeNetRequestWithHostAccess"] });
      // A session rule set and cleared again, as the agent's network boundary will.
      await chrome.declarativeNetRequest.updateSessionRules({ addRules: [{ id: 4701, priority: 1, action: { type: "block" }, condition: { urlFilter: "|http://127.0.0.1:1/never", resourceTypes: ["xmlhttprequest"] } }] });
      const rules = (await chrome.declarativeNetRequest.getSessionRules()).map((r) => r.id);
      await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [4701] });
      return { granted, rules };
    });
    assert.equal(got.granted, true);
    assert.ok(got.rules.includes(4701), JSON.stringify(got.rules));
  }],
];
