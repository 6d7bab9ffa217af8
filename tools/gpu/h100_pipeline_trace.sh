#!/bin/sh
# h100_pipeline_trace.sh: where the pipeline's time goes at many tiles (doc/pipeline.md,
# "Run 16"): the runs of issue 7 measured 10-60 us a tile more than the model at 64-128 tiles,
# growing with the steps per tile.  Each configuration below runs 3 times with
# $CLSTENCIL_PIPE_TRACE set (lib/pipe_trace.c: every command's queued, submit, start and end
# time); the first run of each warms up (JIT, allocations).  Results to $OUT/trace-*.csv and
# $OUT/trace-runs.txt.  Binaries from package.sh (default .gpu-all, or $1).  About a minute.
set -u
GPU_DIR=${1:-${GPU_DIR:-$PWD/.gpu-all}}
. "$(dirname "$0")/env.sh"
out=${OUT:-./gpu-out} && mkdir -p "$out"
log=$out/trace-runs.txt
echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$log"
nvidia-smi --query-gpu=name,driver_version --format=csv >> "$log" 2>&1
for c in "moving_average 67108864 524288" "moving_average 67108864 2097152" \
         "moving_average 67108864 4194304" "jacobi3d 400x400x400 400x400x4" \
         "jacobi3d 400x400x400 400x400x13" "jacobi3d 400x400x400 400x400x25"; do
  set -- $c
  for h in 1 5; do
    name=$1-$(echo "$3" | tr x _)-h$h
    for k in 1 2 3; do
      CLSTENCIL_PIPE_TRACE=$out/trace-$name-$k.csv timeout 20 "$GPU_DIR/bin/clstencil" run "$1" \
        --size "$2" --steps "$h" --pinned --pipeline scalable --pipeline-tile "$3" \
        --pipeline-steps "$h" --format json > "$out/run-$name-$k.json" 2>> "$log"
      echo "$name $k rc $?" >> "$log"
    done
  done
done
