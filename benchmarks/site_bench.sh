#!/usr/bin/env bash
# The directory source (--from-dir) with --lastmod content at scale: a site
# of N small HTML pages (~1.5 KB each, 1,000 per directory) is walked, read,
# parsed, hashed and checked against the state database, then the state is
# committed. Four runs, each timed by site_bench itself (steady clock):
#
#   first     empty state: every page added
#   rerun     nothing changed: every lastmod kept, no change listed
#   touched   every file's mtime moved (as a site generator's rebuild
#             does): still no change listed
#   one edit  one page's text changed: exactly one change listed
#
# usage: benchmarks/site_bench.sh [N]         (N: 100000)
# env:
#   BENCH_DIR   scratch space (/tmp/bench-site); the site is made once and
#               kept (delete it to remake)
#   SITE_BENCH  the driver (build/benchmarks/site_bench)
# Needs a quiet machine: other jobs on the same cores change the times.
# Exit status: 0 measured; 1 a run failed or a count was wrong; 2 setup.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
N=${1:-100000}
BENCH_DIR=${BENCH_DIR:-/tmp/bench-site}
SITE_BENCH=${SITE_BENCH:-$root/build/benchmarks/site_bench}

say() { printf '%s\n' "$*" >&2; }

if [[ ! -x $SITE_BENCH ]]; then
  say "site_bench not found at $SITE_BENCH (build the benchmarks, or set SITE_BENCH)"
  exit 2
fi

site=$BENCH_DIR/site-$N
state=$BENCH_DIR/state-$N.db
mkdir -p "$BENCH_DIR"
if [[ ! -d $site ]]; then
  say "making $N pages in $site"
  "$SITE_BENCH" make "$site.tmp" "$N"
  mv "$site.tmp" "$site"
fi
rm -f "$state" "$state-journal"
# Warm the page cache, so every run reads from memory alike.
find "$site" -type f -exec cat {} + > /dev/null

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< " $2"; }

rows=()
failed=0
run() {  # name, expected added, changed
  local out
  out=$("$SITE_BENCH" read "$site" "$state" content)
  say "$1: $out"
  rows+=("| $1 | $(field pages "$out") | $(field read_s "$out") | $(field commit_s "$out") | $(field total_s "$out") | $(field pages_per_s "$out") | $(field added "$out") / $(field changed "$out") / $(field removed "$out") |")
  if [[ $(field added "$out") != "$2" || $(field changed "$out") != "$3" ]]; then
    say "  unexpected changes: wanted added $2, changed $3"
    failed=1
  fi
}

run "first (empty state)" "$N" 0
run "rerun, no change" 0 0
# A rebuild without changes: every mtime moves.
find "$site" -type f -name '*.html' -exec touch -d '+1 hour' {} +
run "every file touched" 0 0
edited=$site/s-000/p-00001.html
sed -i 's/Lorem ipsum/Edited ipsum/' "$edited"
run "one page edited" 0 1

printf '\n%s pages, --lastmod content, on %s (%s cores)\n\n' "$N" "$(uname -m)" "$(nproc)"
printf '| run | pages | read s | commit s | total s | pages/s | added / changed / removed |\n'
printf '|---|---|---|---|---|---|---|\n'
printf '%s\n' "${rows[@]}"
exit "$failed"
