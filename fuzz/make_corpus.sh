#!/usr/bin/env bash
# Writes a small seed corpus for each fuzz target into fuzz/corpus/<target>/,
# made from the shipped presets by the playa binary. The corpus is not
# committed (fuzz/.gitignore); libFuzzer grows it while it runs. The
# binary is built headless (--no-default-features): the corpus needs the
# command line only.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin playa --no-default-features
playa="${CARGO_TARGET_DIR:-target}/release/playa"
out=fuzz/corpus
mkdir -p "$out"/{share_code,scene_ron,rle,png_recipe,manifest,set,range,sheet_chunk,user_presets,scene_cost}

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
  # scene_cost: two bytes of size, then the same payload bits.
  { printf '\1\1'; tail -c +2 "$out/share_code/$name-payload"; } > "$out/scene_cost/$name"
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

# set: the first byte picks the preset, then a --set argument a line.
printf '\0rocks.roughness=0.8' > "$out/set/roughness"
printf '\1seed=1..=5:5' > "$out/set/seed-sweep"
printf '\2time=Dusk\nrocks.jitter=0.1,0.2,0.3' > "$out/set/list"
printf '\3tent#2.x=0.3\nautomaton.rule=B36/S23' > "$out/set/nth"
printf '\4automaton.density=0..1:4\nfloor.color=#aa8844' > "$out/set/range"
printf '\5sky.stars=0..=1000:3\nautomaton.topology=Bounded' > "$out/set/uint"
printf '\0aspect=1.5\nhorizon=0.5\nsun_x=0.2' > "$out/set/scene"
printf '\1rocks.primary=170,136,68\nrocks#1.visible=false\nspiral.opacity=0.5' > "$out/set/colour"
printf '\2time=Noon,GoldenHour,Dusk,Night\nautomaton.generations=12' > "$out/set/times"
# range: the first byte picks the setting of the sweep (seed, a whole
# number, two fractions), then the range.
printf '\0 1..5' > "$out/range/seeds"
printf '\1 0..=24' > "$out/range/frames"
printf '\2 0..1:4' > "$out/range/sweep"
printf '\3 1..=2:3' > "$out/range/sweep-inclusive"
printf '\0 0..=18446744073709551615' > "$out/range/widest"
printf '\2 0.25..=0.75:3' > "$out/range/fractions"
printf '\1 0..1000:10' > "$out/range/generations"
printf '\3 0.5..=4:8' > "$out/range/aspects"
# sheet_chunk: the first byte picks how the text travels (alone, or in a
# PNG's iTXt, zTXt or tEXt chunk), then a sheet's lines, code TAB label.
for mode in 0 1 2 3 4; do
  {
    printf "\\$mode"
    for seed in 1 2 3; do
      printf '%s\tseed %s\n' "$("$playa" share death-valley --seed "$seed")" "$seed"
    done
  } > "$out/sheet_chunk/seeds-$mode"
done
{
  printf '\1'
  for preset in presets/*.ron; do
    printf '%s\t%s\n' "$("$playa" share "$(basename "$preset" .ron)")" "$(basename "$preset" .ron)"
  done
} > "$out/sheet_chunk/presets"
# user_presets: a folder's files, NAME NUL CONTENTS NUL ...
for preset in presets/*.ron; do
  name=$(basename "$preset" .ron)
  { printf 'my %s.ron\0' "$name"; cat "$preset"; } > "$out/user_presets/$name"
done
{
  printf 'dunes.ron\0'; cat presets/salt-flat.ron
  printf '\0Evening 2.ron\0'; cat presets/golden-hour.ron
  printf '\0notes.txt\0hello\0old.ron/\0'
} > "$out/user_presets/several"
{ printf 'con.ron\0'; cat presets/badlands.ron; printf '\0broken.ron\0(seed: 1,'; } > "$out/user_presets/refused"
du -sh "$out"/*
