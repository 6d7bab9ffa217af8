#!/bin/sh
# test_cumapz_measure.sh: the CuMAPz correlation experiment (`clstencil analyze --measure`), the
# descriptions the kernel templates publish (`clstencil analyze STENCIL`) and the planner's
# ranking note, end to end on the test device (PoCL).  Completion and well-formed output only:
# PoCL's times say nothing about a GPU's memory system.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-measure.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

# Every variant of one kernel builds, runs and gets its factors; the CSVs are rectangular.
cli analyze --measure --quick --kernel transpose --reps 1 --device h100 \
    --csv "$tmp/v.csv" --summary-csv "$tmp/s.csv"
[ $rc -eq 0 ] && out_has "^== transpose" && out_has "^diag-conflicts .* shm_eff" &&
    out_has "^pearson(MPE, 1/time) = .* over 6 variants; top-ranked padded" &&
    out_has "^mean pearson over 1 kernel" &&
    [ "$(wc -l <"$tmp/v.csv")" -eq 7 ] &&
    [ "$(awk -F, '{print NF}' "$tmp/v.csv" | sort -u)" = 21 ] &&
    [ "$(wc -l <"$tmp/s.csv")" -eq 2 ] && grep -q '^transpose,h100,.*,6,' "$tmp/s.csv"
verdict $? "analyze --measure --kernel transpose: 6 variants measured and ranked, CSVs well formed"

cli analyze --measure --quick --kernel fig --kernel loaders --reps 1 --device c1060 \
    --csv "$tmp/v2.csv"
[ $rc -eq 0 ] && out_has "^== fig" && out_has "^== loaders" && out_has "^col+2-pad " &&
    out_has "^aligned-32x6-cmp " && [ "$(wc -l <"$tmp/v2.csv")" -eq 20 ] &&
    out_has "over 2 kernels"
verdict $? "analyze --measure: the Fig. 1/2 kernel (12 variants) and the 3D loaders (7) on c1060"

cli analyze --measure --kernel hotspot3
[ $rc -eq 2 ] || [ $rc -eq 1 ]; [ $? -eq 0 ] && err_has "fig, transpose, stencil2d, loaders"
verdict $? "analyze --measure --kernel with an unknown kernel is refused"

cli analyze --measure transpose
[ $rc -eq 2 ] && err_has "takes no"
verdict $? "analyze --measure takes no case"

# Published descriptions: every schedule's variants side by side.
cli analyze heat3d7 --size 128x96x16 --device h100
[ $rc -eq 0 ] && out_has "^case: *heat3d7-naive" && out_has "^case: *heat3d7-stream25d" &&
    out_has "^naive-32x8 " && out_has "^classic-32x6 " && out_has "^aligned-32x6 " &&
    [ "$(grep -c '^best: ' "$tmp/out")" -eq 2 ]
verdict $? "analyze heat3d7: naive shapes and stream25d loaders x shapes, a best of each"

cli analyze poisson2d --size 512x512 --schedule trapezoid --device c1060
[ $rc -eq 0 ] && out_has "^trapezoid-32x32-h2-wg32x8 " && out_has "^best: trapezoid-" &&
    err_has "left out trapezoid-32x32-h2-wg32x32: .*512"
verdict $? "analyze poisson2d --schedule trapezoid: tiles x work-group shapes, too large ones left out"

cli analyze heat3d7 --size 128x96x16 --schedule stream25d --dump
[ $rc -eq 0 ] && out_has '"variants"' && out_has 'published by the kernel templates'
verdict $? "analyze STENCIL --dump prints the published description"

cli analyze heat3d7 --size 128x96
[ $rc -ne 0 ] && err_has "needs 3 sizes"
verdict $? "analyze STENCIL with the wrong number of sizes is refused"

# The gpu family's channel rule: linear interleave by default, hashed when the model says so
# (the h100 model does: partition camping is gone on the H100, doc/memory-analysis.md).
src=${CLS_SRCDIR:-.}
sed 's/"channel_hash": 1,/"channel_hash": 0,/; s/"name": "h100"/"name": "h100-linear"/' \
    "$src/devices/h100_probe.json" >"$tmp/linear.json"
cli analyze transpose --param N=1024 --device h100
hashed=$rc
grep -q '^padded .* 1\.000 .* 1\.00000' "$tmp/out"; hashed_ok=$?
cli analyze transpose --param N=1024 --device "$tmp/linear.json"
[ $hashed -eq 0 ] && [ $hashed_ok -eq 0 ] && [ $rc -eq 0 ] && out_has "^padded .*ch_skew"
verdict $? "memory.channel_hash 1 (h100) removes the tiled transpose's channel skew; 0 keeps it"

# --times: the H100 measurements of doc/data re-analysed on the h100 model without a device
# (the offline loop of doc/memory-analysis.md); a missing variant and a foreign CSV are refused.
d="$src/doc/data/h100-2026-11-21-cumapz"
cli analyze --measure --kernel transpose --device h100 --times "$d-transpose-1.csv" \
    --times "$d-transpose-2.csv" --summary-csv "$tmp/ts.csv"
[ $rc -eq 0 ] && out_has "^padded .* 0\.1944 " && out_has "top-ranked padded runs at 100 %" &&
    grep -q '^transpose,h100,.*,6,0\.8[0-9]*,padded,padded,1\.0000,yes' "$tmp/ts.csv"
verdict $? "analyze --measure --times re-analyses the H100 transpose times (fastest of two passes)"

head -4 "$d-transpose-1.csv" >"$tmp/short.csv"
cli analyze --measure --kernel transpose --device h100 --times "$tmp/short.csv"
[ $rc -ne 0 ] && err_has "no time for transpose/padded"
verdict $? "analyze --measure --times refuses a CSV without a variant's time"

cli analyze --measure --kernel fig --device h100 --times "$d.txt"
[ $rc -ne 0 ] && err_has "no kernel, variant, min_s and median_s columns"
verdict $? "analyze --measure --times refuses a file that --csv did not write"

# run --rank-mapping ranks the plan's mapping among its schedule's published variants.
cli run poisson2d --size 128x96 --steps 1 --schedule naive --local-size 32x8 --rank-mapping
[ $rc -eq 0 ] &&
    out_has "^mapping: CuMAPz on .*: this mapping (naive-32x8) ranks [0-9]* of [0-9]* by MPE"
verdict $? "run --rank-mapping names a naive plan's CuMAPz rank among the work-group shapes"

cli run poisson2d --size 256x256 --steps 2 --schedule trapezoid --rank-mapping
[ $rc -eq 0 ] &&
    out_has "^mapping: CuMAPz on .*: this mapping (trapezoid-[0-9]*x[0-9]*-h[0-9]*-wg[0-9]*x[0-9]*) ranks [0-9]* of [0-9]* by MPE"
verdict $? "run --rank-mapping names a trapezoid plan's CuMAPz rank (its own tile analysed beside the published ones)"

echo "1..$n"
exit $failed
