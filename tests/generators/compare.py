#!/usr/bin/env python3
"""Compares what `sitemill generate --from-dir` made of a site with the site
generator's own sitemap, for tests/generators/run.sh.

Usage: compare.py WEB_ROOT BASE_URL EXPECT OUT REPORT VERBOSE SITEMAP...

WEB_ROOT  the generator's output directory, read by sitemill
BASE_URL  the site's base URL, ending in /
EXPECT    the site's expect.txt (format below)
OUT       sitemill's --out directory (sitemap.xml, or an index and its children)
REPORT    sitemill's --json report
VERBOSE   sitemill's -v messages (stderr)
SITEMAP   the generator's sitemap(s), as paths below WEB_ROOT; an index is
          followed to the sitemaps it lists, read from WEB_ROOT

URLs are compared as paths below BASE_URL with "trailing-slash variants aside":
a final index.html and a final / are dropped on both sides, so the
generator's /index.html and sitemill's / are the same page.

expect.txt has one statement a line (# starts a comment):
  listed  PATH          sitemill lists the page PATH (a path below BASE_URL)
  skipped FILE REASON   sitemill reports FILE (below WEB_ROOT) as skipped, for
                        a reason that starts with REASON; the skipped files are
                        exactly those the statements name
  extra   PATH WHY      sitemill lists PATH, the generator's sitemap does not
  missing PATH WHY      the generator's sitemap lists PATH, sitemill does not
                        (its file is skipped: a skipped statement names it)
Every difference between the two URL sets is stated by an extra or a missing
statement, and every such statement is a difference, so a change on either
side fails until expect.txt says why.

Prints a summary line; exits 1 listing every problem found.
"""
import gzip
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
# A search engine's verification file (google<16 hex>.html and kin): never a
# page, whatever the generator's sitemap says.
VERIFICATION = re.compile(
    r"(google[0-9a-f]{16}|yandex_[0-9a-f]{16}|naver[0-9a-f]{32}|"
    r"pinterest-[0-9a-f]{5}|baidu_verify_[^/]+)\.html$")

# An error page at the root or at a language root (de/404.html).
ERROR_PAGE = re.compile(r"([a-z]{2}(-[a-z]+)?/)?[45][0-9][0-9](\.html|/index\.html)$")

problems = []


def problem(message):
    problems.append(message)


