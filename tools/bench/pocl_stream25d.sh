#!/bin/sh
# pocl_stream25d.sh BUILDDIR [SIZE]: the stream25d schedule on PoCL (CPU) against the naive row
# kernel and the hand-written OpenMP loops of tools/bench/omp_stencils.c (gcc -O3 -march=native
# -fopenmp), float, 20 steps; and the two GPU loaders at a smaller size.  Prints CSV:
# impl,stencil,size,seconds_per_step,gpoints_per_s.
set -eu
build=${1:-build}
size=${2:-256x256x256}
src=$(cd "$(dirname "$0")/../.." && pwd)
omp=$(mktemp -d)/omp_stencils
gcc -O3 -march=native -fopenmp -ffp-contract=off "$src/tools/bench/omp_stencils.c" -lm -o "$omp"
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-pocl.icd}" OMP_WAIT_POLICY=passive
row() { # impl stencil size [bench transit options]
  impl=$1 st=$2 sz=$3
  shift 3
  "$build/clstencil" bench transit "$st" --size "$sz" --steps 20 --reps 5 --format csv "$@" \
    2>/dev/null | awk -F, -v i="$impl" -v s="$st" -v z="$sz" '$1 == "stencil" {print i "," s "," z "," $12 "," $13}'
}
echo "impl,stencil,size,seconds_per_step,gpoints_per_s"
for st in heat3d7 heat3d27 jacobi3d cell3d; do
  row pocl-naive "$st" "$size" --schedule naive
  row pocl-stream25d-direct "$st" "$size" --schedule stream25d
  "$omp" --steps 20 --csv "$st" "$size" | tail -n 1 |
    awk -F, -v s="$st" -v z="$size" '{print "openmp," s "," z "," $6 "," $7}'
done
# The GPU-style loaders on the CPU (local memory is a copy in the cache there), at 64^3.
for st in heat3d7 heat3d27; do
  for l in direct aligned classic; do
    row "pocl-stream25d-$l" "$st" 64x64x64 --schedule stream25d --loader "$l"
  done
  row pocl-naive "$st" 64x64x64 --schedule naive
done
