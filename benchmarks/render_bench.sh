#!/usr/bin/env bash
# Rendering crawls (issue 32): a single-page app of N routes on loopback,
# whose server sends the same script-only HTML for every route (each route's
# links, title and robots meta are made by its script, from the path and a
# JSON file it fetches), crawled in one run by sitemill
# (`generate --from-crawl --render`) and by a plain puppeteer-core script
# (benchmarks/render_peer_puppeteer.js) driving the same Chromium, with 1, 2
# and 4 tabs: pages listed, pages/s, peak RSS of the crawler and peak
# memory of Chromium (the sum of the PSS of its processes, sampled every
# 200 ms, so shared pages count once).
#
# usage: benchmarks/render_bench.sh [N]        (N routes, default 300)
# the measurement in docs/crawl.md ("Rendering"): benchmarks/render_bench.sh 100
# env:
#   BENCH_DIR   scratch: outputs, logs, samples (/tmp/bench)
#   PEERS_DIR   where puppeteer-core is installed ($BENCH_DIR/peers)
#   SITEMILL    the binary (build/sitemill)
#   CHROMIUM    the browser both drive (/usr/lib/chromium/chromium, else
#               chromium on PATH)
#   TABS        the tab counts measured ("1 2 4")
#
# Installs what it lacks (apt: chromium nodejs npm time python3; npm:
# puppeteer-core@25 into PEERS_DIR, which downloads no browser); no network
# but loopback otherwise. Prints a Markdown table and writes it to
# $BENCH_DIR/render.md. Exit status: 0 every run finished and both listed
# the same pages; 1 otherwise; 2 usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh" # BENCH_DIR, PEERS_DIR, SITEMILL, helpers
if [[ ! ${1:-300} =~ ^[1-9][0-9]*$ ]]; then
  say "usage: $0 [N]   (N: number of routes, default 300)"
  exit 2
fi
N=${1:-300}
TABS=${TABS:-1 2 4}
work=$BENCH_DIR/render
mkdir -p "$work" "$BENCH_DIR/logs"

