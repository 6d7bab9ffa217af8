#!/bin/sh
# pocl_results.sh BUILDDIR [OUTDIR]: the PoCL half of doc/results.md.  Runs `clstencil bench
# suite` at the medium CPU sizes (model's plans against naive, median of 5), the OpenMP
# baseline (tools/bench/omp_stencils, `make bench`) at exactly the suite's sizes and steps
# (median of 5), a sweep of every app's tuning parameter at the small sizes (trapezoid h;
# stream25d steps per pass for 3D), and the two side by side in interleaved rounds
# (interleaved.csv; ROUNDS, default 5).  OUTDIR
# (default doc/data/results-pocl) then feeds `make plots`.  BUILDDIR needs clstencil (a
# release build: configure --disable-shared CFLAGS=-O2) and tools/bench/omp_stencils.
set -eu
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$src/doc/data/results-pocl}
mkdir -p "$out"
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-pocl.icd}" OMP_WAIT_POLICY=passive
export CLSTENCIL_DEVICE="${CLSTENCIL_DEVICE:-cpu}" CLSTENCIL_MODEL_DIR="$src/devices"
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  "$build/clstencil" --version
  "$build/clstencil" devices
  grep -m1 'model name' /proc/cpuinfo
  echo "cores: $(nproc)"
  gcc --version | head -n 1
} > "$out/device.txt" 2>&1

"$build/clstencil" bench suite --size medium --reps 5 --out "$out/suite-medium" \
  > "$out/suite-medium.txt"
# The baseline at the suite's own sizes and steps (columns 1, 2 and 4 of its CSV).
first=1
tail -n +2 "$out/suite-medium.csv" | cut -d, -f1,2,4 | while IFS=, read -r app size steps; do
  if [ $first = 1 ]; then
    "$build/tools/bench/omp_stencils" --csv --reps 5 --steps "$steps" "$app" "$size"
    first=0
  else
    "$build/tools/bench/omp_stencils" --csv --reps 5 --steps "$steps" "$app" "$size" | tail -n 1
  fi
done > "$out/omp.csv"
"$build/clstencil" bench suite --size small --reps 3 --sweep --out "$out/sweep-small" \
  > "$out/sweep-small.txt"
# The comparison itself, interleaved: the shared VM's load swings from minute to minute, so the
# suite and the baseline, minutes apart above, may see different machines.  Here each app runs
# ROUNDS rounds of [OpenMP, libclstencil's plan] back to back (3 runs each, median), so both
# sides of a round see the same load; interleaved.csv holds every round's pair.
rounds=${ROUNDS:-5}
echo "app,size,steps,round,impl,seconds_per_step,gpoints_per_s" > "$out/interleaved.csv"
tail -n +2 "$out/suite-medium.csv" | cut -d, -f1,2,4 | while IFS=, read -r app size steps; do
  r=1
  while [ "$r" -le "$rounds" ]; do
    "$build/tools/bench/omp_stencils" --csv --reps 3 --steps "$steps" "$app" "$size" |
      tail -n 1 | awk -F, -v a="$app" -v z="$size" -v s="$steps" -v r="$r" \
      '{print a "," z "," s "," r ",openmp," $6 "," $7}' >> "$out/interleaved.csv"
    "$build/clstencil" bench "$app" --size "$size" --steps "$steps" --reps 3 --format csv \
      2>/dev/null | tail -n 1 | awk -F, -v a="$app" -v z="$size" -v s="$steps" -v r="$r" \
      '{print a "," z "," s "," r ",libclstencil," $11 "," $12}' >> "$out/interleaved.csv"
    r=$((r + 1))
  done
done
