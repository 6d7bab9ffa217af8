#!/bin/sh
# test_installed.sh: an installed copy of the library and the command line reads the installed
# device models, never the source tree's, even while the tree exists; the build tree's own
# (uninstalled) binaries read the source tree's; CLSTENCIL_MODEL_DIR reaches either.  The
# "installed copy" is the built library and program copied outside the build tree.  TAP.
CLI=${builddir:-.}/clstencil
src=${CLS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-installed.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$src/tests/tap.sh"

real=${builddir:-.}/.libs/clstencil
if [ ! -x "$CLI" ] || [ ! -x "$real" ] || ! ls "${builddir:-.}"/.libs/libclstencil.so.* >/dev/null 2>&1
then
    echo "1..0 # SKIP no shared build of clstencil (the copy needs .libs/clstencil and libclstencil.so)"
    exit 0
fi
case $(cd "$tmp" && pwd -P) in
"$(cd "${builddir:-.}" && pwd -P)"/*)
    echo "1..0 # SKIP TMPDIR is inside the build tree"
    exit 0
    ;;
esac
mkdir "$tmp/inst" && cp "$real" "$tmp/inst/clstencil" && cp -P "${builddir:-.}"/.libs/libclstencil.so* "$tmp/inst/" ||
    exit 1
if ! LD_LIBRARY_PATH=$tmp/inst ldd "$tmp/inst/clstencil" 2>/dev/null | grep -q "$tmp/inst/libclstencil"; then
    echo "1..0 # SKIP the copied program does not load the copied library"
    exit 0
fi
installed() { LD_LIBRARY_PATH=$tmp/inst "$tmp/inst/clstencil" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# The models the devices command reports, one line per device after the table.
models() { sed -n '/^Models/,$p' "$tmp/out" | sed 1d; }

cli devices
[ $rc -eq 0 ] && models | grep -q "$src/devices/"
verdict $? "the build tree's clstencil reads the source tree's models: $(models | head -n 1 | cut -c1-160)"

unset CLSTENCIL_MODEL_DIR
installed devices
[ $rc -eq 0 ] && ! models | grep -q "$(cd "$src" && pwd -P)/devices\|$src/devices\|build/\.\./devices"
verdict $? "an installed copy does not read the source tree's models: $(models | head -n 1 | cut -c1-160)"

CLSTENCIL_MODEL_DIR=$tmp/models; export CLSTENCIL_MODEL_DIR
mkdir "$tmp/models" && cp "$src"/devices/*.json "$tmp/models/"
installed devices
[ $rc -eq 0 ] && models | grep -q "$tmp/models/"
verdict $? "an installed copy reads CLSTENCIL_MODEL_DIR: $(models | head -n 1 | cut -c1-160)"
models | grep -q 'how close: '
verdict $? "clstencil devices says how close a matched model is"

echo "1..$n"
exit $failed
