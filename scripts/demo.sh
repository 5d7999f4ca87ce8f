#!/usr/bin/env bash
# The main job on the bundled example: installs dependencies, builds, and runs
# `sitemill generate` on examples/data/urls.tsv into examples/out/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# The CLI alone: the tests, benchmarks and fuzzers are scripts/test.sh's.
TARGET=sitemill_cli "$root/scripts/build.sh"
out=${1:-$root/examples/out}
set -x
"$root/build/sitemill" generate --base-url https://www.example.com/ --out "$out" \
  --json "$root/examples/data/urls.tsv" "$root/examples/data/more-urls.txt"
{ set +x; } 2>/dev/null
echo "published into $out:" >&2
ls -la "$out" >&2
