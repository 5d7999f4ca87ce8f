#!/usr/bin/env bash
# --layout stable against --layout sequential (issue 31): on N URLs
# (default 1,000,000, made by awk, nothing stored in the repository), how
# many sitemap files change when one URL is inserted at the head, appended,
# or removed from the middle, and what each layout costs: files, mean URLs
# per file, wall time and peak RSS of the base run (default gzip), and the
# bytes it wrote (wchar of /proc/PID/io: the sitemaps plus any temporary
# files), whose difference is the stable layout's disk pass.
#
# usage: benchmarks/layout_churn.sh [N]
# env: BENCH_DIR (scratch, /tmp/bench), SITEMILL (build/sitemill)
#
# Exit status: 0 the stable layout changed at most 2 files per edit; 1 it
# changed more, or a run failed; 2 usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh" # BENCH_DIR, SITEMILL; say
n=$(bench_count "${1:-1000000}")
[[ -x $SITEMILL ]] || { say "missing $SITEMILL: run scripts/build.sh"; exit 2; }
work=$BENCH_DIR/layout
rm -rf "$work"
mkdir -p "$work"

# make_export FILE [HEAD] [TAIL] [SKIP]: rows 0..n-1 (but SKIP) as url,lastmod.
make_export() {
  awk -v n="$n" -v head="${2:-}" -v tail="${3:-}" -v skip="${4:--1}" 'BEGIN {
    if (head != "") print head
    split("shoes shirts garden toys", dirs, " ")
    for (i = 0; i < n; i++) if (i != skip)
      printf "https://www.example.com/%s/item-%d.html,2025-%02d-%02d\n",
             dirs[i % 4 + 1], i, 1 + i % 12, 1 + int(i / 12) % 28
    if (tail != "") print tail
  }' > "$1"
}

# run LAYOUT OUT INPUT: generate; prints "wall_s wchar_bytes" (wchar sampled
# until the process ends: its last reading).
run() {
  rm -rf "$2"
  local t0 t1 wchar
  t0=$(date +%s.%N)
  "$SITEMILL" generate --quiet --layout "$1" --base-url https://www.example.com/ \
    --columns loc,lastmod --out "$2" "$3" &
  local pid=$!
  wchar=0
  while kill -0 "$pid" 2> /dev/null; do
    wchar=$(awk '/^wchar/ {print $2}' "/proc/$pid/io" 2> /dev/null || echo "$wchar")
    sleep 0.05
  done
  wait "$pid"
  t1=$(date +%s.%N)
  printf '%s %s\n' "$(echo "$t1 - $t0" | bc)" "$wchar"
}

# rss LAYOUT OUT INPUT: peak RSS in KiB, from GNU time.
rss() {
  rm -rf "$2"
  /usr/bin/time -f %M "$SITEMILL" generate --quiet --layout "$1" \
    --base-url https://www.example.com/ --columns loc,lastmod --out "$2" "$3" \
    2>&1 >/dev/null | tail -1
}

sitemaps() { ls "$1" | grep -v '^sitemap\.xml$' | sort; }

make_export "$work/base.csv"
make_export "$work/head.csv" "https://www.example.com/new/first.html,2026-11-01"
make_export "$work/tail.csv" "" "https://www.example.com/new/last.html,2026-11-02"
make_export "$work/middle.csv" "" "" $((n / 2))

status=0
printf '%-10s %6s %10s %8s %8s %12s %6s %6s %6s\n' layout files urls/file wall_s rss_mib \
  written_mb head tail middle
for layout in stable sequential; do
  read -r wall wchar < <(run "$layout" "$work/$layout-base" "$work/base.csv")
  kib=$(rss "$layout" "$work/$layout-rss" "$work/base.csv")
  files=$(sitemaps "$work/$layout-base" | wc -l)
  changed=()
  for edit in head tail middle; do
    run "$layout" "$work/$layout-$edit" "$work/$edit.csv" > /dev/null
    c=$(comm -13 <(sitemaps "$work/$layout-base") <(sitemaps "$work/$layout-$edit") | wc -l)
    changed+=("$c")
    if [[ $layout == stable && $c -gt 2 ]]; then status=1; fi
  done
  printf '%-10s %6d %10d %8.2f %8.1f %12.1f %6d %6d %6d\n' "$layout" "$files" \
    $(((n + files - 1) / files)) "$wall" "$(echo "$kib / 1024" | bc -l)" \
    "$(echo "$wchar / 1000000" | bc -l)" "${changed[@]}"
done
say "files changed: sitemaps of the edited run whose names the base run lacks"
exit $status
