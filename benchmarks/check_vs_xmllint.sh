#!/usr/bin/env bash
# `sitemill check` against `xmllint --noout --schema sitemap.xsd` on the same
# ~50 MB sitemaps, in one run: wall time, MB/s of uncompressed XML, the ratio,
# and sitemill's peak RSS (flat memory: it should not grow with the file).
#
# usage: benchmarks/check_vs_xmllint.sh
# env:
#   BENCH_DIR   scratch space (/tmp/bench-check)
#   SHARED_DIR  holds bench/make_urls.py (../shared next to the repository)
#   SITEMILL    the binary (build/sitemill; built with scripts/build.sh if it
#               is the default and missing)
#   RUNS        runs per tool and file, best wall kept (3)
#
# Files, made once and kept in BENCH_DIR:
#   valid.xml     a protocol-valid urlset at the limits: 50,000 URLs of ~900
#                 characters, with lastmod, changefreq and priority, written by
#                 `sitemill generate --no-gzip --max-bytes 52428800` (~51 MB)
#   dense.xml     typical URLs from make_urls.py (30-90 character paths, 8%
#                 non-ASCII, queries with & and '), normalised and escaped by
#                 `sitemill generate`, their <url>s joined into one ~50 MB
#                 urlset: ~280,000 entries, so more markup per byte (and over
#                 the 50,000-entry limit, which check reports: exit 1)
#   valid.xml.gz  valid.xml gzipped (-6); MB/s counts uncompressed bytes
#
# Each run goes through /usr/bin/time -v (peak RSS) under a small Python timer
# (wall and CPU time from wait4); MB/s and the ratio use CPU time. Needs python3, gzip, xmllint (libxml2-utils) and GNU time; installs
# nothing. Prints a Markdown table and writes it to $BENCH_DIR/check.md.
# Exit status: 0 measured; 1 a run failed (exit 2 or a crash); 2 setup.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/bench-check}
SHARED_DIR=${SHARED_DIR:-$root/../shared}
SITEMILL=${SITEMILL:-$root/build/sitemill}
RUNS=${RUNS:-3}
xsd=$root/schemas/sitemap.xsd

say() { printf '%s\n' "$*" >&2; }

for tool in python3 gzip xmllint /usr/bin/time; do
  command -v "$tool" > /dev/null || { say "missing: $tool"; exit 2; }
done
if [[ ! -x $SITEMILL ]]; then
  if [[ $SITEMILL == "$root/build/sitemill" ]]; then
    "$root/scripts/build.sh" >&2
  else
    say "no sitemill binary at $SITEMILL"
    exit 2
  fi
fi
mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"

# --- inputs -------------------------------------------------------------------
if [[ ! -s valid.xml ]]; then
  say "making valid.xml (50,000 long URLs)"
  python3 - <<'EOF'
import random
rnd = random.Random(7)
words = ["summer", "winter", "garden", "kitchen", "travel", "leather", "classic",
         "modern", "outdoor", "running", "jacket", "recipes", "reviews", "guides"]
with open("long.tsv", "w") as out:
    for i in range(50_000):
        path = f"/catalog/{i}/"
        while len(path) < 880:
            path += rnd.choice(words) + "-"
        out.write(f"https://www.example.com{path}{i}\t2024-05-{1 + i % 28:02d}T10:{i % 60:02d}:00Z"
                  f"\tweekly\t0.{i % 10}\n")
EOF
  rm -rf valid-set
  "$SITEMILL" generate --no-gzip --max-bytes 52428800 --base-url https://www.example.com/ \
    --out valid-set --input-format tsv --columns loc,lastmod,changefreq,priority -q long.tsv
  [[ -f valid-set/sitemap.xml ]] || { say "generate did not write one sitemap.xml"; exit 2; }
  cp valid-set/sitemap.xml valid.xml
  rm -rf valid-set long.tsv
fi
if [[ ! -s dense.xml ]]; then
  say "making dense.xml (make_urls.py, joined into one urlset)"
  python3 "$SHARED_DIR/bench/make_urls.py" 300000 urls > /dev/null
  rm -rf dense-set
  "$SITEMILL" generate --no-gzip --base-url https://www.example.com/ --out dense-set \
    --input-format tsv --columns loc,lastmod,changefreq,priority -q urls.tsv
  python3 - <<'EOF'
