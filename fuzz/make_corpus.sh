#!/usr/bin/env bash
# Writes a small seed corpus for each fuzz target into fuzz/corpus/<target>/,
# made from the shipped presets by the playa binary. The corpus is not
# committed (fuzz/.gitignore); libFuzzer grows it while it runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin playa
playa="${CARGO_TARGET_DIR:-target}/release/playa"
out=fuzz/corpus
mkdir -p "$out"/{share_code,scene_ron,rle,png_recipe,manifest}

for preset in presets/*.ron; do
  name=$(basename "$preset" .ron)
  cp "$preset" "$out/scene_ron/$name.ron"
  "$playa" share --decode "$("$playa" share "$name" --seed 12345)" > "$out/scene_ron/$name-full.ron"
  # share_code: a leading 0 byte means "the text as it is".
  code=$("$playa" share "$name" --seed 12345)
  printf '\0%s' "$code" > "$out/share_code/$name"
  # ... and a leading 1 byte "these payload bits, sealed": the code's bits
  # after the 4 checksum characters.
  python3 - "$code" > "$out/share_code/$name-payload" <<'PY'
import sys
alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
body = sys.argv[1].split("-", 1)[1][4:]
bits = "".join(format(alphabet.index(c), "06b") for c in body)
bits += "0" * (-len(bits) % 8)
sys.stdout.buffer.write(bytes([8]) + bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)))
PY
  "$playa" render "$name" --size 16x9 --out "$out/png_recipe/$name.png" --force > /dev/null
done

printf '#N Glider\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' > "$out/rle/glider.rle"
printf 'x = 36, y = 9, rule = 23/3\n24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\nobo$10bo5bo7bo$11bo3bo$12b2o!\n' > "$out/rle/gosper.rle"
"$playa" life --size 40x20 --seed 7 --gens 8 --out "$out/rle/soup.rle"
"$playa" life --size 70x3 --seed 1 --density 0.5 --gens 0 --bounded --rule B36/S23 --out "$out/rle/highlife.rle"
# manifest: a whole batch's and a shard's, and a pyramid's (tiles in folders).
tmp=$(mktemp -d)
"$playa" render death-valley salt-flat --seeds 1..3 --size 16x9 --out "$tmp/whole" > /dev/null
"$playa" render death-valley --seeds 1..5 --size 16x9 --out "$tmp/shard" --shard 1/2 > /dev/null
"$playa" render salt-flat --size 300x200 --tiles "$tmp/tiles" > /dev/null
cp "$tmp/whole/playa-manifest.jsonl" "$out/manifest/whole.jsonl"
cp "$tmp/shard/playa-manifest-1-of-2.jsonl" "$out/manifest/shard.jsonl"
cp "$tmp/tiles/playa-manifest.jsonl" "$out/manifest/tiles.jsonl"
rm -r "$tmp"
du -sh "$out"/*
