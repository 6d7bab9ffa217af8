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
# rows SIZE DTYPE WIDTHS KS: gray_scott's baselines, then stream25d forced at each width and k.
rows() {
  for how in "--schedule naive" "" "$TRAP" "--schedule stream25d"; do
    echo "bench gray_scott --size $1 --dtype $2 $B${how:+ $how}"
  done
  for w in $3; do
    for k in $4; do
      echo "bench gray_scott --size $1 --dtype $2 $B --schedule stream25d" \
        "--param stream25d.tile=${w}x1 --param stream25d.steps_per_pass=$k"
    done
  done
}
{
  rows 8192x8192 float "128 256" "2 3 4 6 8"
  rows 8192x8192 double "128 256" "2 4"
  rows 16384x16384 float "256" "4 8"
  echo "bench wave2d --boundary periodic --size 8192x8192 --dtype float $B"
} | sh "$dir/sweep.sh" -n gray_scott -b "${BUDGET:-400}" -l 30 -t test_system_fused_fields \
  -t test_system_fused -t test_stream25d_2d ${1:+"$1"}
