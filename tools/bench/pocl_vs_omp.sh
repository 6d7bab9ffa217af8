#!/bin/sh
# pocl_vs_omp.sh BUILDDIR: the naive schedule on PoCL against the hand-written OpenMP loops of
# tools/bench/omp_stencils.c (gcc -O3 -march=native -fopenmp -ffp-contract=off), same stencils,
# sizes and steps.  Prints one CSV line per run: impl,stencil,size,seconds_per_step,
# gpoints_per_s,checksum.
#
# Single fields: one `clstencil bench` run (median of 5, its kernels' device time) against one
# OpenMP run (median of 5).  Systems of fields: ROUNDS (default 5) interleaved rounds of
# [OpenMP, libclstencil], 3 runs each, so that both sides of a round see the same load on a
# shared machine; libclstencil's side is tools/bench/pocl_systems (`make bench` in BUILDDIR)
# from the same initial fields, so that the checksums agree, once per schedule of SCHEDULES
# (default: auto, the planner's choice; impl pocl-SCHEDULE); its line gives the kernels'
# device time, a second line (impl pocl-SCHEDULE-wall) the host time of the advance, launch
# gaps included.  SYSTEMS="wave2d ..." picks systems, SINGLE=no leaves out the single fields.
# BASELINE_KERNELS=DIR adds to each round a third run (impl pocl-baseline) with the kernel
# templates of DIR (CLSTENCIL_KERNEL_DIR) and naive.in_place=0: with DIR holding an earlier
# commit's cl/ files, the same round times that commit's system kernels too.
set -eu
build=${1:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
omp=$(mktemp -d)/omp_stencils
gcc -O3 -march=native -fopenmp -ffp-contract=off "$src/tools/bench/omp_stencils.c" -lm -o "$omp"
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-pocl.icd}" OMP_WAIT_POLICY=passive
echo "impl,stencil,size,seconds_per_step,gpoints_per_s,checksum"
if [ "${SINGLE:-yes}" != no ]; then
  for case in "heat3d7 256x256x256" "poisson2d 4096x4096" "hotspot 4096x4096" "jacobi3d 256x256x256" \
              "pathfinder 16777216" "moving_average 16777216" "emboss 4096x4096"; do
    # shellcheck disable=SC2086 # the case's fields
    set -- $case
    "$build/clstencil" bench "$1" --size "$2" --steps 20 --reps 5 --format csv 2>/dev/null |
      tail -n 1 | awk -F, -v s="$1" -v z="$2" '{print "pocl-naive," s "," z "," $11 "," $12 ","}'
    "$omp" --steps 20 --csv "$1" "$2" | tail -n 1 |
      awk -F, -v s="$1" -v z="$2" '{print "openmp," s "," z "," $6 "," $7 "," $10}'
  done
fi
systems=${SYSTEMS:-wave2d wave3d acoustic3d_r4 gray_scott fdtd2d fdtd3d}
[ -x "$build/tools/bench/pocl_systems" ] || make -s -C "$build" tools/bench/pocl_systems
for name in $systems; do
  case $name in
    wave3d | acoustic3d_r4 | fdtd3d) size=128x128x128 ;;
    *) size=2048x2048 ;;
  esac
  round=0
  while [ "$round" -lt "${ROUNDS:-5}" ]; do
    "$omp" --steps 20 --reps 3 --csv "$name" "$size" | tail -n 1 |
      awk -F, -v s="$name" -v z="$size" '{print "openmp," s "," z "," $6 "," $7 "," $10}'
    for sched in ${SCHEDULES:-auto}; do
      "$build/tools/bench/pocl_systems" --steps 20 --reps 3 --schedule "$sched" "$name" "$size" |
        awk -F, -v s="$name" -v z="$size" -v i="pocl-$sched" '{n = split(z, d, "x"); p = 1;
          for (k = 1; k <= n; k++) p *= d[k];
          print i "," s "," z "," $6 "," p / $6 / 1e9 "," $9;
          print i "-wall," s "," z "," $7 "," $8 "," $9}'
    done
    if [ -n "${BASELINE_KERNELS:-}" ]; then
      CLSTENCIL_KERNEL_DIR=$BASELINE_KERNELS "$build/tools/bench/pocl_systems" --steps 20 --reps 3 \
        --params naive.in_place=0 "$name" "$size" |
        awk -F, -v s="$name" -v z="$size" '{n = split(z, d, "x"); p = 1; for (i = 1; i <= n; i++) p *= d[i];
          print "pocl-baseline," s "," z "," $6 "," p / $6 / 1e9 "," $9}'
    fi
    round=$((round + 1))
  done
done
