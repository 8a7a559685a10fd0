// DOM reads no page can shadow. A form's named field shadows the form's own properties (`form.id`
// can be an <input>), and an <img name=…>, <form name=…> or <embed name=…> the document's
// (`document.body`): these read through the interfaces' prototypes instead, which no page can
// reach from an extension's world. Used by content.js, the layers' JS and wasm-bindgen's glue,
// which build.sh rewrites to read through here (crates/content/unshadow_glue.mjs).

// Only these objects have named properties that win over their interface's own.
const SHADOWABLE = /^\[object (HTMLFormElement|HTMLDocument|Document|XMLDocument)\]$/;
const brand = Object.prototype.toString, protoOf = Object.getPrototypeOf, own = Object.getOwnPropertyDescriptor;
// By prototype (one per interface and realm): its members by name, or null where nothing shadows.
const members = new Map();

function shadowable(o) {
  const p = protoOf(o);
  let m = members.get(p);
  if (m === undefined) members.set(p, (m = SHADOWABLE.test(brand.call(o)) ? new Map() : null));
  return m;
}

// The member as the interface defines it, from the prototype chain; null when it is the object's
// own (an unforgeable one such as document.location, which nothing can shadow).
function member(o, m, name) {
  let d = m.get(name);
  if (d === undefined) {
    d = null;
    for (let q = protoOf(o); q && !d; q = protoOf(q)) d = own(q, name) ?? null;
    m.set(name, d);
  }
  return d;
}

/** `o[name]` as o's interface defines it. */
export function read(o, name) {
  const m = o !== null && typeof o === "object" ? shadowable(o) : null;
  const d = m && member(o, m, name);
  return d ? (d.get ? d.get.call(o) : d.value) : o[name];
}

/** `o[name](...args)` with the interface's method. */
export function call(o, name, ...args) {
  return read(o, name).apply(o, args);
}

// `call` bound to a getter or method: no function of the script's own between a loop and the
// browser, which a new tab's first read (its code not yet optimized) pays for on every node.
const callOf = (f) => Function.prototype.call.bind(f);

/** `o => o[name]` with Interface's own getter, for loops that read one member of many nodes. */
export function getter(Interface, name) {
  return callOf(own(Interface.prototype, name).get);
}

/** `(o, ...args) => o[name](...args)` with Interface's own method, for loops over many nodes. */
export function method(Interface, name) {
  return callOf(own(Interface.prototype, name).value);
}
