#!/usr/bin/env bash
# Builds the unpacked extension into dist/. Installs missing tools first; reinstalls nothing.
set -euo pipefail
cd "$(dirname "$0")"

WASM_BINDGEN_VERSION=0.2.130
TARGET=wasm32-unknown-unknown
PKG=target/pkg
DIST=dist
# DUSK_NAMES=1: a build for CPU profiles, into DUSK_OUT (default dist-names): unminified bundles and
# wasm that keeps its function names. The default build is unchanged.
MINIFY=--minify
KEEP_NAMES=""
if [ "${DUSK_NAMES:-}" = 1 ]; then
  PKG=target/pkg-names
  DIST=${DUSK_OUT:-dist-names}
  MINIFY=""
  KEEP_NAMES=-g
fi

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "missing tool '$1': $2"; }
trap 'die "step failed (line $LINENO): $BASH_COMMAND"' ERR

need cargo "install Rust with rustup"
need rustup "install Rust with rustup"
need node "install Node.js 20 or newer"
need npm "install npm (comes with Node.js)"
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

say "Rust targets"
rustup target list --installed | grep -qx "$TARGET" || rustup target add "$TARGET"
rustup component list --installed | grep -q '^rust-src' || rustup component add rust-src

say "wasm-bindgen-cli $WASM_BINDGEN_VERSION and wasm-pack"
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_BINDGEN_VERSION" ]; then
  # The CLI's own lockfile can name a dependency the registry no longer serves; then resolve afresh.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked \
    || cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" \
    || die "could not install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
fi
command -v wasm-pack >/dev/null 2>&1 || cargo install wasm-pack --locked || die "could not install wasm-pack"

say "npm dev tools (binaryen, esbuild, playwright-core)"
LOCK_SUM=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.lock-sum 2>/dev/null)" != "$LOCK_SUM" ]; then
  npm ci --no-audit --no-fund || die "npm ci failed"
  echo "$LOCK_SUM" > node_modules/.lock-sum
fi
need wasm-opt "npm binaryen@132 did not install"
need wasm2js "npm binaryen@132 did not install"
need esbuild "npm esbuild did not install"

