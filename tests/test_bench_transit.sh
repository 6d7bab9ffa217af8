#!/bin/sh
# test_bench_transit.sh: `clstencil bench transit` (the transit benchmarks and Table 5 rows), as TAP.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-transit.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

cli bench transit --help
[ $rc -eq 0 ] && out_has cube_ghost_transit && out_has --loader && out_has --rows-per-item
verdict $? "bench transit --help exits 0 and names the kernels and the stream25d options"

cli bench transit --size 64x64
[ $rc -eq 2 ] && err_has "NXxNYxNZ"
verdict $? "a 2D --size is a usage error"
cli bench transit --loader fast
[ $rc -eq 2 ] && err_has "loader"
verdict $? "an unknown --loader is a usage error"
cli bench transit --steps-per-pass 17
[ $rc -eq 2 ] && err_has "steps-per-pass"
verdict $? "--steps-per-pass beyond 16 is a usage error"

if ! "$CLI" devices >/dev/null 2>&1; then
    echo "ok $((n + 1)) - transit on a device # SKIP no OpenCL device"
    echo "1..$((n + 1))"
    exit 0
fi

# Both transits and one stencil per loader on a small cube whose y is not a multiple of 6.
cli bench transit heat3d7 --size 40x26x9 --reps 1 --steps 2 --format csv --loader classic \
    --local-size 16x2
[ $rc -eq 0 ] && [ "$(grep -c '^transit,' "$tmp/out")" -eq 2 ] &&
    out_has '^stencil,heat3d7,40x26x9,float,32x6,stream25d,classic,16x2x1,' &&
    out_has '^transit,cube_ghost_transit,.*,12,0,0,'
verdict $? "csv: cube_transit, cube_ghost_transit (12 bytes per point) and a classic stream25d row"

# Temporal blocking: 2 steps per pass on a classic 32x8 tile, the count in the next-to-last
# column; the last is the register cap, which PoCL cannot apply (0).
cli bench transit heat3d7 --size 40x26x9 --reps 1 --steps 3 --format csv --loader classic \
    --local-size 32x8 --steps-per-pass 2 --max-registers 64
[ $rc -eq 0 ] && out_has '^stencil,heat3d7,40x26x9,float,32x6,stream25d,classic,32x8x1,.*,2,0$'
verdict $? "csv: a stream25d row with 2 steps per pass, no register cap on PoCL"

cli bench transit heat3d7 --size 40x26x9 --max-registers 8
[ $rc -eq 2 ] && err_has 'invalid --max-registers'
verdict $? "--max-registers below 16 is a usage error"

cli bench transit heat3d27 --size 40x26x9 --reps 1 --steps 1 --dtype double --tile 16x4 \
    --schedule naive
[ $rc -eq 0 ] && out_has 'loaded 24x6' && out_has 'heat3d27: naive schedule' &&
    out_has '30 flops/point'
verdict $? "text: a double 16x4 tile loads 24x6, a naive row with its flops"

cli bench transit cell3d --size 40x26x9 --reps 1 --steps 1 --format json --tile 2048x2048
[ $rc -eq 1 ] && err_has "tile 2048x2048"
verdict $? "a tile beyond the device's work-group fails with the limit named"

echo "1..$n"
