#!/usr/bin/env bash
# Configures and builds sitemill into build/ (or $BUILD_DIR). Extra arguments go to cmake.
# TARGET builds one target and what it needs (TARGET=sitemill_cli: the CLI alone).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "$@" >&2
cmake --build "$build" -j"$(nproc)" ${TARGET:+--target "$TARGET"} >&2
