#!/usr/bin/env python3
"""Turns make_urls.py's TSV into the same records as JSONL and CSV.

Usage: reader_inputs.py INPUT.tsv OUT_PREFIX  (writes OUT_PREFIX.jsonl and
OUT_PREFIX.csv)

The records stay the same in every format, so the readers of each must give
the same fields (reader_libs_bench checks that before it times anything).
JSONL: keys loc, lastmod, changefreq, priority, the priority a JSON number;
every 10th line is ASCII-only (non-ASCII as \\u escapes) and every 13th
carries an unknown key first, so unescaping and skipping are timed too.
CSV: a header row, RFC 4180 quoting where a field needs it, and every 5th
row quoted in full, so the quoted path is timed too.
"""
import csv
import json
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, prefix = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8", newline="") as tsv, \
            open(prefix + ".jsonl", "w", encoding="utf-8", newline="") as jl, \
            open(prefix + ".csv", "w", encoding="utf-8", newline="") as cs:
        minimal = csv.writer(cs, lineterminator="\n")
        quoted = csv.writer(cs, lineterminator="\n", quoting=csv.QUOTE_ALL)
        minimal.writerow(["loc", "lastmod", "changefreq", "priority"])
        for i, line in enumerate(tsv):
            loc, lastmod, changefreq, priority = line.rstrip("\n").split("\t")
            ascii_only = i % 10 == 0
            parts = []
            if i % 13 == 0:
                parts.append('"title":' + json.dumps("Page " + str(i)))
            for key, value in (("loc", loc), ("lastmod", lastmod), ("changefreq", changefreq)):
                parts.append(json.dumps(key) + ":" + json.dumps(value, ensure_ascii=ascii_only))
            parts.append('"priority":' + priority)
            jl.write("{" + ",".join(parts) + "}\n")
            (quoted if i % 5 == 0 else minimal).writerow([loc, lastmod, changefreq, priority])
    return 0


if __name__ == "__main__":
    sys.exit(main())