import glob, os
limit = 52_428_800
head = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')
tail = "</urlset>\n"
size = len(head) + len(tail)
with open("dense.xml", "w", encoding="utf-8") as out:
    out.write(head)
    for name in sorted(glob.glob("dense-set/*.xml")):
        text = open(name, encoding="utf-8").read()
        if "<urlset" not in text:
            continue
        body = text[text.index("<url>"):text.rindex("</urlset>")]
        for entry in body.split("</url>"):
            entry = entry.strip()
            if not entry:
                continue
            piece = entry + "</url>\n"
            n = len(piece.encode("utf-8"))
            if size + n > limit:
                break
            out.write(piece)
            size += n
    out.write(tail)
EOF
  rm -rf dense-set urls.txt urls.tsv
fi
[[ -s valid.xml.gz ]] || gzip -6 -k -n -c valid.xml > valid.xml.gz

# --- runs ---------------------------------------------------------------------
# Runs a command (output to run.out, run.err) and prints its exit status, wall
# ns and CPU ns (user + system, from wait4: exact, where GNU time rounds to
# 10 ms, a seventh of a 70 ms run).
timer=$BENCH_DIR/timer.py
cat > "$timer" <<'EOF'
import os, subprocess, sys, time
with open("run.out", "wb") as out, open("run.err", "wb") as err:
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(sys.argv[1:], stdout=out, stderr=err)
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter_ns()
code = os.waitstatus_to_exitcode(status)
print(code if code >= 0 else 128 - code, t1 - t0, int((ru.ru_utime + ru.ru_stime) * 1e9))
EOF
# Runs "$@" RUNS times; sets best_ns (wall), best_cpu_ns (user + system) and
# peak_kib (highest peak RSS). CPU time is what "MB/s on one core" means, and
# it holds up on a busy machine where wall time does not.
measure() {
  best_ns=0
  best_cpu_ns=0
  peak_kib=0
  local i status rss wall cpu
  for ((i = 0; i < RUNS; i++)); do
    read -r status wall cpu < <(python3 "$timer" /usr/bin/time -v -o time.log "$@")
    if ((status >= 2)); then
      say "failed ($status): $*"
      tail -5 run.err >&2
      exit 1
    fi
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' time.log)
    if ((rss > peak_kib)); then peak_kib=$rss; fi
    if ((best_ns == 0 || wall < best_ns)); then best_ns=$wall; fi
    if ((best_cpu_ns == 0 || cpu < best_cpu_ns)); then best_cpu_ns=$cpu; fi
  done
}

mbps() { awk -v b="$1" -v ns="$2" 'BEGIN { printf "%.0f", (ns > 0) ? b / 1e6 / (ns / 1e9) : 0 }'; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }'; }

table="| file | MB | sitemill check: wall s | CPU s | MB/s (CPU) | peak RSS MiB | xmllint --schema: wall s | CPU s | MB/s (CPU) | peak RSS MiB | speed vs xmllint (x, CPU) |
|---|---|---|---|---|---|---|---|---|---|---|"
for f in valid.xml dense.xml valid.xml.gz; do
  plain=${f%.gz}
  bytes=$(stat -c %s "$plain")
  cat "$f" > /dev/null # page cache
  measure "$SITEMILL" check -q "$f"
  s_ns=$best_ns s_cpu=$best_cpu_ns s_rss=$peak_kib
  measure xmllint --noout --nonet --schema "$xsd" "$f"
  x_ns=$best_ns x_cpu=$best_cpu_ns x_rss=$peak_kib
  ratio=$(awk -v a="$x_cpu" -v b="$s_cpu" 'BEGIN { printf "%.1f", (b > 0) ? a / b : 0 }')
  mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
  table+="
| $f | $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') | $(secs "$s_ns") | $(secs "$s_cpu") | $(mbps "$bytes" "$s_cpu") | $(mib "$s_rss") | $(secs "$x_ns") | $(secs "$x_cpu") | $(mbps "$bytes" "$x_cpu") | $(mib "$x_rss") | $ratio |"
done
rm -f time.log run.out run.err "$timer"

printf '%s\n' "$table" | tee check.md
say "target: sitemill check >= 300 MB/s of uncompressed XML on one core, RSS flat. Best of $RUNS runs; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) (wall times need a quiet machine; CPU times hold up better)"
