// Shared loader for the side panel and options pages; the page name is on <body>.
import init, { start } from "./wasm/dusk_sidepanel.js";

await init({ module_or_path: "./wasm/dusk_sidepanel_bg.wasm" });
await start(document.body.dataset.page);
