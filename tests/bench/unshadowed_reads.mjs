// Benchmark (not a test): what one DOM read costs through extension/unshadowed.js against the
// plain property read it replaces, on a corpus page (python stdtypes: ~11,000 elements) and on a
// form whose fields shadow its members. Each figure is ns per read, median of 7 passes over every
// element. Run: node tests/bench/unshadowed_reads.mjs
import { readFileSync } from "node:fs";
import { launch } from "../e2e/env.mjs";

const helper = readFileSync(new URL("../../extension/unshadowed.js", import.meta.url), "utf8").replace(/^export /gm, "");
const env = await launch();
const page = await env.open(`${env.base}/corpus/python-docs/python3.11-doc/html/library/stdtypes.html`);
await page.waitForLoadState("load");
const rows = await page.evaluate((helper) => {
  const { read, call } = new Function(`${helper}; return { read, call };`)();
  const all = [...document.querySelectorAll("*")];
  const form = document.body.appendChild(document.createElement("form"));
  form.innerHTML = '<input name="id"><input name="parentElement"><input name="getAttribute">';
  const forms = Array.from({ length: all.length }, () => form);
  const time = (els, f) => {
    const runs = [];
    for (let k = 0; k < 7; k++) {
      let sink = 0;
      const t0 = performance.now();
      for (let i = 0; i < els.length; i++) sink += f(els[i]) ? 1 : 0;
      runs.push(((performance.now() - t0) * 1e6) / els.length + sink * 0);
    }
    return runs.sort((a, b) => a - b)[3];
  };
  return [
    ["parentElement, every element", time(all, (e) => e.parentElement), time(all, (e) => read(e, "parentElement"))],
    ["id, every element", time(all, (e) => e.id), time(all, (e) => read(e, "id"))],
    ["getAttribute('class'), every element", time(all, (e) => e.getAttribute("class")), time(all, (e) => call(e, "getAttribute", "class"))],
    ["parentElement, a shadowing form", time(forms, (e) => e.parentElement), time(forms, (e) => read(e, "parentElement"))],
    ["getAttribute('class'), a shadowing form", null, time(forms, (e) => call(e, "getAttribute", "class"))],
    ["document.body", time(all, () => document.body), time(all, () => read(document, "body"))],
    [`(${all.length} elements)`, null, null],
  ];
}, helper);
await env.close();
console.log("ns per read: plain | through unshadowed.js");
for (const [name, plain, safe] of rows) console.log(`  ${name.padEnd(40)} ${plain === null ? "   —" : plain.toFixed(1).padStart(6)} | ${safe === null ? "" : safe.toFixed(1).padStart(6)}`);
