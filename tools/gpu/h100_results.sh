#!/bin/sh
# h100_results.sh: issue 9's GPU runs (doc/results.md, "H100"): `clstencil bench suite` at the
# medium and large sizes with the model's plans, a sweep of every app's tuning parameter, and the
# hand-written CUDA baselines (tools/bench/cuda) at the same sizes and steps, median of 5 runs
# each.  Run from the repository root on the H100 machine:
#
#   sh tools/gpu/h100_results.sh [BINDIR]          (BINDIR default .gpu-results)
#
# BINDIR holds a release build's clstencil (configure --disable-shared CFLAGS=-O2),
# libcjson.so.1 and libOpenCL.so.1, and heat3d7_cuda, hotspot_cuda, poisson2d_cuda (`make bench`
# with nvcc, -arch=sm_90).  Writes $OUT/results-h100/ (copy it to doc/data/results-h100/ and
# run `make plots`): device.txt, log.txt, suite-medium.{csv,json}, suite-large.{csv,json},
# sweep-medium{.csv,.json,-sweep.csv}, cuda.csv.
#
# Runtime: about 3 minutes expected; every command runs under `timeout` and none starts after
# 280 s, so the whole script stays under 5 minutes (plus the machine's start).
set -u
b=$(cd "${1:-.gpu-results}" && pwd) || exit 1
out=${OUT:-./gpu-out}/results-h100
mkdir -p "$out"
log=$out/log.txt
icd=$(mktemp -d)
echo /usr/lib/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
export OCL_ICD_VENDORS=$icd LD_LIBRARY_PATH=$b CLSTENCIL_CACHE_DIR=$(mktemp -d)
export CLSTENCIL_DEVICE=gpu CLSTENCIL_MODEL_DIR=$PWD/devices
start=$(date +%s)
: > "$log"

# run LIMIT CMD...: CMD under `timeout`, at most LIMIT seconds and never past the 280 s
# deadline; skipped (and logged) when less than 10 s are left.
run() {
  limit=$1; shift
  left=$((280 - ($(date +%s) - start)))
  if [ "$left" -lt 10 ]; then echo "== SKIPPED (deadline): $*" >> "$log"; return 1; fi
  [ "$limit" -gt "$left" ] && limit=$left
  echo "== $* (timeout $limit s)" >> "$log"
  t0=$(date +%s)
  timeout "$limit" "$@"
  rc=$?
  echo "== rc $rc, $(($(date +%s) - t0)) s" >> "$log"
  return $rc
}

{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader
  "$b/clstencil" --version
  "$b/clstencil" devices
} > "$out/device.txt" 2>&1

# The carried CUDA binaries (CUDA 13.0 runtime, linked statically) need a driver >= 580; if
# they do not start, rebuild them here with the machine's nvcc (in parallel, ~30 s).
cb=$b
if ! timeout 20 "$b/poisson2d_cuda" --no-check --steps 1 --reps 1 64x64 > /dev/null 2>> "$log"; then
  nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  echo "== carried CUDA binaries do not run; rebuilding with $nv" >> "$log"
  cb=$(mktemp -d)
  for n in heat3d7 hotspot poisson2d; do
    timeout 90 "$nv" -O3 -arch=sm_90 "tools/bench/cuda/$n.cu" -o "$cb/${n}_cuda" >> "$log" 2>&1 &
  done
  wait
fi

# cuda SIZE STEPS BINARY [ARGS...]: one CUDA baseline, its CSV row appended to cuda.csv.
cuda() {
  size=$1 steps=$2 bin=$3; shift 3
  run 25 "$cb/$bin" --csv --no-header --steps "$steps" --reps 5 "$@" "$size" \
    >> "$out/cuda.csv" 2>> "$log"
}
echo "name,impl,size,dtype,steps,reps,seconds_per_step,gpoints_per_s,gb_per_s,bytes_per_point,checksum,params" \
  > "$out/cuda.csv"

# 1. The suite at the medium sizes (every app, model's plan and naive), then the baselines at
#    the same sizes and steps (doc/results.md's acceptance table).
run 90 "$b/clstencil" bench suite --size medium --reps 5 --out "$out/suite-medium" \
  > "$out/suite-medium.txt" 2>> "$log"
cuda 256x256x256 50 heat3d7_cuda
cuda 4096x4096 100 poisson2d_cuda
cuda 4096x4096 100 hotspot_cuda --height 2
for h in 1 4 8; do cuda 4096x4096 100 hotspot_cuda --height $h --no-check; done

# 2. The large sizes.
run 110 "$b/clstencil" bench suite --size large --reps 5 --out "$out/suite-large" \
  > "$out/suite-large.txt" 2>> "$log"
cuda 512x512x512 50 heat3d7_cuda --no-check
cuda 8192x8192 100 poisson2d_cuda --no-check
for h in 1 2 4 8; do cuda 8192x8192 100 hotspot_cuda --height $h --no-check; done

# 3. Time against the tuning parameter (predicted and measured), medium sizes, every app: the
#    trapezoid height h, and stream25d's steps per pass k for the 3D apps.
run 120 "$b/clstencil" bench suite --size medium --reps 3 --sweep --out "$out/sweep-medium" \
  > "$out/sweep-medium.txt" 2>> "$log"
echo "== done, $(($(date +%s) - start)) s" >> "$log"
