#!/bin/sh
# h100_stream25d_regs.sh: issue 5's fused streaming (cl/stream25d_tb.cl) against register caps on
# the H100.  The fused kernel needs 130-210 registers per work-item, so an SM holds one
# 256-item work-group (8 warps) and larger groups are refused; NVIDIA's -cl-nv-maxrregcount
# (clstencil --max-registers) trades registers for resident groups.  Sweeps heat3d7 float
# 512^3: register cap x steps per pass x work-group/rows, the classic loader and the z chunk at
# the best, and records ptxas's registers and spills per build (-cl-nv-verbose).
# Run from the repository root:  sh tools/gpu/h100_stream25d_regs.sh   (after package.sh)
# Results in $OUT: regs.csv (bench transit rows), buildlog.txt (ptxas per build), timing.txt,
# device.txt, regs.err.  About 7 minutes, at most 8 (nothing new starts after 440 s).
set -u
. tools/gpu/env.sh
out=${OUT:-./gpu-out}
mkdir -p "$out"
size=${SIZE:-512x512x512}
export CLSTENCIL_BUILD_OPTIONS=${BUILD_OPTIONS--cl-nv-verbose}
export CLSTENCIL_BUILD_LOG=$out/buildlog.txt
t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
late() { [ "$(el)" -ge "${BUDGET:-440}" ]; }
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  timeout 20 clstencil devices
} > "$out/device.txt" 2>&1
csv=$out/regs.csv
T() { late && return 0
  timeout 30 clstencil bench transit --size $size --format csv --reps 3 --steps 24 "$@" \
    heat3d7 2>>"$out/regs.err" | { [ -s "$csv" ] && grep -v '^kind,' || cat; } >> "$csv"
  echo "$* : $(el) s" >> "$out/timing.txt"; }

T --schedule naive
# Steps per pass x work-group x rows x cap (no cap first: the reference of the last session).
for k in 3 4 2; do
  for wg in "32x8 4" "32x16 4" "64x8 4" "64x4 4" "32x16 2" "64x8 2"; do
    set -- $wg
    for cap in 0 128 96 72; do
      c=""; [ $cap -gt 0 ] && c="--max-registers $cap"
      T --steps-per-pass $k --local-size $1 --rows-per-item $2 $c
    done
  done
done
# The classic loader and the z chunk at the caps that fit 2 and 3 groups per SM.
for k in 3 4; do
  for cap in 128 96; do
    T --steps-per-pass $k --local-size 32x16 --rows-per-item 4 --max-registers $cap --loader classic
    T --steps-per-pass $k --local-size 32x16 --rows-per-item 4 --max-registers $cap --points-per-item 256
    T --steps-per-pass $k --local-size 32x16 --rows-per-item 4 --max-registers $cap --points-per-item 512
  done
done
echo "total $(el) s" >> "$out/timing.txt"
