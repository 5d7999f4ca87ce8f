#!/usr/bin/env bash
# generate at 10^7 and 10^8 URLs (issue 15): URLs made on the fly by
# url_stream (nothing stored) and piped into sitemill; wall time, peak RSS
# and temporary disk for
#   memory   --memory-budget 64GiB (every URL judged in memory)
#   budget   the default --memory-budget (16 MiB): the rest judged on disk
#   shards   4 shards run at once on this machine (each reads the whole
#            stream and keeps its quarter), then sitemill merge
# reported as ratios to the in-memory run, with the per-URL rate of a 1M
# in-memory run of the same stream as the yardstick of the 1.5x target.
# Every configuration must write the same number of URLs; the budgeted run
# must publish the very files of the in-memory one (their names are their
# content's hashes).
#
# usage: benchmarks/scale_bench.sh [N...]     (default: 10000000 100000000)
# env: BENCH_DIR (scratch, /tmp/bench), SITEMILL (build/sitemill),
#      URL_STREAM (build/benchmarks/url_stream), SHARDS (4),
#      SKIP_MEMORY=1 (leave out the in-memory run: about 1.5 GiB at 10^8),
#      SKIP_SHARDS=1 (leave out the shards: at 10^8 each reads every URL)
#
# Exit status: 0 every configuration agreed; 1 one failed or disagreed;
# 2 usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh" # BENCH_DIR, SITEMILL; say, mib, ratio
URL_STREAM=${URL_STREAM:-$root/build/benchmarks/url_stream}
SHARDS=${SHARDS:-4}
base=https://www.example.com/
counts=("$@")
[[ ${#counts[@]} -gt 0 ]] || counts=(10000000 100000000)
for n in "${counts[@]}"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [N...]" >&2; exit 2; }
done
for tool in "$SITEMILL" "$URL_STREAM"; do
  [[ -x $tool ]] || { echo "missing $tool: run scripts/build.sh" >&2; exit 2; }
done
mkdir -p "$BENCH_DIR/scale"
work=$BENCH_DIR/scale
failed=0

# run NAME N ARGS...: one generate over a fresh stream of N URLs into
# $work/NAME; sets WALL (s), RSS (KiB), JSON (the --json report).
run() {
  local name=$1 n=$2
  shift 2
  rm -rf "${work:?}/$name" "$work/.sitemill/$name"
  local t0 t1
  t0=$(date +%s.%N)
  "$URL_STREAM" "$n" | /usr/bin/time -f '%M' -o "$work/$name.rss" \
    "$SITEMILL" generate --quiet --json --base-url "$base" \
    --out "$work/$name" "$@" - >"$work/$name.json"
  t1=$(date +%s.%N)
  WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')
  RSS=$(tail -1 "$work/$name.rss")
  JSON=$work/$name.json
}
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }
files_of() { (cd "$work/$1" && ls | sort | md5sum | cut -c1-12); }

printf '| URLs | run | wall s | URLs/s | peak RSS MiB | temporary disk MB | vs in memory |\n'
printf '|---|---|---|---|---|---|---|\n'

# The yardstick: 1M URLs in memory.
run yard 1000000 --memory-budget 64GiB
yard_rate=$(awk -v w="$WALL" 'BEGIN {printf "%.0f", 1000000 / w}')
printf '| 1,000,000 | in memory (yardstick) | %s | %s | %s | 0 | |\n' "$WALL" "$yard_rate" "$(mib "$RSS")"

for n in "${counts[@]}"; do
  say "== $n URLs"
  mem_wall=""
  if [[ ${SKIP_MEMORY:-0} != 1 ]]; then
    run memory "$n" --memory-budget 64GiB
    mem_wall=$WALL
    mem_written=$(field "$JSON" '["written"]')
    printf '| %s | in memory (`--memory-budget 64GiB`) | %s | %.0f | %s | 0 | 1.00 |\n' \
      "$n" "$WALL" "$(awk -v n="$n" -v w="$WALL" 'BEGIN {print n / w}')" "$(mib "$RSS")"
  fi

  run budget "$n"
  budget_written=$(field "$JSON" '["written"]')
  spill=$(field "$JSON" '["spill_bytes"]')
  rate=$(awk -v n="$n" -v w="$WALL" 'BEGIN {printf "%.0f", n / w}')
  printf '| %s | default budget (16 MiB) | %s | %s | %s | %s | %s |\n' "$n" "$WALL" "$rate" \
    "$(mib "$RSS")" "$(awk -v b="$spill" 'BEGIN {printf "%.0f", b / 1e6}')" \
    "${mem_wall:+$(ratio "$WALL" "$mem_wall")}"
  say "per-URL time against the 1M yardstick: $(ratio "$yard_rate" "$rate")x (target: at most 1.5x)"
  if [[ -n $mem_wall ]]; then
    if [[ $budget_written != "$mem_written" || $(files_of budget) != "$(files_of memory)" ]]; then
      say "FAIL: the budgeted run did not publish the in-memory run's files"
      failed=1
    fi
    rm -rf "${work:?}/memory"
  fi

  if [[ ${SKIP_SHARDS:-0} == 1 ]]; then
    rm -rf "${work:?}/budget" "$work/.sitemill"
    continue
  fi
  # Shards, all at once, then the merge.
  rm -rf "${work:?}/shards" "$work/.sitemill/shards"
  t0=$(date +%s.%N)
  pids=()
  for ((i = 0; i < SHARDS; i++)); do
    ("$URL_STREAM" "$n" | /usr/bin/time -f '%M' -o "$work/shard-$i.rss" \
      "$SITEMILL" generate --quiet --shard "$i/$SHARDS" --base-url "$base" \
      --out "$work/shards" -) &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || { say "FAIL: a shard failed"; failed=1; }; done
  "$SITEMILL" merge --quiet --json --out "$work/shards" >"$work/merge.json" || failed=1
  t1=$(date +%s.%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')
  rss=0
  for ((i = 0; i < SHARDS; i++)); do
    r=$(tail -1 "$work/shard-$i.rss")
    ((r > rss)) && rss=$r
  done
  merged=$(field "$work/merge.json" '["written"]')
  printf '| %s | %s shards at once + merge | %s | %.0f | %s each | 0 | %s |\n' "$n" "$SHARDS" "$wall" \
    "$(awk -v n="$n" -v w="$wall" 'BEGIN {print n / w}')" "$(mib "$rss")" \
    "${mem_wall:+$(ratio "$wall" "$mem_wall")}"
  if [[ $merged != "$budget_written" ]]; then
    say "FAIL: the shards wrote $merged URLs, one process $budget_written"
    failed=1
  fi
  rm -rf "${work:?}/budget" "$work/shards" "$work/.sitemill"
done
exit "$failed"
