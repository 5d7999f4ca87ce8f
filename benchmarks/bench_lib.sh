# Shared by the end-to-end benchmark scripts (compare_peer.sh,
# extensions_bench.sh, scale_bench.sh): prerequisites, the measured run,
# output bytes and the number formatting of their tables. Sourced, not run.
#
# The sourcing script sets `root` (the repository) first. Sourcing sets these
# from the environment or their defaults:
#   BENCH_DIR   scratch space (/tmp/bench); logs go to $BENCH_DIR/logs
#   SHARED_DIR  holds bench/make_urls.py (../shared next to the repository)
#   PEERS_DIR   where sitemap.js is installed ($BENCH_DIR/peers; exported:
#               the peer scripts load it from there)
#   SITEMILL    the binary (default_sitemill: build/sitemill, which
#               bench_prerequisites builds when it is missing)
#   RUNS        runs per sitemill configuration, best wall kept (3)
# The script declares the per-configuration tables LABEL WALL RSS_KB CPU
# BYTES COUNT VERIFY (associative arrays keyed by a configuration id) and
# `failed`.

BENCH_DIR=${BENCH_DIR:-/tmp/bench}
SHARED_DIR=${SHARED_DIR:-$root/../shared}
PEERS_DIR=${PEERS_DIR:-$BENCH_DIR/peers}
export PEERS_DIR
default_sitemill=$root/build/sitemill
SITEMILL=${SITEMILL:-$default_sitemill}
RUNS=${RUNS:-3}

say() { printf '%s\n' "$*" >&2; }

# Prints N when it is a positive count of URLs; exits 2 (usage) otherwise.
bench_count() {
  if [[ ! $1 =~ ^[1-9][0-9]*$ ]]; then
    say "usage: $0 [N]   (N: number of URLs, default 1000000)"
    exit 2
  fi
  printf '%s\n' "$1"
}

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

# npm_peer MODULE SPEC: installs the npm package SPEC into PEERS_DIR unless
# node_modules/MODULE is already there (the peers are pinned by major version).
npm_peer() {
  if [[ ! -f $PEERS_DIR/node_modules/$1/package.json ]]; then
    say "installing $2 into $PEERS_DIR"
    mkdir -p "$PEERS_DIR"
    npm install --prefix "$PEERS_DIR" --no-audit --no-fund "$2" >&2
  fi
}

# Installs what the benchmarks lack (apt: nodejs npm time python3 gzip
# libxml2-utils; npm: sitemap@9 into PEERS_DIR) and builds sitemill when
# SITEMILL is the default and missing. Checked by command rather than by
# package: a node from another source (nodesource bundles npm) must not be
# "fixed" by apt's conflicting npm.
bench_prerequisites() {
  local missing=()
  command -v node > /dev/null 2>&1 || missing+=(nodejs)
  command -v npm > /dev/null 2>&1 || missing+=(npm)
  [[ -x /usr/bin/time ]] || missing+=(time) # GNU time: the shell keyword has no -v
  command -v python3 > /dev/null 2>&1 || missing+=(python3)
  command -v gzip > /dev/null 2>&1 || missing+=(gzip)
  command -v xmllint > /dev/null 2>&1 || missing+=(libxml2-utils)
  if ((${#missing[@]})); then
    say "installing: ${missing[*]}"
    as_root apt-get update >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >&2
  fi
  npm_peer sitemap sitemap@9
  if [[ ! -x $SITEMILL ]]; then
    if [[ $SITEMILL != "$default_sitemill" ]]; then
      say "SITEMILL=$SITEMILL is not an executable"
      exit 2
    fi
    say "building sitemill"
    "$root/scripts/build.sh"
  fi
  [[ -f $SHARED_DIR/bench/make_urls.py ]] || {
    say "missing $SHARED_DIR/bench/make_urls.py (set SHARED_DIR)"
    exit 2
  }
  mkdir -p "$BENCH_DIR/data" "$BENCH_DIR/logs"
}

# Makes (once) and prints the path of make_urls.py's n-URL TSV input.
make_input() {
  local n=$1 tsv=$BENCH_DIR/data/urls-$1.tsv tmp=$BENCH_DIR/data/.tmp-urls-$1
  if [[ ! -s $tsv ]]; then
    say "making $n URLs (about 9 s per million)"
    python3 "$SHARED_DIR/bench/make_urls.py" "$n" "$tmp"
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
mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }

# table_row ID REF: one row of a results table (run, wall s, URLs/s, peak RSS
# MiB, output bytes, speed vs the tuned peer, bytes vs gzip -6). REF is the
# gzip -6 reference bytes, "plain" for an uncompressed run, or empty when
# there is none; the speed needs `tuned_rate` (the tuned peer's URLs/s).
table_row() {
  local id=$1 ref=$2 rate speed=— vs=—
  if [[ -z ${WALL[$id]:-} || ${VERIFY[$id]} != OK ]]; then
    printf '| %s | %s | | | | | |\n' "${LABEL[$id]}" "${VERIFY[$id]}"
    return
  fi
  rate=$(urls_per_s "$id")
  [[ -n ${tuned_rate:-} ]] && speed=$(ratio "$rate" "$tuned_rate")
  if [[ $ref == plain ]]; then
    vs="(plain)"
  elif [[ -n $ref ]]; then
    vs=$(ratio "${BYTES[$id]}" "$ref")
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "${LABEL[$id]}" "${WALL[$id]}" \
    "$(human_rate "$rate")" "$(mib "${RSS_KB[$id]}")" "$(commas "${BYTES[$id]}")" "$speed" "$vs"
}

# Target checks print "met" or "MISSED"; misses are news, not errors.
check() { # DESCRIPTION VALUE OP LIMIT
  local verdict=MISSED
  awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN {
    exit !((op == "<=" && v <= l) || (op == ">=" && v >= l)) }' && verdict=met
  printf -- '- %s: %s (target %s %s): **%s**\n' "$1" "$2" "$3" "$4" "$verdict"
}

# --- measuring ----------------------------------------------------------------
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
  local log=$BENCH_DIR/logs/$id-$run rc=0 t0 t1 wall rss cpu
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

# verify_output ID OUTDIR N [verify_set.py OPTIONS...]: counts the URLs back
# and checks the set; a run that failed is already reported.
verify_output() {
  local id=$1 out=$2 n=$3 msg
  shift 3
  [[ -n ${VERIFY[$id]:-} ]] && return 0
  if msg=$(python3 "$root/benchmarks/verify_set.py" "$out" "$n" "$@"); then
    VERIFY[$id]=OK
  else
    VERIFY[$id]=FAIL
    failed=1
  fi
  say "  $msg"
}

# gzip -6 of each file of the same tool's --no-gzip run: the same files and
# the same split, so the ratio isolates the compressor. Prints nothing unless
# both runs verified.
ref_bytes() { # GZ_OUTDIR GZ_ID PLAIN_OUTDIR PLAIN_ID
  [[ ${VERIFY[$2]:-} == OK && ${VERIFY[$4]:-} == OK ]] || return 0
  python3 "$root/benchmarks/verify_set.py" --gzip6-ref "$1" "$3"
}

machine_line() {
  local cpu_model
  cpu_model=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo)
  printf 'Machine: %s cores, %s; %s; load average at start %s.\n' "$(nproc)" \
    "${cpu_model:-unknown CPU}" "$1" "$2"
}
