#!/usr/bin/env python3
"""Verify a published sitemap set, whichever tool wrote it (stdlib only).

Usage:
    python3 verify_set.py OUTDIR EXPECTED_URLS [--xsd FILE] [--index-xsd FILE]
                          [--elements PREFIX:NAME=TOTAL ...]
    python3 verify_set.py --gzip6-ref GZDIR PLAINDIR

Verify mode: every file in OUTDIR whose name does not start with "." (sitemill
keeps its lock, manifest and journal in dot-files) is decompressed when it is
gzip and parsed; its root says what it is, so sitemill's index (sitemap.xml,
children sitemap-K-<hash>.xml.gz) and sitemap.js's (sitemap-index.xml.gz,
children sitemap-K.xml.gz) are both understood. Checks:
  * at most one sitemapindex; when there is none, exactly one urlset;
  * the index names every urlset exactly once and names no missing file
    (matched by basename; a loc ending in .xml also matches a .xml.gz file);
  * each urlset is well-formed, in the sitemaps.org namespace, holds 1..50,000
    <url> and is at most 52,428,800 bytes uncompressed;
  * the <url> counts sum to EXPECTED_URLS and every <loc> is distinct;
  * `xmllint --noout --schema` passes on the first child (and on the index
    with --index-xsd);
  * with --elements, the urlsets hold exactly TOTAL start tags <PREFIX:NAME
    in all (xhtml:link=4000000: every hreflang link was written).
Prints one line (OK or FAIL plus the reasons); exit status 0 when all pass.

--gzip6-ref mode prints the bytes the set in GZDIR would take if each of its
gzip files were `gzip -6` of the same file of PLAINDIR (the same run with
--no-gzip, so the same split), the files GZDIR keeps plain counted as they
are. Files are paired by name without ".gz" and without sitemill's content
hash ("sitemap-3-63d370090401.xml" -> "sitemap-3.xml").
"""
import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile
import xml.parsers.expat

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
# sitemaps.org: "no more than 50,000 URLs and must be no larger than 50MB
# (52,428,800 bytes)" per file, uncompressed.
MAX_URLS = 50_000
MAX_BYTES = 52_428_800
# Locs are compared as written (escaped); both tools escape consistently, and
# the regex is ~10x faster than collecting character data through expat.
LOC_RE = re.compile(rb"<loc>([^<]*)</loc>")


