#!/bin/sh
# sweep.sh: runs `clstencil` commands read one per line on the GPU and gathers their CSV rows.
#
# Usage, from the repository root on the GPU machine (tools/gpu/README.md):
#   LINES | sh tools/gpu/sweep.sh [-n NAME] [-b BUDGET] [-l LIMIT] [-t TEST]... [GPU_DIR]
#
# Each input line holds the arguments of one `clstencil` call that prints CSV on stdout, such as
#   bench transit --size 512x512x512 --reps 3 --steps 24 --format csv --steps-per-pass 3 heat3d7
# split at blanks as they stand (no quotes, no expansion); empty lines and lines starting with #
# are skipped.  A result page keeps the lines of its experiment, usually as the loop that prints
# them, so that the page itself says what was run.
#
#   -n NAME    output names (default sweep)
#   -b BUDGET  seconds from the start after which no command starts (default 480)
#   -l LIMIT   seconds each command may take (default 30)
#   -t TEST    a test program of GPU_DIR (test_stream25d, ...) to run on the GPU before the
#              commands, at most 120 s; repeatable
#   GPU_DIR    the carried build (default .gpu-all)
#
# Writes to $OUT (default ./gpu-out):
#   NAME.csv        the first command's CSV header with a last column `command`, then every row
#                   of every command with that header, the command's line (quoted) last
#   NAME.txt        the device, each command with its limit, status and time, the commands'
#                   stderr, and the output of any command whose header differs from the first
#   NAME-tests.txt  the test programs' output (TAP)
#   NAME-ptxas.txt  with CLSTENCIL_BUILD_OPTIONS=-cl-nv-verbose and CLSTENCIL_BUILD_LOG set: each
#                   kernel build's registers, stack frame and local memory, and a last line
#                   counting stack frames above 64 bytes (also in NAME.txt and on stderr)
set -u
name=sweep
BUDGET=480
limit=30
tests=
while getopts n:b:l:t: opt; do
  case $opt in
    n) name=$OPTARG ;;
    b) BUDGET=$OPTARG ;;
    l) limit=$OPTARG ;;
    t) tests="$tests $OPTARG" ;;
    *) echo "usage: sweep.sh [-n NAME] [-b BUDGET] [-l LIMIT] [-t TEST]... [GPU_DIR]" >&2
       exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] && GPU_DIR=$1
# shellcheck source=tools/gpu/env.sh
. "$(dirname "$0")/env.sh"
LOG=$OUT/$name.txt
csv=$OUT/$name.csv
rows=$(mktemp)
: > "$csv"
gpu_record "$LOG"

for t in $tests; do
  echo "# $t" >> "$OUT/$name-tests.txt"
  gpu_step 120 "$t" >> "$OUT/$name-tests.txt" 2>&1
done

# The lines are split at blanks and never expanded: no file name patterns either.
set -f
while IFS= read -r line; do
  case $line in '' | '#'*) continue ;; esac
  # shellcheck disable=SC2086 # each line is a list of arguments
  gpu_step "$limit" clstencil $line < /dev/null > "$rows" 2>> "$LOG"
  [ -s "$rows" ] || continue
  header=$(head -n 1 "$rows")
  [ -s "$csv" ] || echo "$header,command" > "$csv"
  if [ "$(head -n 1 "$csv")" = "$header,command" ]; then
    quoted=$(printf '%s' "$line" | sed 's/"/""/g')
    tail -n +2 "$rows" | awk -v c="$quoted" '{ print $0 ",\"" c "\"" }' >> "$csv"
  else
    echo "== its output (another header):" >> "$LOG"
    cat "$rows" >> "$LOG"
  fi
done
rm -f "$rows"
if [ -n "${CLSTENCIL_BUILD_LOG:-}" ] && [ -s "$CLSTENCIL_BUILD_LOG" ]; then
  gpu_ptxas_summary "$CLSTENCIL_BUILD_LOG" > "$OUT/$name-ptxas.txt"
  tail -n 1 "$OUT/$name-ptxas.txt" | tee -a "$LOG" >&2
fi
