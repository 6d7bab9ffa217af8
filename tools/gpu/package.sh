#!/bin/sh
# package.sh: builds a release tree of the current working tree outside the repository and
# copies what the GPU scripts need into one folder of the repository (default .gpu-all/, which
# .git/info/exclude must ignore), to be named in the device tool's `carry`:
#   DIR/bin/   clstencil and the test programs (static libclstencil, -O2)
#   DIR/lib/   libcjson.so.1 and libOpenCL.so.1 (the GPU machine has neither)
# Usage: tools/gpu/package.sh [DIR] [BUILD]   (BUILD defaults to /tmp/clstencil-gpu-release)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/.gpu-all}
build=${2:-/tmp/clstencil-gpu-release}
mkdir -p "$build"
cd "$build"
[ -f Makefile ] || "$root/configure" -q --disable-shared CFLAGS=-O2
make -j2 >/dev/null
make -j2 check TESTS= >/dev/null          # builds the test programs without running them
rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/lib"
cp clstencil "$dir/bin/"
for t in tests/test_*; do
  case $t in *.o|*.log|*.trs|*.sh) continue ;; esac
  [ -x "$t" ] && [ -f "$t" ] && cp "$t" "$dir/bin/"
done
for l in libcjson.so.1 libOpenCL.so.1 libpng16.so.16; do
  cp -L "/usr/lib/x86_64-linux-gnu/$l" "$dir/lib/"
done
du -sh "$dir"
