#!/bin/sh
# test_cli_system_auto.sh: AUTO and the ghost-zone model for systems of fields on the command
# line, reported as TAP: `clstencil tune` measures a system's profile and prints its fields,
# stages and each stage's reach and cost; `clstencil run ... --verify` then shows the chosen
# plan with both schedules' predictions, and the trapezoid asked for runs the model's pick;
# both verify bitwise; `clstencil analyze` describes a system's reads and ghost zone.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-sysauto.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi
if ! "$CLI" devices >/dev/null 2>&1; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi

# A grid no candidate tile divides, a few steps.
size=97x83
steps=9

cli tune gray_scott --size $size --steps $steps
[ $rc -eq 0 ] && out_has '^profile: ' && out_has 'system: 2 fields loaded and committed' &&
    out_has '1 stage, HaloWidth 2x2' && out_has '^best trapezoid: trapezoid, tile ' &&
    out_has '^naive: predicted '
verdict $? "tune gray_scott: the system's profile (2 fields, 1 stage) and both predictions"

cli tune fdtd2d --size $size --steps $steps
[ $rc -eq 0 ] && out_has 'system: 3 fields loaded and committed' &&
    out_has '2 stages, HaloWidth 4x4 (the stages. reach summed)' &&
    out_has 'stage 0: HaloWidth 2x2, InstsPerSM_IC [0-9]' &&
    out_has 'stage 1: HaloWidth 2x2, InstsPerSM_IC [0-9]'
verdict $? "tune fdtd2d: two stages, each with its reach and its measured cost"

# The profiles are cached now: AUTO prices the schedules (cputile too on a CPU whose device
# model lets AUTO take it) and says which it took.
cli run gray_scott --size $size --steps $steps --verify
[ $rc -eq 0 ] && out_has '^schedule: \(naive\|trapezoid\|cputile\)$' &&
    out_has '^predicted run: naive [0-9.]* [mu]*s, trapezoid [0-9.]* [mu]*s\(, cputile [0-9.]* [mu]*s\)\{0,1\}$' &&
    out_has 'trapezoid predicted [0-9.e-]* s (ghost-zone model' &&
    out_has '^predicted time/step: ' && out_has '^verify: OK (bitwise, 2 fields)$'
verdict $? "run gray_scott --verify: the chosen plan, the predictions, bitwise"

cli run fdtd2d --size $size --steps $steps --verify --schedule trapezoid
[ $rc -eq 0 ] && out_has '^schedule: trapezoid$' && out_has '^trapezoid: tile [0-9x]*, h [0-9]*' &&
    out_has 'a system of 3 fields in 2 stages' && out_has '^predicted time/step: ' &&
    out_has '^verify: OK (bitwise, 3 fields)$'
verdict $? "run fdtd2d --schedule trapezoid --verify: the model's tile and height, bitwise"

# The memory analysis of a system: the union of its fields' offsets, the trapezoid's ghost zone
# growing by the stages' summed reach (fdtd2d: 2 per step, so 4 at h = 2 on a 32-wide tile).
cli analyze gray_scott --size 128x128 --schedule naive --dump
[ $rc -eq 0 ] && out_has '"RX": 1, "RY": 1' && out_has 'in\[C+(1)+(0)\*P' &&
    out_has 'in\[C+(0)+(-1)\*P'
verdict $? "analyze gray_scott: the naive variants read the Laplacian's offsets"
cli analyze fdtd2d --size 128x128 --schedule trapezoid --dump
[ $rc -eq 0 ] && out_has 'tx >= 4 && tx < 28'
verdict $? "analyze fdtd2d: the trapezoid's inner block at h 2 is the tile less twice 2 x 2"

echo "1..$n"
exit $failed