def read_xml(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return ET.fromstring(data)


def key(path):
    """The page a URL path names, trailing-slash variants aside."""
    if path.endswith("index.html"):
        path = path[: -len("index.html")]
    return path.rstrip("/")


def path_of(loc, base):
    if not loc.startswith(base):
        problem(f"{loc} is not below {base}")
        return loc
    return loc[len(base):]


XHTML = "{http://www.w3.org/1999/xhtml}"


def sitemap_urls(path, resolve, seen=None):
    """(loc, {(hreflang, href)}) of every <url> of the urlsets below the
    sitemap or index at path."""
    seen = seen if seen is not None else set()
    if path in seen:
        return []
    seen.add(path)
    root = read_xml(path)
    if root.tag == NS + "sitemapindex":
        out = []
        for loc in root.iter(NS + "loc"):
            out += sitemap_urls(resolve(loc.text.strip()), resolve, seen)
        return out
    if root.tag != NS + "urlset":
        problem(f"{path}: a {root.tag}, not a urlset")
        return []
    return [(u.find(NS + "loc").text.strip(),
             {(a.get("hreflang"), a.get("href")) for a in u.iter(XHTML + "link")
              if a.get("rel") == "alternate"})
            for u in root.iter(NS + "url")]


def read_expect(path):
    statements = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split(None, 2)
            kind = words[0]
            if kind == "listed" and len(words) == 2 or \
               kind in ("skipped", "extra", "missing") and len(words) == 3:
                statements.append((kind, words[1], words[-1], n))
            else:
                sys.exit(f"{path}:{n}: cannot read '{line}'")
    return statements


def main(argv):
    if len(argv) < 8:
        sys.exit(__doc__)
    web, base, expect, out, report_path, verbose_path = argv[1:7]
    web = os.path.normpath(web)
    generator_sitemaps = argv[7:]

    def in_web(loc):
        return os.path.join(web, path_of(loc, base))

    def in_out(loc):
        # sitemill's children sit beside its index.
        return os.path.join(out, loc.rsplit("/", 1)[1])

    generator, generator_alternates = {}, {}
    for s in generator_sitemaps:
        for loc, alternates in sitemap_urls(os.path.join(web, s), in_web):
            generator[key(path_of(loc, base))] = loc
            generator_alternates[key(path_of(loc, base))] = alternates
    mill, mill_alternates = {}, {}
    for loc, alternates in sitemap_urls(os.path.join(out, "sitemap.xml"), in_out):
        mill[key(path_of(loc, base))] = loc
        mill_alternates[key(path_of(loc, base))] = alternates

    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    with open(verbose_path, encoding="utf-8", errors="replace") as f:
        verbose = f.read()

    # The files sitemill reported skipped, by path below the web root.
    # The reason names the page's URL first ("URL: redirect (...)"); kept
    # whole for -v, compared without it and with BASE_URL as / otherwise.
    skipped, said = {}, {}
    for s in report.get("skipped", []):
        name = os.path.relpath(s["input"], web)
        said[name] = s.get("reason", "")
        reason = re.sub(r"^https?://\S*: ", "", said[name])
        if not reason:
            problem(f"{name}: skipped without a reason")
        skipped[name] = reason.replace(base, "/")

    statements = read_expect(expect)
    stated = {kind: {} for kind in ("listed", "skipped", "extra", "missing")}
    for kind, what, why, n in statements:
        stated[kind][what] = (why, n)

    missing = {key(p) for p in stated["missing"]}
    extra = {key(p) for p in stated["extra"]}
    for path in stated["listed"]:
        if key(path) not in mill:
            problem(f"{path}: expected listed, sitemill does not list it")

    for name, (reason, n) in stated["skipped"].items():
        if name not in skipped:
            problem(f"{name}: expected skipped ({reason}), sitemill "
                    + ("lists it" if os.path.exists(os.path.join(web, name))
                       else "never saw it (no such file)"))
        elif not skipped[name].startswith(reason):
            problem(f"{name}: skipped for '{skipped[name]}', expected '{reason}'")
    for name, reason in skipped.items():
        if name not in stated["skipped"]:
            problem(f"{name}: skipped for '{reason}', which expect.txt does not state")
        # -v says the same, naming the file.
        line = f"{os.path.join(web, name)}: skipped: {said[name]}"
        if line not in verbose.splitlines():
            problem(f"{name}: -v has no line '{line}'")

    for k, loc in sorted(generator.items()):
        if k not in mill and k not in missing:
            problem(f"{loc}: in the generator's sitemap, not listed by sitemill")
    for k, loc in sorted(mill.items()):
        if k not in generator and k not in extra:
            problem(f"{loc}: listed by sitemill, not in the generator's sitemap")
    skipped_keys = {key(name) for name in skipped}
    for path, (why, n) in stated["missing"].items():
        if key(path) not in generator or key(path) in mill:
            problem(f"expect.txt:{n}: 'missing {path}' is no difference any more")
        elif key(path) not in skipped_keys:
            problem(f"{path}: not listed, and no file of it reported skipped")
    for path, (why, n) in stated["extra"].items():
        if key(path) not in mill or key(path) in generator:
            problem(f"expect.txt:{n}: 'extra {path}' is no difference any more")

    # Where the generator's sitemap gives a page's language versions, sitemill
    # gives the same, read from the page's hreflang links. (Where it gives
    # none, sitemill may still list a page's one link to itself.)
    compared = 0
    for k, alternates in sorted(generator_alternates.items()):
        if alternates and k in mill:
            compared += 1
            if alternates != mill_alternates[k]:
                problem(f"{generator[k]}: alternates {sorted(mill_alternates[k])}, "
                        f"the generator's sitemap has {sorted(alternates)}")

    # Every HTML file is listed or reported skipped; no verification file or
    # error page is listed, whatever expect.txt says.
    html = []
    for d, dirs, files in os.walk(web):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        html += [os.path.relpath(os.path.join(d, f), web) for f in files
                 if f.endswith((".html", ".htm")) and not f.startswith(".")]
    for name in sorted(html):
        listed = key(name) in mill or key(name.removesuffix(".html")) in mill
        if not listed and name not in skipped:
            problem(f"{name}: neither listed nor reported skipped")
        if listed and VERIFICATION.search(name):
            problem(f"{name}: a verification file, listed")
        if listed and ERROR_PAGE.match(name):
            problem(f"{name}: an error page, listed")

    print(f"{len(generator)} URLs in the generator's sitemap, {len(mill)} listed "
          f"by sitemill, {len(skipped)} files skipped; differences: "
          f"{len(stated['missing'])} missing, {len(stated['extra'])} extra; "
          f"hreflang alternates of {compared} URLs compared")
    for kind in ("missing", "extra"):
        for path, (why, n) in sorted(stated[kind].items()):
            print(f"  {kind} {path}: {why}")
    for name, reason in sorted(skipped.items()):
        print(f"  skipped {name}: {reason}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
