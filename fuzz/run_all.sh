#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, one after the other, from its
# seed corpus (make_corpus.sh) with its dictionary, and ends with a line per
# target: its runs (libFuzzer's executions), its crashes and its peak memory.
#
#   run_all.sh [SECONDS [TARGET...]]
#
# SECONDS defaults to $FUZZ_SECONDS, else 60. The targets are the ones
# `cargo fuzz list` names (every [[bin]] of Cargo.toml), so a new target is
# never left out; name some to run those alone. Each run's whole output is
# in logs/<target>.log, the summary in logs/summary.txt, and each crash's
# input in artifacts/<target>/. Exits non-zero if a target crashed or did
# not run.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-${FUZZ_SECONDS:-60}}
shift $(($# > 0 ? 1 : 0))
if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(env -u CARGO_TARGET_DIR cargo +nightly fuzz list)
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "no fuzz targets found (is cargo-fuzz installed?)" >&2
  exit 2
fi
mkdir -p logs
summary=()
status=0
for target in "${targets[@]}"; do
  echo "== $target, $seconds s"
  mkdir -p "corpus/$target" "artifacts/$target"
  dict=()
  [ -f "$target.dict" ] && dict=(-dict="$target.dict")
  log=logs/$target.log
  start=$(date +%s)
  env -u CARGO_TARGET_DIR nice cargo +nightly fuzz run "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -timeout=30 "${dict[@]}" -print_final_stats=1 \
    > "$log" 2>&1
  rc=$?
  took=$(($(date +%s) - start))
  grep -E "^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss|panicked|SUMMARY|Test unit written" "$log"
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  peak=$(grep -oE 'stat::peak_rss_mb: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  crashes=$(grep -c 'Test unit written to' "$log")
  if [ -z "$runs" ]; then
    note="did not run (exit $rc): see $log"
    status=1
  elif [ "$crashes" -gt 0 ] || [ "$rc" -ne 0 ]; then
    note="CRASH: $(grep -oE 'Test unit written to .*' "$log" | sed 's/Test unit written to //' | tr '\n' ' ')"
    status=1
  else
    note=ok
  fi
  summary+=("$(printf '%-14s %5s s %12s runs %3s crashes %6s MB  %s' \
    "$target" "$took" "${runs:-?}" "$crashes" "${peak:-?}" "$note")")
done
# The scratch files and folders of fuzzer processes that are gone (the
# sheet_chunk and user_presets targets keep one each, named by process).
for scratch in /dev/shm/playa-fuzz-* "${TMPDIR:-/tmp}"/playa-fuzz-*; do
  [ -e "$scratch" ] || continue
  pid=${scratch##*-}
  pid=${pid%.png}
  kill -0 "$pid" 2>/dev/null || rm -rf "$scratch"
done
echo "== summary ($seconds s a target)"
printf '%s\n' "${summary[@]}" | tee logs/summary.txt
exit $status
