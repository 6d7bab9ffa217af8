#!/bin/sh
# h100_cumapz.sh: the CuMAPz correlation experiment on the H100 (NVIDIA OpenCL), issue 6 and
# doc/memory-analysis.md: every mapping variant of the four kernels of cl/mapping_bench.cl (Fig.
# 1/2, transpose, 2D stencil loaders, 3D z-march loaders; 34 variants) analysed with the h100
# model (`gpu` family rules) and timed (min of 20 launches), Pearson(MPE, 1/time) per kernel.
# Run from the repository root; $1 (default build-cumapz-gpu) holds a release build's clstencil
# (configure --disable-shared CFLAGS=-O2), libcjson.so.1 and libOpenCL.so.1.  Results go to $OUT.  Expected runtime:
# about 50 s for one pass (34 kernel builds, 34 analyses, about 700 launches of 0.1-20 ms); a
# second pass only when the first took under 70 s; every call under `timeout 40`, so at most
# 175 s in all.
set -u
b=$(cd "${1:-build-cumapz-gpu}" && pwd)
out=${OUT:-./gpu-out}
mkdir -p "$out"
icd=$(mktemp -d)
echo /usr/lib/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
export OCL_ICD_VENDORS=$icd LD_LIBRARY_PATH=$b${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CLSTENCIL_CACHE_DIR=$(mktemp -d) CLSTENCIL_DEVICE=gpu CLSTENCIL_MODEL_DIR=$PWD/devices
log=$out/h100-cumapz.txt
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  timeout 10 nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  timeout 10 "$b/clstencil" --version
} > "$log" 2>&1
# One call per kernel, so that a failure or a timeout costs one kernel only; a second pass
# (when the first took under 70 s) shows the run-to-run spread of the times.
t_start=$(date +%s)
for pass in 1 2; do
  if [ $pass = 2 ] && [ $(($(date +%s) - t_start)) -gt 70 ]; then
    echo "== pass 2 skipped (pass 1 took $(($(date +%s) - t_start)) s)" >> "$log"; break
  fi
  for k in fig transpose stencil2d loaders; do
    echo "== pass $pass: analyze --measure --kernel $k --device h100 --reps 20" >> "$log"
    t0=$(date +%s)
    timeout 40 "$b/clstencil" analyze --measure --kernel "$k" \
      --device "$PWD/devices/h100_probe.json" --reps 20 --csv "$out/h100-cumapz-$k-$pass.csv" \
      --summary-csv "$out/h100-cumapz-$k-$pass-summary.csv" >> "$log" 2>&1
    echo "== rc $? ($(($(date +%s) - t0)) s)" >> "$log"
  done
done
echo "== done ($(($(date +%s) - t_start)) s)" >> "$log"
