#!/usr/bin/env python3
"""Helpers of tests/recipes/run.sh, one per subcommand; each exits 1 saying why.

entries OUT      print "LOC LASTMOD" (- for none) for every URL of the set
                 published in OUT: its sitemap.xml, and the children an index
                 lists, read from beside it (gzipped or not).
dockerfile ROOT  the Dockerfile's build stage RUNs exactly the README's
                 "From source" commands, then the "From the Debian package"
                 commands that make the .deb; its last stage installs that .deb
                 as the README does.
actions ROOT     action.yml and examples/github-actions/*.yml parse, the
                 action is composite, every step that runs a command names
                 its shell, and the workflow uses the action.
"""
import gzip
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def read_xml(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return ET.fromstring(data)


def entries(out):
    root = read_xml(os.path.join(out, "sitemap.xml"))
    docs = [root]
    if root.tag == NS + "sitemapindex":
        docs = []
        for loc in root.iter(NS + "loc"):
            # A child sits beside the index, under the last segment of its URL.
            docs.append(read_xml(os.path.join(out, loc.text.rsplit("/", 1)[1])))
    for doc in docs:
        if doc.tag != NS + "urlset":
            fail(f"{out}: a child is a {doc.tag}, not a urlset")
        for url in doc.iter(NS + "url"):
            lastmod = url.find(NS + "lastmod")
            print(url.find(NS + "loc").text,
                  lastmod.text if lastmod is not None else "-")


def fenced_block(readme, heading):
    """Commands of the first ```sh block under the heading `heading`."""
    text = open(readme, encoding="utf-8").read()
    at = re.search(r"^#+ " + re.escape(heading) + r"\s*$", text, re.M)
    if not at:
        fail(f"{readme}: no heading '{heading}'")
    block = re.search(r"^```sh\n(.*?)^```", text[at.end():], re.M | re.S)
    if not block:
        fail(f"{readme}: no ```sh block under '{heading}'")
    commands = []
    for line in block.group(1).splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line and not line.startswith("#"):
            commands.append(line)
    return commands


def section(readme, heading):
    text = open(readme, encoding="utf-8").read()
    at = re.search(r"^## " + re.escape(heading) + r"\s*$", text, re.M)
    if not at:
        fail(f"{readme}: no section '## {heading}'")
    end = re.search(r"^## ", text[at.end():], re.M)
    return text[at.end():at.end() + end.start()] if end else text[at.end():]


def dockerfile_stages(path):
    """[(name, [RUN commands])], continuation lines joined."""
    lines = open(path, encoding="utf-8").read().replace("\\\n", " ").splitlines()
    stages = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "FROM":
            m = re.search(r"\bAS\s+(\S+)", rest, re.I)
            stages.append((m.group(1) if m else "", []))
        elif word == "RUN":
            if not stages:
                fail(f"{path}: RUN before FROM")
            stages[-1][1].append(" ".join(rest.split()))
    return stages


def dockerfile(root):
    readme = os.path.join(root, "README.md")
    install = section(readme, "Install")
    if "### From source" not in install or "### From the Debian package" not in install:
        fail("README.md '## Install' lacks '### From source' or "
             "'### From the Debian package'")
    source = fenced_block(readme, "From source")
    deb = fenced_block(readme, "From the Debian package")
    make_deb = [c for c in deb if c not in source and not re.search(r"apt-get install|dpkg -i", c)]
    install_deb = [c for c in deb if re.search(r"apt-get install|dpkg -i", c)]
    if not source or not make_deb or len(install_deb) != 1:
        fail(f"README.md: unexpected Install blocks: {source} / {deb}")
    stages = dockerfile_stages(os.path.join(root, "Dockerfile"))
    if len(stages) < 2:
        fail("Dockerfile: not multi-stage")
    builds = [runs for name, runs in stages if name == "build"]
    if len(builds) != 1:
        fail("Dockerfile: no single stage named 'build'")
    # The .deb block's first commands are the source block's own steps, and
    # the build stage runs each README command as one RUN, in order.
    if deb[:len(source) - 1] != source[:-1]:
        fail(f"README.md: the .deb block does not start with the source steps: {deb}")
    expected = source + make_deb
    if builds[0] != expected:
        fail("Dockerfile's build stage RUNs differ from README.md's Install commands:\n"
             f"  Dockerfile: {builds[0]}\n  README:     {expected}")
    # The README installs ./build/sitemill_*.deb; the runtime stage must install
    # the same file name with apt-get (which resolves its Depends) or dpkg.
    package = re.search(r"(\S*sitemill_\*\.deb)", install_deb[0])
    if not package:
        fail(f"README.md: the install command names no sitemill_*.deb: {install_deb[0]}")
    tool = "apt-get install" if "apt-get install" in install_deb[0] else "dpkg -i"
    runtime = stages[-1][1]
    if not any(tool in run and package.group(1) in run for run in runtime):
        fail(f"Dockerfile's last stage does not run '{tool} ... {package.group(1)}': {runtime}")
    text = open(os.path.join(root, "Dockerfile"), encoding="utf-8").read()
    for needle in ("FROM debian:bookworm", "WORKDIR /site", 'ENTRYPOINT ["sitemill"]'):
        if needle not in text:
            fail(f"Dockerfile lacks {needle}")
    print(f"Dockerfile build stage = README: {expected}")


def steps_have_shells(path, steps):
    for i, step in enumerate(steps):
        if "run" in step and "shell" not in step:
            fail(f"{path}: step {i} ({step.get('name', step['run'][:30])}) runs "
                 "a command without 'shell'")


def actions(root):
    try:
        import yaml
    except ImportError:
        fail("python3-yaml is missing (apt-get install python3-yaml)")
    path = os.path.join(root, "action.yml")
    action = yaml.safe_load(open(path, encoding="utf-8"))
    runs = action.get("runs", {})
    if runs.get("using") != "composite":
        fail(f"{path}: runs.using is {runs.get('using')!r}, not 'composite'")
    steps_have_shells(path, runs.get("steps", []))
    for name in ("config", "args"):
        if name not in action.get("inputs", {}):
            fail(f"{path}: no input '{name}'")
    for name, output in action.get("outputs", {}).items():
        if "value" not in output:
            fail(f"{path}: output '{name}' has no value (composite outputs need one)")
    uses = [s.get("uses", "") for s in runs["steps"]]
    if not any(u.startswith("actions/cache") for u in uses):
        fail(f"{path}: no actions/cache step")
    workflows = os.path.join(root, "examples", "github-actions")
    names = sorted(n for n in os.listdir(workflows) if n.endswith((".yml", ".yaml")))
    if not names:
        fail(f"{workflows}: no workflow")
    for name in names:
        wf_path = os.path.join(workflows, name)
        wf = yaml.safe_load(open(wf_path, encoding="utf-8"))
        # PyYAML reads the key `on` as True (YAML 1.1).
        if not wf.get("jobs") or ("on" not in wf and True not in wf):
            fail(f"{wf_path}: no 'on' or no jobs")
        # A workflow's run steps may leave the shell to the default; only a
        # composite action must name it.
        used = False
        for job in wf["jobs"].values():
            if not job.get("steps"):
                fail(f"{wf_path}: a job without steps")
            used |= any("sitemill" in s.get("uses", "") for s in job["steps"])
        if not used:
            fail(f"{wf_path}: does not use the sitemill action")
    print(f"action.yml: composite, {len(runs['steps'])} steps; workflows: {', '.join(names)}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("entries", "dockerfile", "actions"):
        fail(__doc__)
    globals()[sys.argv[1]](sys.argv[2])
