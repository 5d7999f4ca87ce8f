#!/usr/bin/env bash
# End-to-end comparison of sitemill with sitemap.js (npm "sitemap" 9) on the
# same N-URL input, in one run: wall time, URLs/s, peak RSS and output bytes
# side by side, as ratios to the tuned peer and to gzip -6.
#
# The compress-alone reference (issue 31: the default run at most 1.25x its
# wall time): build/benchmarks/compress_alone gzips the very files of
# sitemill's `--no-gzip` run (those the default run writes compressed: all but
# the index) with what the default run uses, libdeflate level 6, the same
# 2 MiB pieces at the same offsets, one worker per core, each file written,
# fsynced and closed in order (benchmarks/compress_alone.cpp). Its wall time
# is taken as sitemill's are (best of RUNS, the whole process), and the
# ratio printed is sitemill default's best wall over the reference's best
# wall: what making the XML, splicing the pieces and publishing add to the
# compression that any gzipped output of these bytes costs.
#
# usage: benchmarks/compare_peer.sh [N]          (N defaults to 1000000)
# env:
#   BENCH_DIR        scratch: inputs, peer install, outputs, logs (/tmp/bench)
#   SHARED_DIR       holds bench/make_urls.py, peer_sitemapjs.mjs (../shared
#                    next to the repository)
#   PEERS_DIR        where sitemap.js is installed ($BENCH_DIR/peers)
#   SITEMILL         the binary (build/sitemill; built with scripts/build.sh if
#                    it is the default and missing)
#   SKIP_README_WAY  1 skips the peer's README way (about 3 minutes at 1M)
#   RSS10M           1 adds a run of sitemill at N*10 URLs (peak RSS and wall;
#                    making that input takes minutes)
#   RUNS             runs per sitemill configuration, best wall kept (3)
#   COMPRESS_ALONE   the compress-alone reference (build/benchmarks/
#                    compress_alone; built with cmake if it is the default and
#                    missing)
#
# Installs what it lacks (apt: nodejs npm time python3 gzip libxml2-utils;
# npm: sitemap@9 into PEERS_DIR); no other network. Prints a Markdown table
# and writes it to $BENCH_DIR/compare.md.
#
# Exit status: 0 every output verified; 1 a run failed or an output did not
# verify (missed speed or size targets are reported, not failures); 2 usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh" # BENCH_DIR, SHARED_DIR, PEERS_DIR, SITEMILL, RUNS
N=$(bench_count "${1:-1000000}")

SKIP_README_WAY=${SKIP_README_WAY:-0}
RSS10M=${RSS10M:-0}
bench=$SHARED_DIR/bench
xsd=$root/schemas/sitemap.xsd
index_xsd=$root/schemas/siteindex.xsd
out_root=$BENCH_DIR/out

bench_prerequisites
default_alone=$root/build/benchmarks/compress_alone
COMPRESS_ALONE=${COMPRESS_ALONE:-$default_alone}
if [[ ! -x $COMPRESS_ALONE ]]; then
  [[ $COMPRESS_ALONE == "$default_alone" ]] || { say "COMPRESS_ALONE=$COMPRESS_ALONE is not an executable"; exit 2; }
  say "building compress_alone"
  cmake --build "$root/build" --target compress_alone >&2
fi
[[ -f $bench/peer_sitemapjs.mjs ]] || { say "missing $bench/peer_sitemapjs.mjs (set SHARED_DIR)"; exit 2; }
mkdir -p "$out_root"

# Per configuration id: what the table shows.
declare -A LABEL WALL RSS_KB CPU BYTES COUNT VERIFY
failed=0

verify() { verify_output "$1" "$2" "$3" --xsd "$xsd" --index-xsd "$index_xsd"; }

# sitemill ID LABEL N TIMEOUT_S RUNS [OPTIONS...]
sitemill_config() {
  local id=$1 label=$2 n=$3 tmo=$4 runs=$5 input out=$out_root/$1 r
  shift 5
  input=$(make_input "$n")
  LABEL[$id]=$label
  COUNT[$id]=$n
  say "$label"
  cat "$input" > /dev/null # warm the page cache: no run pays the first read
  for ((r = 1; r <= runs; r++)); do
    run_timed "$id" "$r" "$tmo" "$out" -- "$SITEMILL" generate \
      --base-url https://www.example.com/ --out "$out" --input-format tsv \
      --columns loc,lastmod,changefreq,priority -q "$@" "$input" || break
  done
  verify "$id" "$out" "$n"
}

