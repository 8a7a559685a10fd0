// Benchmark part (not a test): the least a dark theme that mirrors each rule the page adds must do
// from an isolated world, written plainly, for busy_pages.mjs's FLOOR arm. Per change: the
// observer's callback notes added elements; one microtask batch finds the sheets that gained rules,
// reads the new rules' text, writes each one's override with fixed dark colours (no colour
// mapping) and adopts them in a sheet of their own (sixteen such sheets are folded into one).
// mode "all": every sheet's rule count, switch and media are read each batch, as nothing reports an
// `insertRule`; mode "known": only the sheets the records name, those of empty <style>s (where
// CSS-in-JS inserts) and those that grew before are read, as a hook in the page's world reporting
// every CSSOM change for free would allow.
export function floorScript(mode) {
  return `(${floor})(${JSON.stringify(mode)})`;
}

function floor(mode) {
  const counts = new WeakMap(), grown = new Set(), added = [], named = new Set();
  let ours = [], queued = false, loaded = false, styled = 0;
  addEventListener("load", () => { loaded = true; });
  const override = (text) => {
    const open = text.indexOf("{");
    return open < 0 || text[0] === "@" ? "" : `${text.slice(0, open)}{background-color:#1e1e1e!important;color:#ddd!important;border-color:#444!important}\n`;
  };
  const readNew = (sheet) => {
    let rules;
    try { rules = sheet.cssRules; } catch { return ""; }
    const n = rules.length, from = counts.get(sheet) ?? 0;
    // A sheet of an empty <style> (or a constructed one) is where CSS-in-JS inserts its rules.
    if (!counts.has(sheet) && !(sheet.ownerNode && sheet.ownerNode.firstChild)) grown.add(sheet);
    if (sheet.disabled || sheet.media.length) return "";
    let css = "";
    if (n !== from) {
      for (let i = from; i < n; i++) css += override(rules[i].cssText);
      counts.set(sheet, n);
      if (from) grown.add(sheet);
    }
    return css;
  };
  const batch = () => {
    queued = false;
    let css = "";
    // An added element's own colours would be read here; the least is asking whether it has any.
    for (const el of added.splice(0)) styled += el.hasAttribute("style") ? 1 : 0;
    if (mode === "all" || !loaded) {
      const list = document.styleSheets;
      for (let i = 0; i < list.length; i++) css += readNew(list[i]);
    } else {
      for (const s of named) css += readNew(s);
      for (const s of grown) css += readNew(s);
    }
    named.clear();
    if (!css) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    if (ours.length === 16) {
      const fold = new CSSStyleSheet();
      fold.replaceSync(ours.map((s) => [...s.cssRules].map((r) => r.cssText).join("\n")).join("\n"));
      const keep = document.adoptedStyleSheets.filter((s) => !ours.includes(s));
      ours = [fold];
      document.adoptedStyleSheets = [...keep, fold, sheet];
    } else document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    ours.push(sheet);
  };
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        added.push(n);
        if (n.nodeName === "STYLE" && n.sheet) named.add(n.sheet);
      }
      if (r.target.nodeName === "STYLE" && r.target.sheet) named.add(r.target.sheet);
    }
    if (!queued) { queued = true; queueMicrotask(batch); }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["style", "bgcolor", "color", "media"] });
}
