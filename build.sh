#!/usr/bin/env bash
# Builds the unpacked extension into dist/. Installs missing tools first; reinstalls nothing.
set -euo pipefail
cd "$(dirname "$0")"

WASM_BINDGEN_VERSION=0.2.130
TARGET=wasm32-unknown-unknown
PKG=target/pkg
DIST=dist

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
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-cpu=mvp"
build_crate() { # crate, wasm-bindgen target
  say "crates/$1 → $PKG/$1"
  wasm-pack --quiet build "crates/$1" --release --target "$2" --mode no-install --no-typescript --no-pack \
    --out-dir "../../$PKG/$1" -- -Zbuild-std=std,panic_abort
}
build_crate worker web
build_crate sidepanel web
build_crate content bundler

say "wasm-opt -Oz"
for f in "$PKG"/worker/dusk_worker_bg.wasm "$PKG"/sidepanel/dusk_sidepanel_bg.wasm "$PKG"/content/dusk_content_bg.wasm; do
  wasm-opt -Oz "$f" -o "$f"
done

say "content: wasm2js + memory-view patch + esbuild IIFE"
wasm2js -O2 "$PKG/content/dusk_content_bg.wasm" -o "$PKG/content/dusk_content_bg.wasm.js"
sed -i 's#"./dusk_content_bg.wasm"#"./dusk_content_bg.wasm.js"#' "$PKG/content/dusk_content.js"
# wasm2js memory growth never detaches the old buffer, so compare buffers instead.
GLUE="$PKG/content/dusk_content_bg.js"
sed -i -E \
  -e 's/cached([A-Za-z0-9]+)Memory0\.byteLength === 0/cached\1Memory0.buffer !== wasm.memory.buffer/g' \
  -e 's/cachedDataViewMemory0\.buffer\.detached === true \|\| \(cachedDataViewMemory0\.buffer\.detached === undefined && cachedDataViewMemory0\.buffer !== wasm\.memory\.buffer\)/cachedDataViewMemory0.buffer !== wasm.memory.buffer/' \
  "$GLUE"
grep -q 'cachedUint8ArrayMemory0.buffer !== wasm.memory.buffer' "$GLUE" || die "memory-view patch did not apply to $GLUE (wasm-bindgen output changed)"
grep -q 'detached' "$GLUE" && die "DataView patch did not apply to $GLUE (wasm-bindgen output changed)"
grep -q 'byteLength === 0' "$GLUE" && die "a typed-array view patch did not apply to $GLUE (wasm-bindgen output changed)"

say "dist/"
rm -rf "$DIST"
mkdir -p "$DIST/wasm"
cp manifest.json "$DIST/"
cp -r extension/_locales extension/icons extension/*.html extension/*.css extension/worker.js extension/page.js extension/listeners.js "$DIST/"
cp "$PKG"/worker/dusk_worker.js "$PKG"/worker/dusk_worker_bg.wasm "$DIST/wasm/"
cp "$PKG"/sidepanel/dusk_sidepanel.js "$PKG"/sidepanel/dusk_sidepanel_bg.wasm "$DIST/wasm/"
esbuild extension/content.js --bundle --format=iife --minify --target=chrome116 --log-level=warning --outfile="$DIST/content.js"

say "sizes"
for f in "$DIST/wasm/dusk_worker_bg.wasm" "$DIST/content.js" "$DIST/wasm/dusk_sidepanel_bg.wasm"; do
  printf '  %-34s %7d bytes  (%d gzipped)\n' "$f" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
done
say "done: load $DIST/ with chrome://extensions → Load unpacked"
