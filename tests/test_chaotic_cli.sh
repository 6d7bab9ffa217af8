#!/bin/sh
# test_chaotic_cli.sh: the solver commands end to end (poisson-edit, sfs, solve): outputs,
# non-convergence, usage errors and bad files, reported as TAP.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-chaotic.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
    n=$((n + 1)); echo "not ok $n - $1"
    sed 's/^/#   stderr: /' "$tmp/err" 2>/dev/null | head -n 20
    sed 's/^/#   stdout: /' "$tmp/out" 2>/dev/null | head -n 20
}
verdict() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }
cli() { "$CLI" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
out_has() { grep -q -e "$1" "$tmp/out"; }
err_has() { grep -q -i -e "$1" "$tmp/err"; }

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

# The sizes of tests/test_images.c, so that both share the compiled programs.
cli poisson-edit --synthetic 96x72 --output "$tmp/edit.png" --history "$tmp/h.csv"
[ $rc -eq 0 ] && [ -s "$tmp/edit.png" ] && out_has "converged after" && head -n 1 "$tmp/h.csv" | grep -q "steps,norm"
verdict $? "poisson-edit --synthetic writes the composite and the residual history"

cli poisson-edit --synthetic 96x72 --output "$tmp/never.png" --max-steps 60 --tolerance 1e-9
[ $rc -eq 1 ] && [ ! -e "$tmp/never.png" ] && out_has "not converged" && err_has "NOT_CONVERGED"
verdict $? "a run that does not converge exits 1 and writes nothing"

cli sfs --synthetic 64 --light 0.3,-0.2,1 --output "$tmp/height.png" --npy "$tmp/height.npy" --normals "$tmp/n.png"
[ $rc -eq 0 ] && [ -s "$tmp/height.png" ] && [ -s "$tmp/height.npy" ] && [ -s "$tmp/n.png" ] && out_has "height RMS error"
verdict $? "sfs --synthetic writes the height, its .npy and the normals, and reports the error"

cli poisson-edit "$tmp/edit.png"
[ $rc -eq 2 ] && err_has "TARGET, SOURCE and MASK"
verdict $? "poisson-edit with one image is a usage error"

cli poisson-edit --synthetic 96x72 --output "$tmp/x.png" --schedule 8w
[ $rc -eq 2 ] && err_has "4w-combine"
verdict $? "an unknown schedule is a usage error that lists the schedules"

printf 'not an image' >"$tmp/bad.png"
cli poisson-edit "$tmp/bad.png" "$tmp/bad.png" "$tmp/bad.png" --output "$tmp/x.png"
[ $rc -eq 1 ] && err_has "not a PNG"
verdict $? "a file that is not an image is refused"

cli sfs "$tmp/edit.png" "$tmp/edit.png" --output "$tmp/y.png"
[ $rc -eq 1 ] && err_has "border"
verdict $? "sfs with a mask covering the border is refused"

cli solve poisson2d --size 32x32
[ $rc -eq 1 ] && err_has "aux rhs=FILE.npy"
verdict $? "solve names the auxiliary array it needs"

cli help poisson-edit
[ $rc -eq 0 ] && out_has "check-interval" && out_has "offset"
verdict $? "help poisson-edit lists its and the solver's options"

echo "1..$n"
