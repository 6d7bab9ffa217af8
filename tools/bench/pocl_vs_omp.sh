#!/bin/sh
# pocl_vs_omp.sh BUILDDIR: the naive schedule on PoCL against the hand-written OpenMP loops of
# tools/bench/omp_stencils.c (gcc -O3 -march=native -fopenmp), same stencils, sizes and steps.
# Prints one CSV line per run: impl,stencil,size,seconds_per_step,gpoints_per_s.
set -eu
build=${1:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
omp=$(mktemp -d)/omp_stencils
gcc -O3 -march=native -fopenmp -ffp-contract=off "$src/tools/bench/omp_stencils.c" -lm -o "$omp"
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-pocl.icd}" OMP_WAIT_POLICY=passive
echo "impl,stencil,size,seconds_per_step,gpoints_per_s"
for case in "heat3d7 256x256x256" "poisson2d 4096x4096" "hotspot 4096x4096" "jacobi3d 256x256x256" \
            "pathfinder 16777216" "moving_average 16777216" "emboss 4096x4096"; do
  # shellcheck disable=SC2086 # the case's fields
  set -- $case
  "$build/clstencil" bench "$1" --size "$2" --steps 20 --reps 5 --format csv 2>/dev/null |
    tail -n 1 | awk -F, -v s="$1" -v z="$2" '{print "pocl-naive," s "," z "," $11 "," $12}'
  "$omp" --steps 20 --csv "$1" "$2" | tail -n 1 |
    awk -F, -v s="$1" -v z="$2" '{print "openmp," s "," z "," $6 "," $7}'
done
