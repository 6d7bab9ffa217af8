#!/bin/sh
# h100_ebisu.sh: the rows of issue 23's table against EBISU (Zhang et al., ICS 2023) on the GPU:
# AUTO's plan and the naive schedule of libclstencil's built-ins of each shape, and of the
# plain weighted-point specs of tools/bench/ebisu/ (distinct coefficients, no auxiliary
# array, as EBISU's benchmarks), float and double.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_ebisu.sh [GPU_DIR]
#
# Writes $OUT/ebisu.{csv,txt} through tools/gpu/sweep.sh (GPoints/s = EBISU's GCells/s:
# cells x steps / kernel time).  About 2.5 minutes; no command starts after BUDGET seconds
# (default 200).
set -u
dir=$(dirname "$0")
e=tools/bench/ebisu
B="--steps 20 --reps 5 --format csv"
{
  for s in "poisson2d $e/star2d5.json 8192x8192 float" "poisson2d $e/star2d5.json 16384x16384 float" \
           "poisson2d $e/star2d5.json 8192x8192 double" "emboss $e/box2d9.json 8192x8192 float" \
           "heat3d7 $e/star3d7.json 512x512x512 float" "heat3d27 $e/box3d27.json 512x512x512 float" \
           "heat3d7 $e/star3d7.json 512x512x512 double" "- $e/star3d13.json 512x512x512 float"; do
    set -- $s
    for st in $1 $2; do
      [ "$st" = - ] && continue
      echo "bench $st --size $3 --dtype $4 $B"
      echo "bench $st --size $3 --dtype $4 $B --schedule naive"
    done
  done
} | sh "$dir/sweep.sh" -n ebisu -b "${BUDGET:-200}" -l 30 ${1:+"$1"}
