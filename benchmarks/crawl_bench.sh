#!/usr/bin/env bash
# Crawling a live site (issue 12): a static site of N interlinked pages
# (benchmarks/make_crawl_site.py) served on loopback by Debian's nginx, so the
# server is not the bottleneck, crawled in one run by sitemill
# (`generate --from-crawl`) and by npm sitemap-generator-cli at the same
# concurrency: pages found, wall time, peak RSS, and sitemill's unchanged
# re-crawl with --state, reported separately. The HTTP floor is measured in
# the same run: Debian's curl alone (the libcurl sitemill uses) asking for
# every page at the same concurrency, in full and conditionally (all 304),
# with nothing parsed or written: no crawler, first or re-crawl, is faster.
#
# usage: benchmarks/crawl_bench.sh [N]           (N pages, default 20000)
# env:
#   BENCH_DIR     scratch: the site, nginx's prefix, outputs, logs (/tmp/bench)
#   PEERS_DIR     where the npm peers are installed ($BENCH_DIR/peers)
#   SITEMILL      the binary (build/sitemill)
#   CONCURRENCY   requests in flight for both crawlers (8)
#   RSS_PER_URL   bytes per known URL the RSS target allows on top of 64 MiB
#                 (640: measured, 34 MiB at 20,000 pages against 20 MiB at
#                 2,000, the set's own bookkeeping included; README)
#   PEER_CLI      1 adds sitemap-generator-cli as shipped: its crawler waits
#                 250 ms between requests whatever the concurrency, so N/4 s
#                 (83 minutes at 20,000); the targets use the tuned run of the
#                 same library (peer_sitemap_generator.js: interval 0)
#
# nginx runs as the current user from a config and prefix under
# $BENCH_DIR/crawl/nginx, on a free loopback port, and is stopped on exit; the
# package's own service is not used. A sitemill built before `--from-crawl`
# (as `generate --help` tells) runs only the site, nginx and the peer, and
# the report says its side is not available.
#
# Installs what it lacks (apt: nginx-light nodejs npm time python3; npm:
# sitemap-generator-cli@7 into PEERS_DIR); no network but loopback otherwise.
# Prints a Markdown table and writes it to $BENCH_DIR/crawl.md.
#
# Exit status: 0 every run finished; 1 a run failed (missed targets are
# reported, not failures); 2 usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh" # BENCH_DIR, PEERS_DIR, SITEMILL, helpers
if [[ ! ${1:-20000} =~ ^[1-9][0-9]*$ ]]; then
  say "usage: $0 [N]   (N: number of pages, default 20000)"
  exit 2
fi
N=${1:-20000}
CONCURRENCY=${CONCURRENCY:-8}
RSS_PER_URL=${RSS_PER_URL:-640}
PEER_CLI=${PEER_CLI:-0}
work=$BENCH_DIR/crawl
out_root=$work/out

