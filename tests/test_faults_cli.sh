#!/bin/sh
# test_faults_cli.sh: OpenCL faults under the command line, as TAP.  tests/clstencil_shim is
# clstencil with the fault-injection shim (tests/ocl_shim.c).  For each command below and each
# OpenCL entry point it calls, the first, a middle and the last call fail in turn; every run
# must then exit non-zero with the OpenCL error on stderr and leave the output file that was
# there before byte for byte, or recover and write the fault-free run's output; in both cases
# no temporary file is left beside the output and every OpenCL object is released at exit.
CLI=${builddir:-.}/tests/clstencil_shim
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-faults.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi
if ! "${builddir:-.}/clstencil" devices >/dev/null 2>&1; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi
mkdir "$tmp/o" || exit 1
printf 'an earlier result\n' >"$tmp/before"

# The shim's line at exit: "ocl_shim: fired F live context N ... calls ENTRY=N ...".
shim_line() { grep '^ocl_shim: ' "$tmp/err" | tail -n 1; }
balanced() {
    shim_line | grep -q 'live context 0 queue 0 mem 0 program 0 kernel 0 event 0 calls'
}

# check NAME OUTPUT COMMAND...: the fault-free run, then every entry point's faults.
check() {
    name=$1; output=$2; shift 2
    rm -f "$tmp/o/"*
    # The first run fills the program cache; the calls counted are those of a run from it.
    cli "$@"
    rm -f "$tmp/o/"*
    CLS_SHIM_REPORT=1 cli "$@"
    if [ $rc -ne 0 ] || [ ! -s "$tmp/o/$output" ] || ! balanced; then
        not_ok "$name: runs without a fault"
        return
    fi
    ok "$name: runs without a fault"
    cp "$tmp/o/$output" "$tmp/want"
    calls=$(shim_line | sed 's/.* calls //')
    runs=0 nfail=0 recovered=0 bad=""
    for c in $calls; do
        entry=${c%%=*} count=${c#*=}
        case $entry in clRelease*) continue ;; esac
        for k in 1 $(((count + 1) / 2)) $count; do
            case " $done_k " in *" $k "*) continue ;; esac
            done_k="$done_k $k"
            rm -f "$tmp/o/"*
            cp "$tmp/before" "$tmp/o/$output"
            CLS_SHIM_REPORT=1 CLS_SHIM_FAIL="$entry:$k" cli "$@"
            runs=$((runs + 1))
            why=""
            shim_line | grep -q 'fired 1' || why="not injected"
            balanced || why="$why; objects left: $(shim_line | sed 's/ calls .*//')"
            [ "$(ls "$tmp/o" | wc -l)" -eq 1 ] ||
                why="$why; files left: $(ls "$tmp/o" | tr '\n' ' ')"
            if [ $rc -ne 0 ]; then
                nfail=$((nfail + 1))
                cmp -s "$tmp/before" "$tmp/o/$output" || why="$why; output changed"
                err_has CL_OUT_OF_RESOURCES || why="$why; no OpenCL error on stderr"
            else
                recovered=$((recovered + 1))
                [ -s "$tmp/o/$output" ] && ! cmp -s "$tmp/before" "$tmp/o/$output" ||
                    why="$why; exit 0 without an output"
                if [ -n "$same" ] && ! cmp -s "$tmp/want" "$tmp/o/$output"; then
                    why="$why; a different output"
                fi
            fi
            [ -z "$why" ] || bad="$bad [$entry call $k:$why]"
        done
        done_k=""
    done
    if [ -z "$bad" ]; then
        ok "$name: $runs faults ($nfail failed cleanly, $recovered recovered)"
    else
        not_ok "$name: $runs faults ($nfail failed, $recovered recovered); problems:$bad"
    fi
}

# A run's output is deterministic: a recovered run must write the same bytes.
same=1
check "run hotspot --output" out.npy run hotspot --size 32x24 --steps 3 --schedule naive \
    --pipeline off --output "$tmp/o/out.npy"
check "run hotspot, pipelined, --output" out.npy run hotspot --size 32x24 --steps 2 \
    --schedule naive --pipeline scalable --pipeline-tile 32x8 --output "$tmp/o/out.npy"
# The chaotic solver's asynchronous exchange makes its iterates differ from run to run.
same=""
check "poisson-edit --output" out.png poisson-edit --synthetic 24x20 --block 8x4 \
    --comm-items 4 --check-interval 5 --tolerance 1e-2 --output "$tmp/o/out.png"

echo "1..$n"
exit $failed
