#!/bin/sh
# test_cli_hostile.sh: the command line against hostile and careless input: names that shadow
# built-ins, image and offset limits, outputs that alias inputs, planted symlinks, full disks,
# huge sizes and image bombs (doc/reliability.md, "Regression tests", lists what each covers).
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

# ---------------------------------------------------------------- poisson-edit limits
# PGM files: P5 of W x H bytes of one value (0 black, 255 white).
pgm() { { printf 'P5\n%s %s\n255\n' "$2" "$3"; head -c $(($2 * $3)) /dev/zero | tr '\0' "$4"; } >"$1"; }
pgm "$tmp/target.pgm" 16 16 '\200'
pgm "$tmp/source.pgm" 8 8 '\377'
pgm "$tmp/bigmask.pgm" 12 12 '\377'
pgm "$tmp/mask.pgm" 8 8 '\377'
cli poisson-edit "$tmp/target.pgm" "$tmp/source.pgm" "$tmp/bigmask.pgm" --paste "$tmp/paste.pgm" \
    --output "$tmp/edit.pgm"
[ $rc -eq 1 ] && err_has "same size" && [ ! -e "$tmp/paste.pgm" ] && [ ! -e "$tmp/edit.pgm" ]
verdict $? "poisson-edit --paste with a mask larger than the source is refused (no overflow)"
cli poisson-edit "$tmp/target.pgm" "$tmp/source.pgm" "$tmp/mask.pgm" --paste "$tmp/paste.pgm" \
    --output "$tmp/edit.pgm" --offset 9223372036854775807,0
[ $rc -eq 2 ] && err_has "offset" && [ ! -e "$tmp/paste.pgm" ]
verdict $? "poisson-edit refuses an --offset beyond the largest image side"
cli poisson-edit "$tmp/target.pgm" "$tmp/source.pgm" "$tmp/mask.pgm" --paste "$tmp/paste.pgm" \
    --output "$tmp/edit.pgm" --offset=-1048577,5
[ $rc -eq 2 ] && err_has "offset"
verdict $? "poisson-edit refuses a negative --offset beyond the largest image side"
if [ $have_device -eq 1 ]; then
    cli poisson-edit "$tmp/target.pgm" "$tmp/source.pgm" "$tmp/mask.pgm" \
        --paste "$tmp/paste.pgm" --output "$tmp/edit.pgm" --offset 4,4
    [ $rc -eq 0 ] && [ -s "$tmp/paste.pgm" ] && [ -s "$tmp/edit.pgm" ]
    verdict $? "poisson-edit with a mask of the source's size writes both composites"
else
    skip "poisson-edit with a mask of the source's size writes both composites" "no OpenCL device"
fi

# ---------------------------------------------------------------- degenerate device models
src=${CLS_SRCDIR:-.}
sed 's/"channel_hash": 1,/"channels": 1, "channel_hash": 1,/; s/"name": "h100"/"name": "h100-one-channel"/' \
    "$src/devices/h100_probe.json" >"$tmp/onechannel.json"
if grep -q '"channels": 1,' "$tmp/onechannel.json" && grep -q '"channel_hash": 1' "$tmp/onechannel.json"; then
    # The gpu family's channel hash cannot fold over one channel (it would never end): the
    # schema refuses such a model.
    timeout 60 "$CLI" analyze transpose --param N=256 --device "$tmp/onechannel.json" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && err_has "memory.channel_hash" && err_has "channels"
    verdict $? "a model hashing over one memory channel is refused, naming the field"
else
    not_ok "the one-channel model could not be made from devices/h100_probe.json"
fi

# ---------------------------------------------------------------- sizes, image bombs, outputs
# Host arrays beyond the memory of any machine: refused before anything is allocated or
# planned (filling them would run until the OOM killer ended it, without a message).
cli run hotspot --size 1048576x1048576 --steps 2
[ $rc -eq 1 ] && err_has "host arrays" && err_has "smaller --size"
verdict $? "run --size 1048576x1048576 fails at once, saying the host arrays do not fit"
cli run pathfinder --size 1048576 --steps 10000000
[ $rc -eq 1 ] && err_has "host arrays"
verdict $? "a per-step array of a million steps is refused the same way"
cli sfs --synthetic 4294967296 --output "$tmp/h.png"
[ $rc -eq 2 ] && err_has "synthetic"
verdict $? "sfs refuses a synthetic side past 2^20 (its square would overflow)"
# An image bomb: a PGM header of 22 bytes claiming 10^16 pixels.
printf 'P5\n100000000 100000000\n255\n' >"$tmp/bomb.pgm"
cli poisson-edit "$tmp/bomb.pgm" "$tmp/source.pgm" "$tmp/mask.pgm" --output "$tmp/out.png"
[ $rc -eq 1 ] && err_has "header" && [ ! -e "$tmp/out.png" ]
verdict $? "an image bomb is refused at its header"
# An unwritable output is found before the inputs are even read.
cli poisson-edit "$tmp/missing-target.png" "$tmp/source.pgm" "$tmp/mask.pgm" \
    --output "$tmp/no/such/folder/out.png"
