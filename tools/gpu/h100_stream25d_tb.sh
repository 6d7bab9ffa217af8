#!/bin/sh
# h100_stream25d_tb.sh: issue 5's temporal-blocking experiment on the H100 (NVIDIA OpenCL):
# stream25d with several steps per pass (cl/stream25d_tb.cl, doc/stream25d.md) against the naive
# schedule, the single-pass stream25d and cube_transit at 512^3; the ghost-zone model's pick;
# steps per pass k = 1..6, tile shapes, loaders; and a sweep of the single-pass heat3d7 plan
# (tiles, rows per work-item, prefetch, loader).  First the fused schedule's tests on the GPU
# (small odd grids, every boundary, bitwise against the host reference).
# Run from the repository root:  sh tools/gpu/h100_stream25d_tb.sh [BINDIR]
# BINDIR (default .gpu-stream) holds a release build (configure --disable-shared CFLAGS=-O2):
# clstencil, test_stream25d_tb, test_stream25d, libcjson.so.1, libOpenCL.so.1, libpng16.so.16,
# libz.so.1.  Results go to
# $OUT: stream25d_tb.csv (bench transit rows, column steps_per_pass), tests-*.txt, device.txt,
# stream25d_tb.err, timing.txt.  About 4 minutes, at most about 5: every command under `timeout`
# (tests 90 s, each bench 30 s), and nothing new starts once 270 s have passed.
set -u
b=${1:-$PWD/.gpu-stream}
case $b in /*) ;; *) b=$PWD/$b ;; esac
out=${OUT:-./gpu-out}
mkdir -p "$out"
icd=$(mktemp -d)
echo /usr/lib/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
export OCL_ICD_VENDORS=$icd LD_LIBRARY_PATH=$b CLSTENCIL_CACHE_DIR=$(mktemp -d)
export CLSTENCIL_DEVICE=gpu CLSTENCIL_MODEL_DIR=$PWD/devices
# A dry run of the script's logic elsewhere: SIZE=24x20x16 ICD=pocl.icd DEV= sh ...
size=${SIZE:-512x512x512}
[ -n "${ICD:-}" ] && export OCL_ICD_VENDORS=$ICD
[ -n "${DEV+x}" ] && export CLSTENCIL_DEVICE=$DEV
t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  timeout 20 "$b/clstencil" devices
} > "$out/device.txt" 2>&1

# 1. Correctness on NVIDIA OpenCL: the fused schedule (k = 1..4, every boundary, both loaders,
#    an auxiliary-array stencil, double) and the single-pass one, bitwise against the host.
timeout 90 "$b/test_stream25d_tb" > "$out/tests-stream25d_tb.txt" 2>&1
echo "tests-stream25d_tb rc $? at $(el) s" >> "$out/timing.txt"

csv=$out/stream25d_tb.csv
T() { timeout 30 "$b/clstencil" bench transit --size $size --format csv --reps 3 \
    --steps 24 "$@" 2>>"$out/stream25d_tb.err" | { [ -s "$csv" ] && grep -v '^kind,' || cat; } \
    >> "$csv"; echo "$* : $(el) s" >> "$out/timing.txt"; }
late() { [ "$(el)" -ge 270 ]; }

# 2. The main rows: naive, single-pass stream25d, the model's pick (steps per pass and tile
#    left to the ghost-zone model), and k = 2..6 (double 2..4) with the planner's tile for k.
for dt in float double; do
  late && break
  T --dtype $dt --schedule naive heat3d7 heat3d27
  T --dtype $dt --steps-per-pass 1 heat3d7 heat3d27
  T --dtype $dt heat3d7 heat3d27
  T --dtype $dt --schedule auto heat3d7 heat3d27
  ks="2 3 4 5 6"; [ $dt = double ] && ks="2 3 4"
  for k in $ks; do late || T --dtype $dt --steps-per-pass $k heat3d7 heat3d27; done
done

# 3. Tile shapes and rows per work-item for the fused heat3d7 (k = 3, 4) and heat3d27 (k = 2,
#    3); the classic loader; the prefetch distance.
for k in 3 4; do
  for s in "32x8 2" "32x8 4" "32x16 1" "64x4 4" "64x8 2" "32x6 4"; do
    late && break
    set -- $s
    T --steps-per-pass $k --local-size $1 --rows-per-item $2 heat3d7
  done
done
for k in 2 3; do
  for s in "32x8 2" "64x4 4" "64x8 2"; do
    late && break
    set -- $s
    T --steps-per-pass $k --local-size $1 --rows-per-item $2 heat3d27
  done
done
late || T --loader classic --steps-per-pass 3 heat3d7 heat3d27
late || T --loader classic --steps-per-pass 4 heat3d7
late || T --prefetch 1 --steps-per-pass 4 heat3d7
late || T --prefetch 3 --steps-per-pass 4 heat3d7

# 4. The single-pass heat3d7 (87 % of cube_transit, target 90 %): tiles, rows per work-item,
#    prefetch, loader around the planner's 64x4 x 2 rows.
for s in "32x8 2" "128x2 2" "64x2 4" "32x4 4" "64x4 3" "256x1 2"; do
  late && break
  set -- $s
  T --steps-per-pass 1 --local-size $1 --rows-per-item $2 heat3d7
done
late || T --steps-per-pass 1 --prefetch 3 heat3d7
late || T --steps-per-pass 1 --prefetch 4 --local-size 64x4 --rows-per-item 4 heat3d7
late || T --steps-per-pass 1 --points-per-item 256 heat3d7
late || T --steps-per-pass 1 --points-per-item 48 heat3d7

# 5. The single-pass tests (NVIDIA), when time is left.
if [ "$(el)" -lt 240 ]; then
  timeout 40 "$b/test_stream25d" > "$out/tests-stream25d.txt" 2>&1
  echo "tests-stream25d rc $? at $(el) s" >> "$out/timing.txt"
fi
echo "total $(el) s" >> "$out/timing.txt"
echo done
