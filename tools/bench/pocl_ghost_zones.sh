#!/bin/sh
# pocl_ghost_zones.sh: the ghost-zone acceptance runs on PoCL (doc/ghost-zones.md): the
# exhaustive search of the four applications at sizes a 2-core machine measures in minutes.
# Usage: sh tools/bench/pocl_ghost_zones.sh BUILDDIR [OUTDIR]   (from the repository root)
set -u
b=${1:?usage: pocl_ghost_zones.sh BUILDDIR [OUTDIR]}/clstencil
out=${2:-.}
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-pocl.icd}" CLSTENCIL_DEVICE=cpu
export CLSTENCIL_CACHE_DIR="${CLSTENCIL_CACHE_DIR:-$(mktemp -d)}" CLSTENCIL_MODEL_DIR="$PWD/devices"
for s in "pathfinder 1000000 16" "hotspot 512x512 8" "poisson2d 512x512 8" "cell3d 64x64x64 4"; do
  # shellcheck disable=SC2086 # the case's fields
  set -- $s
  echo "== tune $1 --size $2 --steps $3 --exhaustive --sync restart --max-h 8 --confirm 7"
  t0=$(date +%s)
  "$b" tune "$1" --size "$2" --steps "$3" --exhaustive --sync restart --max-h 8 --reps 3 \
    --confirm 7 --csv "$out/pocl-exhaustive-$1.csv"
  echo "== ($(($(date +%s) - t0)) s)"
done
