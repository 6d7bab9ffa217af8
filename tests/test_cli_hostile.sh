#!/bin/sh
# test_cli_hostile.sh: the command line against hostile and careless input: names that shadow
# built-ins, image and offset limits, outputs that alias inputs, planted symlinks, full disks,
# huge sizes and image bombs (doc/reliability-fixes.md lists what each covers).
CLI=$(cd "${builddir:-.}" && pwd)/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-hostile.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi
# Whether an OpenCL device answers (the commands that run need one).
have_device=0
if "$CLI" devices >/dev/null 2>&1; then have_device=1; fi

# ---------------------------------------------------------------- built-ins are not shadowed
mkdir "$tmp/cwd"
printf '{"name": "impostor", "dims": 1, "body": "IN(0) * 0"}\n' >"$tmp/cwd/hotspot"
printf '{"name": "mine", "dims": 1, "body": "IN(0)"}\n' >"$tmp/cwd/mystencil"
cd "$tmp/cwd" || exit 1
cli model hotspot --device gtx280 --size 64x64
[ $rc -eq 0 ] && ! out_has impostor && ! err_has impostor
verdict $? "a file named hotspot in the current folder does not replace the built-in"
if [ $have_device -eq 1 ]; then
    cli run hotspot --size 32x32 --steps 2 --verify
    [ $rc -eq 0 ] && out_has '^stencil: hotspot (2D' && ! out_has impostor
    verdict $? "clstencil run hotspot runs the built-in beside a file named hotspot"
    cli run ./hotspot --size 32 --steps 2
    [ $rc -eq 0 ] && out_has '^stencil: impostor (1D'
    verdict $? "clstencil run ./hotspot reads the file"
else
    skip "clstencil run hotspot runs the built-in beside a file named hotspot" "no OpenCL device"
    skip "clstencil run ./hotspot reads the file" "no OpenCL device"
fi
cli run mystencil --size 32 --steps 2
[ $rc -ne 0 ] && err_has "not a built-in" && err_has "\./mystencil"
verdict $? "a bare file name is not read, and the message says to write ./NAME"
cd "$tmp" || exit 1
cli run --help
[ $rc -eq 0 ] && out_has "contains '/' or ends in .json"
verdict $? "clstencil run --help says when STENCIL is a path"

echo "1..$n"
exit $failed
