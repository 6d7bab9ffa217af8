#!/bin/sh
# test_results_tables.sh: tools/plots/results.py --markdown (doc/results.md's tables):
# the committed PoCL and H100 data give one row per app, and a hand-made interleaved.csv gives
# the medians, ratio and rounds won computed by hand.  Skipped without python3.
src=${CLS_SRCDIR:-$(dirname "$0")/..}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-tables.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "$src/tests/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP no python3"
    exit 0
fi
tables() { python3 "$src/tools/plots/results.py" --markdown "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

tables "$src/doc/data/results-pocl"
[ $rc -eq 0 ] && [ "$(grep -c '^| [a-z_0-9]* | [0-9x]* | 20 | naive' "$tmp/out")" -eq 9 ] &&
    out_has 'interleaved rounds' &&
    [ "$(grep -c '^| [a-z_0-9]* | [0-9x]* | 20 | 5 |' "$tmp/out")" -eq 9 ]
verdict $? "the PoCL data: nine suite rows and nine interleaved rows"

tables "$src/doc/data/results-h100"
[ $rc -eq 0 ] && out_has 'large sizes' && out_has 'medium sizes' &&
    [ "$(grep -c '(cuda' "$tmp/out")" -eq 6 ] && ! out_has 'interleaved'
verdict $? "the H100 data: both size classes, six rows against a CUDA baseline"

# Three rounds: libclstencil 1, 3, 2 against OpenMP 2, 2, 2 -> medians 2 and 2, ratio 1.00,
# libclstencil ahead in rounds 2 and 3 (a tie counts as won); best 3 and 2.
mkdir "$tmp/results-t"
cat > "$tmp/results-t/interleaved.csv" <<'CSV'
app,size,steps,round,impl,seconds_per_step,gpoints_per_s
heat3d7,8x8x8,2,1,openmp,1,2.0
heat3d7,8x8x8,2,1,libclstencil,1,1.0
heat3d7,8x8x8,2,2,openmp,1,2.0
heat3d7,8x8x8,2,2,libclstencil,1,3.0
heat3d7,8x8x8,2,3,openmp,1,2.0
heat3d7,8x8x8,2,3,libclstencil,1,2.0
emboss,4x4,2,1,openmp,1,4.0
emboss,4x4,2,1,libclstencil,1,1.0
CSV
tables "$tmp/results-t"
out_has '^| heat3d7 | 8x8x8 | 2 | 3 | 3.000 / 2.000 | 2.000 / 2.000 | 1.00 | 2 of 3 |$' &&
    out_has '^| emboss | 4x4 | 2 | 1 | 1.000 / 1.000 | 4.000 / 4.000 | 0.25 | 0 of 1 |$'
verdict $? "interleaved rounds: best, median, ratio of medians and rounds won by hand"

echo "1..$n"
exit $failed
