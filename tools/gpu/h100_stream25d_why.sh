#!/bin/sh
# h100_stream25d_why.sh: the planner's fused-streaming choice on the H100 with its reasons: the
# stream25d tests on NVIDIA, `clstencil run` (AUTO; its why line gives the rule's decision and the
# ghost-zone model's gain) and bench transit rows (the model's k, tile, loader and chunk) for
# heat3d7 512^3 float and double.  About 1.5 minutes.
# Run from the repository root after tools/gpu/package.sh:  sh tools/gpu/h100_stream25d_why.sh
set -u
. tools/gpu/env.sh
out=${OUT:-./gpu-out}; mkdir -p "$out"
csv=$out/why.csv; t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
{ timeout 90 test_stream25d_tb; timeout 60 test_stream25d; } > "$out/tests.txt" 2>&1
echo "tests rc $? at $(el) s" >> "$out/timing.txt"
for dt in float double; do
  timeout 30 clstencil run heat3d7 --dtype $dt --size 512x512x512 --steps 24 --pipeline off \
    >> "$out/run.txt" 2>&1
  for o in "--schedule auto" "" "--steps-per-pass 3" "--steps-per-pass 2"; do
    timeout 30 clstencil bench transit --size 512x512x512 --format csv --reps 3 --steps 24 \
      --dtype $dt $o heat3d7 2>>"$out/why.err" | { [ -s "$csv" ] && grep -v '^kind,' || cat; } |
      sed "s|\$|,$dt $o|" >> "$csv"
    echo "$dt $o : $(el) s" >> "$out/timing.txt"
  done
done
