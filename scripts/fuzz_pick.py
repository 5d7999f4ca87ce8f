#!/usr/bin/env python3
"""Pick the few inputs of a fuzz run worth committing to a target's corpus.

`-merge=1` keeps every input that adds a feature, often hundreds; the
committed corpora are replayed in every CI run, so they take only the few
inputs that add the most coverage edges beyond what the corpus reaches
already, chosen greedily (smaller first on a tie). Usage:

  build-fuzz/fuzz/fuzz_T -merge=1 -merge_control_file=/tmp/T.ctl \
      /tmp/T.merged build-fuzz/corpus/T      # /tmp/T.merged: a copy of fuzz/corpus/T
  scripts/fuzz_pick.py /tmp/T.ctl fuzz/corpus/T [COUNT]     # COUNT: default 6

Run both from the same directory (the repository's root): the control file
names inputs as the fuzzer was given them. It reads the control file libFuzzer
writes (the file list, then COV lines of edges per input), copies the picked inputs as found_<sha1 prefix> and prints
what each adds. An input must add at least 3 edges to be picked.
"""
import os
import shutil
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    control, dest = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) == 4 else 6
    lines = open(control).read().split("\n")
    total, in_first = int(lines[0]), int(lines[1])
    files = lines[2 : 2 + total]
    edges = {}
    for line in lines[2 + total :]:
        parts = line.split()
        if parts and parts[0] == "COV":
            edges[int(parts[1])] = set(parts[2:])
    covered = set()
    for i in range(in_first):  # the first directory: the committed corpus
        covered |= edges.get(i, set())
    candidates = {i: edges.get(i, set()) for i in range(in_first, total)}
    for _ in range(count):
        gain = lambda i: (len(candidates[i] - covered), -os.path.getsize(files[i]))
        best = max(candidates, key=gain, default=None)
        if best is None or gain(best)[0] < 3:
            break
        added = len(candidates[best] - covered)
        covered |= candidates.pop(best)
        name = "found_" + os.path.basename(files[best])[:12]
        shutil.copy(files[best], os.path.join(dest, name))
        print(f"{name}: +{added} edges, {os.path.getsize(files[best])} bytes")
    left = set().union(*candidates.values()) - covered if candidates else set()
    print(f"not picked: {len(left)} edges in {len(candidates)} inputs")


if __name__ == "__main__":
    main()
