#!/usr/bin/env bash
# Real static-site generators against sitemill: each site of tests/generators/
# (the sources of a small site of our own: two languages, posts numbered 420
# and 453, redirects, a draft, a 404 page and a search engine's verification
# file) is built by its generator, with the generator's own sitemap turned on,
# then `sitemill generate --from-dir` reads the output. compare.py holds the two
# against each other and the site's expect.txt: every URL of the generator's
# sitemap is listed (trailing-slash variants aside) unless expect.txt says why
# not, every other listed URL is explained there too, no verification file or
# error page is listed, and every skipped file is reported, in --json and -v,
# for the reason expect.txt gives.
#
# Usage: run.sh BUILD_DIR GENERATOR...
#   hugo mkdocs sphinx jekyll: Debian's packages (scripts/install-deps.sh);
#   eleventy astro docusaurus nextjs: the npm packages pinned in each site's
#   package-lock.json, installed by `scripts/install-deps.sh npm-generators`
#   into $SITEMILL_NPM_CACHE (benchmarks/real_generators.sh runs these).
# Prints one line per generator and a closing count; exits 1 if any failed.
set -euo pipefail
build=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
sitemill=$build/sitemill
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base=https://www.example.com/

need() { # COMMAND: fails saying how to install it
  command -v "$1" > /dev/null || {
    echo "$1 is not installed; scripts/install-deps.sh installs it" >&2
    return 1
  }
}

# node_modules SRC GENERATOR: links the installed packages of the site into
# its scratch copy (the cache directory is named for the lockfile's hash, so
# a changed lockfile is a new install).
node_modules() {
  local cache=${SITEMILL_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sitemill-generators}
  local dir
  dir=$cache/$2-$(sha256sum "$here/$2/package-lock.json" | cut -c1-16)/node_modules
  [[ -d $dir ]] || {
    echo "$dir is missing: run scripts/install-deps.sh npm-generators" >&2
    return 1
  }
  ln -s "$dir" "$1/node_modules"
}

# build_GENERATOR SRC WEB: builds the site whose sources are in SRC (a scratch
# copy) into the web root WEB, and sets sitemaps to the generator's sitemaps,
# as paths below WEB.
build_hugo() {
  need hugo
  hugo --source "$1" --destination "$2" --quiet
  sitemaps=(sitemap.xml)
}
build_mkdocs() {
  need mkdocs
  (cd "$1" && mkdocs build --quiet --site-dir "$2")
  sitemaps=(sitemap.xml)
}
build_sphinx() {
  need sphinx-build
  # English at the root, German (from locales/de) under de/: one build each,
  # as Sphinx translates. sphinx-sitemap writes each build's sitemap.xml.
  # (sphinx-sitemap prints where it wrote each, even with -q.)
  sphinx-build -q -b html -d "$1/../doctrees-en" "$1" "$2" > /dev/null
  sphinx-build -q -b html -D language=de -D html_baseurl=${base}de/ \
    -d "$1/../doctrees-de" "$1" "$2/de" > /dev/null
  sitemaps=(sitemap.xml de/sitemap.xml)
}
build_jekyll() {
  need jekyll
  jekyll build --quiet --source "$1" --destination "$2"
  sitemaps=(sitemap.xml)
}
build_eleventy() {
  node_modules "$1" eleventy
  (cd "$1" && node node_modules/@11ty/eleventy/cmd.cjs --quiet --output="$2" > /dev/null)
  sitemaps=(sitemap.xml)
}
build_astro() {
  node_modules "$1" astro
  # Into the project's dist/: the build's server chunks, written beside the
  # pages, import from node_modules.
  (cd "$1" && ASTRO_TELEMETRY_DISABLED=1 node node_modules/astro/astro.js build --silent &&
    mv dist "$2")
  sitemaps=(sitemap-index.xml)
}
build_docusaurus() {
  node_modules "$1" docusaurus
  (cd "$1" && node node_modules/@docusaurus/core/bin/docusaurus.mjs build --out-dir "$2" > /dev/null)
  sitemaps=(sitemap.xml de/sitemap.xml) # one per locale
}
build_nextjs() {
  node_modules "$1" nextjs
  # output: 'export' writes out/; next-sitemap reads it after the build.
  (cd "$1" && NEXT_TELEMETRY_DISABLED=1 node node_modules/next/dist/bin/next build --webpack > /dev/null &&
    node node_modules/next-sitemap/bin/next-sitemap.mjs > /dev/null && mv out "$2")
  sitemaps=(sitemap.xml)
}

passed=0
failed=0
for gen in "$@"; do
  dir=$work/$gen
  mkdir -p "$dir"
  cp -R "$here/$gen" "$dir/src"
  set +e
  (
    set -e
    start=$SECONDS
    "build_$gen" "$dir/src" "$dir/web"
    echo "built in $((SECONDS - start)) s"
    "$sitemill" generate --from-dir "$dir/web" --base-url "$base" --out "$dir/out" \
      --no-gzip --json -v > "$dir/report.json" 2> "$dir/verbose.txt" || {
      cat "$dir/verbose.txt"
      exit 1
    }
    python3 "$here/compare.py" "$dir/web" "$base" "$here/$gen/expect.txt" \
      "$dir/out" "$dir/report.json" "$dir/verbose.txt" "${sitemaps[@]}"
    "$sitemill" check "$dir/out/sitemap.xml" > /dev/null
  ) > "$dir/log" 2>&1
  rc=$?
  set -e
  if ((rc == 0)); then
    passed=$((passed + 1))
    echo "ok   $gen"
  else
    failed=$((failed + 1))
    echo "FAIL $gen"
  fi
  sed 's/^/     /' "$dir/log"
done
echo "$passed passed, $failed failed"
((failed == 0))
