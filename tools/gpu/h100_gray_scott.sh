#!/bin/sh
# h100_gray_scott.sh: fused stream25d steps for gray_scott (one stage updating u and v, a window
# per field; doc/stream25d.md, "Several fields in one stage") on the GPU, for issue 21 (AUTO at
# least 2x naive at 8192^2 float): naive, AUTO, the trapezoid's best forced configuration, the
# planner's stream25d, then forced one-row work-groups x steps per pass; double and 16384^2
# reduced; wave2d periodic (one field and its level, the same kernel with one window) to check
# it kept its rate.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_gray_scott.sh [GPU_DIR]
#
# Tests test_system_fused_fields, test_system_fused and test_stream25d_2d run on the GPU first.
# Writes $OUT/gray_scott.{csv,txt} and gray_scott-tests.txt through tools/gpu/sweep.sh.  About 29
# commands, 2 to 3 minutes; no command starts after BUDGET seconds (default 400).
set -u
dir=$(dirname "$0")
B="--steps 20 --reps 3 --format csv"
TRAP="--schedule trapezoid --param trapezoid.tile=64x32 --param trapezoid.height=2"
TRAP="$TRAP --param trapezoid.sync=restart"
# lines STENCIL SIZE DTYPE WIDTHS KS: the baselines, then stream25d forced at each width and k.
lines() {
  echo "bench $1 --size $2 --dtype $3 $B --schedule naive"
  echo "bench $1 --size $2 --dtype $3 $B"
  echo "bench $1 --size $2 --dtype $3 $B $TRAP"
  echo "bench $1 --size $2 --dtype $3 $B --schedule stream25d"
  for w in $4; do
    for k in $5; do
      echo "bench $1 --size $2 --dtype $3 $B --schedule stream25d" \
        "--param stream25d.tile=${w}x1 --param stream25d.steps_per_pass=$k"
    done
  done
}
{
  lines gray_scott 8192x8192 float "128 256" "2 3 4 6 8"
  lines gray_scott 8192x8192 double "128 256" "2 4"
  lines gray_scott 16384x16384 float "256" "4 8"
  echo "bench wave2d --boundary periodic --size 8192x8192 --dtype float $B"
} | sh "$dir/sweep.sh" -n gray_scott -b "${BUDGET:-400}" -l 30 -t test_system_fused_fields \
  -t test_system_fused -t test_stream25d_2d ${1:+"$1"}
