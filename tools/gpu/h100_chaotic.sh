#!/bin/sh
# h100_chaotic.sh: the chaotic-relaxation runs of doc/chaotic.md on the GPU.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_chaotic.sh [GPU_DIR]
#
# The solver tests on the device (test_chaotic, test_images, tests/test_chaotic_cli.sh), then
# Poisson image editing and shape from shading at 480x480 (Chen et al.'s size) and 4096x4096,
# every schedule at the same tolerance (Figs. 7-10 of Chen et al.), the exchange interval l
# (Figs. 11-13), communication items (Fig. 14), block shapes, and the output images.
# GPU_DIR (default .gpu-all) needs bin/clstencil, bin/test_chaotic, bin/test_images and
# libpng16.so.16 besides package.sh's libraries.
# Writes two files to $OUT, so that the device tool returns everything: h100-chaotic.txt (the
# device, every command, its limit, time and exit status, the failed tests) and
# h100-chaotic.tar.gz (the tables h100-<date>-chaotic-*.csv, columns as the PoCL ones in
# doc/data/, the test logs and the PNG images).  Unpack with `tar -xzf h100-chaotic.tar.gz -C
# doc/data` (the images go to doc/img/ by hand).
#
# About 3 minutes; BUDGET seconds (default 225) for everything: each piece runs under `timeout`
# with what is left of it (pieces in order of importance; one that finds less than 8 s left is
# skipped and logged), and every solve is bounded by --max-steps and --max-seconds, so a run that
# does not converge is a CSV row with outcome "not converged", not a hang.  Compare rows are
# printed as they finish, so a piece stopped by its timeout keeps its finished rows.
# GPU_TRIAL=1 (env.sh) runs it on PoCL at small sizes, to try it without a GPU.
# shellcheck disable=SC2086 # $L is an option with its value, $CROP four numbers
set -u
[ $# -gt 0 ] && GPU_DIR=$1
BUDGET=${BUDGET:-225}
# shellcheck source=tools/gpu/env.sh
. "$(dirname "$0")/env.sh"
if [ "${GPU_TRIAL:-0}" = 1 ]; then
  P480=96x72 S480=64 P4096=256x256 PATCH=96x72 S4096=256 R4096=24 CROP="0 0 256 256"
else
  P480=480x480 S480=480 P4096=4096x4096 PATCH=480x480 S4096=4096 R4096=180
  CROP="1728 1728 2368 2368"
fi
bindir=$(dirname "$(command -v clstencil)")
day=$(date -u +%Y-%m-%d)
stage=$(mktemp -d)
p=$stage/h100-$day-chaotic
LOG=$OUT/h100-chaotic.txt
: > "$LOG"
gpu_record "$LOG"

# piece NAME LIMIT OUTFILE CMD...: CMD through gpu_step, its stdout to OUTFILE (or the log when
# OUTFILE is -), its stderr to the log.
piece() {
  echo "== $1" >> "$LOG"
  _dest=$3
  _lim=$2
  shift 3
  if [ "$_dest" = - ]; then
    gpu_step "$_lim" "$@" >> "$LOG" 2>&1
  else
    gpu_step "$_lim" "$@" > "$_dest" 2>> "$LOG"
  fi
}

# Poisson: max update (the residual of Jacobi) 1e-6 of the [0, 1] range: at 480x480 the host
# check of doc/chaotic.md puts the error at 0.006 (1.5/255) after ~31k Jacobi steps; 1e-4 stops
# with an error of 0.6 and is run once for comparison with the PoCL tables.  Shape from
# shading: 1e-5 as on PoCL.
TP=1e-6
TS=1e-5
L="--max-steps 300000"

# The solver tests on the device: every schedule against the host solution, the two-stage
# norm reduction of a 1024^2 grid, the limits and bad input, the images and the commands.
piece test_chaotic 40 "$stage/h100-tests-chaotic.txt" test_chaotic
piece test_images 30 "$stage/h100-tests-images.txt" test_images
piece test_chaotic_cli 30 "$stage/h100-tests-chaotic-cli.txt" env builddir="$bindir" \
  sh tests/test_chaotic_cli.sh
grep -h "^not ok" "$stage"/h100-tests-*.txt >> "$LOG" 2>/dev/null
echo "== tests: $(cat "$stage"/h100-tests-*.txt 2>/dev/null | grep -c '^ok') ok," \
  "$(cat "$stage"/h100-tests-*.txt 2>/dev/null | grep -c '^not ok') not ok" >> "$LOG"

# Figs. 7-8 and the acceptance (best asynchronous variant >= 4x base): Poisson editing at
# 480x480 (RGB: a 480 x 1440 grid), every schedule, host-sync interval n swept, median of 3.
# Expected: base ~31k steps at 25-30 us (two launches and a blocking read): ~1 s; a pass step
# 1-3 us (1080 blocks, ~530-660 resident: two waves), ~40k steps: ~0.1 s a run; ~15 s in all.
piece poisson480 45 "$p-poisson-480-update.csv" clstencil poisson-edit --synthetic $P480 \
  --compare --check-intervals 10,20,40,60,80,100 --tolerance $TP --repeat 3 $L \
  --max-seconds 5 --format csv

# The output images at 480x480 (seconds).
piece images480 15 - clstencil poisson-edit --synthetic $P480 \
  --write-inputs "$stage/h100-scene-480-" --paste "$stage/h100-scene-480-paste.png" \
  --output "$stage/h100-scene-480-edit.png" --tolerance $TP --max-seconds 5 $L
piece sfs-images480 15 - clstencil sfs --synthetic $S480 --light 0.3,-0.2,1 \
  --write-inputs "$stage/h100-sphere-480-" --output "$stage/h100-sphere-480-height.png" \
  --normals "$stage/h100-sphere-480-normals.png" --tolerance $TS --max-seconds 5 $L

# 4096x4096 (doc/chaotic.md, "On a GPU: parameters, residency, large grids"): the scene's patch and
# mask at 480x480 centred in a 4096x4096 target (a 4096 x 12288 grid, 50 M points), so that the
# steps stay those of the 480 case (a mask growing with the image needs ~70x the steps, ~2 M at this
# tolerance: 15 minutes of base), while every step sweeps the whole grid: base ~0.35-0.5 ms a step
# (memory bound, 16 bytes a point, and the two-stage norm reduction), ~31k steps: ~12-15 s; each
# pass variant ~0.05-0.1 ms a step, ~3-4 s.  n = 60, one run each: ~40 s.
piece poisson4096 80 "$p-poisson-4096-update.csv" clstencil poisson-edit --synthetic $P4096 \
  --patch $PATCH --compare --tolerance $TP $L --max-seconds 40 --format csv

# Figs. 9-10: shape from shading at 480x480 (sphere of radius 180, oblique light; a 960 x 480
# (f, g) grid), tolerance 1e-5.  Steps from PoCL at 128 scaled by the radius squared: ~25-70k;
# a run 0.1-0.2 s (base ~1-2 s); ~10 s.
piece sfs480 35 "$p-sfs-480-update.csv" clstencil sfs --synthetic $S480 --light 0.3,-0.2,1 \
  --compare --check-intervals 10,20,40,60,100 --tolerance $TS --repeat 1 $L \
  --max-seconds 5 --format csv

# Figs. 11-13: the exchange interval l at n = 60 (3D-Shape as in Chen et al., and Poisson).
piece sfs480-l 25 "$p-sfs-480-l.csv" clstencil sfs --synthetic $S480 --light 0.3,-0.2,1 --compare \
  --variants ud-stripe,ud-square,4w-stripe,4w-square,4w-combine-stripe,4w-combine-square \
  --exchange-intervals 1,2,3,4,6,8,10 --tolerance $TS --repeat 1 $L --max-seconds 3 \
  --format csv
piece poisson480-l 20 "$p-poisson-480-l.csv" clstencil poisson-edit --synthetic $P480 --compare \
  --variants ud-stripe,4w-stripe,4w-square,4w-combine-square --exchange-intervals 1,2,4,8 \
  --tolerance $TP --repeat 3 $L --max-seconds 3 --format csv

# Shape from shading at 4096x4096 (an 8192 x 4096 grid, 34 M points), the sphere of the 480
# case (radius 180): base ~0.3 ms a step; ~20-30 s.
piece sfs4096 45 "$p-sfs-4096-update.csv" clstencil sfs --synthetic $S4096 --radius $R4096 \
  --light 0.3,-0.2,1 --compare --variants base,coarse,ud-stripe,4w-square,4w-combine-square \
  --tolerance $TS $L --max-seconds 15 --format csv

# Poisson at the PoCL tables' tolerance 1e-4 (fast, far from converged: comparison only), and
# the residual criterion.
piece poisson480-1e-4 10 "$p-poisson-480-tol1e-4.csv" clstencil poisson-edit --synthetic $P480 \
  --compare --tolerance 1e-4 --repeat 3 $L --max-seconds 3 --format csv
piece poisson480-residual 15 "$p-poisson-480-residual.csv" clstencil poisson-edit \
  --synthetic $P480 --compare --variants base,coarse,ud-stripe,4w-square,4w-combine-square \
  --criterion residual --tolerance $TP $L --max-seconds 3 --format csv

# Fig. 14: communication items (l = 1 and 4; one program each; 32 is in the -l table), and
# block shapes for a device with 228 KiB of shared memory per SM (32x32 with 4 points per
# item, 64x16).  Points per item and comm items left automatic shrink to the pass kernel's
# work-group limit (the CSV's block, points_per_item and comm_items columns say what ran).
for c in 0 64 128; do
  piece "sfs480-comm$c" 10 "$p-sfs-480-comm$c.csv" clstencil sfs --synthetic $S480 \
    --light 0.3,-0.2,1 --compare --variants 4w-square,4w-combine-square --exchange-intervals 1,4 \
    --comm-items $c --tolerance $TS $L --max-seconds 3 --format csv
done
piece poisson480-b32x32 10 "$p-poisson-480-b32x32.csv" clstencil poisson-edit --synthetic $P480 \
  --compare --variants coarse,4w-square,4w-combine-square --block 32x32 --points-per-item 4 \
  --tolerance $TP --repeat 3 $L --max-seconds 3 --format csv
# A shape given in full that fits NVIDIA's pass limit of 256 work-items for Chen et al.'s kernel:
# 32x14 rows with Chen et al.'s 2 points per item and 32 comm items (256 items),
# against the automatic 32x20 with 4 points per item of the tables above.
piece poisson480-b32x14 10 "$p-poisson-480-b32x14.csv" clstencil poisson-edit --synthetic $P480 \
  --compare --variants coarse,4w-square,4w-combine-square --block 32x14 --points-per-item 2 \
  --comm-items 32 --tolerance $TP --repeat 3 $L --max-seconds 3 --format csv
piece poisson480-b64x16 10 "$p-poisson-480-b64x16.csv" clstencil poisson-edit --synthetic $P480 \
  --compare --variants coarse,4w-square,4w-combine-square --block 64x16 \
  --tolerance $TP --repeat 3 $L --max-seconds 3 --format csv

# The 4096 composite, scaled to 1024 and the patch's neighbourhood cropped at full size (the
# full PNG would be tens of MB); Pillow is part of the machine's Python.
piece images4096 25 - clstencil poisson-edit --synthetic $P4096 --patch $PATCH \
  --output "$stage/scene-4096-edit.png" --tolerance $TP $L --max-seconds 15
if [ -s "$stage/scene-4096-edit.png" ]; then
  python3 - "$stage" $CROP <<'EOF' >> "$LOG" 2>&1
import sys
from PIL import Image
d = sys.argv[1]
box = tuple(int(v) for v in sys.argv[2:6])
im = Image.open(d + "/scene-4096-edit.png")
im.resize((1024, 1024), Image.LANCZOS).save(d + "/h100-scene-4096-edit-1024.png")
im.crop(box).save(d + "/h100-scene-4096-edit-crop.png")
print("images: 4096 composite scaled and cropped")
EOF
  rm -f "$stage/scene-4096-edit.png"
fi

echo "== done: $(gpu_elapsed) s" >> "$LOG"
find "$stage" -type f -empty -delete
tar -czf "$OUT/h100-chaotic.tar.gz" -C "$stage" . 2>> "$LOG"
ls -l "$stage" >> "$LOG"
rm -rf "$stage"
