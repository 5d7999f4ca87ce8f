#!/usr/bin/env bash
# Installs everything sitemill needs to build, test and benchmark on Debian 12.
# Safe to run again: apt-get skips what is already there.
set -euo pipefail
packages=(
  g++ cmake ninja-build pkg-config make
  libdeflate-dev libisal-dev zlib1g-dev libidn2-dev libxxhash-dev
  nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libcurl4-openssl-dev libgumbo-dev libsqlite3-dev libre2-dev
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
