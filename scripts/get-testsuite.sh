#!/usr/bin/env bash
# get-testsuite.sh DEST VERSION: add CPython's own `test` package to a private Python that
# ../shared/tools/get-python.sh installed in DEST (Debian ships it apart, as
# libpythonX.Y-testsuite). Uses the apt configuration get-python.sh left in DEST/apt, so
# the system's apt state is untouched. Idempotent: prints nothing and exits 0 when the
# package is already there. scripts/cpython_tests.py needs it.
set -euo pipefail
DEST=$(cd "$1" && pwd -P); VER=$2
LIB=$DEST/root/usr/lib/python$VER
[[ -f $LIB/test/test_grammar.py ]] && exit 0
conf=$(ls "$DEST"/apt/apt-*.conf 2>/dev/null | while read -r c; do
  s=${c##*/apt-}; s=${s%.conf}
  if [[ -n $(ls "$DEST/apt/lists-$s" 2>/dev/null | grep -v partial) ]]; then echo "$c"; fi
done | head -n 1)
[[ -n $conf ]] || { echo "get-testsuite: no apt configuration in $DEST/apt" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && timeout 600 apt-get -c "$conf" -q download "libpython$VER-testsuite" ) >/dev/null
dpkg-deb -x "$tmp"/libpython"$VER"-testsuite_*.deb "$tmp/x"
mkdir -p "$LIB/test"
cp -r "$tmp/x/usr/lib/python$VER/test/." "$LIB/test/"
