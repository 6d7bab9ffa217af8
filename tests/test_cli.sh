#!/bin/sh
# test_cli.sh: end-to-end checks of the clstencil command line, reported as TAP.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

have_python=0
if command -v python3 >/dev/null 2>&1; then have_python=1; fi
json_ok() { python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out" 2>/dev/null; }

# ---------------------------------------------------------------- help and usage errors
cli --help
[ $rc -eq 0 ] && out_has devices && out_has run && out_has demo && out_has bench
verdict $? "clstencil --help lists the commands"

check_help() {
    cmd=$1; shift
    cli "$cmd" --help
    r=$rc
    for opt in "$@"; do out_has "$opt" || r=1; done
    verdict $r "clstencil $cmd --help exits 0 and mentions $*"
}
check_help devices --format --device
check_help run --size --steps --boundary --dtype --param --input --aux --output --verify \
    --schedule --local-size --device --format
check_help demo --device --format
check_help bench --size --steps --dtype --reps --format --device --schedule --local-size

cli help run
[ $rc -eq 0 ] && out_has --verify
verdict $? "clstencil help run prints the run help"

cli frobnicate
[ $rc -eq 2 ] && err_has frobnicate
verdict $? "an unknown command exits 2 and names it"

cli
[ $rc -eq 2 ] && err_has usage
verdict $? "no command exits 2 with the usage"

cli run hotspot --no-such-option
[ $rc -eq 2 ] && err_has no-such-option && err_has usage
verdict $? "an unknown option exits 2 with the usage"

cli run hotspot --steps -3
[ $rc -eq 2 ] && err_has steps
verdict $? "a negative --steps is rejected"

cli run hotspot --steps 99999999999999999999999
[ $rc -eq 2 ] && err_has steps
verdict $? "an overflowing --steps is rejected"

cli run hotspot --size 64x0
[ $rc -ne 0 ] && err_has "64x0"
verdict $? "--size 64x0 is rejected with a message naming it"

cli run hotspot --size 64x64x64x64
[ $rc -ne 0 ] && err_has "64x64x64x64"
verdict $? "a size with four parts is rejected"

cli run hotspot --boundary sideways
[ $rc -eq 2 ] && err_has sideways
verdict $? "an unknown --boundary is rejected"

# ---------------------------------------------------------------- devices
cli devices
if [ $rc -ne 0 ]; then
    sed 's/^/# /' "$tmp/err"
    reason="no usable OpenCL device"
    skip "devices lists at least one device" "$reason"
    for t in "devices --format=json" "run --verify" "run --output/--input" "run errors" \
        "bench --format csv" "demo"; do
        skip "$t" "$reason"
    done
    echo "1..$n"
    exit 0
fi
[ "$(grep -c -E '^[* ] +[0-9]+:[0-9]+ ' "$tmp/out")" -ge 1 ] && out_has '^\*'
verdict $? "devices lists at least one device and marks the default"

cli devices --format=json
if [ $have_python -eq 1 ]; then
    [ $rc -eq 0 ] && json_ok && out_has '"devices"'
    verdict $? "devices --format=json prints valid JSON"
else
    skip "devices --format=json prints valid JSON" "python3 not found"
fi

cli devices --format csv
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -ge 2 ] && head -n 1 "$tmp/out" | grep -q '^index,default,type,name'
verdict $? "devices --format csv prints a header and rows"

cli devices --device no-such-device-anywhere
[ $rc -eq 1 ] && err_has "CLS_ERR_NO_DEVICE"
verdict $? "a --device matching nothing fails with CLS_ERR_NO_DEVICE"

# ---------------------------------------------------------------- run
cli run hotspot --size 64x64 --steps 5 --verify
[ $rc -eq 0 ] && out_has '^verify: OK' && err_has '^device: '
verdict $? "run hotspot --size 64x64 --steps 5 --verify passes"

