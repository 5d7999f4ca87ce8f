#!/usr/bin/env bash
# Makes the reader measurement's input and runs reader_libs_bench on it: N
# records (default 1,000,000) from make_urls.py, as JSONL and CSV
# (reader_inputs.py), kept in $BENCH_DIR/data for later runs. Extra arguments
# go to the benchmark (e.g. --benchmark_filter=Csv).
#
# Environment: BENCH_DIR (/tmp/bench), SHARED_DIR (../shared next to the
# repository), BUILD_DIR (build), REPETITIONS (5).
# Exit status: that of the benchmark; 2 when an input cannot be made.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000000}
[[ $# -gt 0 ]] && shift
BENCH_DIR=${BENCH_DIR:-/tmp/bench}
SHARED_DIR=${SHARED_DIR:-$root/../shared}
BUILD_DIR=${BUILD_DIR:-$root/build}
data=$BENCH_DIR/data
prefix=$data/urls-$n
mkdir -p "$data"

if [[ ! -f $prefix.tsv ]]; then
  [[ -f $SHARED_DIR/bench/make_urls.py ]] ||
    { echo "missing $SHARED_DIR/bench/make_urls.py (set SHARED_DIR)" >&2; exit 2; }
  python3 "$SHARED_DIR/bench/make_urls.py" "$n" "$data/.tmp-urls-$n"
  mv "$data/.tmp-urls-$n.tsv" "$prefix.tsv"
  rm -f "$data/.tmp-urls-$n.txt"
fi
if [[ ! -f $prefix.jsonl || ! -f $prefix.csv || $prefix.tsv -nt $prefix.csv ]]; then
  python3 "$root/benchmarks/reader_inputs.py" "$prefix.tsv" "$prefix"
fi

bench=$BUILD_DIR/benchmarks/reader_libs_bench
if [[ ! -x $bench ]]; then
  cmake -S "$root" -B "$BUILD_DIR" -DSITEMILL_BUILD_BENCHMARKS=ON >&2
  cmake --build "$BUILD_DIR" --target reader_libs_bench >&2
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exec "$bench" "$prefix" --benchmark_repetitions="${REPETITIONS:-5}" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true "$@"
