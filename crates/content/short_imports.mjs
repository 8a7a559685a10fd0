// Gives a layer's wasm imports short names, in the wasm and in wasm-bindgen's glue alike:
// `"./dusk_content_bg.js" "__wbg_getAttribute_5b1c…"` becomes `"g" "$4"`. The names were ~13 KB
// of the page layer's wasm (a third more as base64) and again as keys in the bundled glue.
// Usage: node short_imports.mjs <pkg dir>  (after wasm-opt, before wasm2js; build.sh)
import fs from "node:fs";

const GLUE_MODULE = "./dusk_content_bg.js";
const SHORT_MODULE = "g"; // extension/engine/wasm.js passes the glue under this name
const dir = process.argv[2];
const wasmPath = `${dir}/dusk_content_bg.wasm`;
const gluePath = `${dir}/dusk_content_bg.js`;
const fail = (why) => {
  console.error(`short_imports: ${why}`);
  process.exit(1);
};

const bytes = fs.readFileSync(wasmPath);
let at = 8;
const uleb = () => {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return value;
};
const name = () => {
  const len = uleb();
  at += len;
  return bytes.subarray(at - len, at).toString("utf8");
};
const writeUleb = (value) => {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return Buffer.from(out);
};
const writeName = (text) => {
  const utf8 = Buffer.from(text, "utf8");
  return Buffer.concat([writeUleb(utf8.length), utf8]);
};
// The import's description, copied as it is: a type index, or a table, memory or global type.
const skipDescription = (kind) => {
  const limits = () => (bytes[at++] & 1 ? (uleb(), uleb()) : uleb());
  if (kind === 0) uleb();
  else if (kind === 1) (at++, limits());
  else if (kind === 2) limits();
  else if (kind === 3) at += 2;
  else fail(`unknown import kind ${kind}`);
};

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const shortName = (index) => {
  let out = "";
  do {
    out = ALPHABET[index % 62] + out;
    index = Math.floor(index / 62);
  } while (index);
  return `$${out}`;
};

const renamed = new Map();
const sections = [];
while (at < bytes.length) {
  const start = at;
  const id = bytes[at++];
  const size = uleb();
  const end = at + size;
  if (id !== 2) {
    sections.push(bytes.subarray(start, end));
    at = end;
    continue;
  }
  const count = uleb();
  const entries = [writeUleb(count)];
  for (let i = 0; i < count; i++) {
    let module = name();
    let field = name();
    const kind = bytes[at++];
    const described = at;
    skipDescription(kind);
    if (module === GLUE_MODULE) {
      if (!renamed.has(field)) renamed.set(field, shortName(renamed.size));
      module = SHORT_MODULE;
      field = renamed.get(field);
    } else {
      // wasm-bindgen imports a snippet's function that needs no glue (no argument) straight from
      // the snippet, which extension/engine/wasm.js does not pass: WebAssembly would refuse the layer.
      fail(`${wasmPath} imports ${field} from ${module}: give it an argument so it goes through the glue`);
    }
    entries.push(writeName(module), writeName(field), Buffer.from([kind]), bytes.subarray(described, at));
  }
  if (at !== end) fail("the import section did not parse to its end");
  const body = Buffer.concat(entries);
  sections.push(Buffer.concat([Buffer.from([2]), writeUleb(body.length), body]));
}
if (!renamed.size) fail(`no imports from ${GLUE_MODULE} in ${wasmPath} (already shortened?)`);

let glue = fs.readFileSync(gluePath, "utf8");
for (const [long, short] of renamed) {
  const declaration = `export function ${long}(`;
  if (glue.split(declaration).length !== 2) fail(`${gluePath} does not declare ${long} once`);
  glue = glue.replace(declaration, () => `export function ${short}(`);
  if (new RegExp(`\\b${long}\\b`).test(glue)) fail(`${gluePath} still names ${long} elsewhere`);
}
fs.writeFileSync(gluePath, glue);
fs.writeFileSync(wasmPath, Buffer.concat([bytes.subarray(0, 8), ...sections]));
console.log(`  ${renamed.size} imports renamed`);
