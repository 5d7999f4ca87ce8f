#!/usr/bin/env bash
# A site's sitemaps from a warehouse export on one big machine (or a few,
# with parallel's --sshlogin and a shared filesystem), with GNU parallel: 4
# `sitemill generate` processes, one shard each, then `sitemill merge` to
# write the index and publish the whole set at once. Until the merge, OUT
# keeps serving the previous set; if a shard fails, parallel stops the others
# and exits non-zero, and there is no merge: nothing changes.
#
#   EXPORT=/data/exports/urls OUT=/var/www/sitemaps \
#   BASE_URL=https://www.example.com/ SHARDS=4 bash parallel.sh
#
# Which shard a job is: given explicitly, `--shard I/N` with I from parallel's
# argument ({} = 0..N-1, one argument per shard), not `--shard auto/N` read
# from PARALLEL_JOBSLOT. A job slot is a number for a running job, 1 to -j,
# that parallel gives again to the next job once a job ends: a shard that
# ends (or fails) before the last one starts hands its slot, and so its shard
# number, to the next job, and two jobs make the same shard while another is
# never made. (That happens: `parallel -j4 -N0 'printenv PARALLEL_JOBSLOT'
# ::: 0 1 2 3` prints 1 2 3 1.) With the index as the argument, -j may also
# be smaller than the number of shards (JOBS=2 SHARDS=8: 8 shards, 2 at a
# time), which a job slot cannot do either.
set -euo pipefail

sitemill=${SITEMILL:-sitemill}
base_url=${BASE_URL:-https://www.example.com/}
out=${OUT:-/var/www/sitemaps}
# The export: files sitemill reads (docs/inputs.md), here gzipped CSV parts
# with a header row naming loc (and lastmod, ...). FILES picks them out.
export_dir=${EXPORT:-/data/exports/urls}
files=${FILES:-*.csv.gz}
shards=${SHARDS:-4}
jobs=${JOBS:-$shards}
# PARTITIONED=1: the export is already split by sitemill's shard hash into
# $EXPORT/shard-0 ... shard-<SHARDS-1>, and each job reads only its own
# (README.md beside this file). Unset: every job reads the whole export and
# keeps the URLs of its shard (the default, always correct).
partitioned=${PARTITIONED:-0}

# one_shard I: shard I of $shards. Writes its sitemaps and manifest under the
# bookkeeping directory beside OUT (.sitemill/<name of OUT>/shards/) and
# publishes nothing.
one_shard() {
  local i=$1 inputs presplit=()
  # shellcheck disable=SC2206  # $files is a glob pattern, expanded here on purpose
  if [[ $partitioned == 1 ]]; then
    inputs=("$export_dir/shard-$i"/$files)
    presplit=(--shard-presplit) # every record of the part is this shard's
  else
    inputs=("$export_dir"/$files)
  fi
  "$sitemill" generate --shard "$i/$shards" "${presplit[@]}" --base-url "$base_url" --out "$out" "${inputs[@]}"
}
export -f one_shard
export sitemill base_url out export_dir files shards partitioned

# --line-buffer: whole lines from the jobs as they come, each tagged with its
# shard; --halt now,fail=1: the first failure kills the other jobs, and
# parallel exits non-zero (set -e: no merge).
parallel --jobs "$jobs" --line-buffer --tagstring 'shard {}' --halt now,fail=1 \
  one_shard ::: $(seq 0 $((shards - 1)))

# Every shard succeeded: check their manifests agree, write the index, and
# publish the set into OUT atomically (OUT/sitemap.xml and its children).
"$sitemill" merge --out "$out"
