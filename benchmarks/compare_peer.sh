#!/usr/bin/env bash
# End-to-end comparison of sitemill with sitemap.js (npm "sitemap" 9) on the
# same N-URL input, in one run: wall time, URLs/s, peak RSS and output bytes
# side by side, as ratios to the tuned peer and to gzip -6.
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

N=${1:-1000000}
if [[ ! $N =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [N]   (N: number of URLs, default 1000000)" >&2
  exit 2
fi
BENCH_DIR=${BENCH_DIR:-/tmp/bench}
SHARED_DIR=${SHARED_DIR:-$root/../shared}
PEERS_DIR=${PEERS_DIR:-$BENCH_DIR/peers}
export PEERS_DIR # peer_sitemapjs.mjs loads sitemap.js from there
default_sitemill=$root/build/sitemill
SITEMILL=${SITEMILL:-$default_sitemill}
SKIP_README_WAY=${SKIP_README_WAY:-0}
RSS10M=${RSS10M:-0}
RUNS=${RUNS:-3}
bench=$SHARED_DIR/bench
xsd=$root/schemas/sitemap.xsd
index_xsd=$root/schemas/siteindex.xsd
out_root=$BENCH_DIR/out
logs=$BENCH_DIR/logs

say() { printf '%s\n' "$*" >&2; }

as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif command -v sudo > /dev/null; then
    sudo "$@"
  else
    say "need root to run: $*"
    exit 1
  fi
}

# --- prerequisites ------------------------------------------------------------
# Checked by command rather than by package: a node from another source
# (nodesource bundles npm) must not be "fixed" by apt's conflicting npm.
missing=()
need() { command -v "$1" > /dev/null 2>&1 || missing+=("$2"); }
need node nodejs
need npm npm
[[ -x /usr/bin/time ]] || missing+=(time) # GNU time: the shell keyword has no -v
need python3 python3
need gzip gzip
need xmllint libxml2-utils
if ((${#missing[@]})); then
  say "installing: ${missing[*]}"
  as_root apt-get update >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >&2
fi

if [[ ! -f $PEERS_DIR/node_modules/sitemap/package.json ]]; then
  say "installing sitemap@9 into $PEERS_DIR"
  mkdir -p "$PEERS_DIR"
  npm install --prefix "$PEERS_DIR" --no-audit --no-fund sitemap@9 >&2
fi

if [[ ! -x $SITEMILL ]]; then
  if [[ $SITEMILL != "$default_sitemill" ]]; then
    say "SITEMILL=$SITEMILL is not an executable"
    exit 2
  fi
  say "building sitemill"
  "$root/scripts/build.sh"
fi
for f in make_urls.py peer_sitemapjs.mjs; do
  [[ -f $bench/$f ]] || { say "missing $bench/$f (set SHARED_DIR)"; exit 2; }
done

mkdir -p "$BENCH_DIR/data" "$out_root" "$logs"

# Makes (once) and prints the path of the n-URL input.
make_input() {
  local n=$1 tsv=$BENCH_DIR/data/urls-$1.tsv tmp=$BENCH_DIR/data/.tmp-urls-$1
  if [[ ! -s $tsv ]]; then
    say "making $n URLs (about 9 s per million)"
    python3 "$bench/make_urls.py" "$n" "$tmp"
    rm -f "$tmp.txt"     # only the TSV is used; the .txt is as large again
    mv "$tmp.tsv" "$tsv" # renamed last, so an interrupted run is not cached
  fi
  printf '%s\n' "$tsv"
}

# --- formatting ---------------------------------------------------------------
urls_per_s() { awk -v n="${COUNT[$1]}" -v w="${WALL[$1]}" 'BEGIN {printf "%.0f", n / w}'; }
human_rate() {
  awk -v r="$1" 'BEGIN {
    if (r >= 1e6) printf "%.2fM", r / 1e6; else if (r >= 1e4) printf "%.0fk", r / 1e3;
    else if (r >= 1e3) printf "%.1fk", r / 1e3; else printf "%.0f", r }'
}
commas() { awk -v n="$1" 'BEGIN { s = sprintf("%.0f", n); o = "";
  while (length(s) > 3) { o = "," substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) }
  print s o }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

# --- measuring ----------------------------------------------------------------
# Per configuration id: what the table shows.
declare -A LABEL WALL RSS_KB CPU BYTES COUNT VERIFY
failed=0

# Bytes of the published files; sitemill's bookkeeping dot-files are not output.
output_bytes() {
  find "$1" -maxdepth 1 -type f ! -name '.*' -printf '%s\n' |
    awk '{s += $1} END {print s + 0}'
}

# run_timed ID RUN TIMEOUT_S OUTDIR -- COMMAND...: one run under /usr/bin/time
# -v into a fresh OUTDIR; keeps the best wall and the highest RSS of an ID's
# runs (the memory target is about the worst case).
run_timed() {
  local id=$1 run=$2 tmo=$3 out=$4
  shift 5
  local log=$logs/$id-$run rc=0 t0 t1 wall rss cpu
  rm -rf "$out"
  sync # so earlier runs' writeback is not billed to this one
  t0=$(date +%s%N)
  /usr/bin/time -v -o "$log.time" timeout "$tmo" "$@" > "$log.out" 2>&1 || rc=$?
  t1=$(date +%s%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}')
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log.time")
  cpu=$(awk -F': ' '/Percent of CPU this job got/ {print $2}' "$log.time")
  say "  $id run $run: ${wall} s, $((rss / 1024)) MiB, CPU $cpu, exit $rc"
  if ((rc != 0)); then
    say "  $id failed (exit $rc); its output: $log.out"
    VERIFY[$id]="run failed (exit $rc)"
    failed=1
    return 1
  fi
  if [[ -z ${WALL[$id]:-} ]] || awk -v a="$wall" -v b="${WALL[$id]}" 'BEGIN {exit !(a < b)}'; then
    WALL[$id]=$wall
    CPU[$id]=$cpu
  fi
  if [[ -z ${RSS_KB[$id]:-} ]] || ((rss > ${RSS_KB[$id]})); then RSS_KB[$id]=$rss; fi
  BYTES[$id]=$(output_bytes "$out")
}

# verify ID OUTDIR N: counts the URLs back and checks the set (verify_set.py).
verify() {
  local id=$1 out=$2 n=$3 msg
  [[ -n ${VERIFY[$id]:-} ]] && return 0 # the run failed: already reported
  if msg=$(python3 "$here/verify_set.py" "$out" "$n" --xsd "$xsd" --index-xsd "$index_xsd"); then
    VERIFY[$id]=OK
  else
    VERIFY[$id]=FAIL
    failed=1
  fi
  say "  $msg"
}

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
if [[ $SKIP_README_WAY == 1 ]]; then
  LABEL[sj_readme]="sitemap.js, README way (gzip)"
  VERIFY[sj_readme]=skipped
else
  peer_config sj_readme "sitemap.js, README way (gzip)" 3600
fi
peer_config sj_coalesce "sitemap.js, \`--coalesce\` (gzip, tuned)" 1800 --coalesce
peer_config sj_plain "sitemap.js, \`--no-gzip\`" 1800 --no-gzip
order=(sm_default sm_fast sm_plain sj_readme sj_coalesce sj_plain)
if [[ $RSS10M == 1 ]]; then
  n10=$((N * 10))
  if ((n10 % 1000000 == 0)); then n10_text=$((n10 / 1000000))M; else n10_text=$(commas "$n10"); fi
  sitemill_config sm_10x "sitemill, $n10_text URLs, default" "$n10" 3600 1
  order+=(sm_10x)
fi

# gzip -6 of each file of the same tool's --no-gzip run: the same files and the
# same split, so the ratio isolates the compressor.
ref_bytes() { # GZ_ID PLAIN_ID
  [[ ${VERIFY[$1]:-} == OK && ${VERIFY[$2]:-} == OK ]] || return 0
  python3 "$here/verify_set.py" --gzip6-ref "$out_root/$1" "$out_root/$2"
}
say "gzip -6 references"
ref_sm=$(ref_bytes sm_default sm_plain)
ref_sj=$(ref_bytes sj_coalesce sj_plain)
[[ -n $ref_sj ]] || ref_sj=$(ref_bytes sj_readme sj_plain)

# --- the table ----------------------------------------------------------------
tuned_rate=
if [[ ${VERIFY[sj_coalesce]:-} == OK ]]; then tuned_rate=$(urls_per_s sj_coalesce); fi

row() {
  local id=$1 rate speed=— vs=— ref=
  if [[ -z ${WALL[$id]:-} || ${VERIFY[$id]} != OK ]]; then
    printf '| %s | %s | | | | | |\n' "${LABEL[$id]}" "${VERIFY[$id]}"
    return
  fi
  rate=$(urls_per_s "$id")
  [[ -n $tuned_rate ]] && speed=$(ratio "$rate" "$tuned_rate")
  case $id in
    sm_default | sm_fast) ref=$ref_sm ;;
    sj_readme | sj_coalesce) ref=$ref_sj ;;
    sm_plain | sj_plain) vs="(plain)" ;;
  esac
  [[ -n $ref ]] && vs=$(ratio "${BYTES[$id]}" "$ref")
  printf '| %s | %s | %s | %.1f | %s | %s | %s |\n' "${LABEL[$id]}" "${WALL[$id]}" \
    "$(human_rate "$rate")" "$(awk -v k="${RSS_KB[$id]}" 'BEGIN {print k / 1024}')" \
    "$(commas "${BYTES[$id]}")" "$speed" "$vs"
}

# Target checks print "met" or "MISSED"; misses are news, not errors.
check() { # DESCRIPTION VALUE OP LIMIT
  local verdict=MISSED
  awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN {
    exit !((op == "<=" && v <= l) || (op == ">=" && v >= l)) }' && verdict=met
  printf -- '- %s: %s (target %s %s): **%s**\n' "$1" "$2" "$3" "$4" "$verdict"
}

cpu_model=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$root/build/CMakeCache.txt" 2> /dev/null || true)
sitemap_version=$(node -p "require('$PEERS_DIR/node_modules/sitemap/package.json').version")
report=$BENCH_DIR/compare.md
{
  echo "## sitemill vs sitemap.js, $(commas "$N") URLs"
  echo
  echo "Machine: $(nproc) cores, ${cpu_model:-unknown CPU}; $started; load average at start $load."
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
    [[ -n $tuned_rate ]] && check "sitemill default, speed vs tuned sitemap.js" "$(ratio "$rate" "$tuned_rate")" ">=" 6
    echo "- sitemill default, CPU use (gzip over both cores shows as more than 100%): ${CPU[sm_default]}"
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
  say "some runs failed or did not verify: see above and $logs"
fi
exit "$failed"
