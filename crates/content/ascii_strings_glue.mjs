// Makes wasm-bindgen's glue decode a short ASCII string from wasm with V8's own
// `String.fromCharCode` instead of `TextDecoder`: a batch passes a few short strings, and the
// first call of a Blink interface in a task costs tens of µs, several times the call itself.
// Longer or non-ASCII strings still go through `TextDecoder`.
// Usage: node ascii_strings_glue.mjs <pkg dir>  (after unshadow_glue.mjs; build.sh)
import fs from "node:fs";

const path = `${process.argv[2]}/dusk_content_bg.js`;
const fail = (why) => {
  console.error(`ascii_strings_glue: ${why}`);
  process.exit(1);
};
let glue = fs.readFileSync(path, "utf8");
const decode = "function decodeText(bytes) {\n";
if (glue.split(decode).length !== 2) fail(`no single decodeText in ${path}: wasm-bindgen's glue changed`);
if (glue.includes("__asciiText")) fail(`${path} is rewritten already`);
// fromCharCode takes its arguments on the stack: 1,024 stays far below any engine's limit.
const ascii = `function __asciiText(bytes) {
    if (bytes.length > 1024) return null;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] > 127) return null;
    return String.fromCharCode.apply(null, bytes);
}
`;
glue = glue.replace(decode, `${ascii}${decode}    const short = __asciiText(bytes);\n    if (short !== null) return short;\n`);
fs.writeFileSync(path, glue);
