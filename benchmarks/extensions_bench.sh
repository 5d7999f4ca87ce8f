#!/usr/bin/env bash
# sitemill against sitemap.js on N URLs that each carry hreflang alternates
# (clusters of four languages: the self link and three alternates) and two
# images, gzip default, in one run: wall, URLs/s, peak RSS, output bytes, as
# ratios to the tuned peer and to gzip -6. Both outputs are verified: URL
# count, every <xhtml:link> and <image:image> written, the first child
# against the official schemas (all.xsd). sitemill also runs on the same
# records without their alternates, so the memory cluster completion costs
# per hreflang link is told apart from what the rest of the run holds.
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
# The baseline: the same records without their alternates, to tell what
# cluster completion costs (time and memory) from what images and the rest do.
input_noalt=$BENCH_DIR/data/ext-$N-noalt.jsonl
if [[ ! -s $input_noalt ]]; then
  python3 "$here/make_ext_input.py" "$tsv" "$input_noalt.tmp" --images "$IMAGES" \
    --languages en,de,fr,es --no-alternates
  mv "$input_noalt.tmp" "$input_noalt"
fi
cat "$input" "$input_noalt" > /dev/null # warm the page cache

# Links written: each cluster of k pages lists k links on each of its pages.
full=$((N / LANGS)) rest=$((N % LANGS))
links=$((full * LANGS * LANGS + rest * rest))
verify() { # ID OUT [LINKS]
  verify_output "$1" "$2" "$N" --xsd "$root/schemas/all.xsd" \
    --index-xsd "$root/schemas/siteindex.xsd" \
    --elements "xhtml:link=${3:-$links}" --elements "image:image=$((N * IMAGES))"
}

sitemill_config() { # ID LABEL [OPTIONS...]; $from overrides the input
  local id=$1 out=$out_root/$1 r in=${from:-$input}
  LABEL[$id]=$2
  COUNT[$id]=$N
  shift 2
  say "${LABEL[$id]}"
  for ((r = 1; r <= RUNS; r++)); do
    run_timed "$id" "$r" 1800 "$out" -- "$SITEMILL" generate \
      --base-url https://www.example.com/ --out "$out" -q "$@" "$in" || break
  done
  if [[ $in == "$input" ]]; then verify "$id" "$out"; else verify "$id" "$out" 0; fi
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
from=$input_noalt sitemill_config sm_noalt "sitemill, default, the same records without alternates"
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
    sm_noalt) table_row "$1" "" ;; # other records: no reference to compare with
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
  for id in sm_default sm_plain sm_noalt sj_coalesce sj_plain; do row "$id"; done
  echo
  echo "Targets:"
  if [[ ${VERIFY[sm_default]} == OK ]]; then
    [[ -n $tuned_rate ]] && check "sitemill default, speed vs tuned sitemap.js" \
      "$(ratio "$(urls_per_s sm_default)" "$tuned_rate")" ">=" 6
    [[ -n $ref_sm ]] && check "sitemill default, bytes vs gzip -6" \
      "$(ratio "${BYTES[sm_default]}" "$ref_sm")" "<=" 1.00
    # Cluster completion keeps every clustered URL until the end of the
    # input: what it costs beyond the same run without alternates, per link.
    # (Both hold whole files for libdeflate: a file's size per compression
    # thread, and one being filled.)
    if [[ ${VERIFY[sm_noalt]:-} == OK ]]; then
      echo "- sitemill default, peak RSS: $(mib "${RSS_KB[sm_default]}") MiB, against" \
        "$(mib "${RSS_KB[sm_noalt]}") MiB without alternates: cluster completion costs" \
        "$(awk -v k="${RSS_KB[sm_default]}" -v b="${RSS_KB[sm_noalt]}" -v l="$links" 'BEGIN {d = (k - b) * 1024; if (d < 0) d = 0; printf "%.0f", d / l}')" \
        "bytes per hreflang link ($(awk -v k="${RSS_KB[sm_default]}" -v b="${RSS_KB[sm_noalt]}" -v n="$N" 'BEGIN {d = (k - b) * 1024; if (d < 0) d = 0; printf "%.0f", d / n}') per clustered URL)"
    fi
  fi
} > "$report"
cat "$report"
say "written to $report"
exit "$failed"
