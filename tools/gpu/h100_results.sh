#!/bin/sh
# h100_results.sh: the GPU half of doc/results.md: the benchmark suite and the CUDA baselines.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_results.sh [GPU_DIR]
#
# `clstencil bench suite` at the medium and large sizes (the model's plans against naive,
# median of 5), the hand-written CUDA baselines of tools/bench/cuda at the same sizes and steps
# (median of 5), and the sweep of every app's tuning parameter at the medium sizes (the
# trapezoid height h; stream25d's steps per pass k for the 3D apps), predicted and measured.
# The CUDA baselines are heat3d7_cuda, hotspot_cuda and poisson2d_cuda from GPU_DIR (`make
# bench` where nvcc is); when they are missing or do not start (a CUDA runtime newer than the
# machine's driver), they are built here with the machine's nvcc, -arch=sm_90.
# Writes $OUT/results-h100/, the folder doc/data/results-h100/ holds and `make plots` reads:
# device.txt, log.txt, suite-medium.{txt,csv,json}, suite-large.{txt,csv,json},
# sweep-medium{.txt,.csv,.json,-sweep.csv} and cuda.csv.  About 3.5 minutes; every command runs
# under `timeout` and none starts after BUDGET seconds (default 280).
set -u
[ $# -gt 0 ] && GPU_DIR=$1
BUDGET=${BUDGET:-280}
# shellcheck source=tools/gpu/env.sh
. "$(dirname "$0")/env.sh"
res=$OUT/results-h100
mkdir -p "$res"
LOG=$res/log.txt
: > "$LOG"
gpu_record "$res/device.txt"

cb=$(mktemp -d)
for n in heat3d7 hotspot poisson2d; do
  for d in "$GPU_DIR/bin" "$GPU_DIR"; do
    [ -x "$d/${n}_cuda" ] && { cp "$d/${n}_cuda" "$cb/"; break; }
  done
done
if ! timeout 20 "$cb/poisson2d_cuda" --no-check --steps 1 --reps 1 64x64 > /dev/null 2>> "$LOG"
then
  nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  echo "== the CUDA baselines are missing or do not run; building them with $nv" >> "$LOG"
  for n in heat3d7 hotspot poisson2d; do
    timeout 90 "$nv" -O3 -arch=sm_90 "tools/bench/cuda/$n.cu" -o "$cb/${n}_cuda" >> "$LOG" 2>&1 &
  done
  wait
fi

# cuda SIZE STEPS NAME [ARGS...]: one CUDA baseline, its CSV row appended to cuda.csv.
cuda() {
  size=$1 steps=$2 bin=$3
  shift 3
  gpu_step 25 "$cb/$bin" --csv --no-header --steps "$steps" --reps 5 "$@" "$size" \
    >> "$res/cuda.csv" 2>> "$LOG"
}
echo "name,impl,size,dtype,steps,reps,seconds_per_step,gpoints_per_s,gb_per_s,bytes_per_point,\
checksum,params" > "$res/cuda.csv"

# 1. The suite at the medium sizes (every app, the model's plan and naive), then the baselines
#    at the same sizes and steps.
gpu_step 90 clstencil bench suite --size medium --reps 5 --out "$res/suite-medium" \
  > "$res/suite-medium.txt" 2>> "$LOG"
cuda 256x256x256 50 heat3d7_cuda
cuda 4096x4096 100 poisson2d_cuda
cuda 4096x4096 100 hotspot_cuda --height 2
for h in 1 4 8; do cuda 4096x4096 100 hotspot_cuda --height $h --no-check; done

# 2. The large sizes.
gpu_step 110 clstencil bench suite --size large --reps 5 --out "$res/suite-large" \
  > "$res/suite-large.txt" 2>> "$LOG"
cuda 512x512x512 50 heat3d7_cuda --no-check
cuda 8192x8192 100 poisson2d_cuda --no-check
for h in 1 2 4 8; do cuda 8192x8192 100 hotspot_cuda --height $h --no-check; done

# 3. Time against the tuning parameter, predicted and measured, at the medium sizes.
gpu_step 120 clstencil bench suite --size medium --reps 3 --sweep --out "$res/sweep-medium" \
  > "$res/sweep-medium.txt" 2>> "$LOG"
echo "== done, $(gpu_elapsed) s" >> "$LOG"
rm -rf "$cb"
