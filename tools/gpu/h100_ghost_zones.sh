#!/bin/sh
# h100_ghost_zones.sh: the ghost-zone acceptance runs of doc/ghost-zones.md on the GPU.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   sh tools/gpu/h100_ghost_zones.sh [-n NAME] [-c ROUNDS] [-s] [-t] [GPU_DIR [APP...]]
#
# For each APP (default: pathfinder hotspot poisson2d cell3d) the exhaustive search of
# `clstencil tune --exhaustive` beside the model's pick, at sizes beyond the H100's 50 MB L2;
# then the tuned plan (AUTO) against the naive one (`clstencil bench`), and the tuned trapezoid
# against the host reference (`clstencil run --verify`) at sizes the host checks quickly.
#   -n NAME    output names (default ghost-zones)
#   -c ROUNDS  re-time the three fastest configurations and the pick in ROUNDS interleaved rounds
#              (`tune --confirm ROUNDS`)
#   -s         the searches only
#   -t         also the trapezoid schedule's tests (test_trapezoid) on the GPU
#   GPU_DIR    the carried build (default .gpu-all)
# Writes to $OUT: NAME.txt (device, every command's output, limit, status and time) and
# NAME-APP.csv per search (`tune --csv`), NAME-tests.txt with -t.  Every command runs under
# `timeout` and none starts after BUDGET seconds (default 540).
set -u
name=ghost-zones
confirm=
searches_only=0
with_tests=0
while getopts n:c:st opt; do
  case $opt in
    n) name=$OPTARG ;;
    c) confirm="--confirm $OPTARG" ;;
    s) searches_only=1 ;;
    t) with_tests=1 ;;
    *) echo "usage: h100_ghost_zones.sh [-n NAME] [-c ROUNDS] [-s] [-t] [GPU_DIR [APP...]]" >&2
       exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then GPU_DIR=$1; shift; fi
apps=${*:-pathfinder hotspot poisson2d cell3d}
BUDGET=${BUDGET:-540}
# shellcheck source=tools/gpu/env.sh
. "$(dirname "$0")/env.sh"
LOG=$OUT/$name.txt
gpu_record "$LOG"

# The searches: every candidate tile, both sync modes, h up to the steps; each configuration
# runs STEPS steps on device-resident data, REPS times.
for s in "pathfinder 10000000 64 5" "hotspot 8192x8192 24 5" "poisson2d 8192x8192 24 5" \
         "cell3d 384x384x384 8 3"; do
  # shellcheck disable=SC2086 # the case's fields
  set -- $s
  case " $apps " in *" $1 "*) ;; *) continue ;; esac
  # shellcheck disable=SC2086 # $confirm is empty or an option and its value
  gpu_step 100 clstencil tune "$1" --size "$2" --steps "$3" --exhaustive --reps "$4" $confirm \
    --csv "$OUT/$name-$1.csv" >> "$LOG" 2>&1
done

if [ $searches_only = 0 ]; then
  for s in "pathfinder 10000000 100" "poisson2d 8192x8192 100" "hotspot 4096x4096 1000"; do
    # shellcheck disable=SC2086 # the case's fields
    set -- $s
    for sch in naive auto; do
      gpu_step 40 clstencil bench "$1" --size "$2" --steps "$3" --reps 3 --schedule $sch \
        >> "$LOG" 2>&1
    done
  done
  for s in "hotspot 1024x1024 50" "pathfinder 1000000 50" "poisson2d 1024x1024 50" \
           "cell3d 96x96x96 10"; do
    # shellcheck disable=SC2086 # the case's fields
    set -- $s
    gpu_step 30 clstencil run "$1" --size "$2" --steps "$3" --schedule trapezoid --verify \
      >> "$LOG" 2>&1
  done
fi
[ $with_tests = 1 ] && gpu_step 60 test_trapezoid > "$OUT/$name-tests.txt" 2>&1
echo "== done ($(gpu_elapsed) s)" >> "$LOG"
grep -E '^(== clstencil tune|pick:|ratio best|confirmed)' "$LOG" || true
