// Serves tests/fixtures (or one folder of it, as an origin's root) on 127.0.0.1. `?csp=strict` adds
// the CSP that blocks WebAssembly in content scripts, `?delay=ms` answers late, and paths under
// /__hang/ never get an answer.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generated } from "./hostile-routes.mjs";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");
const types = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json" };
const policies = { strict: "default-src 'none'; script-src 'self'", wasm: "script-src 'self'" };

export async function startFixtureServer(folder = "") {
  const root = path.join(fixtures, folder);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    // A server that never answers, for timeouts (the socket closes with the server).
    if (url.pathname.startsWith("/__hang/")) return;
    if (url.pathname.startsWith("/__gen/") && generated(url, res, server.address().port)) return;
    const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ""));
    try {
      const body = await readFile(file);
      const headers = { "content-type": types[path.extname(file)] || "application/octet-stream" };
      const csp = policies[url.searchParams.get("csp")];
      if (csp) headers["content-security-policy"] = csp;
      const delay = Number(url.searchParams.get("delay")) || 0;
      if (delay) await new Promise((r) => setTimeout(r, Math.min(delay, 5000)));
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, close: () => { server.closeAllConnections(); return new Promise((r) => server.close(r)); } };
}
