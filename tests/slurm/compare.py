#!/usr/bin/env python3
"""Compares the URL sets of published sitemap sets, exactly.

Usage: compare.py --base-url URL --expect EXPECTED.txt DIR [DIR...]

For each DIR: reads the entry DIR/sitemap.xml; if it is an index, every child
it lists (a <loc> under --base-url, read from DIR, gunzipped if .gz) is
parsed and its <loc>s collected. Fails (exit 1, saying why) unless in every
DIR: each child is listed once and exists, every file DIR holds named
sitemap* is the entry or a listed child (no shard leftovers), no URL appears
twice, no child holds more than 50,000 URLs; and every DIR's URL set equals
the URLs of EXPECTED.txt (one a line, each once, as sitemill writes them:
no normalisation is applied here).
"""
import argparse
import gc
import gzip
import os
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


class Mismatch(Exception):
    pass


def read_xml(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    return ET.fromstring(data)


def url_locs(root, path):
    if root.tag != NS + "urlset":
        raise Mismatch(f"{path}: root is {root.tag}, not a urlset")
    return [u.findtext(NS + "loc") for u in root.iter(NS + "url")]


def read_set(directory, base_url):
    """The set of a set's URLs, and the number of its children."""
    entry = os.path.join(directory, "sitemap.xml")
    if not os.path.isfile(entry):
        raise Mismatch(f"{directory}: no entry sitemap.xml")
    root = read_xml(entry)
    if root.tag == NS + "urlset":
        children = []
        urls = url_locs(root, entry)
    elif root.tag == NS + "sitemapindex":
        children = [s.findtext(NS + "loc") for s in root.iter(NS + "sitemap")]
        if len(set(children)) != len(children):
            raise Mismatch(f"{entry}: a child is listed twice")
        urls = []
        for loc in children:
            if not loc or not loc.startswith(base_url):
                raise Mismatch(f"{entry}: child {loc!r} is not under {base_url}")
            path = os.path.join(directory, loc[len(base_url):])
            if not os.path.isfile(path):
                raise Mismatch(f"{entry} lists {loc}, but {path} does not exist")
            locs = url_locs(read_xml(path), path)
            if len(locs) > 50000:
                raise Mismatch(f"{path}: {len(locs)} URLs, over 50,000")
            urls.extend(locs)
    else:
        raise Mismatch(f"{entry}: root is {root.tag}")
    listed = {"sitemap.xml"} | {c[len(base_url):] for c in children}
    extra = sorted(n for n in os.listdir(directory)
                   if n.startswith("sitemap") and n not in listed)
    if extra:
        raise Mismatch(f"{directory} holds files its index does not list: {extra[:10]}")
    got = set(urls)
    if len(got) != len(urls):
        seen, dups = set(), []
        for u in urls:
            if u in seen:
                dups.append(u)
            seen.add(u)
        raise Mismatch(f"{directory}: {len(dups)} URLs written twice, e.g. {dups[:5]}")
    return got, len(children)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--expect", required=True)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    # Millions of strings and parsed elements, none in a cycle: the collector's
    # passes over them only cost time (26 s -> a few s for two 2M-URL sets).
    gc.disable()
    with open(a.expect, encoding="utf-8") as f:
        lines = [line.strip() for line in f if line.strip()]
    expected = set(lines)
    if len(expected) != len(lines):
        print(f"{a.expect} lists a URL twice", file=sys.stderr)
        return 2
    print(f"expected: {len(expected)} URLs")
    ok = True
    for d in a.dirs:
        try:
            got, children = read_set(d, a.base_url)
            if got != expected:
                missing = sorted(expected - got)
                unexpected = sorted(got - expected)
                raise Mismatch(
                    f"{d}: {len(got)} URLs; {len(missing)} expected missing "
                    f"(e.g. {missing[:5]}), {len(unexpected)} unexpected "
                    f"(e.g. {unexpected[:5]})")
            print(f"{d}: {len(got)} URLs in {children} children: every expected URL, each once")
        except (Mismatch, ET.ParseError, OSError, EOFError, gzip.BadGzipFile) as e:
            print(f"MISMATCH {e}", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
