#!/bin/sh
# h100_defaults.sh: the naive schedule's default plans on the H100 (NVIDIA OpenCL), as a user runs
# them, plus the correctness tests; same set-up as h100_foundation.sh (release build in .gpu/).
set -u
out=${OUT:-./gpu-out}
mkdir -p "$out"
icd=$(mktemp -d)
echo /usr/lib/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
export OCL_ICD_VENDORS=$icd
export LD_LIBRARY_PATH=$PWD/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CLSTENCIL_CACHE_DIR=$(mktemp -d)
export CLSTENCIL_DEVICE=gpu
bin=$PWD/.gpu/bin
echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$out/defaults.txt"
for t in test_spec test_naive test_device example_guide; do
  echo "== $t"; "$bin/$t" 2>&1 | grep -v '^ok'
done > "$out/tests.txt" 2>&1
{
  for dt in float double; do
    "$bin/clstencil" bench heat3d7 --size 512x512x512 --dtype $dt --steps 50 --reps 5
    "$bin/clstencil" bench poisson2d --size 8192x8192 --dtype $dt --steps 50 --reps 5
  done
  for s in "hotspot 8192x8192" "pathfinder 10000000" "cell3d 384x384x384" "heat3d27 512x512x512" \
           "jacobi3d 400x400x400" "emboss 8000x8000" "moving_average 67108864"; do
    set -- $s; "$bin/clstencil" bench $1 --size $2 --steps 20 --reps 3 --format csv | tail -n 1
  done
  "$bin/clstencil" demo
} >> "$out/defaults.txt" 2>&1
echo done
