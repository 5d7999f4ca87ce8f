#!/usr/bin/env bash
# Installs everything sitemill needs to build, test and benchmark on Debian 12.
# Safe to run again: apt-get skips what is already there.
# `install-deps.sh npm-generators` also installs the npm site generators of
# tests/generators/ (benchmarks/real_generators.sh), as their lockfiles pin
# them, into $SITEMILL_NPM_CACHE (default ~/.cache/sitemill-generators), one
# directory per lockfile's hash: a rerun installs nothing, a changed lockfile
# installs anew; npm keeps its downloads in its own cache (~/.npm).
# `install-deps.sh npm-s3` installs, the same way, the S3 server the S3
# publishing tests run on loopback (tests/s3/: s3rver, S3's semantics and its
# access key check) into $SITEMILL_NPM_CACHE/s3rver-<lockfile hash>, where
# tests/support/s3_server.cpp looks for it; scripts/test.sh runs it.
set -euo pipefail
packages=(
  g++ cmake ninja-build pkg-config make
  libdeflate-dev libisal-dev zlib1g-dev libidn2-dev libxxhash-dev
  nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libcurl4-openssl-dev libssl-dev libgumbo-dev libsqlite3-dev libre2-dev
  libgtest-dev libgmock-dev libbenchmark-dev libxml2-dev libxml2-utils
  libsimdjson-dev libcsv-dev libfccp-dev
  libhowardhinnant-date-dev tzdata
  python3 python3-yaml time xxhash
  dpkg-dev file groff-base zsh fish
  chromium xsltproc fonts-dejavu-core
  # benchmarks/crawl_bench.sh: the static site is served by Debian's nginx,
  # started by the script as the current user; the package's service stays off.
  nginx-light
  # tests/slurm: a single-node Slurm cluster whose daemons the test starts
  # itself; the packages' own services need /etc/slurm/slurm.conf and stay off.
  slurm-wlm munge
  # tests/generators: real site generators build small sites whose own
  # sitemaps `generate --from-dir` is compared with (ctest generators.*).
  hugo mkdocs mkdocs-redirects
  python3-sphinx python3-sphinx-sitemap python3-sphinx-reredirects
  jekyll ruby-jekyll-sitemap ruby-jekyll-redirect-from ruby-jekyll-seo-tag
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [[ ${1:-} == npm-s3 ]]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  cache=${SITEMILL_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sitemill-generators}
  command -v npm > /dev/null || { echo "npm-s3 needs Node.js 20 or later and npm" >&2; exit 1; }
  mkdir -p "$cache"
  dir=$cache/s3rver-$(sha256sum "$root/tests/s3/package-lock.json" | cut -c1-16)
  if [[ ! -d $dir/node_modules ]]; then
    echo "installing the npm packages of tests/s3 into $dir" >&2
    tmp=$(mktemp -d "$cache/.s3rver.XXXXXX")
    cp "$root/tests/s3/package.json" "$root/tests/s3/package-lock.json" "$tmp/"
    (cd "$tmp" && npm ci --no-audit --no-fund --loglevel=error >&2)
    mv "$tmp" "$dir"
  fi
fi

if [[ ${1:-} == npm-generators ]]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  cache=${SITEMILL_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sitemill-generators}
  command -v npm > /dev/null || { echo "npm-generators needs Node.js 20 or later and npm" >&2; exit 1; }
  mkdir -p "$cache"
  for lock in "$root"/tests/generators/*/package-lock.json; do
    site=$(dirname "$lock")
    gen=$(basename "$site")
    dir=$cache/$gen-$(sha256sum "$site/package-lock.json" | cut -c1-16)
    [[ -d $dir/node_modules ]] && continue
    echo "installing the npm packages of tests/generators/$gen into $dir" >&2
    tmp=$(mktemp -d "$cache/.$gen.XXXXXX")
    cp "$site/package.json" "$site/package-lock.json" "$tmp/"
    (cd "$tmp" && npm ci --no-audit --no-fund --loglevel=error >&2)
    mv "$tmp" "$dir"
  done
fi