# The compress-alone reference over the files of the --no-gzip run that the
# default run wrote compressed: every urlset (a set of one file has it as
# sitemap.xml itself, where the default run lists sitemap-<hash>.xml.gz in an
# index); the index, which the default run writes uncompressed too, is left
# out. RUNS runs, best wall kept, as for sitemill.
compress_alone_config() {
  local id=$1 label=$2 plain=$out_root/sm_plain out=$out_root/$1 r f files=()
  LABEL[$id]=$label
  COUNT[$id]=$N
  say "$label"
  if [[ ${VERIFY[sm_plain]:-} != OK || ${VERIFY[sm_default]:-} != OK ]]; then
    VERIFY[$id]="skipped (needs the default and --no-gzip runs)"
    return 0
  fi
  for f in "$plain"/*; do
    [[ -f $f ]] || continue
    if [[ ! -e $out_root/sm_default/$(basename "$f") ]] || head -c 4096 "$f" | grep -q '<urlset'; then
      files+=("$f")
    fi
  done
  cat "${files[@]}" > /dev/null # from the page cache, as generate's bytes are
  for ((r = 1; r <= RUNS; r++)); do
    run_timed "$id" "$r" 600 "$out" -- "$COMPRESS_ALONE" "$out" "${files[@]}" || return 0
  done
  if gzip -t "$out"/*.gz; then VERIFY[$id]=OK; else VERIFY[$id]=FAIL failed=1; fi
  say "  ${#files[@]} files compressed alone: ${VERIFY[$id]}"
}

# peer ID LABEL TIMEOUT_S [OPTIONS...]: one run (the peer is slow and steady).
peer_config() {
  local id=$1 label=$2 tmo=$3 out=$out_root/$1
  shift 3
  LABEL[$id]=$label
  COUNT[$id]=$N
  say "$label"
  run_timed "$id" 1 "$tmo" "$out" -- node "$bench/peer_sitemapjs.mjs" "$input" "$out" "$@" || true
  verify "$id" "$out" "$N"
}

input=$(make_input "$N")
cat "$input" > /dev/null # warm the page cache: no run pays the first read
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load=$(cut -d' ' -f1-3 /proc/loadavg)

sitemill_config sm_default "sitemill, default (gzip, libdeflate 6)" "$N" 600 "$RUNS"
sitemill_config sm_fast "sitemill, \`--fast\` (gzip, ISA-L 1)" "$N" 600 "$RUNS" --fast
sitemill_config sm_plain "sitemill, \`--no-gzip\`" "$N" 600 "$RUNS" --no-gzip
# Input-order files: what the default (stable) layout costs over them.
sitemill_config sm_seq "sitemill, \`--layout sequential\` (gzip, input-order files)" "$N" 600 "$RUNS" --layout sequential
compress_alone_config sm_alone "libdeflate 6 alone over sitemill's \`--no-gzip\` files (reference, $(nproc) threads, 2 MiB pieces)"
if [[ $SKIP_README_WAY == 1 ]]; then
  LABEL[sj_readme]="sitemap.js, README way (gzip)"
  VERIFY[sj_readme]=skipped
else
  peer_config sj_readme "sitemap.js, README way (gzip)" 3600
fi
peer_config sj_coalesce "sitemap.js, \`--coalesce\` (gzip, tuned)" 1800 --coalesce
peer_config sj_plain "sitemap.js, \`--no-gzip\`" 1800 --no-gzip
order=(sm_default sm_fast sm_plain sm_seq sm_alone sj_readme sj_coalesce sj_plain)
if [[ $RSS10M == 1 ]]; then
  n10=$((N * 10))
  if ((n10 % 1000000 == 0)); then n10_text=$((n10 / 1000000))M; else n10_text=$(commas "$n10"); fi
  sitemill_config sm_10x "sitemill, $n10_text URLs, default" "$n10" 3600 1
  order+=(sm_10x)
fi

say "gzip -6 references"
ref_sm=$(ref_bytes "$out_root/sm_default" sm_default "$out_root/sm_plain" sm_plain)
ref_sj=$(ref_bytes "$out_root/sj_coalesce" sj_coalesce "$out_root/sj_plain" sj_plain)
[[ -n $ref_sj ]] || ref_sj=$(ref_bytes "$out_root/sj_readme" sj_readme "$out_root/sj_plain" sj_plain)

# --- the table ----------------------------------------------------------------
tuned_rate=
if [[ ${VERIFY[sj_coalesce]:-} == OK ]]; then tuned_rate=$(urls_per_s sj_coalesce); fi

# One row, its bytes against the gzip -6 reference of the same tool.
row() {
  case $1 in
    sm_default | sm_fast | sm_seq | sm_alone) table_row "$1" "$ref_sm" ;;
    sj_readme | sj_coalesce) table_row "$1" "$ref_sj" ;;
    sm_plain | sj_plain) table_row "$1" plain ;;
    *) table_row "$1" "" ;;
  esac
}

build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$root/build/CMakeCache.txt" 2> /dev/null || true)
sitemap_version=$(node -p "require('$PEERS_DIR/node_modules/sitemap/package.json').version")
report=$BENCH_DIR/compare.md
{
  echo "## sitemill vs sitemap.js, $(commas "$N") URLs"
  echo
  machine_line "$started" "$load"
  echo "$("$SITEMILL" --version) (${build_type:-unknown} build), sitemap.js $sitemap_version on node $(node --version)," \
    "input $(commas "$(stat -c %s "$input")") bytes of TSV."
  echo "sitemill: best wall of $RUNS run(s), highest RSS of them; sitemap.js: 1 run."
  echo
  echo "| run | wall s | URLs/s | peak RSS MiB | output bytes | speed vs tuned sitemap.js (x) | bytes vs gzip -6 |"
  echo "|---|---|---|---|---|---|---|"
  for id in "${order[@]}"; do row "$id"; done
  [[ -n $ref_sm ]] && echo "| gzip -6 of sitemill's \`--no-gzip\` files (reference) | | | | $(commas "$ref_sm") | | 1.00 |"
  [[ -n $ref_sj ]] && echo "| gzip -6 of sitemap.js's \`--no-gzip\` files (reference) | | | | $(commas "$ref_sj") | | 1.00 |"
  echo
  echo "Targets (2 cores; set at 1M URLs):"
  if [[ ${VERIFY[sm_default]} == OK ]]; then
    rate=$(urls_per_s sm_default)
    check "sitemill default, URLs/s (1.0 s for 1M)" "$rate" ">=" 1000000
    [[ -n $ref_sm ]] && check "sitemill default, bytes vs gzip -6" "$(ratio "${BYTES[sm_default]}" "$ref_sm")" "<=" 1.00
    [[ -n $tuned_rate ]] && check "sitemill default, speed vs tuned sitemap.js" "$(ratio "$rate" "$tuned_rate")" ">=" 8
    [[ ${VERIFY[sm_alone]:-} == OK ]] &&
      check "sitemill default, wall vs compressing its files alone (${WALL[sm_default]} s / ${WALL[sm_alone]} s)" \
        "$(ratio "${WALL[sm_default]}" "${WALL[sm_alone]}")" "<=" 1.25
    echo "- sitemill default, CPU use (gzip over both cores shows as more than 100%): ${CPU[sm_default]}"
  fi
  if [[ ${VERIFY[sm_seq]:-} == OK && ${VERIFY[sm_alone]:-} == OK ]]; then
    echo "- sitemill \`--layout sequential\`, wall vs compressing its files alone (the default's layout left out):" \
      "$(ratio "${WALL[sm_seq]}" "${WALL[sm_alone]}")"
  fi
  [[ ${VERIFY[sm_fast]} == OK ]] && check "sitemill \`--fast\`, URLs/s" "$(urls_per_s sm_fast)" ">=" 3000000
  for id in sm_default sm_fast sm_plain sm_10x; do
    [[ ${VERIFY[$id]:-} == OK ]] || continue
    # 64 MiB flat, plus at most 16 bytes per URL for duplicate detection.
    check "${LABEL[$id]}, peak RSS MiB (64 MiB + 16 B/URL)" \
      "$(awk -v k="${RSS_KB[$id]}" 'BEGIN {printf "%.1f", k / 1024}')" "<=" \
      "$(awk -v n="${COUNT[$id]}" 'BEGIN {printf "%.1f", 64 + 16 * n / 1048576}')"
  done
} > "$report"
cat "$report"
say "written to $report"
if ((failed)); then
  say "some runs failed or did not verify: see above and $BENCH_DIR/logs"
fi
exit "$failed"
