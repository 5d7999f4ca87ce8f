#!/usr/bin/env bash
# The Debian package (cmake/Package.cmake): cpack builds it from BUILD_DIR,
# dpkg installs it into a scratch root (its own dpkg database) and checks the
# installed binary and files are what a user gets; as root, it is then
# installed on the machine with dpkg -i, run, and removed again.
# Usage: run.sh BUILD_DIR. Prints a closing count.
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$build" && cpack -G DEB -B "$work/out" > "$work/cpack.log") || {
  cat "$work/cpack.log" >&2; exit 1; }
deb=$(find "$work/out" -maxdepth 1 -name 'sitemill_*.deb' | head -n1)
[[ -n $deb ]] || { echo "no .deb written" >&2; exit 1; }

# Depends comes from dpkg-shlibdeps: libcurl and libxml2 must be in it.
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libcurl libxml2; do
  [[ $depends == *"$lib"* ]] || { echo "Depends lacks $lib: $depends" >&2; exit 1; }
done

# A root of its own: dpkg needs only its database directories there.
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
  -i "$deb" > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; exit 1; }
# Each output is read whole before it is searched: `cmd | grep -q` under
# pipefail fails when grep exits at its match while cmd still writes (SIGPIPE).
status=$(dpkg --root="$root" -s sitemill)
grep -q '^Status: install ok installed' <<< "$status"

version=$(dpkg-deb -f "$deb" Version)
[[ $("$root/usr/bin/sitemill" -V) == "sitemill $version" ]]
for f in usr/include/sitemill/sitemill.h usr/include/sitemill/version.h \
         usr/share/doc/sitemill/LICENSE usr/share/man/man1/sitemill.1 \
         usr/share/doc/sitemill/diagnostics.md usr/share/doc/sitemill/publishing.md \
         usr/share/man/man1/sitemill-generate.1 \
         usr/share/bash-completion/completions/sitemill; do
  [[ -s $root/$f ]] || { echo "missing from the package: /$f" >&2; exit 1; }
done
# --help cites the docs where the package put them, not the source tree's docs/.
help=$("$root/usr/bin/sitemill" generate --help)
grep -qF "$root/usr/share/doc/sitemill/scaling.md" <<< "$help" ||
  { echo "generate --help does not cite the installed docs" >&2; exit 1; }
[[ $("$root/usr/bin/sitemill" check --explain duplicate-url | head -n1) == "duplicate-url (warning; $root/usr/share/doc/sitemill/diagnostics-context.md)" ]] ||
  { echo "check --explain does not read the embedded findings docs" >&2; exit 1; }
# The library directory is CMAKE_INSTALL_LIBDIR's (lib, or lib/<triplet>).
[[ -n $(find "$root/usr/lib" -name sitemill.pc) ]] ||
  { echo "missing from the package: sitemill.pc" >&2; exit 1; }
[[ -n $(find "$root/usr/lib" -name libsitemill.a) ]] ||
  { echo "missing from the package: libsitemill.a" >&2; exit 1; }
passed=1

# And on the machine itself, as a user installs it: dpkg -i, with the real
# database, so Depends must be met by what is installed; then removed again.
# Only as root, and never over a sitemill the machine already has.
if [[ $(id -u) -ne 0 ]]; then
  echo "NOTE: not root, so the package was installed into a scratch root only"
elif dpkg -s sitemill > /dev/null 2>&1; then
  echo "NOTE: sitemill is installed on this machine; not replaced by the test"
else
  trap 'dpkg -r sitemill > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
  dpkg -i "$deb" > "$work/dpkg-system.log" 2>&1 ||
    { cat "$work/dpkg-system.log" >&2; exit 1; }
  [[ $(/usr/bin/sitemill --version) == "sitemill $version" ]] ||
    { echo "the installed /usr/bin/sitemill does not run" >&2; exit 1; }
  [[ $(pkg-config --modversion sitemill) == "$version" ]] ||
    { echo "pkg-config does not find the installed sitemill.pc" >&2; exit 1; }
  dpkg -r sitemill > "$work/dpkg-remove.log" 2>&1 ||
    { cat "$work/dpkg-remove.log" >&2; exit 1; }
  [[ ! -e /usr/bin/sitemill ]] || { echo "dpkg -r left /usr/bin/sitemill" >&2; exit 1; }
  passed=2
fi
echo "$passed passed, 0 failed"
