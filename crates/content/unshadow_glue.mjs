// Makes wasm-bindgen's glue read the DOM through extension/unshadowed.js: every
// `getObject(argN).member` the web-sys bindings do (a read, or a method's lookup) becomes
// `__unshadowed(getObject(argN), "member")`, so a form's named field or a document's named element can
// no longer stand in for the member. Writes (`… = value`) are left as they are.
// Usage: node unshadow_glue.mjs <pkg dir>  (after short_imports.mjs; build.sh)
import fs from "node:fs";

const path = `${process.argv[2]}/dusk_content_bg.js`;
const fail = (why) => {
  console.error(`unshadow_glue: ${why}`);
  process.exit(1);
};
let glue = fs.readFileSync(path, "utf8");
if (glue.includes("__unshadowed")) fail(`${path} is rewritten already`);
let calls = 0, reads = 0;
// A method call: the receiver once more as `this`.
glue = glue.replace(/getObject\((arg\d+)\)\.([A-Za-z_$][\w$]*)\(/g, (_, arg, name) => {
  calls++;
  return `__unshadowed(getObject(${arg}), "${name}").call(getObject(${arg}), `;
});
// A read that is not an assignment.
glue = glue.replace(/getObject\((arg\d+)\)\.([A-Za-z_$][\w$]*)(?!\s*=[^=])(?![\w$])/g, (_, arg, name) => {
  reads++;
  return `__unshadowed(getObject(${arg}), "${name}")`;
});
if (calls < 20 || reads < 20) fail(`only ${calls} method calls and ${reads} reads rewritten: wasm-bindgen's glue changed`);
if (/getObject\(arg\d+\)\.[A-Za-z_$][\w$]*\s*\(/.test(glue)) fail("a method call was left as it was");
fs.writeFileSync(path, `import { read as __unshadowed } from "dusk-unshadowed";\n${glue}`);
console.log(`unshadow_glue: ${calls} method calls and ${reads} reads in ${path}`);