# --- prerequisites --------------------------------------------------------------
missing=()
[[ -x /usr/sbin/nginx ]] || missing+=(nginx-light)
command -v node > /dev/null 2>&1 || missing+=(nodejs)
command -v npm > /dev/null 2>&1 || missing+=(npm)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v python3 > /dev/null 2>&1 || missing+=(python3)
command -v curl > /dev/null 2>&1 || missing+=(curl)
if ((${#missing[@]})); then
  say "installing: ${missing[*]}"
  as_root apt-get update >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi
npm_peer sitemap-generator-cli sitemap-generator-cli@7
peer_bin=$PEERS_DIR/node_modules/.bin/sitemap-generator
if [[ ! -x $SITEMILL ]]; then
  [[ $SITEMILL == "$default_sitemill" ]] || { say "SITEMILL=$SITEMILL is not an executable"; exit 2; }
  say "building sitemill"
  "$root/scripts/build.sh"
fi
have_crawl=0
# Read whole before grep: `grep -q` quits at the first match, and under
# pipefail the SIGPIPE that gives `generate --help` would fail the test.
if grep -q -- --from-crawl <<< "$("$SITEMILL" generate --help 2> /dev/null)"; then
  have_crawl=1
fi
mkdir -p "$work" "$out_root" "$BENCH_DIR/logs"

# --- the site -------------------------------------------------------------------
site=$work/site-$N
if [[ ! -f $site/.complete ]]; then
  say "writing the $N-page site to $site"
  rm -rf "$site"
  python3 "$here/make_crawl_site.py" "$N" "$site"
  touch "$site/.complete" # so an interrupted run is not reused
fi

# --- nginx ----------------------------------------------------------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ngx=$work/nginx
rm -rf "$ngx"
mkdir -p "$ngx/logs" "$ngx/tmp"
user_line=
# As root, nginx's workers would switch to `nobody`; the site and prefix are
# the current user's, so the workers stay that user.
[[ $EUID -eq 0 ]] && user_line="user $(id -un);"
cat > "$ngx/nginx.conf" << EOF
$user_line
worker_processes auto;
pid $ngx/nginx.pid;
error_log $ngx/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $ngx/tmp/body;
  proxy_temp_path $ngx/tmp/proxy;
  fastcgi_temp_path $ngx/tmp/fastcgi;
  uwsgi_temp_path $ngx/tmp/uwsgi;
  scgi_temp_path $ngx/tmp/scgi;
  types { text/html html; text/css css; image/jpeg jpg; }
  default_type application/octet-stream;
  sendfile on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:$port;
    root $site;
    index index.html;
  }
}
EOF
/usr/sbin/nginx -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/logs/error.log"
stop_nginx() { [[ -f $ngx/nginx.pid ]] && kill "$(cat "$ngx/nginx.pid")" 2> /dev/null || true; }
trap stop_nginx EXIT
url=http://127.0.0.1:$port/
for _ in $(seq 50); do curl -sf -o /dev/null "$url" && break; sleep 0.1; done
sample_lm=$(curl -sfI "${url}s1/p1.html" | tr -d '\r' | sed -n 's/^Last-Modified: //p')
say "nginx $(/usr/sbin/nginx -v 2>&1 | sed 's/.*\///') on $url (Last-Modified of /s1/p1.html: $sample_lm)"

declare -A LABEL WALL RSS_KB CPU BYTES COUNT VERIFY FOUND
failed=0

# Pages listed in a crawler's output directory: <url> elements of every
# sitemap in it, gzipped or not.
found_in() {
  python3 - "$1" << 'PY'
import gzip, os, re, sys
n = 0
for name in os.listdir(sys.argv[1]):
    if name.startswith(".") or not (name.endswith(".xml") or name.endswith(".xml.gz")):
        continue
    path = os.path.join(sys.argv[1], name)
    data = gzip.open(path).read() if name.endswith(".gz") else open(path, "rb").read()
    n += len(re.findall(rb"<url>", data))
print(n)
PY
}

# crawl ID LABEL OUTDIR -- COMMAND...: one timed run; FOUND[ID] its pages.
crawl() {
  local id=$1 label=$2 out=$3
  shift 4
  LABEL[$id]=$label
  COUNT[$id]=$N
  say "$label"
  if run_timed "$id" 1 3600 "$out" -- sh -c 'mkdir -p "$0" && exec "$@"' "$out" "$@"; then
    FOUND[$id]=$(found_in "$out")
    VERIFY[$id]=OK
    say "  pages found: ${FOUND[$id]}"
  fi
}

peer_version=$(node -p "require('$PEERS_DIR/node_modules/sitemap-generator-cli/package.json').version")
generator_version=$(node -p "require('$PEERS_DIR/node_modules/sitemap-generator/package.json').version")
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load=$(cut -d' ' -f1-3 /proc/loadavg)
# The peer as its README runs it, and with its request interval at 0 (the
# one setting the CLI hides: 250 ms between requests, 4 pages/s at most),
# which is the row the targets compare with.
if [[ $PEER_CLI == 1 ]]; then
  crawl peer_cli "sitemap-generator-cli, --max-concurrency $CONCURRENCY (as shipped)" "$out_root/peer_cli" -- \
    "$peer_bin" --max-concurrency "$CONCURRENCY" --filepath "$out_root/peer_cli/sitemap.xml" "$url" || true
else
  LABEL[peer_cli]="sitemap-generator-cli, as shipped (250 ms between requests)"
  VERIFY[peer_cli]="skipped (PEER_CLI=0; about N/4 s)"
fi
crawl peer "sitemap-generator $generator_version, maxConcurrency $CONCURRENCY, interval 0 (tuned)" "$out_root/peer" -- \
  node "$here/peer_sitemap_generator.js" "$url" "$out_root/peer/sitemap.xml" "$CONCURRENCY" || true
order=(peer_cli peer)
if ((have_crawl)); then
  state=$work/crawl.state
  rm -f "$state" "$state-crawl" "$state-crawl-wal" "$state-crawl-shm"  # the crawl cache too
  crawl sm "sitemill, --concurrency $CONCURRENCY" "$out_root/sm" -- \
    "$SITEMILL" generate --from-crawl "$url" --concurrency "$CONCURRENCY" \
    --out "$out_root/sm" --base-url "$url" -q || true
  crawl sm_state1 "sitemill, --state, first crawl" "$out_root/sm_state" -- \
    "$SITEMILL" generate --from-crawl "$url" --concurrency "$CONCURRENCY" \
    --out "$out_root/sm_state" --base-url "$url" --state "$state" -q || true
  # The same --out and --state again: the site has not changed.
  LABEL[sm_state2]="sitemill, --state, unchanged re-crawl"
  COUNT[sm_state2]=$N
  say "${LABEL[sm_state2]}"
  log=$BENCH_DIR/logs/sm_state2-1
  t0=$(date +%s%N)
  if /usr/bin/time -v -o "$log.time" timeout 3600 "$SITEMILL" generate --from-crawl "$url" \
    --concurrency "$CONCURRENCY" --out "$out_root/sm_state" --base-url "$url" \
    --state "$state" -q > "$log.out" 2>&1; then
    t1=$(date +%s%N)
    WALL[sm_state2]=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}')
    RSS_KB[sm_state2]=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log.time")
    FOUND[sm_state2]=$(found_in "$out_root/sm_state")
    VERIFY[sm_state2]=OK
    say "  ${WALL[sm_state2]} s, pages found: ${FOUND[sm_state2]}"
  else
    VERIFY[sm_state2]="run failed"
    failed=1
  fi
  order+=(sm sm_state1 sm_state2)
  # The floor: curl alone, the same pages, the same concurrency. `If-None-
  # Match: *` makes nginx answer 304 for every page that exists.
  urls=$work/urls-$N.curl
  (cd "$site" && find . -name '*.html' | sort | sed "s|^\./|url = \"$url|; s|\$|\"\noutput = \"/dev/null\"|") > "$urls"
  # One timed run like every other row (run_timed), counted as every page.
  floor() {
    local id=$1 label=$2
    shift 2
    LABEL[$id]=$label
    say "$label"
    if run_timed "$id" 1 600 "$out_root/$id" -- sh -c 'mkdir -p "$0" && exec "$@"' "$out_root/$id" \
      curl -sS -Z --parallel-max "$CONCURRENCY" "$@" -K "$urls"; then
      FOUND[$id]=$N
      VERIFY[$id]=OK
    fi
  }
  floor floor_get "floor: curl alone, every page (no parsing, nothing written)"
  floor floor_304 "floor: curl alone, every page conditionally (all 304)" -H 'If-None-Match: *'
  order+=(floor_get floor_304)
