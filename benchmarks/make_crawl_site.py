#!/usr/bin/env python3
"""Writes the static site benchmarks/crawl_bench.sh serves with nginx.

usage: make_crawl_site.py N DIR

N HTML pages: DIR/index.html (page 0, served at /) and DIR/sK/pI.html. Page
I links its tree children 4I+1..4I+4 (so every page is reachable from / by
breadth-first search, about log4(N) deep) and 6 other pages drawn with a fixed
seed (cross links, so most pages are found many times, as on a real site),
about 10 links each. Each page is 8-15 KB of text with a header, a footer
and, on every third page, an <img> of one of 8 small JPEGs under DIR/img/
(images are not pages: a crawler must not list them). File mtimes are fixed
(2024-01-01 plus I minutes), so nginx's Last-Modified is the same on every
run. Deterministic: the same N gives the same bytes.
"""
import os
import random
import sys

WORDS = ("sitemap crawler page link index search engine protocol host path "
         "query fragment robots canonical redirect status header body html "
         "content modified date frequency priority location scheme").split()
EPOCH = 1704067200  # 2024-01-01T00:00:00Z


def page_path(i):
    return "/" if i == 0 else f"/s{i % 100}/p{i}.html"


def file_path(root, i):
    return os.path.join(root, "index.html") if i == 0 else os.path.join(
        root, f"s{i % 100}", f"p{i}.html")


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: make_crawl_site.py N DIR")
    n, root = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(12)
    for d in range(min(n, 100)):
        os.makedirs(os.path.join(root, f"s{d}"), exist_ok=True)
    os.makedirs(os.path.join(root, "img"), exist_ok=True)
    for k in range(8):  # a minimal JPEG header and padding: bytes, not a picture
        with open(os.path.join(root, "img", f"photo{k}.jpg"), "wb") as f:
            f.write(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(2000 + k) + b"\xff\xd9")
    for i in range(n):
        children = [c for c in range(4 * i + 1, 4 * i + 5) if c < n]
        cross = [rng.randrange(n) for _ in range(6)]
        size = rng.randrange(8000, 15000)
        parts = [
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            f"<title>Page {i}</title>\n",
            "<meta name=\"viewport\" content=\"width=device-width\">\n",
            "<link rel=\"stylesheet\" href=\"/style.css\">\n</head>\n<body>\n",
            f"<header><a href=\"/\">Home</a> <h1>Page {i}</h1></header>\n<nav><ul>\n",
        ]
        for c in children + cross:
            parts.append(f"<li><a href=\"{page_path(c)}\">Page {c}</a></li>\n")
        parts.append("</ul></nav>\n<main>\n")
        if i % 3 == 0:
            parts.append(f"<img src=\"/img/photo{i % 8}.jpg\" alt=\"photo {i % 8}\">\n")
        text = sum(len(p) for p in parts)
        while text < size:
            sentence = " ".join(rng.choice(WORDS) for _ in range(14))
            para = f"<p>{sentence.capitalize()}. {sentence}.</p>\n"
            parts.append(para)
            text += len(para)
        parts.append("</main>\n<footer>The crawl benchmark site.</footer>\n</body>\n</html>\n")
        path = file_path(root, i)
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(parts))
        os.utime(path, (EPOCH + 60 * i, EPOCH + 60 * i))


if __name__ == "__main__":
    main()
