#!/usr/bin/env bash
# Runs two builds of `sitemill check` on every file of the conformance suite,
# tests/data and the fuzz corpora, as text and as --json, and says where their
# reports differ (stdout and exit status). A change that only makes check
# faster must report nothing.
#
#   benchmarks/check_reports_same.sh OLD_BINARY NEW_BINARY [DIR...]
#
# Directories default to ../shared/conformance, tests/data and fuzz/corpus
# (relative to the repository). Each run starts in the same empty scratch
# directory; the targets are local files, so nothing is fetched.
set -u
old=${1:?old binary}
new=${2:?new binary}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
  set -- "$root/../shared/conformance" "$root/tests/data" "$root/fuzz/corpus"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=0
differ=0
while IFS= read -r -d '' f; do
  files=$((files + 1))
  for mode in text json; do
    args=(check)
    [ "$mode" = json ] && args+=(--json)
    (cd "$work" && timeout 60 "$old" "${args[@]}" "$f" >"$work/old.out" 2>"$work/old.err"; echo "exit $?" >>"$work/old.out")
    (cd "$work" && timeout 60 "$new" "${args[@]}" "$f" >"$work/new.out" 2>"$work/new.err"; echo "exit $?" >>"$work/new.out")
    if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err"; then
      differ=$((differ + 1))
      echo "DIFFERS ($mode): $f"
      diff "$work/old.out" "$work/new.out" | head -n 10
      diff "$work/old.err" "$work/new.err" | head -n 5
    fi
  done
done < <(find "$@" -type f -print0 | sort -z)
echo "$files files, $differ reports differ"
[ "$differ" -eq 0 ]