cli run hotspot --size 40x24 --steps 3 --dtype double --boundary constant=80 --verify
[ $rc -eq 0 ] && out_has '^verify: OK'
verdict $? "run hotspot in double with a constant boundary verifies"

cli run pathfinder --size 1000 --steps 7 --verify
[ $rc -eq 0 ] && out_has '^verify: OK'
verdict $? "run pathfinder (1D, per-step aux) verifies"

cli run heat3d7 --size 16x12x8 --steps 3 --boundary periodic --verify
[ $rc -eq 0 ] && out_has '^verify: OK'
verdict $? "run heat3d7 (3D, periodic) verifies"

cli run cell3d --size 12x12x12 --steps 4 --verify
[ $rc -eq 0 ] && out_has '^verify: OK (bitwise)'
verdict $? "run cell3d verifies bitwise"

cli run hotspot --size 64x48 --steps 3 --local-size 16x4 --verify
[ $rc -eq 0 ] && out_has '^work-group: 16x4 ' && out_has '^verify: OK'
verdict $? "run --local-size sets the work-group size"

cli run poisson2d --size 32x32 --steps 4 --verify --format json
if [ $have_python -eq 1 ]; then
    [ $rc -eq 0 ] && json_ok && out_has '"verify"'
    verdict $? "run --format json prints valid JSON with the verification"
else
    skip "run --format json prints valid JSON" "python3 not found"
fi

cli run hotspot --size 32x48 --steps 3 --output "$tmp/a.npy"
r=$rc
[ $r -eq 0 ] && [ -s "$tmp/a.npy" ] && [ "$(head -c 6 "$tmp/a.npy" | tail -c 5)" = "NUMPY" ]
verdict $? "run --output writes a .npy file"

cli run hotspot --input "$tmp/a.npy" --steps 2 --output "$tmp/b.npy" --verify
[ $rc -eq 0 ] && out_has '^grid: 32x48' && out_has '^verify: OK' && [ -s "$tmp/b.npy" ]
verdict $? "run --input reads the file back (size from its shape) and verifies"

cli run hotspot --input "$tmp/a.npy" --size 48x32 --steps 2
[ $rc -ne 0 ] && err_has "48x32"
verdict $? "--size that contradicts --input is rejected"

cli run hotspot --size 64x64x64 --steps 2
[ $rc -ne 0 ] && err_has "dimension"
verdict $? "a size with the wrong number of dimensions is rejected"

cli run no_such_stencil --size 16x16
[ $rc -ne 0 ] && err_has "no_such_stencil"
verdict $? "an unknown stencil is rejected with its name"

printf '{ "name": "broken", "dims": 2, "body": ' >"$tmp/bad.json"
cli run "$tmp/bad.json" --size 16x16
[ $rc -ne 0 ] && err_has "json"
verdict $? "a malformed JSON spec file is rejected with a JSON error"

cli run hotspot --size 16x16 --param no_such_param=1
[ $rc -ne 0 ] && err_has "no_such_param"
verdict $? "an undeclared --param is rejected with its name"

cli run hotspot --size 16x16 --aux nothere="$tmp/a.npy"
[ $rc -ne 0 ] && err_has "nothere"
verdict $? "an unknown --aux name is rejected with its name"

# ---------------------------------------------------------------- bench and demo
cli bench poisson2d --size 128x128 --steps 4 --reps 2 --format csv
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
    head -n 1 "$tmp/out" | grep -q '^stencil,size,' &&
    tail -n 1 "$tmp/out" | grep -q '^poisson2d,128x128,float,4,2,'
verdict $? "bench --format csv prints a header and one row"

cli bench poisson2d --size 128x128 --steps 2 --reps 1
[ $rc -eq 0 ] && out_has '^stencil/copy: '
verdict $? "bench prints the stencil/copy ratio"

cli demo
[ $rc -eq 0 ] && out_has '^verify: OK (bitwise)' && out_has 'GPoints/s'
verdict $? "demo runs, prints GPoints/s and verifies bitwise"

echo "1..$n"
exit $failed
