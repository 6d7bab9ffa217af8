#!/bin/sh
# h100_stream25d_auto.sh: AUTO's 3D choice on the H100 after the 2026-11-22 rule: `clstencil run`
# (its why line: the rule and the model's gain) for heat3d7 float and double, then the suite's
# 3D rows, AUTO against naive.  About 1.5 minutes.
# Run from the repository root after tools/gpu/package.sh:  sh tools/gpu/h100_stream25d_auto.sh
set -u
. tools/gpu/env.sh
out=${OUT:-./gpu-out}; mkdir -p "$out"
for dt in float double; do
  timeout 30 clstencil run heat3d7 --dtype $dt --size 512x512x512 --steps 50 --pipeline off \
    >> "$out/run.txt" 2>&1
done
timeout 150 clstencil bench suite --size large --reps 5 --apps heat3d7,heat3d27,jacobi3d,cell3d \
  --out "$out/suite-3d" > "$out/suite-3d.txt" 2>&1
