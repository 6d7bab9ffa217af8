#!/bin/sh
# h100_pipeline.sh: the host-resident (pipeline) runs of doc/pipeline.md on the GPU.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_pipeline.sh [-T] [GPU_DIR]
#
# Visschers's (2012) three programs at his sizes (moving average of 64M floats with radius 4,
# emboss on 8000x8000, Jacobi 3D on 400^3), pinned host arrays, through `clstencil tune
# --pipeline --exhaustive`: copy-compute-copy, the model's pick and every tile count of every
# scheme, each predicted and measured and checked bitwise against copy-compute-copy, then the
# pick, copy-compute-copy and the three fastest tile rows re-timed in interleaved rounds:
#   0. `clstencil probe` first, into $OUT/h100_probe.json; the runs below use that model (from
#      the fresh cache, which the planner prefers to devices/h100_probe.json);
#   1. 1-5 steps per tile, merged copies, the basic and scalable schemes;
#   2. rectangular copies at one step (2D and 3D); the buffered scheme at one step;
#   3. a 640^3 Jacobi grid (2.1 GB resident) under a 1 GiB --device-memory cap: the capped run
#      bitwise against the uncapped copy-compute-copy one, and the tile sweep under the cap.
# The confirmation rounds are 12, 0.25 s apart: the machine's slow spells last seconds.
# Writes to $OUT: pipeline.txt (device, probe, every command with its limit, status and time),
# pipeline-PROGRAM.csv, pipeline-{emboss,jacobi3d}-rect.csv,
# pipeline-moving_average-buffered.csv, pipeline-capped.{csv,json}, pipeline-uncapped.json,
# h100_probe.json.  About 4 minutes; every command runs under `timeout` and none starts after
# BUDGET seconds (default 480).
#
# -T: instead, where a run's time goes at many tiles: the scalable scheme with $CLSTENCIL_PIPE_TRACE
# set (every command's queued, submit, start and end time, lib/schedules/pipeline/trace.c) for the
# moving average and Jacobi at three tile sizes each, one and five steps a tile, three runs each
# (the first warms up).  Writes $OUT/trace-RUN.csv, run-RUN.json and trace-runs.txt; `python3
# tools/gpu/trace_summary.py $OUT/trace-*-3.csv` summarises them.  About a minute.
set -u
trace=0
while getopts T opt; do
  case $opt in
    T) trace=1 ;;
    *) echo "usage: h100_pipeline.sh [-T] [GPU_DIR]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] && GPU_DIR=$1
BUDGET=${BUDGET:-480}
# shellcheck source=tools/gpu/env.sh
. "$(dirname "$0")/env.sh"

if [ $trace = 1 ]; then
  LOG=$OUT/trace-runs.txt
  gpu_record "$LOG"
  for c in "moving_average 67108864 524288" "moving_average 67108864 2097152" \
           "moving_average 67108864 4194304" "jacobi3d 400x400x400 400x400x4" \
           "jacobi3d 400x400x400 400x400x13" "jacobi3d 400x400x400 400x400x25"; do
    # shellcheck disable=SC2086 # the case's fields
    set -- $c
    for h in 1 5; do
      run=$1-$(echo "$3" | tr x _)-h$h
      for k in 1 2 3; do
        CLSTENCIL_PIPE_TRACE=$OUT/trace-$run-$k.csv gpu_step 20 clstencil run "$1" \
          --size "$2" --steps "$h" --pinned --pipeline scalable --pipeline-tile "$3" \
          --pipeline-steps "$h" --format json > "$OUT/run-$run-$k.json" 2>> "$LOG"
      done
    done
  done
  exit 0
fi

LOG=$OUT/pipeline.txt
gpu_record "$LOG"

# 0. The device model.  `clstencil devices` records which model the device gets: its MODEL
# column must say "(probe)", not "(file)" (a probe that timed out leaves the shipped file).
gpu_step 60 clstencil probe --output "$OUT/h100_probe.json" >> "$LOG" 2>&1
timeout 15 clstencil devices >> "$LOG" 2>&1

# 1. Tile sweeps.  The buffered scheme (75-500 ms a run, its host packing) runs at one step
# only, in part 2, to keep each sweep within its limit.  The plans keep their buffers from the
# warm-up run (the library's default); `--release-buffers` would time allocating runs instead.
for s in "moving_average 67108864" "emboss 8000x8000" "jacobi3d 400x400x400"; do
  # shellcheck disable=SC2086 # the case's fields
  set -- $s
  gpu_step 90 clstencil tune "$1" --pipeline --exhaustive --size "$2" --steps 1,2,3,4,5 \
    --pinned --check --reps 3 --confirm 12 --confirm-top 3 --confirm-gap 0.25 \
    --layouts merged --schemes basic,scalable --tiles 1,2,3,4,6,8,12,16,24,32,64,128 \
    --csv "$OUT/pipeline-$1.csv" >> "$LOG" 2>&1
done

# 2. Rectangular copies against merged ones at one step, and the buffered scheme.
for s in "emboss 8000x8000" "jacobi3d 400x400x400"; do
  # shellcheck disable=SC2086 # the case's fields
  set -- $s
  gpu_step 20 clstencil tune "$1" --pipeline --exhaustive --size "$2" --steps 1 --pinned \
    --check --reps 3 --confirm 5 --confirm-top 3 --layouts rect --tiles 2,4,8,16,32,64 \
    --csv "$OUT/pipeline-$1-rect.csv" >> "$LOG" 2>&1
done
gpu_step 20 clstencil tune moving_average --pipeline --exhaustive --size 67108864 \
  --steps 1 --pinned --check --reps 2 --confirm 3 --confirm-top 2 --layouts merged \
  --schemes buffered --tiles 4,16,64,128 \
  --csv "$OUT/pipeline-moving_average-buffered.csv" >> "$LOG" 2>&1

# 3. Above the memory budget: 640^3 floats are 1.05 GB per array, the cap 1 GiB, so the
# planner must tile (scalable or buffered).  The check is bitwise against the uncapped
# copy-compute-copy run (whose executor the tests check against the host reference): the host
# reference interprets the stencil point by point, far too slow for 262M points.
npy=$(mktemp -d)
gpu_step 20 clstencil run jacobi3d --size 640x640x640 --steps 1 --device-memory 1G --pinned \
  --output "$npy/capped.npy" --format json > "$OUT/pipeline-capped.json" 2>> "$LOG"
gpu_step 20 clstencil run jacobi3d --size 640x640x640 --steps 1 --pipeline off --pinned \
  --output "$npy/whole.npy" --format json > "$OUT/pipeline-uncapped.json" 2>> "$LOG"
if cmp -s "$npy/capped.npy" "$npy/whole.npy"; then
  echo "capped: bitwise equal" >> "$LOG"
else
  echo "capped: DIFFERENT (or missing)" >> "$LOG"
fi
rm -rf "$npy"
gpu_step 30 clstencil tune jacobi3d --pipeline --size 640x640x640 --steps 1 --pinned \
  --device-memory 1G --schemes scalable,buffered --tiles 4,8,16,32,64 --reps 2 \
  --confirm 5 --confirm-top 3 --csv "$OUT/pipeline-capped.csv" >> "$LOG" 2>&1
echo "== done ($(gpu_elapsed) s)" >> "$LOG"
