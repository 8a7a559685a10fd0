// The popup's and the first-run page's loader: a small build of crates/sidepanel (no `panel`
// feature); the page name is on <body>.
import init, { start } from "./wasm/dusk_small_pages.js";

await init({ module_or_path: "./wasm/dusk_small_pages_bg.wasm" });
await start(document.body.dataset.page);