[ $rc -eq 1 ] && err_has "no/such/folder" && ! err_has "missing-target"
verdict $? "poisson-edit checks its output before reading the images"
cli run hotspot --size 16x16 --steps 1 --output "$tmp/no/such/folder/out.npy"
[ $rc -eq 1 ] && err_has "no/such/folder" && ! err_has "^device:"
verdict $? "run checks --output before opening a device"
cli tune hotspot --size 16x16 --csv "$tmp/no/such/folder/t.csv"
[ $rc -eq 1 ] && err_has "no/such/folder"
verdict $? "tune checks --csv before the work"
cli bench suite --quick --apps hotspot --out "$tmp/no/such/folder/s"
[ $rc -eq 1 ] && err_has "no/such/folder" && ! err_has "^device:"
verdict $? "bench suite checks its tables before opening a device"
cli analyze --measure --device h100 --times "$tmp/none.csv" --csv "$tmp/no/such/folder/m.csv"
[ $rc -eq 1 ] && err_has "no/such/folder"
verdict $? "analyze --measure checks --csv before reading --times"
cli probe --quick --output "$tmp/no/such/folder/p.json"
[ $rc -eq 1 ] && err_has "no/such/folder" && ! err_has "^device:"
verdict $? "probe checks --output before opening a device"
mkdir "$tmp/adir"
cli run hotspot --size 16x16 --steps 1 --output "$tmp/adir"
[ $rc -eq 1 ] && err_has "folder"
verdict $? "an output that is a folder is refused"

# A full disk (a file-size limit: every write past 512 bytes fails as on a full disk, no root
# needed): the command fails, naming the file, and the old file is left whole.
if [ $have_device -eq 1 ]; then
    printf 'old' >"$tmp/full.npy"
    # First without the limit: the device compiler writes its own files while building.
    "$CLI" run hotspot --size 64x64 --steps 1 >/dev/null 2>&1
    (ulimit -f 1 && trap '' XFSZ &&
        exec "$CLI" run hotspot --size 64x64 --steps 1 --output "$tmp/full.npy") \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && err_has "full.npy" && [ "$(cat "$tmp/full.npy")" = old ] &&
        [ -z "$(ls "$tmp" | grep 'full.npy.tmp')" ]
    verdict $? "run --output on a full disk fails and leaves the old file, no temporary"
else
    skip "run --output on a full disk fails and leaves the old file, no temporary" "no OpenCL device"
fi

