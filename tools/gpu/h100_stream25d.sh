#!/bin/sh
# h100_stream25d.sh: issue 5's GPU experiment (the stream25d schedule, 001_405c9e1d5e6c3c1a.txt),
# run on the lent H100 machine from the repository root.  Expects a release build carried in
# .gpu-stream/ (clstencil, test_stream25d, libcjson.so.1, libOpenCL.so.1) and writes to $OUT.
# Registers NVIDIA's OpenCL driver through a private ICD folder, so PoCL is not loaded.
set -u
out=${OUT:-./gpu-out}
mkdir -p "$out"
d=$(mktemp -d)
echo /usr/lib/libnvidia-opencl.so.1 > "$d/nvidia.icd"
export OCL_ICD_VENDORS=$d LD_LIBRARY_PATH=$PWD/.gpu-stream CLSTENCIL_CACHE_DIR=$(mktemp -d)
export CLSTENCIL_DEVICE=gpu
b=$PWD/.gpu-stream
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  "$b/clstencil" devices
} > "$out/device.txt" 2>&1

# The planner reads the H100's measured model (devices/h100_probe.json) from the tree.
export CLSTENCIL_MODEL_DIR=$PWD/devices

# Correctness on NVIDIA OpenCL: both loaders (and the direct one) against the host reference.
"$b/test_stream25d" > "$out/tests.txt" 2>&1

T() { "$b/clstencil" bench transit --size 512x512x512 --format csv --reps 3 --steps 20 "$@" \
    2>>"$out/stream25d.err"; }
{
  # Table 5: the planner's stream25d plans (aligned loader; tile, rows per work-item, planes per
  # group and prefetch from the models), the classic loader and the naive schedule.
  for dt in float double; do
    T --dtype $dt heat3d7 heat3d27 jacobi3d cell3d
    T --dtype $dt --loader classic heat3d7 heat3d27
  done
  T --schedule naive heat3d7 heat3d27
  # Rows per work-item and prefetch distance around the planner's choice; the document's 32x6
  # tile with its one row per work-item and one-plane prefetch, both loaders.
  for r in 1 3 4; do T --rows-per-item $r heat3d7 heat3d27; done
  T --prefetch 1 heat3d7 heat3d27
  T --local-size 32x6 --rows-per-item 1 --prefetch 1 heat3d7 heat3d27
  T --local-size 32x6 --rows-per-item 1 --prefetch 1 --loader classic heat3d7 heat3d27
} > "$out/stream25d.csv"
# The programs NVIDIA built (PTX), for register counts with ptxas -v.
tar czf "$out/programs.tgz" -C "$CLSTENCIL_CACHE_DIR" .
echo done
