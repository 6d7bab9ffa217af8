#!/bin/sh
# test_bench_suite.sh: `clstencil bench suite` (doc/results.md): options, and a --quick run that
# must complete and write well-formed CSV and JSON (checked by tests/check_bench_output, a cJSON and
# CSV parser).  Speed is not checked.
CLI=${builddir:-.}/clstencil
CHECK=${builddir:-.}/tests/check_bench_output
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-suite.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ] || [ ! -x "$CHECK" ]; then
    echo "1..0 # SKIP $CLI or $CHECK not built"
    exit 0
fi

cli bench suite --help
[ $rc -eq 0 ] && out_has -- --quick && out_has -- --apps && out_has "512^3"
verdict $? "bench suite --help exits 0 and documents the options and sizes"
cli bench --help
[ $rc -eq 0 ] && out_has "bench suite"
verdict $? "bench --help names bench suite"
cli bench suite --size huge
[ $rc -eq 2 ] && err_has "small, medium or large"
verdict $? "an unknown --size class is a usage error"
cli bench suite --apps heat3d7,nosuch
[ $rc -eq 2 ] && err_has "nosuch"
verdict $? "an unknown app in --apps is a usage error naming it"
cli bench suite --reps 0
[ $rc -eq 2 ]
verdict $? "--reps 0 is a usage error"
cli bench suite --quick --size large
[ $rc -eq 2 ] && err_has "quick"
verdict $? "--quick with another size class is a usage error"

if ! "$CLI" devices >/dev/null 2>&1; then
    echo "ok $((n + 1)) - suite on a device # SKIP no OpenCL device"
    echo "1..$((n + 1))"
    exit 0
fi

# The smoke test: every built-in, small sizes, one timed run each.
cli bench suite --quick --out "$tmp/q"
[ $rc -eq 0 ] && out_has "moving_average" && out_has "speedup" && [ -s "$tmp/q.csv" ] &&
    [ -s "$tmp/q.json" ] && err_has "\[9/9\]"
verdict $? "bench suite --quick completes for the nine built-ins and writes CSV and JSON"
"$CHECK" "$tmp/q" 9 >"$tmp/out" 2>"$tmp/err"
verdict $? "the --quick CSV and JSON parse and hold nine well-formed results"

# --apps, --steps, --reps and --sweep: two apps, the sweep table's rows.
cli bench suite --quick --apps poisson2d,jacobi3d --steps 2 --reps 2 --sweep --out "$tmp/s"
[ $rc -eq 0 ] && ! out_has "heat3d7" && out_has "poisson2d" && out_has "jacobi3d" &&
    [ -s "$tmp/s-sweep.csv" ]
verdict $? "--apps selects two built-ins and --sweep writes the sweep table"
"$CHECK" "$tmp/s" 2 >"$tmp/out" 2>"$tmp/err" && grep -q '^app,size,steps,schedule,h,' "$tmp/s-sweep.csv" &&
    [ "$(grep -c '^poisson2d,512x512,2,trapezoid,' "$tmp/s-sweep.csv")" -ge 1 ] &&
    ! grep -q '^poisson2d,.*,stream25d,' "$tmp/s-sweep.csv"
verdict $? "the two-app output is well formed and the sweep has poisson2d trapezoid rows"
# 3D apps also sweep stream25d's steps per pass: k = 1 and 2 for 2 steps; one step per pass is
# predicted by the traffic model (the fused one needs the device model's ghost-zone inputs).
grep -q '^jacobi3d,[0-9x]*,2,stream25d,1,[0-9.e-]*[1-9][0-9.e-]*,' "$tmp/s-sweep.csv" &&
    [ "$(grep -c '^jacobi3d,[0-9x]*,2,stream25d,[12],' "$tmp/s-sweep.csv")" -eq 2 ]
verdict $? "the sweep has jacobi3d's stream25d rows at 1 and 2 steps per pass, k = 1 predicted"
grep -q ",2,2,float," "$tmp/s.csv"
verdict $? "the CSV records --steps 2 and --reps 2"

echo "1..$n"