missing=()
command -v chromium > /dev/null 2>&1 || missing+=(chromium)
command -v node > /dev/null 2>&1 || missing+=(nodejs)
command -v npm > /dev/null 2>&1 || missing+=(npm)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v python3 > /dev/null 2>&1 || missing+=(python3)
if ((${#missing[@]})); then
  say "installing: ${missing[*]}"
  as_root apt-get update >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi
# puppeteer-core downloads no browser: it drives the one it is given.
npm_peer puppeteer-core puppeteer-core@25
CHROMIUM=${CHROMIUM:-}
if [[ -z $CHROMIUM ]]; then
  if [[ -x /usr/lib/chromium/chromium ]]; then CHROMIUM=/usr/lib/chromium/chromium; else CHROMIUM=$(command -v chromium); fi
fi
[[ -x $SITEMILL ]] || { say "build sitemill first (scripts/build.sh), or set SITEMILL"; exit 2; }

# --- the app ----------------------------------------------------------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/server.py" << 'PY'
import http.server, json, sys
N = int(sys.argv[2])
SHELL = b'<!doctype html><html><head><title>App</title><script src="/static/app.js"></script></head><body><main id="root"></main></body></html>'
APP = b"""
document.addEventListener('DOMContentLoaded', () => {
  fetch('/api/site.json').then(r => r.json()).then(site => {
    const k = location.pathname === '/' ? 0 : Number(location.pathname.split('/')[2]);
    document.title = site.name + ' ' + k;
    const root = document.getElementById('root');
    for (let c = 3 * k + 1; c <= 3 * k + 3 && c < site.routes; ++c) {
      const a = document.createElement('a');
      a.href = '/p/' + c;
      a.textContent = 'route ' + c;
      root.appendChild(a);
    }
    if (k % 10 === 9) {
      const m = document.createElement('meta');
      m.name = 'robots'; m.content = 'noindex';
      document.head.appendChild(m);
    }
  });
});
"""
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    def do_GET(self):
        p = self.path.split('?')[0]
        cache = 'no-cache'
        if p == '/robots.txt': body, ct = b'User-agent: *\nAllow: /\n', 'text/plain'
        elif p == '/static/app.js': body, ct, cache = APP, 'application/javascript', 'max-age=3600'
        elif p == '/api/site.json': body, ct, cache = json.dumps({'name': 'App', 'routes': N}).encode(), 'application/json', 'max-age=3600'
        elif p == '/favicon.ico': body, ct = b'', 'image/x-icon'
        else: body, ct = SHELL, 'text/html; charset=utf-8'
        self.send_response(200)
        self.send_header('Content-Type', ct)
        self.send_header('Cache-Control', cache)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
PY
python3 "$work/server.py" "$port" "$N" &
server_pid=$!
sampler_pid=
cleanup() {
  kill "$server_pid" 2> /dev/null || true
  [[ -n $sampler_pid ]] && kill "$sampler_pid" 2> /dev/null || true
}
trap cleanup EXIT
url=http://127.0.0.1:$port/
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('$url')" 2> /dev/null && break; sleep 0.1; done

# The sum of the PSS of every process of $CHROMIUM, every 200 ms, and the
# crawler's own high-water RSS (VmHWM: /usr/bin/time's %M would count the
# browser's largest process too, a child the crawler waits for); the peaks in
# KiB are written to $1 when the sampler is ended.
cat > "$work/sampler.py" << 'PY'
import os, signal, sys, time
out, exe, crawler = sys.argv[1], os.path.realpath(sys.argv[2]), os.path.realpath(sys.argv[3])
peak = own = 0
def done(*_):
    open(out, 'w').write('%d %d' % (peak, own)); sys.exit(0)
signal.signal(signal.SIGTERM, done)
while True:
    total = 0
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            path = os.path.realpath('/proc/%s/exe' % pid)
            if path == crawler:
                for line in open('/proc/%s/status' % pid):
                    if line.startswith('VmHWM:'): own = max(own, int(line.split()[1]))
            if path != exe: continue
            for line in open('/proc/%s/smaps_rollup' % pid):
                if line.startswith('Pss:'): total += int(line.split()[1])
        except OSError:
            pass
    peak = max(peak, total)
    time.sleep(0.2)
PY

declare -A WALL RSS BROWSER COUNT
failed=0
measure() { # id, crawler executable, command...
  local id=$1 crawler=$2
  shift 2
  python3 "$work/sampler.py" "$work/$id.browser" "$CHROMIUM" "$crawler" &
  sampler_pid=$!
  if ! /usr/bin/time -f '%e %M' -o "$work/$id.time" "$@" > "$BENCH_DIR/logs/render-$id.out" 2> "$BENCH_DIR/logs/render-$id.err"; then
    say "$id failed: see $BENCH_DIR/logs/render-$id.err"
    failed=1
  fi
  kill "$sampler_pid"
  wait "$sampler_pid" 2> /dev/null || true
  sampler_pid=
  read -r WALL[$id] _ < "$work/$id.time" || true
  read -r BROWSER[$id] RSS[$id] < "$work/$id.browser" || true
}
for t in $TABS; do
  out=$work/out-sitemill-$t
  rm -rf "$out"
  measure "sitemill-$t" "$SITEMILL" env SITEMILL_CHROMIUM="$CHROMIUM" "$SITEMILL" generate \
    --from-crawl "$url" --base-url "$url" --no-gzip --allow-private --render --render-concurrency "$t" \
    --concurrency 4 --out "$out"
  grep -o '<loc>[^<]*' "$out/sitemap.xml" | sed 's/<loc>//' | sort > "$work/sitemill-$t.txt" || true
  COUNT[sitemill-$t]=$(grep -c . "$work/sitemill-$t.txt" || true)
  measure "puppeteer-$t" "$(command -v node)" node "$here/render_peer_puppeteer.js" "$url" "$t" "$CHROMIUM"
  cp "$BENCH_DIR/logs/render-puppeteer-$t.out" "$work/puppeteer-$t.txt"
  COUNT[puppeteer-$t]=$(grep -c . "$work/puppeteer-$t.txt" || true)
  if ! cmp -s "$work/sitemill-$t.txt" "$work/puppeteer-$t.txt"; then
    say "sitemill and puppeteer listed different pages with $t tabs (diff $work/sitemill-$t.txt $work/puppeteer-$t.txt)"
    failed=1
  fi
done

{
  echo "Rendering crawl of a $N-route single-page app on loopback, $(nproc) cores, $("$CHROMIUM" --version 2> /dev/null | head -1)"
  echo
  echo "| crawler | tabs | pages listed | wall s | pages/s | crawler peak RSS | Chromium peak PSS |"
  echo "|---|---|---|---|---|---|---|"
  for t in $TABS; do
    for who in sitemill puppeteer; do
      id=$who-$t
      rate=$(python3 -c "print(f'{$N / max(${WALL[$id]}, 0.001):.1f}')")
      echo "| $who | $t | ${COUNT[$id]} | ${WALL[$id]} | $rate | $((RSS[$id] / 1024)) MiB | $((BROWSER[$id] / 1024)) MiB |"
    done
  done
} | tee "$work/../render.md"
exit $failed