# A really full disk where one can be made (root with a private mount namespace: a 16 KiB
# tmpfs): the program cache's entry (about 50 KB) does not fit, the run still succeeds and
# leaves nothing half-written there; an --output on it fails and leaves the old file.
if [ $have_device -eq 1 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$tmp' 2>/dev/null" 2>/dev/null; then
    mkdir "$tmp/tiny"
    unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$tmp/tiny' &&
        mkdir -m 700 '$tmp/tiny/cache' && printf old >'$tmp/tiny/out.npy' &&
        CLSTENCIL_CACHE_DIR='$tmp/tiny/cache' '$CLI' run hotspot --size 40x24 --steps 1 \
            >'$tmp/out' 2>'$tmp/err' && echo run-ok >>'$tmp/out';
        '$CLI' run hotspot --size 100x60 --steps 1 --output '$tmp/tiny/out.npy' \
            >>'$tmp/out' 2>>'$tmp/err'; echo rc=\$? >>'$tmp/out';
        cat '$tmp/tiny/out.npy' >>'$tmp/out'; ls -A '$tmp/tiny/cache' '$tmp/tiny' >>'$tmp/out'"
    grep -q '^run-ok' "$tmp/out" && grep -q '^rc=1' "$tmp/out" && grep -q '^old' "$tmp/out" &&
        ! grep -q 'clbin\|tmp-' "$tmp/out" && err_has 'out.npy'
    verdict $? "on a full tmpfs the cache keeps nothing half-written and --output fails cleanly"
else
    skip "on a full tmpfs the cache keeps nothing half-written and --output fails cleanly" \
        "no private tmpfs can be mounted here (RLIMIT_FSIZE stands in: tests/test_writers)"
fi

# ---------------------------------------------------------------- outputs that alias inputs
printf '{"name": "spec", "dims": 2, "body": "IN(0, 0)"}\n' >"$tmp/spec.json"
cp "$tmp/spec.json" "$tmp/spec.orig"
cli run "$tmp/spec.json" --size 16x16 --steps 1 --output "$tmp/spec.json"
[ $rc -eq 1 ] && err_has "is the input" && cmp -s "$tmp/spec.json" "$tmp/spec.orig"
verdict $? "--output naming the spec file is refused before any work; the spec is intact"
ln -s spec.json "$tmp/alias.npy"
cli run "$tmp/spec.json" --size 16x16 --steps 1 --output "$tmp/alias.npy"
[ $rc -eq 1 ] && err_has "is the input" && cmp -s "$tmp/spec.json" "$tmp/spec.orig"
verdict $? "so is an --output that is a link to it"
if [ $have_device -eq 1 ]; then
    cli run "$tmp/spec.json" --size 16x16 --steps 1 --output "$tmp/grid.npy"
    cp "$tmp/grid.npy" "$tmp/grid.orig"
    cli run "$tmp/spec.json" --size 16x16 --steps 1 --input "$tmp/grid.npy" --output "$tmp/grid.npy"
    [ $rc -eq 1 ] && err_has "is the input" && cmp -s "$tmp/grid.npy" "$tmp/grid.orig"
    verdict $? "--output naming the --input file is refused; the input is intact"
    cli run hotspot --size 16x16 --steps 1 --aux power="$tmp/grid.npy" --output "$tmp/grid.npy"
    [ $rc -eq 1 ] && err_has "is the input"
    verdict $? "--output naming an --aux file is refused"
    # A device result that fails --verify (templates whose IN is scaled by 1.5, read through
    # CLSTENCIL_KERNEL_DIR) never replaces the output file.
    mkdir "$tmp/badcl"
    cp "${CLS_SRCDIR:-..}"/cl/*.cl "$tmp/badcl/"
    sed 's/^#define IN(dx, dy) CLS_READ(in, X + (dx), Y + (dy), 0)$/#define IN(dx, dy) (CLS_READ(in, X + (dx), Y + (dy), 0) * 1.5f)/' \
        "${CLS_SRCDIR:-..}/cl/prelude.cl" >"$tmp/badcl/prelude.cl"
    printf 'old' >"$tmp/verified.npy"
    CLSTENCIL_KERNEL_DIR="$tmp/badcl" "$CLI" run "$tmp/spec.json" --size 16x16 --steps 1 \
        --verify --output "$tmp/verified.npy" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    ! cmp -s "${CLS_SRCDIR:-..}/cl/prelude.cl" "$tmp/badcl/prelude.cl" && [ $rc -eq 1 ] &&
        out_has '^verify: FAILED' && out_has 'not written' && [ "$(cat "$tmp/verified.npy")" = old ]
    verdict $? "a result failing --verify does not replace the --output file"
    cli run "$tmp/spec.json" --size 16x16 --steps 1 --verify --output "$tmp/verified.npy"
    [ $rc -eq 0 ] && out_has '^verify: OK' && [ "$(head -c 6 "$tmp/verified.npy" | tail -c 5)" = NUMPY ]
    verdict $? "a verified result is written"
else
    for t in "--output naming the --input file is refused; the input is intact" \
        "--output naming an --aux file is refused" \
        "a result failing --verify does not replace the --output file" "a verified result is written"; do
        skip "$t" "no OpenCL device"
    done
fi

# ---------------------------------------------------------------- strict JSON and raw names
printf '{"name": "a", "name": "b", "dims": 1, "body": "IN(0)"}\n' >"$tmp/dup.json"
cli run "$tmp/dup.json" --size 16 --steps 1
[ $rc -eq 1 ] && err_has '\$\.name: given twice'
verdict $? "a spec with a key given twice is refused, naming it"
printf '{"name": "a", "dims": 1, "body": "IN(0)", "description": "x\\u0000hidden"}\n' >"$tmp/nul.json"
cli run "$tmp/nul.json" --size 16 --steps 1
[ $rc -eq 1 ] && err_has 'u0000' && err_has 'line 1, column'
verdict $? "a spec string holding \\\\u0000 is refused, not cut short"
printf '{"name": "d", "kernel": {"block": [16], "block": [32], "grid": [1], "arrays": {"in": {"elem_size": 4, "elements": 16}}, "body": [{"read": "in[tx]"}]}}\n' >"$tmp/dupacc.json"
cli analyze "$tmp/dupacc.json"
[ $rc -ne 0 ] && err_has 'kernel.block: given twice'
verdict $? "an access description with a key given twice is refused, naming it"
cli run hotspot --size 16x16 --steps 1 --param "$(printf 'no\033[2Jpe')=1"
[ $rc -ne 0 ] && err_has 'no\\x1b\[2Jpe' && ! grep -q "$(printf '\033')" "$tmp/err"
verdict $? "a parameter name with a terminal escape is printed escaped"
printf '{"name": "x\\u001b[31mred", "dims": 1, "body": "IN(0)"}\n' >"$tmp/esc.json"
cli run "$tmp/esc.json" --size 16 --steps 1
[ $rc -eq 1 ] && ! grep -q "$(printf '\033')" "$tmp/err" && err_has 'x1b'
verdict $? "a stencil name with a terminal escape is refused and printed escaped"

echo "1..$n"
exit $failed
