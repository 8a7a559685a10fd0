// Page's own world, at document_start: remembers which elements got click-like listeners and which
// got a shadow root, and names them when Dusk's content script (which sees neither) asks with
// "dusk:probe" and "dusk:shadows".
(() => {
  const kinds = new Set(["click", "mousedown", "pointerdown", "mouseup", "pointerup"]);
  const known = new WeakSet(), refs = new Set(), hosts = new Set(), add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    if (kinds.has(type) && this instanceof Element && !known.has(this)) { known.add(this); refs.add(new WeakRef(this)); }
    return add.call(this, type, ...rest);
  };
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (...args) {
    const root = attach.apply(this, args);
    hosts.add(new WeakRef(this));
    return root;
  };
  const name = (set, type) => {
    for (const ref of set) {
      const el = ref.deref();
      if (!el) set.delete(ref);
      else if (el.isConnected) el.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true }));
    }
  };
  add.call(document, "dusk:probe", () => name(refs, "dusk:listens"));
  add.call(document, "dusk:shadows", () => { name(hosts, "dusk:host"); document.dispatchEvent(new CustomEvent("dusk:hosts-named")); });
})();
