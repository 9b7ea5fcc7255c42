#!/usr/bin/env bash
# Wall time, CPU time and peak memory of whole `playa` commands, as a Markdown
# table for docs/PERFORMANCE.md. Each command runs RUNS times (default 3);
# the table gives the median wall time and the median peak resident set.
#
#   bash benches/cli-figures.sh            # the release binary, built if needed
#   bash benches/cli-figures.sh --poster   # also the 32768×18432 poster and tiles (minutes)
#
# Needs GNU time (/usr/bin/time). Pause other work while it runs: the machine's
# load shows in the wall times.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-3}
poster=false
[ "${1:-}" = "--poster" ] && poster=true
[ -x /usr/bin/time ] || { echo "cli-figures: GNU time (/usr/bin/time) is needed" >&2; exit 1; }

cargo build --release --quiet
playa=$PWD/target/release/playa
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# figure NAME OUTPUT ARGS...: runs `playa ARGS` $runs times into $work.
figure() {
  local name=$1 output=$2
  shift 2
  local walls=() cpus=() peaks=()
  for _ in $(seq "$runs"); do
    rm -rf "${work:?}"/*
    (cd "$work" && /usr/bin/time -f '%e %U %S %M' -o "$work.time" "$playa" "$@" >/dev/null 2>&1)
    read -r wall user sys peak <"$work.time"
    walls+=("$wall")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')")
    peaks+=("$peak")
  done
  local size
  size=$(du -sb "$work/$output" | cut -f1)
  printf '| %s | %s s | %s s | %s MiB | %s |\n' "$name" \
    "$(printf '%s\n' "${walls[@]}" | median)" \
    "$(printf '%s\n' "${cpus[@]}" | median)" \
    "$(printf '%s\n' "${peaks[@]}" | median | awk '{printf "%.1f", $1 / 1024}')" \
    "$(numfmt --to=iec-i --suffix=B "$size")"
}

echo "playa $("$playa" --version | cut -d' ' -f2), $(nproc) cores, $(date -u +%Y-%m-%d), median of $runs"
echo
echo '| command | wall | CPU | peak resident | output |'
echo '|---|---|---|---|---|'
figure '`render --size 1920x1080`' out.png render --size 1920x1080 --out out.png
figure '`render --size 7680x4320` (8K)' out.png render --size 7680x4320 --out out.png
figure '`render --size 7680x4320 --compression best`' out.png render --size 7680x4320 --compression best --out out.png
figure '`render --seeds 0..16 --size 1280x720` (16 pictures)' batch render --seeds 0..16 --size 1280x720 --out batch
figure '`animate --frames 0..=24 --size 1280x720` (APNG)' anim.png animate death-valley --frames 0..=24 --size 1280x720 --out anim.png
figure '`animate --frames 0..=24 --size 1280x720 --format gif`' anim.gif animate death-valley --frames 0..=24 --size 1280x720 --out anim.gif
if $poster; then
  runs=1
  figure '`render --size 32768x18432` (poster, 1 run)' poster.png render --size 32768x18432 --out poster.png
  figure '`render --size 32768x18432 --tiles` (1 run)' tiles render --size 32768x18432 --tiles tiles
fi
echo
echo "release binary: $(numfmt --to=iec-i --suffix=B "$(stat -c %s "$playa")")"
