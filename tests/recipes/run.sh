#!/usr/bin/env bash
# The static-site recipes (examples/recipes/<generator>/sitemill.toml), run as
# CI runs them: the generator's output (tests/data/sites/<generator>, as the
# recipe's generator settings leave it) is copied into a scratch project, the
# recipe's sitemill.toml beside it, and `sitemill generate` runs there with no
# flags. Each recipe must list exactly the pages the generator publishes, pass
# `sitemill check`, and, with its cached state file restored on a fresh
# checkout whose every file has a new mtime and new build stamps, give every
# page the same lastmod as before, and an edited page alone a new one; without
# the state, the pages that state no date get the new checkout's time. Then
# the Dockerfile against README.md's Install steps, and the GitHub Actions
# files.
# Usage: run.sh BUILD_DIR. Prints a closing count.
set -euo pipefail
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
sitemill=$build/sitemill
checks=$root/tests/recipes/checks.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base=https://www.example.com/

# Checkout times: what every file of a fresh CI checkout carries, as the
# lastmod sitemill gives a page dated by its content the first time it sees it.
first=2025-06-01T12:00:00Z
second=2026-01-02T03:04:05Z
third=2026-03-04T05:06:07Z

passed=0
failed=0
# run NAME FUNCTION [ARGS...]: one test, in a subshell that stops at its first
# failure.
run() {
  local name=$1 rc
  shift
  set +e
  ( set -e; "$@" ) > "$work/$name.log" 2>&1
  rc=$?
  set -e
  if ((rc == 0)); then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
    sed 's/^/     /' "$work/$name.log"
  fi
}
fail() { echo "$*" >&2; exit 1; }

# The web root each generator writes.
declare -A web_root=([hugo]=public [jekyll]=_site [eleventy]=_site [nextjs]=out)

# checkout DIR GENERATOR TIME: a fresh project: the generator's output, the
# recipe's config, every file (and directory) dated TIME, and .sitemill/, made
# as the recipe's CI step does (sitemill does not create the state's
# directory).
checkout() {
  local dir=$1 gen=$2 time=$3 out=${web_root[$2]}
  mkdir -p "$dir"
  cp -R "$root/tests/data/sites/$gen" "$dir/$out"
  # The recipes turn the generators' own sitemaps off (Hugo's disableKinds,
  # no jekyll-sitemap, no sitemap template in Eleventy); the fixtures keep
  # them as the answers the C++ tests compare with.
  rm -f "$dir/$out/sitemap.xml"
  cp "$root/examples/recipes/$gen/sitemill.toml" "$dir/"
  find "$dir" -exec touch -d "$time" {} +
}

# generate DIR: `sitemill generate`, no flags, in DIR.
generate() {
  (cd "$1" && "$sitemill" generate) > "$1.out" 2>&1 || {
    cat "$1.out" >&2
    fail "sitemill generate failed in $1"
  }
}

entries() { python3 "$checks" entries "$1" | LC_ALL=C sort; }

# expect GENERATOR TIME: the URLs each generator publishes, sorted, with the
# lastmod each must get: the date the page states, else TIME, when the run
# first saw the page's content.
expect() {
  local t=$2
  case $1 in
    hugo) cat <<EOF ;;
${base} $t
${base}posts/ $t
${base}posts/caf%C3%A9-au-lait/ 2024-04-02T18:00:00+02:00
${base}posts/first-post/ 2024-03-10T09:30:00+01:00
${base}tags/ $t
EOF
    jekyll) cat <<EOF ;;
${base} $t
${base}2024/03/10/welcome-to-jekyll.html 2024-03-10T00:00:00+00:00
${base}2024/04/01/second-post.html 2024-04-05T12:00:00+00:00
${base}about $t
EOF
    eleventy) cat <<EOF ;;
${base} $t
${base}about/ $t
${base}blog/ $t
${base}blog/firstpost/ 2024-05-20T10:00:00.000Z
${base}blog/secondpost/ $t
EOF
    nextjs) cat <<EOF ;;
${base} $t
${base}about $t
${base}blog $t
${base}blog/hello-world 2024-05-03T14:30:00.000Z
${base}blog/second-post $t
EOF
  esac
}

same() { # same WHAT EXPECTED-FILE ACTUAL-FILE
  diff -u "$2" "$3" >&2 || fail "$1 differ (- expected, + actual)"
}

# A first CI run: exactly the generator's pages, the state outside the web
# root, and a set that check passes.
first_run() {
  local gen=$1 p=$work/$1-1 out=${web_root[$1]}
  checkout "$p" "$gen" "$first"
  generate "$p"
  expect "$gen" "$first" > "$p.expected"
  entries "$p/$out" > "$p.entries"
  same "$gen's URLs and lastmods" "$p.expected" "$p.entries"
  [[ -s $p/.sitemill/state.db ]] || fail "no state at $p/.sitemill/state.db"
  [[ -z $(find "$p/$out" -name '*.db*') ]] || fail "a state file in the web root: $(find "$p/$out" -name '*.db*')"
  # Nothing of sitemill's own in the web root: its manifest is beside it.
  [[ -z $(find "$p/$out" -name '.sitemill*') ]] ||
    fail "sitemill's bookkeeping in the web root: $(find "$p/$out" -name '.sitemill*')"
  [[ -s $p/.sitemill/$out/manifest-sitemap.json ]] ||
    fail "no manifest at .sitemill/$out/manifest-sitemap.json"
  grep -qx "Sitemap: ${base}sitemap.xml" "$p/$out/robots.txt" ||
    fail "$out/robots.txt does not name the sitemap: $(cat "$p/$out/robots.txt")"
  "$sitemill" check "$p/$out/sitemap.xml" --sitemap-url "${base}sitemap.xml" --warnings-as-errors >&2 ||
    fail "sitemill check failed on $out/sitemap.xml"
}

