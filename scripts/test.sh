#!/usr/bin/env bash
# Runs every test: installs dependencies, builds, runs the suite (unit, CLI
# end-to-end, fuzz-corpus replay, install consumer), then the same suite
# under AddressSanitizer + UndefinedBehaviorSanitizer.
# SITEMILL_SKIP_SANITIZE=1 skips the second pass (for quick local runs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# The S3 publishing tests' server (tests/s3), run by both passes.
"$root/scripts/install-deps.sh" npm-s3
jobs=$(nproc)

# The hardening campaign's summary: tests tally the crash points, fault cases
# and hostile inputs they exercised (tests/support/campaign.h); one line per pass.
campaign_summary() { # LOG PASS
  awk -v pass="$2" '{ n[$1] += $2 }
    END { printf "== campaign (%s): %d crash points, %d fault cases, %d hostile inputs exercised\n",
          pass, n["crash_points"], n["fault_cases"], n["hostile_inputs"] }' "$1" >&2
}

echo "== release build and tests" >&2
BUILD_DIR="$root/build" "$root/scripts/build.sh"
campaign=$root/build/campaign.log
rm -f "$campaign" && touch "$campaign"
SITEMILL_CAMPAIGN_LOG=$campaign ctest --test-dir "$root/build" --output-on-failure -j"$jobs"
campaign_summary "$campaign" release

if [[ ${SITEMILL_SKIP_SANITIZE:-0} != 1 ]]; then
  echo "== address + undefined sanitizer build and tests" >&2
  # -O1 -g1, as the sanitizers' own docs advise: line tables for the reports,
  # and a build in less than half the time of -O2 -g (measured on
  # src/parse/xml_reader.cpp: 17.5 -> 7.2 s), which is most of this pass.
  BUILD_DIR="$root/build-asan" BUILD_TYPE=RelWithDebInfo "$root/scripts/build.sh" \
    -DSITEMILL_SANITIZE=ON -DSITEMILL_BUILD_BENCHMARKS=OFF \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  campaign=$root/build-asan/campaign.log
  rm -f "$campaign" && touch "$campaign"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    SITEMILL_CAMPAIGN_LOG=$campaign ctest --test-dir "$root/build-asan" --output-on-failure -j"$jobs"
  campaign_summary "$campaign" "address + undefined sanitizer"
fi
