#!/bin/sh
# h100_ghost_zones.sh: the ghost-zone acceptance runs on the H100 (NVIDIA OpenCL): the exhaustive
# search of the four applications beside the model's pick, the speed benchmarks, the tuned plans
# against the host reference, and (with "tests") the trapezoid tests (doc/ghost-zones.md).  Run
# from the repository root with a release build in .gpu-tune/ (clstencil, test_trapezoid,
# libcjson.so.1, libOpenCL.so.1); results go to $OUT.
set -u
out=${OUT:-./gpu-out}
mkdir -p "$out"
icd=$(mktemp -d)
echo /usr/lib/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
export OCL_ICD_VENDORS=$icd LD_LIBRARY_PATH=$PWD/.gpu-tune CLSTENCIL_CACHE_DIR=$(mktemp -d)
export CLSTENCIL_DEVICE=gpu CLSTENCIL_MODEL_DIR=$PWD/devices
b=$PWD/.gpu-tune
log=$out/h100-ghost-zones.txt
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  "$b/clstencil" --version
} > "$log" 2>&1

# The exhaustive searches (sizes that leave the 50 MB L2): every candidate tile, both sync
# modes, h up to the steps; each configuration runs STEPS steps on device-resident data.
for s in "pathfinder 10000000 64 5" "hotspot 8192x8192 24 5" "poisson2d 8192x8192 24 5" \
         "cell3d 384x384x384 8 3"; do
  set -- $s
  echo "== tune $1 --size $2 --steps $3 --exhaustive --reps $4" >> "$log"
  t0=$(date +%s)
  timeout 100 "$b/clstencil" tune "$1" --size "$2" --steps "$3" --exhaustive --reps "$4" \
    --csv "$out/h100-exhaustive-$1.csv" >> "$log" 2>&1
  echo "== ($(($(date +%s) - t0)) s)" >> "$log"
done

# Speed: the tuned plan (AUTO, as `clstencil bench` runs by default) against the naive one.
for s in "pathfinder 10000000 100" "poisson2d 8192x8192 100" "hotspot 4096x4096 1000"; do
  set -- $s
  for sch in naive auto; do
    echo "== bench $1 --size $2 --steps $3 --schedule $sch" >> "$log"
    timeout 40 "$b/clstencil" bench "$1" --size "$2" --steps "$3" --reps 3 --schedule $sch \
      >> "$log" 2>&1
  done
done
# The tuned trapezoid against the host reference at sizes the host checks quickly.
for s in "hotspot 1024x1024 50" "pathfinder 1000000 50" "poisson2d 1024x1024 50" \
         "cell3d 96x96x96 10"; do
  set -- $s
  echo "== run $1 --size $2 --steps $3 --schedule trapezoid --verify" >> "$log"
  timeout 30 "$b/clstencil" run "$1" --size "$2" --steps "$3" --schedule trapezoid --verify \
    >> "$log" 2>&1
done
if [ "${1:-}" = tests ]; then
  { echo "== test_trapezoid"; timeout 60 "$b/test_trapezoid" 2>&1 | grep -v '^ok'; } \
    > "$out/h100-tests.txt" 2>&1
fi
echo "== done" >> "$log"
