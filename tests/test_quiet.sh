#!/bin/sh
# test_quiet.sh: the library keeps the driver's compiler chatter off the user's terminal; build
# diagnostics reach the user only through CLSTENCIL_BUILD_LOG and CLSTENCIL_DEBUG, and the
# generated kernels compile without warnings.  TAP.
CLI=${builddir:-.}/clstencil
src=${CLS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-quiet.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$src/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi
# Every build here is from source: a cache of its own that starts empty.
CLSTENCIL_CACHE_DIR=$tmp/cache; export CLSTENCIL_CACHE_DIR
unset CLSTENCIL_DEBUG CLSTENCIL_BUILD_LOG CLSTENCIL_KERNEL_DIR
# PoCL keeps a compiler cache of its own, which would hide the warnings of a kernel it built in
# an earlier run of this test.
POCL_KERNEL_CACHE=0; export POCL_KERNEL_CACHE

# ------------------------------------------- a template that draws a warning, kept quiet
# A copy of the kernel templates whose row kernel holds one line every C compiler warns about.
mkdir "$tmp/cl" && cp "$src"/cl/*.cl "$tmp/cl/" || exit 1
cat >>"$tmp/cl/naive_rows.cl" <<'CL'
CLS_INLINE int cls_quiet_probe(int a) { return a && 2; }
CL
run_warned() { # $1: a tag making the source (and so the cache entry) new
    CLSTENCIL_KERNEL_DIR=$tmp/cl cli run pathfinder --size 1000$1 --steps 2 --schedule naive
}
run_warned 1
[ $rc -eq 0 ] && ! grep -qi 'warning' "$tmp/err"
verdict $? "a kernel build's warnings do not reach stderr"
CLSTENCIL_BUILD_LOG=$tmp/build.log run_warned 2
[ $rc -eq 0 ] && ! grep -qi 'warning' "$tmp/err" && grep -qi 'warning' "$tmp/build.log"
verdict $? "CLSTENCIL_BUILD_LOG gets the build's warnings"
CLSTENCIL_DEBUG=1 run_warned 3
[ $rc -eq 0 ] && grep -qi 'warning' "$tmp/err"
verdict $? "CLSTENCIL_DEBUG shows the build's warnings on stderr"

# ---------------------------------------------------- the real templates build cleanly
# One stencil of each dimension through every schedule that takes it.
: >"$tmp/clean.log"
r=0
for c in "pathfinder 3000 naive" "hotspot 40x36 naive" "hotspot 40x36 trapezoid" \
    "heat3d7 20x18x16 naive" "heat3d7 20x18x16 trapezoid" "heat3d7 20x18x16 stream25d" \
    "heat3d7 20x18x16 pipeline" "heat3d27 20x18x16 naive"; do
    set -- $c
    CLSTENCIL_BUILD_LOG=$tmp/clean.log cli run "$1" --size "$2" --schedule "$3" --steps 3
    [ $rc -eq 0 ] || { echo "# $c: exit $rc"; r=1; }
    if grep -qi 'warning' "$tmp/err"; then echo "# $c: a warning on stderr"; r=1; fi
done
builds=$(grep -c '^=== build' "$tmp/clean.log")
if grep -i 'warning' "$tmp/clean.log" | sed 's/^/#   /' | grep .; then r=1; fi
[ "$builds" -ge 8 ] || r=1
verdict $r "the generated kernels build without a warning ($builds builds)"

# ------------------------------------------------------ the demo: each fact once, quietly
# From an empty cache, as on a fresh clone: every kernel is built here.
CLSTENCIL_CACHE_DIR=$tmp/demo-cache cli demo
cat "$tmp/out" "$tmp/err" >"$tmp/all"
dups=$(LC_ALL=C sort "$tmp/all" | uniq -d)
[ $rc -eq 0 ] && [ -z "$dups" ] && [ "$(grep -c '^device:' "$tmp/all")" -eq 1 ] &&
    ! grep -qi 'warning' "$tmp/all"
verdict $? "clstencil demo prints each line once, the device once, and no compiler warning"
[ ! -s "$tmp/err" ]
verdict $? "clstencil demo prints nothing on a stderr that is not a terminal (no progress line)"
grep -q '^grid: [0-9]*x[0-9]*, [0-9]* steps' "$tmp/out" && grep -q '^naive: ' "$tmp/out" &&
    grep -q '^predicted time/step: ' "$tmp/out" && grep -q '^verify: OK' "$tmp/out"
verdict $? "clstencil demo shows the tuned plan's prediction, the naive schedule beside it, and the check"
# The planner tuned: the run was sized over the threshold below which nothing is measured.
! grep -q 'below which nothing is measured' "$tmp/out"
verdict $? "clstencil demo sizes its run so that the planner may measure and tune"

echo "1..$n"
exit $failed
