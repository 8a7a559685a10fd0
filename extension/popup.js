// The popup's loader: its own small build of crates/sidepanel (the popup only, no `panel` feature).
import init, { start } from "./wasm/dusk_popup.js";

await init({ module_or_path: "./wasm/dusk_popup_bg.wasm" });
await start("popup");
