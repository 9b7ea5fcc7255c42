#!/usr/bin/env bash
# Builds playa for the browser into target/web/: index.html, playa_web.js,
# playa_web_bg.wasm and export-worker.js, nothing else. Serve it with any
# static server:
#   python3 -m http.server -d target/web
# target/ is cargo's target folder: $CARGO_TARGET_DIR (or build.target-dir)
# when set, as `cargo metadata` reports it.
# Installs what it needs when missing (the wasm32 target; wasm-bindgen-cli at
# exactly Cargo.lock's wasm-bindgen version) and downloads nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
rustup target list --installed | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  # Not --locked: wasm-bindgen-cli's own lock file pins a webpki-roots
  # release the registry no longer has.
  cargo install wasm-bindgen-cli --version "$version"
fi

target=$(cargo metadata --format-version 1 --no-deps |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[ -n "$target" ] || { echo "web/build.sh: no target_directory from cargo metadata" >&2; exit 1; }

# Its own target folder, so a native build never waits on this one; the
# `web` profile (Cargo.toml): one optimised unit, no debug info.
export CARGO_TARGET_DIR=$target/wasm
cargo build --profile web -p playa-web --target wasm32-unknown-unknown

out=$target/web
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
# The site's copy without the function names; PLAYA_WEB_NAMES=1 keeps
# them, for a profile in the browser's developer tools.
names=(--remove-name-section --remove-producers-section)
[ "${PLAYA_WEB_NAMES:-0}" = 1 ] && names=()
wasm-bindgen --target web --no-typescript "${names[@]}" --out-dir "$out.tmp" \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/web/playa_web.wasm"
cp web/index.html web/*.js "$out.tmp/"
rm -rf "$out"
mv "$out.tmp" "$out"
wasm=$(stat -c %s "$out/playa_web_bg.wasm")
gz=$(gzip -9 -c "$out/playa_web_bg.wasm" | wc -c)
echo "built ${out#"$PWD/"}: playa_web_bg.wasm $((wasm / 1024)) KiB ($((gz / 1024)) KiB gzipped)"
