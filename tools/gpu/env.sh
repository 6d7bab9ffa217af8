# env.sh: sourced by the GPU scripts on the lent H100 machine.  Registers NVIDIA's OpenCL
# driver through a private ICD folder (the machine has no ICD file for it, and its PoCL ICD
# must not be picked), points the loader at the carried libraries and gives every run a
# fresh kernel cache.  Expects $GPU_DIR (default .gpu-all) as written by package.sh.
GPU_DIR=${GPU_DIR:-$PWD/.gpu-all}
_icd=$(mktemp -d)
echo /usr/lib/libnvidia-opencl.so.1 > "$_icd/nvidia.icd"
export OCL_ICD_VENDORS=$_icd
export LD_LIBRARY_PATH=$GPU_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CLSTENCIL_CACHE_DIR=$(mktemp -d)
export CLSTENCIL_DEVICE=${CLSTENCIL_DEVICE:-gpu}
export CLSTENCIL_MODEL_DIR=${CLSTENCIL_MODEL_DIR:-$PWD/devices}
export PATH=$GPU_DIR/bin:$PATH
