#!/bin/sh
# pocl_cputile.sh BUILDDIR: the cputile schedule (AUTO's plan on a CPU device model that asks
# for it) against the hand-written OpenMP loops of tools/bench/omp_stencils.c and against the
# naive schedule, in interleaved rounds on a shared machine: per application ROUNDS (default 5)
# rounds of [OpenMP, libclstencil AUTO, libclstencil naive], each the median of 3 runs of
# STEPS (default 20) steps, so that all three sides of a round see the same load.  Prints one
# CSV line per run: app,size,steps,round,impl,seconds_per_step,gpoints_per_s,plan.
# APPS="heat3d7 ..." picks applications (default: all nine at the medium CPU sizes).
set -eu
build=${1:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
omp=$(mktemp -d)/omp_stencils
gcc -O3 -march=native -fopenmp -ffp-contract=off "$src/tools/bench/omp_stencils.c" -lm -o "$omp"
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-pocl.icd}" OMP_WAIT_POLICY=passive
steps=${STEPS:-20}
echo "app,size,steps,round,impl,seconds_per_step,gpoints_per_s,plan"
for app in ${APPS:-heat3d7 heat3d27 jacobi3d cell3d poisson2d hotspot emboss pathfinder \
              moving_average}; do
  case $app in
    heat3d7 | heat3d27 | jacobi3d | cell3d) size=128x128x128 ;;
    pathfinder) size=1048576 ;;
    moving_average) size=4194304 ;;
    *) size=2048x2048 ;;
  esac
  plan=$("$build/clstencil" run "$app" --size "$size" --steps "$steps" 2>/dev/null |
    sed -n 's/^parameters: //p' | tr ' ' ';')
  r=1
  while [ "$r" -le "${ROUNDS:-5}" ]; do
    "$omp" --csv --reps 3 --steps "$steps" "$app" "$size" | tail -n 1 |
      awk -F, -v a="$app" -v z="$size" -v s="$steps" -v r="$r" \
      '{print a "," z "," s "," r ",openmp," $6 "," $7 ","}'
    for sched in auto naive; do
      "$build/clstencil" bench "$app" --size "$size" --steps "$steps" --reps 3 --format csv \
        --schedule "$sched" 2>/dev/null | tail -n 1 |
        awk -F, -v a="$app" -v z="$size" -v s="$steps" -v r="$r" -v i="$sched" -v p="$plan" \
        '{print a "," z "," s "," r "," i "," $11 "," $12 "," (i == "auto" ? p : "")}'
    done
    r=$((r + 1))
  done
done
