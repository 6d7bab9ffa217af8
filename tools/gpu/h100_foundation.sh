#!/bin/sh
# h100_foundation.sh: the foundation issue's GPU experiment, run on the lent H100 machine from the
# repository root.  Expects a release build carried in .gpu/ (bin/, lib/ with libcjson.so.1 and
# libOpenCL.so.1; see tools/gpu/README.md) and writes its logs to $OUT (or ./gpu-out).
# Registers NVIDIA's OpenCL driver through a private ICD folder, so PoCL is not loaded.
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
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  "$bin/clstencil" devices
} > "$out/device.txt" 2>&1

# Correctness on NVIDIA OpenCL: every built-in x boundary x precision against the reference.
for t in test_spec test_naive test_device example_guide; do
  echo "== $t"; "$bin/$t" 2>&1 | grep -v '^ok'
done > "$out/tests.txt" 2>&1

# The naive schedule's tuning space: work-group shapes and points per item, float and double.
sweep() { # stencil size dtype local ppi
  "$bin/clstencil" bench "$1" --size "$2" --dtype "$3" --steps 20 --reps 5 --format csv \
    --local-size "$4" --points-per-item "$5" 2>/dev/null | tail -n 1
}
{
  "$bin/clstencil" bench heat3d7 --size 64x64x64 --steps 2 --reps 1 --format csv 2>/dev/null | head -n 1
  for dt in float double; do
    for ls in 32x4x1 64x4x1 128x2x1 128x4x1 256x1x1 32x8x1 64x2x1; do
      for ppi in 1 2 4 8 16; do sweep heat3d7 512x512x512 $dt $ls $ppi; done
    done
    for ls in 32x4 64x4 128x2 256x1 32x8 128x4; do
      for ppi in 1 2 4 8; do sweep poisson2d 8192x8192 $dt $ls $ppi; done
    done
  done
} > "$out/naive_sweep.csv"

# The planner's default plans, as a user runs them.
{
  for dt in float double; do
    "$bin/clstencil" bench heat3d7 --size 512x512x512 --dtype $dt --steps 50 --reps 5
    "$bin/clstencil" bench poisson2d --size 8192x8192 --dtype $dt --steps 50 --reps 5
  done
  "$bin/clstencil" demo
} > "$out/bench_default.txt" 2>&1
echo done
