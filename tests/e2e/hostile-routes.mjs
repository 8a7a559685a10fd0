// Generated pages and sheets for the hostile-page tests, served under /__gen/ by the fixture
// server: thousands of rules, huge or mistyped imports, import cycles, pages that mutate
// constantly or override the DOM's built-ins in their own world.
const css = "text/css; charset=utf-8";

function page(url, port) {
  const q = url.searchParams;
  const other = `http://localhost:${port}`;
  const links = (q.get("sheets") || "").split(",").filter(Boolean).map((s) => `<link rel="stylesheet" href="${s.replace("OTHER", other)}">`).join("\n");
  const scripts = ["mutate", "override"].filter((k) => q.has(k)).map((k) => `<script src="/__gen/${k}.js"></script>`).join("\n");
  const rows = Array.from({ length: 40 }, (_, i) => `<p class="r${i}">Paragraph ${i} of a page that fights back.</p>`).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile: ${q.get("title") || "page"}</title>\n${links}\n${scripts}</head>
<body style="background:#fff;color:#222"><h1>A hostile page</h1><button id="go">Go</button><div id="churn"></div>\n${rows}</body></html>`;
}

const scripts = {
  // 1,000 DOM mutations a second, for as long as the page lives.
  mutate: `setInterval(() => { const c = document.getElementById("churn"); if (!c) return; for (let i = 0; i < 4; i++) { const d = document.createElement("div"); d.textContent = Math.random(); d.style.color = "#" + Math.floor(Math.random() * 4095).toString(16); c.append(d); if (c.childElementCount > 50) c.firstElementChild.remove(); } }, 4);`,
  // The page's own world replaces what a naive extension would call.
  override: `(() => { const broken = () => { throw new Error("hostile"); };
    Element.prototype.querySelectorAll = broken; Element.prototype.getBoundingClientRect = broken; Document.prototype.querySelectorAll = broken;
    window.getComputedStyle = broken; window.MutationObserver = function () { throw new Error("hostile"); };
    JSON.parse = broken; JSON.stringify = broken; })();`,
};

/** Answers a /__gen/ request; returns false when the path is not one of ours. */
export function generated(url, res, port) {
  const path = url.pathname.slice("/__gen/".length);
  if (path === "page.html") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(url, port)), true;
  if (path === "mutate.js" || path === "override.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(scripts[path.slice(0, -3)]), true;
  if (path === "rules.css") {
    const n = Number(url.searchParams.get("n") || 20000);
    const hex = (i) => (i * 2654435761 % 16777216).toString(16).padStart(6, "0");
    return res.writeHead(200, { "content-type": css }).end(Array.from({ length: n }, (_, i) => `.r${i % 40} .c${i}, p.r${i % 40}:nth-child(${i}n) { color: #${hex(i)}; background: #${hex(i + 7)}; }`).join("\n")), true;
  }
  if (path === "cycle-a.css") return res.writeHead(200, { "content-type": css }).end(`@import url("OTHER_B"); p { color: #333 }`.replace("OTHER_B", `http://localhost:${port}/__gen/cycle-b.css`)), true;
  if (path === "cycle-b.css") return res.writeHead(200, { "content-type": css }).end(`@import url("http://localhost:${port}/__gen/cycle-a.css"); h1 { color: #111 }`), true;
  if (path === "imports.css") {
    const what = url.searchParams.get("what");
    return res.writeHead(200, { "content-type": css }).end(`@import url("http://localhost:${port}/${what}"); body { background: #fafafa }`), true;
  }
  if (path === "notcss") return res.writeHead(200, { "content-type": "text/html" }).end("<html><body>not a stylesheet { color: red }</body></html>"), true;
  if (path === "big.css") {
    const mb = Number(url.searchParams.get("mb") || 50);
    res.writeHead(200, { "content-type": css });
    const line = "a.big { color: #123456; background: #fedcba }\n".repeat(1024 * 16);
    let sent = 0;
    const more = () => {
      while (sent < mb * 1024 * 1024) {
        sent += line.length;
        if (!res.write(line)) return res.once("drain", more);
      }
      res.end();
    };
    more();
    return true;
  }
  return false;
}
