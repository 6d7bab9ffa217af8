#!/bin/sh
# h100_stream25d_pick.sh: issue 5's fused streaming as the planner picks it on the H100 (the
# ghost-zone model choosing k, tile, loader and z chunk; AUTO choosing the schedule), after the
# loop versioning of cl/stream25d_tb.cl.  First the fused and single-pass tests on NVIDIA
# (bitwise against the host reference); then heat3d7 512^3 (float and double, every boundary),
# heat3d27; then the suite's 3D rows (AUTO against naive).
# Run from the repository root after tools/gpu/package.sh:  sh tools/gpu/h100_stream25d_pick.sh
# Results in $OUT: pick.csv (bench transit rows + options), suite-3d.{csv,json,txt}, tests.txt, timing.txt.  About 3 minutes; nothing new after 200 s.
set -u
. tools/gpu/env.sh
out=${OUT:-./gpu-out}; mkdir -p "$out"
csv=$out/pick.csv; t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
{ timeout 90 test_stream25d_tb; timeout 60 test_stream25d; } > "$out/tests.txt" 2>&1
echo "tests rc $? at $(el) s" >> "$out/timing.txt"
T() { [ "$(el)" -ge "${BUDGET:-200}" ] && return 0
  timeout 30 clstencil bench transit --size 512x512x512 --format csv --reps 3 --steps 24 "$@" \
    2>>"$out/pick.err" | { [ -s "$csv" ] && grep -v '^kind,' || cat; } | sed "s|\$|,$*|" >> "$csv"
  echo "$* : $(el) s" >> "$out/timing.txt"; }
T --schedule naive heat3d7
T --schedule auto heat3d7
T heat3d7
for b in periodic mirror constant; do T --boundary $b --schedule auto heat3d7; done
T --steps-per-pass 3 heat3d7
T --steps-per-pass 4 heat3d7
T --dtype double --schedule naive heat3d7
T --dtype double heat3d7
T --schedule auto heat3d27
timeout 120 clstencil bench suite --size large --reps 5 --apps heat3d7,heat3d27,jacobi3d,cell3d \
  --out "$out/suite-3d" > "$out/suite-3d.txt" 2>> "$out/pick.err"
echo "suite rc $? at $(el) s" >> "$out/timing.txt"
