#!/bin/sh
# pocl_model.sh BUILDDIR PREFIX: the CPU device model against the medium suite on PoCL.  Probes
# the device into a fresh model cache (the model every plan then uses), runs `clstencil bench
# suite --size medium` ROUNDS times (default 5) and once more with --sweep (the trapezoid at
# h = 1, 2, 4, ..., stream25d at 1..6 steps per pass and cputile at h = 1, 2, 4, ... against
# the model's pick; SWEEP=0 leaves it out), logging the load average before each.  Writes
# PREFIX-probe.{txt,json}, PREFIX-suite-N.{txt,csv,json}, PREFIX-sweep.{txt,csv,json},
# PREFIX-sweep-sweep.csv, PREFIX-log.txt, then the tables of tools/bench/model_table.py to
# PREFIX-table.md.
set -eu
build=${1:?usage: pocl_model.sh BUILDDIR PREFIX}
out=${2:?usage: pocl_model.sh BUILDDIR PREFIX}
src=$(cd "$(dirname "$0")/../.." && pwd)
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-pocl.icd}"
CLSTENCIL_CACHE_DIR=$(mktemp -d)
export CLSTENCIL_CACHE_DIR
log="$out-log.txt"
{ date -u; uptime; } > "$log"
"$build/clstencil" probe --output "$out-probe.json" > "$out-probe.txt" 2>> "$log"
r=1
while [ "$r" -le "${ROUNDS:-5}" ]; do
  { echo "suite round $r"; date -u; uptime; } >> "$log"
  "$build/clstencil" bench suite --size medium --reps 5 --out "$out-suite-$r" \
    > "$out-suite-$r.txt" 2>> "$log"
  r=$((r + 1))
done
if [ "${SWEEP:-1}" != 0 ]; then
  { echo "suite --sweep"; date -u; uptime; } >> "$log"
  "$build/clstencil" bench suite --size medium --reps 3 --sweep --out "$out-sweep" \
    > "$out-sweep.txt" 2>> "$log"
fi
{ echo "done"; date -u; uptime; } >> "$log"
python3 "$src/tools/bench/model_table.py" "$out" > "$out-table.md"
