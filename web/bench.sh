#!/usr/bin/env bash
# Measures playa in the browser against the desktop, on this machine, and
# prints one line:
#   browser 1280×720: render X ms, native one thread Y ms (Z×), first picture
#   F ms, 8K export: E frames/s drawn
# It builds the site (web/build.sh, into the target folder's web/: target/web,
# or $CARGO_TARGET_DIR/web when that is set), serves it on 127.0.0.1 and drives
# headless Chromium (/usr/bin/chromium, or $CHROMIUM) in real time with
# puppeteer-core (installed into web/node_modules from package-lock.json).
# The native figure is examples/render_ms.rs, on one thread, as the page has.
# Usage: web/bench.sh [WIDTH HEIGHT RUNS EXPORT_SIZE] (default 1280 720 9 8K).
# Figures: docs/PERFORMANCE.md ("The browser").
set -euo pipefail
cd "$(dirname "$0")/.."
width=${1:-1280} height=${2:-720} runs=${3:-9} export_size=${4:-8K}

web/build.sh >&2
[ -d web/node_modules/puppeteer-core ] || (cd web && npm ci --no-audit --no-fund >&2)
# Cargo's target folder ($CARGO_TARGET_DIR, build.target-dir or target/),
# where web/build.sh put the site and cargo puts the example.
target=$(cargo metadata --format-version 1 --no-deps |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[ -n "$target" ] || { echo "web/bench.sh: no target_directory from cargo metadata" >&2; exit 1; }
cargo build --release --example render_ms >&2
native=$("$target/release/examples/render_ms" "$width" "$height" "$runs")
json=$(node web/bench.cjs "$target/web" "$width" "$height" "$runs" "$export_size")
node -e '
const [json, native, w, h] = process.argv.slice(1);
const r = JSON.parse(json);
const n = Number(native);
console.log(`browser ${w}×${h}: render ${r.render_ms.toFixed(1)} ms, native one thread ${n.toFixed(1)} ms (${(r.render_ms / n).toFixed(2)}×), first picture ${r.first_picture_ms} ms, ${r.export_size} export: ${r.export_fps.toFixed(1)} frames/s drawn over ${r.export_seconds.toFixed(1)} s`);
' "$json" "$native" "$width" "$height"
