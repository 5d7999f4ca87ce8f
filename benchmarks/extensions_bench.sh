#!/usr/bin/env bash
# sitemill against sitemap.js on N URLs that each carry hreflang alternates
# (clusters of four languages: the self link and three alternates) and two
# images, gzip default, in one run: wall, URLs/s, peak RSS, output bytes, as
# ratios to the tuned peer and to gzip -6. Both outputs are verified: URL
# count, every <xhtml:link> and <image:image> written, the first child
# against the official schemas (all.xsd).
#
# usage: benchmarks/extensions_bench.sh [N]      (N defaults to 1000000)
# env: BENCH_DIR, SHARED_DIR, PEERS_DIR, SITEMILL, RUNS as compare_peer.sh.
#
# Exit status: 0 every output verified; 1 a run failed or did not verify
# (missed targets are reported, not failures); 2 usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh" # BENCH_DIR, SHARED_DIR, PEERS_DIR, SITEMILL, RUNS
N=$(bench_count "${1:-1000000}")

LANGS=4   # pages per cluster: each page lists 4 links (3 alternates + itself)
IMAGES=2
out_root=$BENCH_DIR/out-ext

bench_prerequisites
mkdir -p "$out_root"
declare -A LABEL WALL RSS_KB CPU BYTES COUNT VERIFY
failed=0

tsv=$(make_input "$N")
input=$BENCH_DIR/data/ext-$N.jsonl
if [[ ! -s $input ]]; then
  say "making the extension input from $tsv"
  python3 "$here/make_ext_input.py" "$tsv" "$input.tmp" --images "$IMAGES" \
    --languages en,de,fr,es
  mv "$input.tmp" "$input"
fi
cat "$input" > /dev/null # warm the page cache

# Links written: each cluster of k pages lists k links on each of its pages.
full=$((N / LANGS)) rest=$((N % LANGS))
links=$((full * LANGS * LANGS + rest * rest))
verify() {
  verify_output "$1" "$2" "$N" --xsd "$root/schemas/all.xsd" \
    --index-xsd "$root/schemas/siteindex.xsd" \
    --elements "xhtml:link=$links" --elements "image:image=$((N * IMAGES))"
}

sitemill_config() { # ID LABEL [OPTIONS...]
  local id=$1 out=$out_root/$1 r
  LABEL[$id]=$2
  COUNT[$id]=$N
  shift 2
  say "${LABEL[$id]}"
  for ((r = 1; r <= RUNS; r++)); do
    run_timed "$id" "$r" 1800 "$out" -- "$SITEMILL" generate \
      --base-url https://www.example.com/ --out "$out" -q "$@" "$input" || break
  done
  verify "$id" "$out"
}

peer_config() { # ID LABEL [OPTIONS...]
  local id=$1 out=$out_root/$1
  LABEL[$id]=$2
  COUNT[$id]=$N
  shift 2
  say "${LABEL[$id]}"
  run_timed "$id" 1 3600 "$out" -- node "$here/peer_sitemapjs_ext.mjs" "$input" "$out" "$@" || true
  verify "$id" "$out"
}

started=$(date -u '+%Y-%m-%d %H:%M UTC')
load=$(cut -d' ' -f1-3 /proc/loadavg)
sitemill_config sm_default "sitemill, default (gzip, libdeflate 6)"
sitemill_config sm_plain "sitemill, \`--no-gzip\`"  --no-gzip
peer_config sj_coalesce "sitemap.js, \`--coalesce\` (gzip, tuned)" --coalesce
peer_config sj_plain "sitemap.js, \`--no-gzip\`" --no-gzip

ref_sm=$(ref_bytes "$out_root/sm_default" sm_default "$out_root/sm_plain" sm_plain)
ref_sj=$(ref_bytes "$out_root/sj_coalesce" sj_coalesce "$out_root/sj_plain" sj_plain)
tuned_rate=
[[ ${VERIFY[sj_coalesce]:-} == OK ]] && tuned_rate=$(urls_per_s sj_coalesce)

# One row, its bytes against the gzip -6 reference of the same tool.
row() {
  case $1 in
    sm_default) table_row "$1" "$ref_sm" ;;
    sj_coalesce) table_row "$1" "$ref_sj" ;;
    *) table_row "$1" plain ;;
  esac
}

report=$BENCH_DIR/extensions.md
{
  echo "## sitemill vs sitemap.js, $(commas "$N") URLs with hreflang and images"
  echo
  machine_line "$started" "$load"
  echo "$("$SITEMILL" --version), sitemap.js $(node -p "require('$PEERS_DIR/node_modules/sitemap/package.json').version")" \
    "on node $(node --version); input $(commas "$(stat -c %s "$input")") bytes of JSONL:" \
    "clusters of $LANGS languages (each page lists $LANGS links, itself included), $IMAGES images per URL,"
  echo "$(commas "$links") \`<xhtml:link>\` in all. sitemill: best wall of $RUNS run(s), highest RSS; sitemap.js: 1 run."
  echo
  echo "| run | wall s | URLs/s | peak RSS MiB | output bytes | speed vs tuned sitemap.js (x) | bytes vs gzip -6 |"
  echo "|---|---|---|---|---|---|---|"
  for id in sm_default sm_plain sj_coalesce sj_plain; do row "$id"; done
  echo
  echo "Targets:"
  if [[ ${VERIFY[sm_default]} == OK ]]; then
    [[ -n $tuned_rate ]] && check "sitemill default, speed vs tuned sitemap.js" \
      "$(ratio "$(urls_per_s sm_default)" "$tuned_rate")" ">=" 6
    [[ -n $ref_sm ]] && check "sitemill default, bytes vs gzip -6" \
      "$(ratio "${BYTES[sm_default]}" "$ref_sm")" "<=" 1.00
    # Cluster completion keeps every clustered URL and link until the end of
    # the input: what it costs beyond the flat 64 MiB, per link.
    echo "- sitemill default, peak RSS: $(mib "${RSS_KB[sm_default]}") MiB; beyond 64 MiB that is" \
      "$(awk -v k="${RSS_KB[sm_default]}" -v l="$links" 'BEGIN {b = k * 1024 - 64 * 1048576; if (b < 0) b = 0; printf "%.0f", b / l}')" \
      "bytes per hreflang link"
  fi
} > "$report"
cat "$report"
say "written to $report"
exit "$failed"
