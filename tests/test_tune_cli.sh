#!/bin/sh
# test_tune_cli.sh: `clstencil model STENCIL`, `clstencil tune` (and --exhaustive) and the
# trapezoid options of run and bench, reported as TAP.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-tune.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

# ---------------------------------------------------------------- the model: no device needed
cli model --device gtx280 hotspot --size 2000x2000 --block 20x20
[ $rc -eq 0 ] && out_has '^chosen: h 2, sync restart' && out_has '^restart: h 2 ' && \
    out_has '^barrier: h 2 ' && out_has '3567378\*' && out_has 'IterComp (Eq. 29)' && \
    out_has '^delta (Eq. 23): 18.83'
verdict $? "model --device gtx280 hotspot 2000x2000 block 20x20: CPL against h, h 2, delta, breakdown"

cli model --device gtx280 pathfinder
[ $rc -eq 0 ] && out_has '^restart: h 12 ' && out_has '^barrier: h 20 .*rounded down 19'
verdict $? "model --device gtx280 pathfinder (Fig. 7's configuration): 12 and 19.56 -> 20 (19)"

cli model --device gtx280 cell3d --format json
if command -v python3 >/dev/null 2>&1; then
    [ $rc -eq 0 ] && python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["h"] == 1 and d["sync"] == "barrier"' <"$tmp/out"
else
    [ $rc -eq 0 ] && out_has '"h": 1'
fi
verdict $? "model --device gtx280 cell3d --format json: h 1, memory fences (delta < 0)"

cli model --device gtx280 heat3d7
[ $rc -eq 1 ] && err_has 'Table 2'
verdict $? "a stencil without a document profile on a model without a device is refused"

cli model --device gtx280 hotspot --block 20x20x20
[ $rc -eq 2 ]
verdict $? "a --block with the wrong number of parts is a usage error"

# ---------------------------------------------------------------- with a device
cli devices
if [ $rc -ne 0 ]; then
    for t in "tune" "model on a live device" "tune --exhaustive" "tune --format csv" \
        "tune --confirm" "tune --confirm many" \
        "run --schedule trapezoid" "bench --schedule trapezoid" "run --sync bogus"; do
        skip "$t" "no usable OpenCL device"
    done
    echo "1..$n"
    exit 0
fi
# The default device's P:D (the line marked '*'), for `model --device`.
sel=$(awk '$1 == "*" { print $2; exit }' "$tmp/out")
[ -n "$sel" ] || sel=0:0

cli tune poisson2d --size 128x128 --steps 8
[ $rc -eq 0 ] && out_has '^pick: ' && out_has '^best trapezoid: trapezoid, tile ' && \
    out_has '^why: ' && out_has "^model's candidates"
verdict $? "tune poisson2d --size 128x128 --steps 8 prints the pick, the candidates and why"

cli model --device "$sel" poisson2d --size 128x128 --steps 8
[ $rc -eq 0 ] && out_has '^chosen: h ' && out_has 'modelled for this library' && \
    out_has '^profile: .*measured on'
verdict $? "model --device SEL poisson2d on a live device uses its measured profile"

cli tune poisson2d --size 16x16 --steps 4 --exhaustive --sync restart --max-h 2 --reps 1
[ $rc -eq 0 ] && out_has '^exhaustive search' && out_has '<- best overall' && \
    out_has '<- best trapezoid' && out_has "<- AUTO's pick" && \
    out_has '^  naive .*(.*) x[0-9]' && out_has "^ratio best / AUTO's pick: " && \
    out_has "^ratio best trapezoid / model's trapezoid: " && out_has "^AUTO's pick"
verdict $? "tune --exhaustive on a tiny grid: the naive plan among the measured rows, both ratios"

cli tune poisson2d --size 16x16 --steps 4 --exhaustive --sync restart --max-h 2 --reps 1 \
    --format csv
[ $rc -eq 0 ] && head -n 1 "$tmp/out" | grep -q '^stencil,size,steps,device,role,schedule,' && \
    out_has ',model_trapezoid,trapezoid,' && out_has ',naive,naive,' && \
    out_has ',candidate,naive,' && out_has ',best,trapezoid,' && out_has ',best_overall,'
verdict $? "tune --exhaustive --format csv: one row per configuration"

cli tune poisson2d --size 16x16 --steps 4 --exhaustive --sync restart --max-h 2 --reps 1 \
    --warmup 0 --confirm 2
[ $rc -eq 0 ] && out_has 'minimum of the runs' && out_has '^confirmed (2 interleaved rounds' && \
    out_has "^  best .*; AUTO's pick [0-9.]* [mun]*s per step" && \
    out_has "^confirmed ratio best / AUTO's pick: " && \
    out_has "^confirmed ratio best trapezoid / model's trapezoid: "
verdict $? "tune --exhaustive --confirm 2: both picks re-measured, both confirmed ratios"

cli tune poisson2d --size 16x16 --steps 4 --exhaustive --confirm many
[ $rc -eq 2 ] && err_has 'confirm'
verdict $? "tune --confirm many is a usage error"

cli run poisson2d --size 128x128 --steps 8 --schedule trapezoid --height 2 --sync restart \
    --verify
[ $rc -eq 0 ] && out_has '^trapezoid: tile .*h 2, sync restart' && out_has 'OK (bitwise)' && \
    out_has '^predicted time/step'
verdict $? "run --schedule trapezoid --height 2 --sync restart verifies bitwise"

cli bench poisson2d --size 128x128 --steps 8 --reps 1 --schedule trapezoid --height 2 \
    --sync restart
[ $rc -eq 0 ] && out_has '^trapezoid: tile .*h 2, sync restart'
verdict $? "bench takes --schedule trapezoid --height --sync"

cli run poisson2d --size 32x32 --steps 2 --sync bogus
[ $rc -eq 2 ] && err_has 'sync'
verdict $? "run --sync bogus is a usage error"

echo "1..$n"
