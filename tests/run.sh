#!/usr/bin/env bash
# The one test command: builds dist/, runs core's unit tests, then the e2e tests in Chromium.
# Benchmarks (tests/bench/*.mjs) print numbers and are not run here; the extraction bench's Python peer
# installs with: python3 -m pip install -r tests/bench/requirements-extraction.txt
set -uo pipefail
cd "$(dirname "$0")/.."

# A full disk shows up later as odd failures (a browser that never starts, a lost lock file): say so first.
FREE_KB=$(df -Pk . | awk 'NR==2 {print $4}')
echo "==> $((FREE_KB / 1024 / 1024)) GB free where the build writes"
[ "$FREE_KB" -lt $((6 * 1024 * 1024)) ] && echo "warning: under 6 GB free; the build and the browser tests need about 5 GB"

./build.sh || { echo "0 passed, 1 failed (build)"; exit 1; }

if ! command -v chromium >/dev/null 2>&1; then
  echo "==> installing Debian's chromium"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || { echo "could not install chromium"; echo "0 passed, 1 failed (chromium)"; exit 1; }
fi

# The agent's real-app tests serve Debian's DokuWiki with PHP's built-in server (tests/e2e/dokuwiki.mjs).
if [ ! -f /usr/share/dokuwiki/doku.php ] || ! command -v php >/dev/null 2>&1; then
  echo "==> installing Debian's dokuwiki and php-cli"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dokuwiki php-cli >/dev/null) \
    || { echo "could not install dokuwiki and php-cli"; echo "0 passed, 1 failed (dokuwiki)"; exit 1; }
fi

echo "==> cargo fmt --check, cargo clippy -D warnings"
for c in rustfmt clippy; do rustup component list --installed | grep -q "^$c" || rustup component add "$c"; done
STYLE_PASSED=0; STYLE_FAILED=0
# Its own folder: two runs at once on one machine must not read each other's output.
LOGS=$(mktemp -d -t dusk-tests.XXXXXX)
if cargo fmt --all -- --check >"$LOGS/fmt.out" 2>&1; then STYLE_PASSED=$((STYLE_PASSED + 1)); echo "ok   cargo fmt --check"
else STYLE_FAILED=$((STYLE_FAILED + 1)); echo "FAIL cargo fmt --check"; head -40 "$LOGS/fmt.out"; fi
if cargo clippy --workspace --all-targets --all-features -- -D warnings >"$LOGS/clippy.out" 2>&1; then STYLE_PASSED=$((STYLE_PASSED + 1)); echo "ok   cargo clippy"
else STYLE_FAILED=$((STYLE_FAILED + 1)); echo "FAIL cargo clippy"; grep -E "^(error|warning)" -A8 "$LOGS/clippy.out" | head -60; fi
# The small builds (the worker's dark-mode one, the popup's) leave features out: linted as built.
if cargo clippy -p dusk-worker -p dusk-sidepanel --no-default-features -- -D warnings >"$LOGS/clippy-small.out" 2>&1; then STYLE_PASSED=$((STYLE_PASSED + 1)); echo "ok   cargo clippy (small builds)"
else STYLE_FAILED=$((STYLE_FAILED + 1)); echo "FAIL cargo clippy (small builds)"; grep -E "^(error|warning)" -A8 "$LOGS/clippy-small.out" | head -60; fi

echo "==> cargo test (core)"
CARGO_OUT=$(cargo test -p dusk-core 2>&1); CARGO_RC=$?
echo "$CARGO_OUT" | grep -E '^(test |running|test result|error|failures)' | grep -v '\.\.\. ok$'
RUST_PASSED=$(echo "$CARGO_OUT" | grep -oE '[0-9]+ passed' | awk '{s+=$1} END {print s+0}')
RUST_FAILED=$(echo "$CARGO_OUT" | grep -oE '[0-9]+ failed' | awk '{s+=$1} END {print s+0}')
if [ "$CARGO_RC" -ne 0 ] && [ "$RUST_FAILED" -eq 0 ]; then RUST_FAILED=1; echo "$CARGO_OUT" | tail -30; fi
echo "core: $RUST_PASSED passed, $RUST_FAILED failed"

echo "==> e2e (Chromium)"
node tests/e2e/run.mjs | tee "$LOGS/e2e.out"
E2E_LINE=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOGS/e2e.out" | tail -1)
E2E_PASSED=$(echo "${E2E_LINE:-0 passed}" | grep -oE '^[0-9]+')
E2E_FAILED=$(echo "${E2E_LINE:-0 passed, 1 failed}" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')

PASSED=$((STYLE_PASSED + RUST_PASSED + E2E_PASSED)); FAILED=$((STYLE_FAILED + RUST_FAILED + E2E_FAILED))
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
