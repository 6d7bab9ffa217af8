#!/bin/sh
# h100_column.sh: stream25d's column window (cl/stream25d_column.cl; doc/stream25d.md, "The
# column window") on the GPU, for issue 21 (acoustic3d_r4 512^3 float at >= 1.3x naive) and
# issue 23 (radius-2 and radius-4 3D stars faster than naive): naive, AUTO, stream25d with the
# planner's choice (the column window for stars beyond radius 1), then the column window at
# forced tiles, rows per work-item and planes per group, and the full window where it runs
# (radius 2).
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_column.sh [GPU_DIR]
#
# AUTO takes the column window where the device model offers it (tuning.stream25d_column; the
# H100 model from radius 2, with tuning.stream25d_column_rows and _prefetch), so AUTO's row is
# the model's plan.  test_stream25d_column runs on the GPU first (bitwise against the reference
# there).  Writes $OUT/column.{csv,txt} and column-tests.txt through tools/gpu/sweep.sh.  About
# 120 commands, 6 to 9 minutes; no command starts after BUDGET seconds (default 540).
set -u
dir=$(dirname "$0")
B="--steps 20 --reps 3 --format csv"
C="--schedule stream25d --param stream25d.window=column"
# lines STENCIL DTYPE: the baselines, then the column window's tiles, rows, planes loaded ahead
# and planes per group.
lines() {
  s="bench $1 --size 512x512x512 --dtype $2 $B"
  echo "$s --schedule naive"
  echo "$s"
  echo "$s --schedule stream25d"
  for t in 32x4 32x8 32x16 64x4 64x8 128x4; do
    echo "$s $C --param stream25d.tile=$t"
  done
  for t in 32x4 32x8 64x4 64x2; do
    for r in 2 4; do
      for a in 1 2 3; do
        echo "$s $C --param stream25d.tile=$t --param stream25d.rows_per_item=$r" \
          "--param stream25d.prefetch=$a"
      done
    done
  done
  for p in 32 64 128 256 512; do
    echo "$s $C --param stream25d.tile=32x4 --param stream25d.rows_per_item=4 --param stream25d.planes=$p"
  done
}
{
  lines acoustic3d_r4 float
  lines tools/bench/ebisu/star3d13.json float
  lines tools/bench/star3d25.json float
  # the full window at radius 2, against which the column window was built
  echo "bench tools/bench/ebisu/star3d13.json --size 512x512x512 --dtype float $B" \
    "--schedule stream25d --param stream25d.window=full"
  # double precision: the baselines and the planner's column window
  for s in acoustic3d_r4 tools/bench/ebisu/star3d13.json; do
    echo "bench $s --size 512x512x512 --dtype double $B --schedule naive"
    echo "bench $s --size 512x512x512 --dtype double $B --schedule stream25d"
  done
} | sh "$dir/sweep.sh" -n column -b "${BUDGET:-540}" -l 30 -t test_stream25d_column ${1:+"$1"}
