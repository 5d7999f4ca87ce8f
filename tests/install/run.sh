#!/usr/bin/env bash
# Installs the built tree into a temporary prefix, then builds and runs the
# README's embedding example twice from outside the tree: once through
# find_package(sitemill), once through pkg-config. Prints a closing count.
set -euo pipefail
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/sitemill-install-XXXXXX)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/include/sitemill/sitemill.h"
test -x "$work/prefix/bin/sitemill"
# The licence travels with every installed copy.
cmp "$src/LICENSE" "$work/prefix/share/doc/sitemill/LICENSE"
test -f "$work/prefix/share/doc/sitemill/NOTICE"
# The man pages and completions the build wrote with the binary itself: an
# overview, a page per command (as many as the binary has), each shell's
# script where its completion system looks.
man1="$work/prefix/share/man/man1"
test -s "$man1/sitemill.1"
commands=$("$work/prefix/bin/sitemill" --help |
           sed -n '/^Subcommands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
test -n "$commands"
for command in $commands; do
  test -s "$man1/sitemill-$command.1"
done
test -s "$work/prefix/share/bash-completion/completions/sitemill"
test -s "$work/prefix/share/zsh/site-functions/_sitemill"
test -s "$work/prefix/share/fish/vendor_completions.d/sitemill.fish"

cmake -S "$src/tests/install/consumer" -B "$work/cmake-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/cmake-build" > "$work/build.log"
"$work/cmake-build/consumer" > "$work/cmake-run.log"
grep -q "</urlset>" "$work/cmake-run.log"
# The installed library says its version, and it is the headers'.
grep -Eq '^sitemill ([0-9.]+) \(headers \1\)$' "$work/cmake-run.log"

libdir=$(find "$work/prefix" -name sitemill.pc -printf '%h\n' | head -n1)
# Plain --libs, as most build files ask: the installed static library's
# dependencies must be on the link line without --static.
flags=$(PKG_CONFIG_PATH=$libdir pkg-config --cflags --libs sitemill)
# shellcheck disable=SC2086  # the flags are words on purpose
g++ -std=c++20 "$src/examples/embed.cpp" -o "$work/pc-consumer" $flags
"$work/pc-consumer" > "$work/pc-run.log"
cmp "$work/cmake-run.log" "$work/pc-run.log"
echo "2 passed, 0 failed"
