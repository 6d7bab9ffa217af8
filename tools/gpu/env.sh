# env.sh: sourced by the GPU drivers; selects NVIDIA's OpenCL driver and the GPU, records runs.
# shellcheck shell=sh
#
# The GPU machine has NVIDIA's OpenCL driver (/usr/lib/libnvidia-opencl.so.1) but no ICD file
# for it, and a PoCL ICD that must not be picked: a private ICD folder naming the driver, with
# OCL_ICD_VENDORS pointing at it, makes it the only platform.  The device is chosen by type
# (CLSTENCIL_DEVICE=gpu unless set), never by platform index, whose order is the loader's.
# Every source gets an empty kernel cache, so that no run reuses programs another binary built.
#
# Variables read (all optional):
#   GPU_DIR    the carried build (default .gpu-all): package.sh's bin/ and lib/, or one flat
#              folder holding the programs and the libraries
#   OUT        where results go (default ./gpu-out)
#   BUDGET     seconds after which gpu_step starts nothing new (each driver sets its default)
#   LOG        gpu_step's log (default $OUT/log.txt; each driver names its own)
#   GPU_TRIAL  1: use PoCL's CPU device instead (OCL_ICD_VENDORS=pocl.icd), to try a driver's
#              logic on a machine without a GPU
GPU_DIR=${GPU_DIR:-$PWD/.gpu-all}
case $GPU_DIR in /*) ;; *) GPU_DIR=$PWD/$GPU_DIR ;; esac
export GPU_DIR
if [ "${GPU_TRIAL:-0}" = 1 ]; then
  export OCL_ICD_VENDORS=pocl.icd CLSTENCIL_DEVICE=cpu
else
  _gpu_icd=$(mktemp -d)
  echo /usr/lib/libnvidia-opencl.so.1 > "$_gpu_icd/nvidia.icd"
  export OCL_ICD_VENDORS="$_gpu_icd" CLSTENCIL_DEVICE="${CLSTENCIL_DEVICE:-gpu}"
fi
LD_LIBRARY_PATH=$GPU_DIR/lib:$GPU_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PATH=$GPU_DIR/bin:$GPU_DIR:$PATH
CLSTENCIL_CACHE_DIR=$(mktemp -d)
CLSTENCIL_MODEL_DIR=${CLSTENCIL_MODEL_DIR:-$PWD/devices}
export LD_LIBRARY_PATH PATH CLSTENCIL_CACHE_DIR CLSTENCIL_MODEL_DIR
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
LOG=${LOG:-$OUT/log.txt}
GPU_T0=$(date +%s)

# gpu_record FILE: appends the date, the GPU, its driver and clocks, the build's version and the
# devices it sees to FILE.
gpu_record() {
  {
    echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    timeout 10 nvidia-smi --format=csv,noheader \
      --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem
    timeout 10 clstencil --version
    timeout 20 clstencil devices
  } >> "$1" 2>&1
}

# gpu_elapsed: seconds since env.sh was sourced.
gpu_elapsed() {
  echo $(($(date +%s) - GPU_T0))
}

# gpu_step LIMIT CMD...: runs CMD under `timeout`, for at most LIMIT seconds and never past
# BUDGET; skips it when less than 8 s are left.  Writes the command, its limit, status and time
# to $LOG (CMD's own output goes where the caller sends it).  Returns CMD's status (1 when
# skipped).
gpu_step() {
  _lim=$1
  shift
  _left=$((${BUDGET:-540} - $(gpu_elapsed)))
  if [ "$_left" -lt 8 ]; then
    echo "== SKIPPED (${_left} s of the budget left): $*" >> "$LOG"
    return 1
  fi
  [ "$_left" -lt "$_lim" ] && _lim=$_left
  echo "== $* (limit $_lim s)" >> "$LOG"
  _t=$(date +%s)
  timeout "$_lim" "$@"
  _rc=$?
  echo "== rc $_rc, $(($(date +%s) - _t)) s (total $(gpu_elapsed) s)" >> "$LOG"
  return $_rc
}

# gpu_ptxas_summary BUILD_LOG: from a build log written through CLSTENCIL_BUILD_LOG with
# CLSTENCIL_BUILD_OPTIONS=-cl-nv-verbose, one line per kernel build (entry, registers, stack
# frame and spills, shared memory) and a last line counting the builds whose stack frame
# exceeds 64 bytes: a kernel whose private arrays went to the stack (NVIDIA's compiler does so
# when it indexes them at run time) runs an order of magnitude slower, and its registers look
# fine (heat3d7's fused kernel: 80 registers, 648 bytes of stack, 15 GPoints/s instead of 508;
# doc/results.md, "The fused kernel's stages written out").
gpu_ptxas_summary() {
  awk '
    /Compiling entry function/ { k = $0; sub(/.*function ./, "", k); sub(/. for .*/, "", k) }
    /bytes stack frame/ { st = $3; sp = $6 + $10 }
    /Used [0-9]+ registers/ {
      r = $0; sub(/.*Used /, "", r); sub(/ registers.*/, "", r)
      sm = "0"; if ($0 ~ /bytes smem/) { sm = $0; sub(/ bytes smem.*/, "", sm); sub(/.*, /, "", sm) }
      printf "%s: %s registers, %s bytes of stack frame, %s bytes spilled, %s bytes of local memory\n", k, r, st, sp, sm
      n++; if (st + 0 > 64) { big++; list = list " " k "(" st ")" }
    }
    END { printf "ptxas: %d builds, %d with a stack frame above 64 bytes%s\n", n, big, big ? ":" list : "" }
  ' "$1"
}