else
  say "sitemill has no --from-crawl yet (generate --help): its side is not run"
fi

row() {
  local id=$1
  if [[ ${VERIFY[$id]:-} != OK ]]; then
    printf '| %s | %s | | | |\n' "${LABEL[$id]}" "${VERIFY[$id]:-not run}"
    return
  fi
  printf '| %s | %s | %s | %s | %s |\n' "${LABEL[$id]}" "$(commas "${FOUND[$id]}")" "${WALL[$id]}" \
    "$(awk -v n="${FOUND[$id]}" -v w="${WALL[$id]}" 'BEGIN {printf "%.0f", n / w}')" "$(mib "${RSS_KB[$id]}")"
}

build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$root/build/CMakeCache.txt" 2> /dev/null || true)
report=$BENCH_DIR/crawl.md
{
  echo "## Crawling a $(commas "$N")-page site: sitemill vs sitemap-generator-cli"
  echo
  machine_line "$started" "$load"
  echo "nginx $(/usr/sbin/nginx -v 2>&1 | sed 's/.*\///') on loopback, $(commas "$N") pages of" \
    "$(du -sb --exclude=img "$site" | awk '{printf "%.0f", $1 / 1048576}') MiB," \
    "sitemap-generator-cli $peer_version (sitemap-generator $generator_version) on node $(node --version)," \
    "$("$SITEMILL" --version 2>&1 | head -1) (${build_type:-unknown} build); concurrency $CONCURRENCY for both; one run each."
  echo
  echo "| crawl | pages found | wall s | pages/s | peak RSS MiB |"
  echo "|---|---|---|---|---|"
  for id in "${order[@]}"; do row "$id"; done
  echo
  if ((!have_crawl)); then
    echo "sitemill's side is not available yet: \`generate --help\` has no \`--from-crawl\`."
  else
    echo "Targets:"
    if [[ ${VERIFY[sm]:-} == OK && ${VERIFY[peer]:-} == OK ]]; then
      check "pages found, sitemill minus the peer" "$((FOUND[sm] - FOUND[peer]))" ">=" 0
      check "wall time, the peer over sitemill (x)" "$(ratio "${WALL[peer]}" "${WALL[sm]}")" ">=" 10
    fi
    if [[ ${VERIFY[sm]:-} == OK ]]; then
      check "sitemill, peak RSS MiB (64 MiB + $RSS_PER_URL B per known URL)" "$(mib "${RSS_KB[sm]}")" "<=" \
        "$(awk -v n="${FOUND[sm]}" -v b="$RSS_PER_URL" 'BEGIN {printf "%.1f", 64 + n * b / 1048576}')"
    fi
    if [[ ${VERIFY[sm_state1]:-} == OK && ${VERIFY[sm_state2]:-} == OK ]]; then
      check "unchanged re-crawl with --state, first crawl over re-crawl (x)" \
        "$(ratio "${WALL[sm_state1]}" "${WALL[sm_state2]}")" ">=" 5
      check "unchanged re-crawl, pages found minus the first crawl's" \
        "$((FOUND[sm_state2] - FOUND[sm_state1]))" ">=" 0
      if [[ ${VERIFY[floor_304]:-} == OK ]]; then
        echo "- the most any client could reach here: sitemill's first crawl over curl's 304s alone:" \
          "$(ratio "${WALL[sm_state1]}" "${WALL[floor_304]}")x; sitemill's re-crawl over curl's 304s alone:" \
          "$(ratio "${WALL[sm_state2]}" "${WALL[floor_304]}")x"
      fi
    fi
  fi
  [[ ${VERIFY[peer]:-} == OK ]] && echo "- the tuned peer found ${FOUND[peer]} of the site's $N pages"
} > "$report"
cat "$report"
say "written to $report"
if ((failed)); then
  say "some runs failed: see above and $BENCH_DIR/logs"
  exit 1
fi