# One std build shared by all three crates: MVP wasm, so the content script can go through wasm2js.
# A panic aborts at once: wasm32 has nowhere to print its message, so its formatting is dead weight.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-cpu=mvp -Zunstable-options -Cpanic=immediate-abort"
build_crate() { # crate, wasm-bindgen target, out dir, cargo args... (OUT_NAME: the files' name, if not the crate's)
  say "crates/$1 → $3"
  wasm-pack --quiet build "crates/$1" --release --target "$2" --mode no-install --no-typescript --no-pack \
    --out-dir "../../$3" ${OUT_NAME:+--out-name "$OUT_NAME"} -- -Zbuild-std=std,panic_abort "${@:4}"
  local wasm=("$3"/*_bg.wasm)
  wasm-opt -Oz $KEEP_NAMES --strip-producers $WASM_OPT_MORE "${wasm[0]}" -o "${wasm[0]}"
}
WASM_OPT_MORE=""
build_crate worker web "$PKG/worker"
# Dark mode, the popup and the toolbar alone: what the worker starts with (worker.js), since the
# module's size is what it costs the extension's process.
OUT_NAME=dusk_worker_dark build_crate worker web "$PKG/worker_dark" --no-default-features
build_crate sidepanel web "$PKG/sidepanel"
# The popup and the first-run page: a user sees them in passing, and what a page loads stays in the
# extension's process (beside the worker) for a while after it has closed.
OUT_NAME=dusk_small_pages build_crate sidepanel web "$PKG/small_pages" --no-default-features
# The content crate's two on-demand layers; extension/content.js (always on) needs no build.
# wasm2js makes each wasm function a JS function, which V8 compiles whole on its first call:
# big functions with one caller stay apart, so a first call compiles only what it runs.
WASM_OPT_MORE="--one-caller-inline-max-function-size 200"
build_crate content bundler "$PKG/content-page" --features page
build_crate content bundler "$PKG/content-dark" --features dark
# wasm-bindgen's import names (the glue's path and a hashed name per import) were ~13 KB of a
# layer's wasm and came again as keys in its bundled glue: short names in both.
node crates/content/short_imports.mjs "$PKG/content-page"
node crates/content/short_imports.mjs "$PKG/content-dark"
# Every DOM read of the bindings goes through the interfaces' prototypes: no page can shadow it.
node crates/content/unshadow_glue.mjs "$PKG/content-page"
node crates/content/unshadow_glue.mjs "$PKG/content-dark"
# Short ASCII strings from wasm skip TextDecoder (a batch passes a few).
node crates/content/ascii_strings_glue.mjs "$PKG/content-page"
node crates/content/ascii_strings_glue.mjs "$PKG/content-dark"

# wasm2js memory growth never detaches the old buffer, so its copy of the glue must compare buffers
# instead; the WebAssembly build keeps wasm-bindgen's check, which asks V8's Memory object nothing.
content_to_js() { # pkg dir (the copy for wasm2js is made beside it: <dir>-js)
  say "$1: wasm2js + memory-view patch"
  rm -rf "$1-js"
  cp -r "$1" "$1-js"
  set -- "$1-js"
  wasm2js -O2 "$1/dusk_content_bg.wasm" -o "$1/dusk_content_bg.wasm.js"
  # The glue's short module name (short_imports.mjs) back to its file.
  sed -i "s#^import \* as g from 'g';#import * as g from './dusk_content_bg.js';#" "$1/dusk_content_bg.wasm.js"
  grep -q "^import \* as g from './dusk_content_bg.js';" "$1/dusk_content_bg.wasm.js" || die "wasm2js's import of the glue changed ($1)"
  sed -i 's#"./dusk_content_bg.wasm"#"./dusk_content_bg.wasm.js"#' "$1/dusk_content.js"
  local glue="$1/dusk_content_bg.js"
  sed -i -E \
    -e 's/cached([A-Za-z0-9]+)Memory0\.byteLength === 0/cached\1Memory0.buffer !== wasm.memory.buffer/g' \
    -e 's/cachedDataViewMemory0\.buffer\.detached === true \|\| \(cachedDataViewMemory0\.buffer\.detached === undefined && cachedDataViewMemory0\.buffer !== wasm\.memory\.buffer\)/cachedDataViewMemory0.buffer !== wasm.memory.buffer/' \
    "$glue"
  grep -q 'cachedUint8ArrayMemory0.buffer !== wasm.memory.buffer' "$glue" || die "memory-view patch did not apply to $glue (wasm-bindgen output changed)"
  if grep -q 'detached' "$glue"; then die "DataView patch did not apply to $glue (wasm-bindgen output changed)"; fi
  if grep -q 'byteLength === 0' "$glue"; then die "a typed-array view patch did not apply to $glue (wasm-bindgen output changed)"; fi
}
content_to_js "$PKG/content-page"
content_to_js "$PKG/content-dark"

say "$DIST/"
rm -rf "$DIST"
mkdir -p "$DIST/wasm"
cp manifest.json "$DIST/"
cp -r extension/_locales extension/icons extension/*.html extension/*.css extension/worker.js extension/page.js extension/small_page.js extension/custom.js "$DIST/"
# The Public Suffix List as data: the worker reads it once when an agent run starts.
cp crates/core/data/public_suffix_list.dat "$DIST/"
# The pre-paint fallback's adjustment, one file per dimension and 5 % step (core's dark::adjust::fallback_files).
mkdir -p "$DIST/fallback"
for v in $(seq 50 5 150); do
  for name in brightness contrast; do echo "html:not([data-dusk]){--dusk-$name:$v}" > "$DIST/fallback/$name-$v.css"; done
done
for v in $(seq 0 5 100); do echo "html:not([data-dusk]){--dusk-sepia:$v}" > "$DIST/fallback/sepia-$v.css"; done
cp "$PKG"/worker/dusk_worker.js "$PKG"/worker/dusk_worker_bg.wasm "$PKG"/worker_dark/dusk_worker_dark.js "$PKG"/worker_dark/dusk_worker_dark_bg.wasm "$DIST/wasm/"
cp "$PKG"/sidepanel/dusk_sidepanel.js "$PKG"/sidepanel/dusk_sidepanel_bg.wasm "$DIST/wasm/"
cp "$PKG"/small_pages/dusk_small_pages.js "$PKG"/small_pages/dusk_small_pages_bg.wasm "$DIST/wasm/"
esbuild extension/content.js --bundle --format=iife $MINIFY --target=chrome116 --log-level=warning --outfile="$DIST/content.js"
# A layer injected twice into a document (registered, then asked for) runs once. A same-origin
# frame's dark layer hands its document to the top frame's layer, if that one takes it, and stops.
delegate='!(()=>{try{const t=window.top;if(t===window||!t.duskLayers?.dark?.frame?.(document))return!1;(globalThis.duskLayers??={}).dark={doc:document};return!0}catch{return!1}})()'
# Each layer is bundled twice: with its engine as WebAssembly (compiled lazily, so cheap to start), and
# as wasm2js JS for pages whose CSP refuses WebAssembly (extension/engine/). Its last expression
# says whether the layer is in the document now, which tells the worker to try the second.
for layer in page dark; do
  guard="globalThis.duskLayers?.${layer}?.doc!==document"
  [ "$layer" = dark ] && guard="$guard&&$delegate"
  pkg="./$PKG/content-$layer"
  bundle() { # outfile, esbuild args...
    esbuild "extension/${layer}_layer.js" --bundle --format=iife $MINIFY --target=chrome116 --log-level=warning --alias:dusk-unshadowed=./extension/unshadowed.js \
      --banner:js="if($guard){" --footer:js="}globalThis.duskLayers?.${layer}?.doc===document" --outfile="$DIST/$1" "${@:2}"
  }
  bundle "${layer}_layer.js" --alias:dusk-engine=./extension/engine/wasm.js --alias:dusk-glue="$pkg/dusk_content_bg.js" \
    --alias:dusk-wasm="$pkg/dusk_content_bg.wasm" --loader:.wasm=binary
  bundle "${layer}_layer.wasm2js.js" --alias:dusk-engine=./extension/engine/wasm2js.js --alias:dusk-glue="$pkg-js/dusk_content.js"
done

say "sizes"
size_line() { printf '  %-44s %9d bytes  (%d gzipped)\n' "$1" "$(wc -c < "$2")" "$(gzip -9c "$2" | wc -c)"; }
size_line "content.js (always on, top frames)" "$DIST/content.js"
size_line "page_layer.js (on first use in a tab)" "$DIST/page_layer.js"
size_line "page_layer.wasm2js.js (same, CSP refuses wasm)" "$DIST/page_layer.wasm2js.js"
size_line "dark_layer.js (dark sites, on first use)" "$DIST/dark_layer.js"
size_line "dark_layer.wasm2js.js (same, CSP refuses wasm)" "$DIST/dark_layer.wasm2js.js"
size_line "custom.js (customised sites)" "$DIST/custom.js"
size_line "wasm/dusk_worker_bg.wasm" "$DIST/wasm/dusk_worker_bg.wasm"
size_line "wasm/dusk_worker_dark_bg.wasm" "$DIST/wasm/dusk_worker_dark_bg.wasm"
size_line "wasm/dusk_sidepanel_bg.wasm" "$DIST/wasm/dusk_sidepanel_bg.wasm"
size_line "wasm/dusk_small_pages_bg.wasm" "$DIST/wasm/dusk_small_pages_bg.wasm"
say "done: load $DIST/ with chrome://extensions → Load unpacked"