# rebuild DIR GENERATOR: what another build of unchanged sources changes: the
# generator's version stamp, build times, build IDs, hashed asset names.
rebuild() {
  local o=$1/${web_root[$2]} sub
  case $2 in
    hugo) sub='s/Hugo 0\.125\.4/Hugo 0.126.1/; s/main\.min\.6ba1d4c5/main.min.0c9e47aa/' ;;
    jekyll) sub='s/Jekyll v4\.3\.3/Jekyll v4.3.4/' ;;
    eleventy) sub='s/built on 2024-06-02T08:15:42\.311Z/built on 2026-01-02T03:04:05.000Z/' ;;
    nextjs) sub='s/k2Xq9vTn4bP7aLm1cR8sD/Zp3Lw8Qe1Rt6Yu0Io2Pa5/g; s/webpack-8f4c1b2a6d3e5f70/webpack-0a1b2c3d4e5f6a7b/g; s/5b2a9e0c1d4f7a36/77aa01bc9d3e2f10/g' ;;
  esac
  find "$o" -name '*.html' -exec sed -i "$sub" {} +
  # No stamp left unchanged: the rebuild must really differ.
  ! grep -rqE 'Hugo 0\.125\.4|Jekyll v4\.3\.3|2024-06-02T08:15:42|k2Xq9vTn4bP7aLm1cR8sD' "$o" --include='*.html' ||
    fail "rebuild left a build stamp in $o"
  find "$o" -exec touch -d "$second" {} +
}

# A fresh runner with the cached state restored, after a rebuild of unchanged
# sources: every file has a new mtime and new build stamps, and no lastmod
# moves.
cached_state() {
  local gen=$1 p=$work/$1-2
  checkout "$p" "$gen" "$second"
  rebuild "$p" "$gen"
  mkdir -p "$p/.sitemill"  # as restoring a cache does
  cp "$work/$gen-1/.sitemill/state.db" "$p/.sitemill/state.db"
  generate "$p"
  entries "$p/${web_root[$gen]}" > "$p.entries"
  same "lastmods with the restored state" "$work/$gen-1.entries" "$p.entries"
}

# The state restored from that run, and the home page edited: its lastmod is
# the new checkout's time, every other stays.
edited_page() {
  local gen=$1 p=$work/$1-3 out=${web_root[$1]}
  checkout "$p" "$gen" "$third"
  mkdir -p "$p/.sitemill"  # as restoring a cache does
  cp "$work/$gen-2/.sitemill/state.db" "$p/.sitemill/state.db"
  sed -i 's#</main>#<p>Edited.</p></main>#' "$p/$out/index.html"
  grep -q '<p>Edited.</p>' "$p/$out/index.html" || fail "no </main> to edit in $out/index.html"
  touch -d "$third" "$p/$out/index.html"
  generate "$p"
  sed "s#^${base} .*#${base} $third#" "$work/$gen-1.entries" > "$p.expected"
  entries "$p/$out" > "$p.entries"
  same "lastmods after editing the home page" "$p.expected" "$p.entries"
}

# Without the cached state (a fresh runner, no cache): every page that states
# no date is dated by this checkout, so its lastmod moves on every run.
no_state() {
  local gen=$1 p=$work/$1-4
  checkout "$p" "$gen" "$second"
  generate "$p"
  expect "$gen" "$second" > "$p.expected"
  entries "$p/${web_root[$gen]}" > "$p.entries"
  same "lastmods without the state" "$p.expected" "$p.entries"
  ! cmp -s "$work/$gen-1.entries" "$p.entries" || fail "no lastmod moved without the state"
}

# Next.js with trailingSlash: true writes out/about/index.html (and 404.html
# beside 404/index.html); the same recipe lists /about/.
nextjs_trailing_slash() {
  local p=$work/nextjs-slash o
  checkout "$p" nextjs "$first"
  o=$p/out
  for page in about blog blog/hello-world blog/second-post 404; do
    mkdir -p "$o/$page"
    cp -p "$o/$page.html" "$o/$page/index.html"
    [[ $page == 404 ]] && continue # 404.html stays too
    [[ -e $o/$page.txt ]] && mv "$o/$page.txt" "$o/$page/index.txt"
    rm "$o/$page.html"
  done
  generate "$p"
  expect nextjs "$first" | sed -E "s#^(${base}[^ ]*[^/ ]) #\1/ #" | LC_ALL=C sort > "$p.expected"
  entries "$o" > "$p.entries"
  same "URLs with trailingSlash" "$p.expected" "$p.entries"
  grep -q '404/index.html: skipped: .*error page' "$p.out" || fail "404/index.html was not skipped as an error page"
}

[[ -x $sitemill ]] || fail "no sitemill in $build"
for gen in hugo jekyll eleventy nextjs; do
  run "$gen.urls_and_check" first_run "$gen"
  run "$gen.cached_state_keeps_lastmods" cached_state "$gen"
  run "$gen.edited_page_gets_new_lastmod" edited_page "$gen"
  run "$gen.without_state_lastmods_move" no_state "$gen"
done
run nextjs.trailing_slash nextjs_trailing_slash
run dockerfile_is_readme_install python3 "$checks" dockerfile "$root"
run github_actions_yaml python3 "$checks" actions "$root"

echo "$passed passed, $failed failed"
((failed == 0))
