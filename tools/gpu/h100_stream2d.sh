#!/bin/sh
# h100_stream2d.sh: stream25d on 2D grids (streamed along y as NX x 1 x NY, one-row tiles, fused
# steps; doc/stream25d.md, "2D grids") on the GPU, for issue 23's 2D rows against EBISU: naive,
# AUTO and stream25d with the planner's choice, then forced work-groups (BXx1) and steps per pass.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_stream2d.sh [GPU_DIR]
#
# The full sweep (work-groups 128, 256, 512, 1024 wide x 2, 4, 6, 8, 12 steps per pass) for the
# rows issue 23 compares (the 5-point star and poisson2d at 8192^2 in float, poisson2d in double),
# a reduced one (256, 512, 1024 x 4, 8) for the others, rows per work-group (planes) for two and
# wave2d.  AUTO offers stream25d for 2D only under tuning.stream25d_2d 1: with the shipped models
# AUTO's row is the baseline to beat.  Tests test_stream25d_2d and test_stream25d_2d_plan run on
# the GPU first.  Writes $OUT/stream2d.{csv,txt} and stream2d-tests.txt through
# tools/gpu/sweep.sh.  About 165 commands, 3 to 5 minutes; no command starts after BUDGET seconds
# (default 540).
set -u
dir=$(dirname "$0")
e=tools/bench/ebisu
B="--steps 20 --reps 3 --format csv"
# lines STENCIL SIZE DTYPE WIDTHS KS: the baselines, then stream25d forced at each width and k.
lines() {
  echo "bench $1 --size $2 --dtype $3 $B --schedule naive"
  echo "bench $1 --size $2 --dtype $3 $B"
  echo "bench $1 --size $2 --dtype $3 $B --schedule stream25d"
  for w in $4; do
    for k in $5; do
      echo "bench $1 --size $2 --dtype $3 $B --schedule stream25d" \
        "--param stream25d.tile=${w}x1 --param stream25d.steps_per_pass=$k"
    done
  done
}
FULL_W="128 256 512 1024" FULL_K="2 4 6 8 12" RED_W="256 512 1024" RED_K="4 8"
{
  lines $e/star2d5.json 8192x8192 float "$FULL_W" "$FULL_K"
  lines poisson2d 8192x8192 float "$FULL_W" "$FULL_K"
  lines poisson2d 8192x8192 double "$FULL_W" "$FULL_K"
  for d in float double; do
    lines $e/star2d5.json 16384x16384 $d "$RED_W" "$RED_K"
    lines $e/box2d9.json 8192x8192 $d "$RED_W" "$RED_K"
    lines hotspot 8192x8192 $d "$RED_W" "$RED_K"
    lines emboss 8192x8192 $d "$RED_W" "$RED_K"
  done
  lines $e/star2d5.json 8192x8192 double "$RED_W" "$RED_K"
  # rows per work-group (planes): the default aims at 16 waves of groups, measured for 3D; each
  # group also runs 3k - 1 pipeline iterations beyond its rows
  for pl in 64 128 256 512 1024; do
    echo "bench $e/star2d5.json --size 8192x8192 --dtype float $B --schedule stream25d" \
      "--param stream25d.tile=512x1 --param stream25d.steps_per_pass=8 --param stream25d.planes=$pl"
    echo "bench poisson2d --size 8192x8192 --dtype double $B --schedule stream25d" \
      "--param stream25d.tile=256x1 --param stream25d.steps_per_pass=8 --param stream25d.planes=$pl"
  done
  # a system: wave2d (u and its time level), periodic (AUTO's system rule fuses there only)
  lines "wave2d --boundary periodic" 8192x8192 float "256 512" "4"
} | sh "$dir/sweep.sh" -n stream2d -b "${BUDGET:-540}" -l 30 -t test_stream25d_2d \
  -t test_stream25d_2d_plan ${1:+"$1"}
