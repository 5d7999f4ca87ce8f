#!/usr/bin/env python3
"""Turns make_urls.py's TSV into the extension benchmark's JSONL (stdlib only).

Usage:
    python3 make_ext_input.py INPUT.tsv OUTPUT.jsonl [--languages en,de,fr,es] [--images 2]
                              [--no-alternates]

Records are taken in groups of len(languages) (4 by default): each group is one
hreflang cluster, its i-th record the page in the i-th language. Every record
gets the whole cluster as `alternates` (itself included, as Google wants the
self link: so with four languages, three alternates and the self link) and
`--images` image URLs on a CDN host. A trailing group smaller than the
language list is a smaller cluster. lastmod, changefreq and priority are kept.
With --no-alternates the same records carry their images only: the baseline
that tells what hreflang cluster completion costs.

The same lines feed sitemill (`alternates` as an object, `images` as a list of
strings: docs/inputs.md) and the sitemap.js peer (peer_sitemapjs_ext.mjs maps
them to its `links` and `img`), so both tools write the same elements.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--languages", default="en,de,fr,es")
    ap.add_argument("--images", type=int, default=2)
    ap.add_argument("--no-alternates", action="store_true")
    args = ap.parse_args()
    langs = args.languages.split(",")

    def flush(group, out, first_index):
        alternates = {lang: rec[0] for lang, rec in zip(langs, group)}
        for k, rec in enumerate(group):
            loc, lastmod, changefreq, priority = rec
            n = first_index + k
            obj = {
                "loc": loc,
                "lastmod": lastmod,
                "changefreq": changefreq,
                "priority": priority,
                "alternates": alternates,
                "images": [f"https://cdn.example.com/img/{n}-{i + 1}.jpg"
                           for i in range(args.images)],
            }
            if args.no_alternates:
                del obj["alternates"]
            out.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
            out.write("\n")

    with open(args.input, encoding="utf-8") as src, \
            open(args.output, "w", encoding="utf-8") as out:
        group, index = [], 0
        for line in src:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                sys.exit(f"{args.input}: expected 4 tab-separated fields: {line!r}")
            group.append(fields)
            if len(group) == len(langs):
                flush(group, out, index)
                index += len(group)
                group = []
        if group:
            flush(group, out, index)


if __name__ == "__main__":
    main()
