#!/bin/sh
# h100_cumapz.sh: the memory-access analysis of doc/memory-analysis.md against GPU times.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_cumapz.sh [GPU_DIR]
#
# Every mapping variant of the four kernels of cl/mapping_bench.cl (34 variants: the figures'
# kernel, transpose, 2D stencil loaders, 3D z-march loaders) analysed with the H100 model
# (devices/h100_probe.json, `gpu` family rules) and timed (20 launches), with Pearson's
# correlation of the analysis's MPE and 1/time per kernel: `clstencil analyze --measure`, one
# call per kernel so that a failure costs one kernel.  A second pass, for the run-to-run spread,
# when the first took under 70 s.  About 50 s a pass; every call under `timeout 40`.
# Writes to $OUT: cumapz.txt (device and both passes' tables) and, per pass P and kernel K,
# cumapz-K-P.csv (factors, MPE, times) and cumapz-K-P-summary.csv.
set -u
[ $# -gt 0 ] && GPU_DIR=$1
BUDGET=${BUDGET:-200}
# shellcheck source=tools/gpu/env.sh
. "$(dirname "$0")/env.sh"
LOG=$OUT/cumapz.txt
gpu_record "$LOG"
for pass in 1 2; do
  if [ $pass = 2 ] && [ "$(gpu_elapsed)" -gt 70 ]; then
    echo "== pass 2 skipped (pass 1 took $(gpu_elapsed) s)" >> "$LOG"
    break
  fi
  for k in fig transpose stencil2d loaders; do
    gpu_step 40 clstencil analyze --measure --kernel "$k" --device "$PWD/devices/h100_probe.json" \
      --reps 20 --csv "$OUT/cumapz-$k-$pass.csv" --summary-csv "$OUT/cumapz-$k-$pass-summary.csv" \
      >> "$LOG" 2>&1
  done
done
echo "== done ($(gpu_elapsed) s)" >> "$LOG"
