// Registered at document_start (top frame) for the sites the user customised: their saved CSS,
// kept after the dark theme (the dark layer adopts its sheets before this one). Keys: core's customize::site.
if (!globalThis.duskCustomSheet) {
  const key = `custom_css:${location.hostname}`;
  const sheet = (globalThis.duskCustomSheet = new CSSStyleSheet());
  // Nothing is painted until the saved CSS is in (at most 150 ms): no flash of what it hides.
  sheet.replaceSync("html { visibility: hidden !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  const put = (css) => {
    sheet.replaceSync(typeof css === "string" ? css : "");
    if (!document.adoptedStyleSheets.includes(sheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  };
  const hold = setTimeout(() => put(""), 150);
  chrome.storage.local.get(key).then((stored) => (clearTimeout(hold), put(stored[key])));
  chrome.storage.onChanged.addListener((changes, area) => area === "local" && key in changes && put(changes[key].newValue));
}
