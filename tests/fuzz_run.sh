#!/bin/sh
# fuzz_run.sh: runs fuzz targets built for libFuzzer (make fuzz, tests/fuzz.mk), one after the
# other, each for FUZZ_SECONDS (default 60) with its seeds, and prints per target the
# executions, the time and what it found.
# Usage: fuzz_run.sh SRCDIR BINDIR OUTDIR TARGET...
#   SRCDIR/tests/fuzz/<name>/   the committed seeds (<name>: TARGET without "fuzz_")
#   OUTDIR/<name>/corpus/       the corpus libFuzzer grows (kept between runs)
#   OUTDIR/<name>/crash-*, timeout-*, oom-*   the inputs that broke a property or a limit
#   OUTDIR/<name>/log           libFuzzer's output
# Environment: FUZZ_SECONDS, FUZZ_FLAGS (more libFuzzer flags, e.g. -jobs or -fork=1
# -ignore_crashes=1 for long runs that go on past a finding).
srcdir=$1 bindir=$2 outdir=$3
shift 3
seconds=${FUZZ_SECONDS:-60}
# Allocations above 1 GiB fail instead of ending the run (tests/fuzz_target.h says why).
ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
status=0
printf '%-20s %12s %8s %10s  %s\n' target executions seconds 'exec/s' found
for t in "$@"; do
    name=${t#fuzz_}
    dir=$outdir/$name
    mkdir -p "$dir/corpus" || exit 1
    seeds=$srcdir/tests/fuzz/$name
    # the shipped device models are seeds of the model reader too
    extra=
    [ "$name" = model_json ] && extra=$srcdir/devices
    # shellcheck disable=SC2086 # FUZZ_FLAGS are words
    "$bindir/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$dir/" $FUZZ_FLAGS "$dir/corpus" "$seeds" \
        $extra >"$dir/log" 2>&1
    rc=$?
    # executions: the final stats, else (fork mode) the last status line "#N: ..."
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\)[: 	].*/\1/p' "$dir/log" | tail -n 1)
    execs=${execs:-0}
    # seconds: "Done N runs in S second(s)", "INFO: exiting: R time: Ss" (fork mode), else
    # (stopped by a finding) executions over the average rate
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p;
                   s/^INFO: exiting: .* time: \([0-9]*\)s.*/\1/p' "$dir/log" | tail -n 1)
    [ -n "$secs" ] || secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" |
        awk -v e="$execs" '$1 > 0 {printf "%d", e / $1}' | tail -n 1)
    secs=${secs:-$seconds}
    found=$(cd "$dir" && ls crash-* timeout-* oom-* leak-* slow-unit-* 2>/dev/null | tr '\n' ' ')
    [ $rc -eq 0 ] || status=1
    printf '%-20s %12s %8s %10s  %s\n' "$t" "$execs" "$secs" \
        "$(awk -v e="$execs" -v s="$secs" 'BEGIN {if (s > 0) printf "%d", e / s; else print "-"}')" \
        "${found:-nothing}"
done
exit $status
