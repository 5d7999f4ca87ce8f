#!/usr/bin/env python3
"""Holds the code to the floors docs/architecture.md draws.

docs/architecture.md has a fenced block opened by ```floors: one line per
floor, the top first, each naming its folders (`report/`, a folder of src/
and include/sitemill/ alike, or of the repository: `cli/`) or single public
headers (`include/sitemill/sitemill.h`); the root public headers
(include/sitemill/result.h, limits.h, ...) stand with detail/, on the ground.
A file may include files of its own folder and of folders on lower floors,
never of its own floor's other folders or of a floor above. The doc is the
rule: change the floors there, and this check follows.

It also keeps two rules of the same review: no file in src/ or cli/ is longer
than 700 lines (the XML reader and generated tables excepted, named below),
and every folder of src/ and include/sitemill/ stands on a floor.

usage: scripts/check_layers.py [ROOT]   (ROOT: the repository, default ..)
Exit status: 0 kept, 1 a rule broken (each arrow or file named), 2 setup.
"""
import pathlib
import re
import sys

MAX_LINES = 700
# Longer on purpose: the XML reader is one state machine measured as a whole
# (benchmarks/parser_bench.cpp), and the tables are generated.
LONG_ALLOWED = {"src/parse/xml_reader.cpp", "src/html/html_entities.inc",
                "src/entry/language_code_tables.h"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def read_floors(doc):
    """[(floor number, [place, ...])], top first, from the ```floors block."""
    text = doc.read_text(encoding="utf-8")
    m = re.search(r"^```floors\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    if not m:
        sys.exit(f"{doc}: no ```floors block")
    floors = []
    for n, line in enumerate(m.group(1).splitlines()):
        places = [w for w in line.split() if "/" in w]
        if places:
            floors.append((n, places))
    # Listed top first: the first line is the highest floor.
    top = len(floors)
    return {place: top - i for i, (_, places) in enumerate(floors)
            for place in places}


def place_of(path, floors):
    """The floors-table place a repository path belongs to, or None."""
    if path in floors:
        return path
    parts = path.split("/")
    if parts[0] == "src" and len(parts) >= 3:
        return parts[1] + "/"
    if parts[:2] == ["include", "sitemill"]:
        if len(parts) == 3:  # a root public header: the ground, as detail/
            return "detail/"
        return parts[2] + "/"
    if parts[0] == "src" and len(parts) == 2:
        return "src/"
    return parts[0] + "/"


def resolve(include, including, root):
    """The repository path an #include "..." names, or None (a system or
    generated header)."""
    for base in ("include", "src", str(pathlib.Path(including).parent)):
        candidate = root / base / include
        if candidate.is_file():
            return candidate.relative_to(root).as_posix()
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parent.parent)
    floors = read_floors(root / "docs" / "architecture.md")
    files = sorted(p for d in ("src", "include", "cli")
                   for p in (root / d).rglob("*")
                   if p.suffix in (".h", ".cpp", ".inc") and p.is_file())
    problems = []
    for f in files:
        rel = f.relative_to(root).as_posix()
        here = place_of(rel, floors)
        if here not in floors:
            problems.append(f"{rel}: its folder {here} stands on no floor of "
                            "docs/architecture.md")
            continue
        text = f.read_text(encoding="utf-8", errors="replace")
        lines = text.count("\n")
        if (rel.startswith(("src/", "cli/")) and lines > MAX_LINES
                and rel not in LONG_ALLOWED):
            problems.append(f"{rel}: {lines} lines, over {MAX_LINES}")
        for m in INCLUDE.finditer(text):
            target = resolve(m.group(1), rel, root)
            if target is None:
                continue
            there = place_of(target, floors)
            if there == here or there not in floors:
                continue
            if floors[there] >= floors[here]:
                line = text.count("\n", 0, m.start()) + 1
                how = "above" if floors[there] > floors[here] else "beside"
                problems.append(
                    f"{rel}:{line}: includes {target}: {there} (floor "
                    f"{floors[there]}) is {how} {here} (floor {floors[here]})")
    for p in problems:
        print(p)
    print(f"{len(files)} files, {len(problems)} broken rules", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
