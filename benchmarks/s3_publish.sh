#!/usr/bin/env bash
# Upload throughput of a 10^6-URL set published to a bucket (--out s3://),
# against s3rver on loopback (tests/s3/, the server the S3 tests use), next to
# the same files uploaded one after another with curl's own SigV4
# (`curl --aws-sigv4`, what an `aws s3 cp` loop does) and the same run into a
# local directory. Not in the ctest suite: a timing on a shared machine.
#
# usage: benchmarks/s3_publish.sh [URLS]     (default 1000000)
#   reproduce: scripts/build.sh && benchmarks/s3_publish.sh 1000000
# env:
#   SITEMILL           the binary (build/sitemill)
#   SITEMILL_NPM_CACHE where tests/s3's npm packages are installed
#                      (`scripts/install-deps.sh npm-s3`, run here)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sitemill=${SITEMILL:-$root/build/sitemill}
urls=${1:-1000000}
"$root/scripts/install-deps.sh" npm-s3 >&2
cache=${SITEMILL_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sitemill-generators}
s3rver=$cache/s3rver-$(sha256sum "$root/tests/s3/package-lock.json" | cut -c1-16)/node_modules/.bin/s3rver

work=$(mktemp -d)
pid=
cleanup() { [[ -n $pid ]] && kill "$pid" 2> /dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir "$work/data"
"$s3rver" -s -d "$work/data" -a 127.0.0.1 -p 0 --configure-bucket bench > "$work/s3rver.out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "listening on" "$work/s3rver.out" && break; sleep 0.2; done
endpoint=http://$(sed -n 's/.*listening on //p' "$work/s3rver.out" | tr -d '\r\n')
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
export AWS_ENDPOINT_URL_S3=$endpoint AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_CONFIG_FILE=/dev/null
unset AWS_PROFILE AWS_SESSION_TOKEN

awk -v n="$urls" 'BEGIN { for (i = 0; i < n; i++) printf "https://www.example.com/p/%d\n", i }' > "$work/urls.txt"

seconds() { # COMMAND...: runs it, prints its wall time in seconds
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2> "$work/last.err" || { cat "$work/last.err" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

t_local=$(seconds "$sitemill" generate "$work/urls.txt" --base-url https://www.example.com/ --out "$work/local")
files=$(ls "$work/local" | wc -l)
bytes=$(du -sb "$work/local" | cut -f1)
t_s3=$(seconds "$sitemill" generate -v "$work/urls.txt" --base-url https://www.example.com/ --out s3://bench/site/)
puts=$(grep -c "PUT $endpoint/bench/site/" "$work/last.err" || true)
t_rerun=$(seconds "$sitemill" generate -v "$work/urls.txt" --base-url https://www.example.com/ --out s3://bench/seq-none/)
t_same=$(seconds "$sitemill" generate -v "$work/urls.txt" --base-url https://www.example.com/ --out s3://bench/site/)
puts_same=$(grep -c "PUT $endpoint/bench/site/" "$work/last.err" || true)

upload_all() { # the local set's files, one signed PUT after another
  local f
  for f in "$work"/local/*; do
    curl -sS --fail --aws-sigv4 "aws:amz:us-east-1:s3" --user S3RVER:S3RVER \
      -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -T "$f" "$endpoint/bench/curl/$(basename "$f")" > /dev/null
  done
}
t_curl=$(seconds upload_all)

printf '%s URLs: %s files, %s bytes\n' "$urls" "$files" "$bytes"
printf '%-52s %8s s\n' "generate --out DIR (local directory)" "$t_local"
printf '%-52s %8s s  (%s PUTs of the set)\n' "generate --out s3:// (first publish)" "$t_s3" "$puts"
printf '%-52s %8s s\n' "generate --out s3:// (another prefix, first publish)" "$t_rerun"
printf '%-52s %8s s  (%s PUTs of the set)\n' "generate --out s3:// (unchanged rerun)" "$t_same" "$puts_same"
printf '%-52s %8s s\n' "the same files, curl --aws-sigv4 one after another" "$t_curl"
printf 'upload share of a first publish: %s s over the local run\n' "$(echo "$t_s3 - $t_local" | bc)"
