#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer, ASan and UBSan (the library
# instrumented too, so coverage steers into it) in build-fuzz/, and runs each
# target for SECONDS, one process at the lowest priority, one after another.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  default 60
#   TARGET              datetime, parser, ... (fuzz/fuzz_<TARGET>.cpp); all
#                       targets when none is named
# Environment: FUZZ_BUILD (default build-fuzz), FUZZ_CRASHES (default
# $FUZZ_BUILD/crashes), FUZZ_JOBS (build parallelism, default 2).
#
# Each target starts from fuzz/corpus/<TARGET>/ and a working corpus in
# $FUZZ_BUILD/corpus/<TARGET>/ that keeps what earlier runs found (fuzz/corpus
# is never written; see fuzz/README.md for adding to it). A crash, a failed
# invariant, a leak or a timeout is written to $FUZZ_CRASHES/<TARGET>/ and
# the log to $FUZZ_BUILD/logs/<TARGET>.log.
#
# Exit codes: 0 every target ran clean; 1 at least one crashed; 2 bad usage
# or the build failed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [[ $seconds -eq 0 ]]; then
  echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
  exit 2
fi
shift $(($# > 0 ? 1 : 0))
build=${FUZZ_BUILD:-build-fuzz}
crashes=${FUZZ_CRASHES:-$build/crashes}

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for f in fuzz/fuzz_*.cpp; do
    n=${f#fuzz/fuzz_}
    targets+=("${n%.cpp}")
  done
fi
for t in "${targets[@]}"; do
  if [[ ! -f fuzz/fuzz_$t.cpp ]]; then
    echo "fuzz.sh: no target '$t' (fuzz/fuzz_$t.cpp)" >&2
    exit 2
  fi
done

# clang and libFuzzer's runtime, which Debian only recommends with clang.
resource_dir=$(clang++ -print-resource-dir 2>/dev/null || true)
if [[ -z $resource_dir ]] ||
  ! compgen -G "$resource_dir/lib/linux/libclang_rt.fuzzer-*.a" >/dev/null; then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "fuzz.sh: installing clang and libFuzzer (clang libclang-rt-dev)" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends clang libclang-rt-dev >&2
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
build_targets=()
for t in "${targets[@]}"; do build_targets+=("fuzz_$t"); done
# -O1 with line tables: what libFuzzer's documentation suggests, quicker to
# build than -O2 -g, and line numbers in the sanitizers' reports. No NDEBUG:
# an assert() that fails is a finding.
if ! { CXX=clang++ CC=clang cmake -S . -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Fuzz -DCMAKE_CXX_FLAGS_FUZZ="-O1 -gline-tables-only" \
  "${launcher[@]}" \
  -DSITEMILL_BUILD_FUZZERS=ON -DSITEMILL_BUILD_TESTS=OFF \
  -DSITEMILL_BUILD_BENCHMARKS=OFF >/dev/null &&
  nice -n 19 cmake --build "$build" -j "${FUZZ_JOBS:-2}" \
    --target "${build_targets[@]}"; }; then
  echo "fuzz.sh: the build failed" >&2
  exit 2
fi

mkdir -p "$build/logs"
failed=()
for t in "${targets[@]}"; do
  work="$build/corpus/$t"
  out="$crashes/$t"
  log="$build/logs/$t.log"
  mkdir -p "$work" "$out"
  options=(-max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048
           -print_final_stats=1 -artifact_prefix="$out/")
  [[ -f fuzz/$t.dict ]] && options+=(-dict="fuzz/$t.dict")
  echo "fuzz.sh: fuzz_$t for ${seconds}s" >&2
  if nice -n 19 "$build/fuzz/fuzz_$t" "${options[@]}" "$work" \
    "fuzz/corpus/$t" >"$log" 2>&1; then
    status=clean
  else
    status=CRASHED
    failed+=("$t")
  fi
  # libFuzzer's last status line ("#N DONE cov: ... corp: ...") and its
  # execution count.
  summary=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  runs=$(awk '/^stat::number_of_executed_units/ {print $2}' "$log")
  echo "fuzz_$t: $status, ${runs:-?} runs in ${seconds}s; ${summary:-no status line}"
  if [[ $status == CRASHED ]]; then
    grep -E 'ERROR|SUMMARY|artifact|Test unit written' "$log" | head -n 8 >&2 || true
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: crashed: ${failed[*]} (inputs in $crashes/, logs in $build/logs/)" >&2
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} target(s) clean, ${seconds}s each" >&2