def read_plain(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data


def scan(data):
    """Parses `data`; returns (root local name, root namespace, <url> or
    <sitemap> count, list of index <loc> texts). Raises on malformed XML."""
    state = {"root": None, "ns": None, "depth": 0, "count": 0, "in_loc": False}
    index_locs, buf = [], []

    def start(name, _attrs):
        ns, _, local = name.rpartition(" ")
        d = state["depth"]
        if d == 0:
            state["root"], state["ns"] = local, ns
        elif d == 1 and local in ("url", "sitemap"):
            state["count"] += 1
        elif d == 2 and local == "loc" and state["root"] == "sitemapindex":
            state["in_loc"] = True
            buf.clear()
        state["depth"] = d + 1

    def end(_name):
        state["depth"] -= 1
        if state["in_loc"]:
            index_locs.append("".join(buf).strip())
            state["in_loc"] = False

    def chars(text):
        if state["in_loc"]:
            buf.append(text)

    p = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = chars
    p.buffer_text = True
    p.Parse(data, True)
    return state["root"], state["ns"], state["count"], index_locs


def xmllint(xsd, name, data, errors):
    with tempfile.TemporaryDirectory() as td:
        tmp = os.path.join(td, re.sub(r"\.gz$", "", name))
        with open(tmp, "wb") as f:
            f.write(data)
        # The extension schemas import xml.xsd by its w3.org URL: the catalog
        # beside them maps it to the bundled copy, so nothing is fetched.
        env = dict(os.environ)
        catalog = os.path.join(os.path.dirname(os.path.abspath(xsd)), "catalog.xml")
        if os.path.exists(catalog):
            env["XML_CATALOG_FILES"] = catalog
        r = subprocess.run(["xmllint", "--noout", "--nonet", "--schema", xsd, tmp],
                           capture_output=True, text=True, env=env)
        if r.returncode != 0:
            errors.append(f"xmllint --schema {name}: {r.stderr.strip()[:300]}")


def verify(outdir, expected, xsd, index_xsd, elements=()):
    errors = []
    wanted = {}
    for spec in elements:
        name, _, total = spec.partition("=")
        wanted[name] = (re.compile(b"<" + re.escape(name.encode()) + rb"[\s/>]"), int(total))
    found = {name: 0 for name in wanted}
    names = sorted(f for f in os.listdir(outdir)
                   if not f.startswith(".") and os.path.isfile(os.path.join(outdir, f)))
    indexes, urlsets = [], {}
    total = raw_total = 0
    loc_hashes = set()
    dup_locs = 0
    first_child = None
    for name in names:
        data = read_plain(os.path.join(outdir, name))
        raw_total += len(data)
        try:
            root, ns, count, index_locs = scan(data)
        except xml.parsers.expat.ExpatError as e:
            errors.append(f"{name}: not well-formed: {e}")
            continue
        if ns != NS:
            errors.append(f"{name}: root namespace {ns!r}")
        if len(data) > MAX_BYTES:
            errors.append(f"{name}: {len(data)} bytes uncompressed > {MAX_BYTES}")
        if root == "sitemapindex":
            indexes.append((name, index_locs, data))
            continue
        if root != "urlset":
            errors.append(f"{name}: root <{root}>")
            continue
        if count > MAX_URLS:
            errors.append(f"{name}: {count} urls > {MAX_URLS}")
        if count == 0:
            errors.append(f"{name}: no <url>")
        locs = LOC_RE.findall(data)
        if len(locs) != count:
            errors.append(f"{name}: {len(locs)} <loc> for {count} <url>")
        for loc in locs:
            h = hash(loc)
            if h in loc_hashes:
                dup_locs += 1
            loc_hashes.add(h)
        for ename, (pattern, _) in wanted.items():
            found[ename] += len(pattern.findall(data))
        urlsets[name] = count
        total += count
        if first_child is None:
            first_child = (name, data)

    if len(indexes) > 1:
        errors.append(f"{len(indexes)} index files: {[i[0] for i in indexes]}")
    elif not indexes and len(urlsets) != 1:
        errors.append(f"no index, and {len(urlsets)} urlset files")
    elif indexes:
        iname, locs, idata = indexes[0]
        listed = []
        for loc in locs:
            base = loc.rstrip("/").rsplit("/", 1)[-1]
            if base not in urlsets and base + ".gz" in urlsets:
                base += ".gz"
            listed.append(base)
        missing = sorted(set(n for n in listed if n not in urlsets))
        unlisted = sorted(set(urlsets) - set(listed))
        dups = len(listed) - len(set(listed))
        if missing:
            errors.append(f"index {iname} lists files that are not urlsets here: {missing[:5]}")
        if unlisted:
            errors.append(f"urlsets not in index {iname}: {unlisted[:5]}")
        if dups:
            errors.append(f"index {iname} lists {dups} file(s) twice")
        if index_xsd:
            xmllint(index_xsd, iname, idata, errors)
    if total != expected:
        errors.append(f"url count {total} != expected {expected}")
    if dup_locs:
        errors.append(f"{dup_locs} duplicate <loc> values")
    for ename, (_, want) in wanted.items():
        if found[ename] != want:
            errors.append(f"{found[ename]} <{ename}> elements, expected {want}")
    if xsd and first_child:
        xmllint(xsd, first_child[0], first_child[1], errors)

    status = "OK" if not errors else "FAIL"
    print(f"{status}: {outdir}: {len(urlsets)} urlset(s), "
          f"{'an index' if indexes else 'no index'}, {total} urls (expected {expected}), "
          f"{raw_total} bytes uncompressed" + (", xsd on first child" if xsd else ""))
    for e in errors:
        print("  - " + e)
    return 0 if not errors else 1


def pair_key(name):
    name = re.sub(r"\.gz$", "", name)
    return re.sub(r"-[0-9a-f]{8,}(?=\.(xml|txt)$)", "", name)


def gzip6_ref(gzdir, plaindir):
    plain = {pair_key(f): f for f in os.listdir(plaindir) if not f.startswith(".")}
    total = 0
    for name in sorted(os.listdir(gzdir)):
        path = os.path.join(gzdir, name)
        if name.startswith(".") or not os.path.isfile(path):
            continue
        if not name.endswith(".gz"):
            total += os.path.getsize(path)
            continue
        key = pair_key(name)
        if key not in plain:
            print(f"no plain counterpart of {name} in {plaindir}", file=sys.stderr)
            return 1
        with open(os.path.join(plaindir, plain[key]), "rb") as f:
            out = subprocess.run(["gzip", "-6", "-c"], stdin=f, capture_output=True,
                                 check=True).stdout
        total += len(out)
    print(total)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gzip6-ref", action="store_true")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--xsd")
    ap.add_argument("--index-xsd")
    ap.add_argument("--elements", action="append", default=[],
                    metavar="PREFIX:NAME=TOTAL")
    args = ap.parse_args()
    if args.gzip6_ref:
        return gzip6_ref(args.a, args.b)
    return verify(args.a, int(args.b), args.xsd, args.index_xsd, args.elements)


if __name__ == "__main__":
    sys.exit(main())
