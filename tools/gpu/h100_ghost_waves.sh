#!/bin/sh
# h100_ghost_waves.sh: the lean re-run of the ghost-zone acceptance searches on the H100 (NVIDIA
# OpenCL) with the model's occupancy and waves (doc/ghost-zones.md, "Occupancy and waves") and
# the exhaustive search's protocol (least of the runs, a warm-up, interleaved confirmation of the
# fastest three and the pick).  The four searches of h100_ghost_zones.sh, nothing else; about
# 100-120 s of device time (the 2026-11-21 searches took 90 s), every command under `timeout`,
# at most 170 s in all.
# Usage (repository root): sh tools/gpu/h100_ghost_waves.sh [BINDIR [APPS]]   BINDIR (default
# .gpu-tune) holds a release build's clstencil (configure --disable-shared CFLAGS=-O2),
# libcjson.so.1 and libOpenCL.so.1; APPS (default "pathfinder hotspot poisson2d cell3d") the
# searches to run (cell3d alone: about 35 s); results go to $OUT.
set -u
b=$(cd "${1:-.gpu-tune}" && pwd)
apps=${2:-pathfinder hotspot poisson2d cell3d}
out=${OUT:-./gpu-out}
mkdir -p "$out"
icd=$(mktemp -d)
echo /usr/lib/libnvidia-opencl.so.1 > "$icd/nvidia.icd"
export OCL_ICD_VENDORS=$icd LD_LIBRARY_PATH=$b CLSTENCIL_CACHE_DIR=$(mktemp -d)
export CLSTENCIL_DEVICE=gpu CLSTENCIL_MODEL_DIR=$PWD/devices
log=$out/h100-ghost-waves.txt
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  timeout 10 nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem \
    --format=csv
  "$b/clstencil" --version
} > "$log" 2>&1

# The sizes of the 2026-11-21 run (beyond the 50 MB L2); reps as then, least of them kept,
# then 7 interleaved confirmation rounds.
t00=$(date +%s)
for s in "pathfinder 10000000 64 5 35" "hotspot 8192x8192 24 5 45" \
         "poisson2d 8192x8192 24 5 40" "cell3d 384x384x384 8 3 45"; do
  set -- $s
  case " $apps " in *" $1 "*) ;; *) continue ;; esac
  echo "== tune $1 --size $2 --steps $3 --exhaustive --reps $4 --confirm 7" >> "$log"
  t0=$(date +%s)
  timeout "$5" "$b/clstencil" tune "$1" --size "$2" --steps "$3" --exhaustive --reps "$4" \
    --confirm 7 --csv "$out/h100-waves-$1.csv" >> "$log" 2>&1
  echo "== rc $? ($(($(date +%s) - t0)) s)" >> "$log"
done
echo "== done ($(($(date +%s) - t00)) s)" >> "$log"
grep -E '^(== tune|pick:|ratio best|confirmed)' "$log"
