#!/usr/bin/env bash
# Runs every test: installs dependencies, builds, runs the suite (unit, CLI
# end-to-end, fuzz-corpus replay, install consumer), then the same suite
# under AddressSanitizer + UndefinedBehaviorSanitizer.
# SITEMILL_SKIP_SANITIZE=1 skips the second pass (for quick local runs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
jobs=$(nproc)

echo "== release build and tests" >&2
BUILD_DIR="$root/build" "$root/scripts/build.sh"
ctest --test-dir "$root/build" --output-on-failure -j"$jobs"

if [[ ${SITEMILL_SKIP_SANITIZE:-0} != 1 ]]; then
  echo "== address + undefined sanitizer build and tests" >&2
  BUILD_DIR="$root/build-asan" BUILD_TYPE=RelWithDebInfo "$root/scripts/build.sh" \
    -DSITEMILL_SANITIZE=ON -DSITEMILL_BUILD_BENCHMARKS=OFF
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$root/build-asan" --output-on-failure -j"$jobs"
fi
