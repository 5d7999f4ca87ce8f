#!/usr/bin/env python3
"""Writes an access log in Apache's combined format for --from-log timings.

Usage: make_access_log.py LINES PAGES OUT  (OUT ending in .gz is gzipped)

A reproducible mix (seed 13) like a busy site's: page requests follow a
Zipf-like curve over PAGES distinct paths (a few pages get most requests),
and about 40% of the lines are assets, 10% bots, 5% errors (404, 301), 2%
POSTs and 5% query strings, so every filter of the source is exercised. One
line in 100,000 is no log line. Example, the figures in the commit message:

  benchmarks/make_access_log.py 1000000 100000 /tmp/access-1M.log.gz
  /usr/bin/time -v build/sitemill generate --base-url https://www.example.com/ \
      --out /tmp/out -q --from-log /tmp/access-1M.log.gz
"""
import bisect
import gzip
import random
import sys

AGENTS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/"
    "605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
]
BOTS = [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "curl/8.5.0",
]
ASSETS = ["/css/site.css", "/js/app.js", "/img/logo.png", "/img/hero.webp",
          "/fonts/inter.woff2", "/favicon.ico", "/js/app.js.map"]


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    lines, pages, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(13)
    # Page i is drawn with weight 1/(i+1): a Zipf curve.
    weights = [1.0 / (i + 1) for i in range(pages)]
    cum, total = [], 0.0
    for w in weights:
        total += w
        cum.append(total)
    paths = ["/" if i == 0 else "/section-%d/page-%d" % (i % 50, i)
             for i in range(pages)]
    opener = gzip.open if out.endswith(".gz") else open
    with opener(out, "wt", encoding="utf-8", newline="\n") as f:
        batch = []
        for n in range(lines):
            r = rng.random()
            method, status, agent = "GET", 200, rng.choice(AGENTS)
            if r < 0.40:
                target = rng.choice(ASSETS)
            else:
                target = paths[bisect.bisect_left(cum, rng.random() * total)]
                if r < 0.50:
                    agent = rng.choice(BOTS)
                elif r < 0.55:
                    status = rng.choice((404, 301))
                elif r < 0.57:
                    method = "POST"
                elif r < 0.62:
                    target += "?utm_source=x%d" % rng.randrange(100)
            if n % 100_000 == 99_999:
                batch.append("truncated line %d\n" % n)
                continue
            batch.append(
                '198.51.100.%d - - [12/Mar/2024:10:%02d:%02d +0000] '
                '"%s %s HTTP/1.1" %d %d "https://www.example.com/" "%s"\n'
                % (n % 250, (n // 60) % 60, n % 60, method, target, status,
                   rng.randrange(200, 90_000), agent))
            if len(batch) >= 10_000:
                f.writelines(batch)
                batch.clear()
        f.writelines(batch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
