#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 300) each, one after the
# other, from the seed corpus (make_corpus.sh) with its dictionary.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-300}
for target in share_code scene_ron rle png_recipe manifest; do
  echo "== $target, $seconds s"
  env -u CARGO_TARGET_DIR cargo +nightly fuzz run "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -dict="$target.dict" -print_final_stats=1 2>&1 |
    grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|panicked|SUMMARY|Test unit written"
done
