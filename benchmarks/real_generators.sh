#!/usr/bin/env bash
# Real site generators from npm against sitemill: Eleventy, Astro, Docusaurus
# and Next.js with next-sitemap build the small sites of tests/generators/
# with their own sitemaps on, and tests/generators/run.sh holds
# `sitemill generate --from-dir` against them, as the ctest generators.* tests
# do for Debian's Hugo, MkDocs, Sphinx and Jekyll. Not in the ctest suite:
# the npm installs are hundreds of MiB and the builds take minutes on 2 cores.
#
# usage: benchmarks/real_generators.sh [GENERATOR...]
#   (default: eleventy astro docusaurus nextjs; hugo mkdocs sphinx jekyll work
#   too). Needs Node.js 20 or later and npm.
# env:
#   SITEMILL           the binary (build/sitemill, built with scripts/build.sh
#                      if missing)
#   SITEMILL_NPM_CACHE where the pinned npm packages are installed, one
#                      directory per site's lockfile hash
#                      (~/.cache/sitemill-generators); installed by
#                      `scripts/install-deps.sh npm-generators` on first use
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sitemill=${SITEMILL:-$root/build/sitemill}
[[ -x $sitemill ]] || "$root/scripts/build.sh"
generators=("$@")
((${#generators[@]})) || generators=(eleventy astro docusaurus nextjs)
"$root/scripts/install-deps.sh" npm-generators
# run.sh takes a build directory: a scratch one holding the binary.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$(cd "$(dirname "$sitemill")" && pwd)/$(basename "$sitemill")" "$bin/sitemill"
"$root/tests/generators/run.sh" "$bin" "${generators[@]}"
