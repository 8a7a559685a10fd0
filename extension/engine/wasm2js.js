// A layer's engine as wasm2js JavaScript, which runs under any page CSP.
export * from "dusk-glue";
export const loaded = true;
