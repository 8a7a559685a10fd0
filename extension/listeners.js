// Page's own world, at document_start: remembers which elements got click-like listeners, and names
// them when Dusk's content script (which can't see the page's listeners) asks with "dusk:probe".
(() => {
  const kinds = new Set(["click", "mousedown", "pointerdown", "mouseup", "pointerup"]);
  const known = new WeakSet(), refs = new Set(), add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    if (kinds.has(type) && this instanceof Element && !known.has(this)) { known.add(this); refs.add(new WeakRef(this)); }
    return add.call(this, type, ...rest);
  };
  add.call(document, "dusk:probe", () => {
    for (const ref of refs) {
      const el = ref.deref();
      if (!el) refs.delete(ref);
      else if (el.isConnected) el.dispatchEvent(new CustomEvent("dusk:listens", { bubbles: true, composed: true }));
    }
  });
})();
