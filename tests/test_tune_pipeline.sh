#!/bin/sh
# test_tune_pipeline.sh: `clstencil tune --pipeline --exhaustive` and its confirmation rounds
# (copy-compute-copy, the pick and the fastest tile rows re-timed in turn after the sweep),
# on tiny grids so that it stays cheap under the sanitizers; reported as TAP.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-tunepipe.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

# ---------------------------------------------------------------- usage errors (no device)
for bad in "--confirm 65" "--confirm -1" "--confirm x" "--confirm-top 0" "--confirm-top 9" \
    "--confirm-gap -1" "--confirm-gap 11" "--confirm-gap x"; do
    # shellcheck disable=SC2086
    cli tune moving_average --pipeline --size 64 $bad
    [ $rc -eq 2 ] && err_has 'confirm'
    verdict $? "tune --pipeline $bad is a usage error"
done

cli devices
if [ $rc -ne 0 ]; then
    for t in "sweep with confirmation" "confirmed rows in the text" "csv columns" \
        "confirmed rows in the csv" "confirmed tile rows are the sweep's fastest" \
        "confirmed rows count the rounds alone" "--confirm 0" "--confirm-gap"; do
        skip "$t" "no usable OpenCL device"
    done
    echo "1..$n"
    exit 0
fi

# ---------------------------------------------------------------- the sweep and its rounds
cli tune moving_average --pipeline --exhaustive --size 4096 --steps 1,2 --tiles 1,2,4 \
    --schemes basic,scalable --reps 1 --confirm 2 --confirm-top 2 --check --csv "$tmp/p.csv"
[ $rc -eq 0 ] && [ "$(grep -c '^confirmed (2 interleaved rounds' "$tmp/out")" -eq 2 ]
verdict $? "tune --pipeline --confirm 2 --confirm-top 2 at 2 step counts: two confirmation blocks"

# Each block: one naive and one pick row, 1..2 tile rows, 2 runs each (the rounds alone: the
# sweep's runs chose the tile rows), results bitwise.
awk '/^confirmed \(/ { blk++; next }
     blk && /^  confirmed pick vs fastest.*%.*speed-up over copy-compute-copy [0-9.]+x/ { sum[blk]++ }
     blk && $1 ~ /^(naive|pick|tile)$/ && / 2 runs$/ { c[blk, $1]++; if ($1 != "naive" && $0 !~ /bitwise/) bad = 1 }
     END { for (b = 1; b <= 2; b++)
               if (c[b, "naive"] != 1 || c[b, "pick"] != 1 || c[b, "tile"] < 1 ||
                   c[b, "tile"] > 2 || sum[b] != 1) bad = 1
           exit bad || blk != 2 }' "$tmp/out"
verdict $? "confirmed rows: copy-compute-copy, the pick and the fastest tile rows, 2 runs each, checked, summary line"

head -n 1 "$tmp/p.csv" | grep -q ',predicted_s,measured_min_s,measured_median_s,check,pinned,cap_bytes,runs,role$'
verdict $? "csv: the earlier columns unchanged, runs and role appended"

# Sweep rows: runs = --reps, no role; confirmed rows: kind confirmed, a role, runs 2.
awk -F, 'NR == 1 { next }
         $4 == "confirmed" { n[$3, $17]++; if ($16 != 2 || $17 !~ /^(naive|pick|tile)$/) bad = 1; next }
         { if ($16 != 1 || $17 != "") bad = 1 }
         END { for (s = 1; s <= 2; s++)
                   if (n[s, "naive"] != 1 || n[s, "pick"] != 1 || n[s, "tile"] < 1 || n[s, "tile"] > 2)
                       bad = 1
               exit bad }' "$tmp/p.csv"
verdict $? "csv: sweep rows with runs 1 and no role, confirmed rows per step count with a role and 2 runs"

# The confirmed tile rows are the sweep's fastest tile rows by their minimum (not the pick's
# configuration), fastest first.
awk -F, 'NR == 1 { next }
         $4 == "pick" { pick[$3] = $5 "/" $6 "/" $7 "/" $9 }
         $4 == "tile" && $13 != "differs" { k = $5 "/" $6 "/" $7 "/" $9; t[$3, ++nt[$3]] = k; m[$3, k] = $11 }
         $4 == "confirmed" && $17 == "tile" { ct[$3, ++nc[$3]] = $5 "/" $6 "/" $7 "/" $9 }
         END {
             for (s = 1; s <= 2; s++) {
                 # the sweep order of tile rows by minimum, the pick left out
                 n = 0
                 for (i = 1; i <= nt[s]; i++) if (t[s, i] != pick[s]) o[++n] = t[s, i]
                 for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                     if (m[s, o[j]] + 0 < m[s, o[i]] + 0) { x = o[i]; o[i] = o[j]; o[j] = x }
                 want = n < 2 ? n : 2
                 if (nc[s] != want) bad = 1
                 for (i = 1; i <= nc[s]; i++) if (ct[s, i] != o[i]) bad = 1
             }
             exit bad }' "$tmp/p.csv"
verdict $? "the confirmed tile rows are the sweep's fastest by minimum, the pick's own tile left out"

# A confirmed row stands for a configuration of the sweep (same scheme, layout, tile) and its
# median is not below its minimum; its runs are the rounds' alone (checked above).
awk -F, 'NR == 1 { next }
         $4 == "tile" || $4 == "naive" || $4 == "pick" { m[$3, $4 == "tile" ? "tile" : $4, $5 "/" $6 "/" $7 "/" $9] = $11 }
         $4 == "confirmed" { k = $3 SUBSEP $17 SUBSEP $5 "/" $6 "/" $7 "/" $9
                             if (!(k in m) || $12 + 0 < $11 + 0) bad = 1 }
         END { exit bad }' "$tmp/p.csv"
verdict $? "confirmed rows: a configuration of the sweep, median >= min"

cli tune moving_average --pipeline --size 4096 --tiles 1,2 --schemes scalable --reps 1 --confirm 0 \
    --csv "$tmp/q.csv"
[ $rc -eq 0 ] && ! out_has '^confirmed' && ! grep -q ',confirmed,' "$tmp/q.csv" && out_has '^tile '
verdict $? "--confirm 0: the sweep alone"

# Rounds spread in time: 3 rounds 1 s apart take at least 2 s.
t0=$(date +%s)
cli tune moving_average --pipeline --size 4096 --tiles 1,2 --schemes scalable --reps 1 \
    --confirm 3 --confirm-top 1 --confirm-gap 1
t1=$(date +%s)
[ $rc -eq 0 ] && out_has '^confirmed (3 interleaved rounds.* 1 s apart' && [ $((t1 - t0)) -ge 2 ]
verdict $? "--confirm-gap 1: the header says so and 3 rounds take at least 2 s"

echo "1..$n"
exit $failed
