#!/bin/sh
# package.sh: builds a release of the working tree and gathers what the GPU machine needs.
#
# Usage, from the repository root (or anywhere in it): sh tools/gpu/package.sh [DIR [BUILD]]
#
# The GPU machine has neither autotools nor cJSON, so the build happens here, in BUILD (default
# /tmp/clstencil-gpu-release, outside the repository; configure --disable-shared CFLAGS=-O2, so
# libclstencil is linked in statically), and DIR (default .gpu-all) gets:
#   DIR/bin/   clstencil, the test programs and the guide's example
#   DIR/lib/   the shared libraries the GPU machine lacks: libcjson.so.1, libOpenCL.so.1 (the
#              ICD loader) and libpng16.so.16
# DIR must be ignored by git (.git/info/exclude) to be named in the device tool's `carry`.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/.gpu-all}
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
build=${2:-/tmp/clstencil-gpu-release}
mkdir -p "$build"
cd "$build"
if [ -f Makefile ] && ! grep -qx "abs_top_srcdir = $root" Makefile; then
  echo "package.sh: $build is configured for another source tree; name another BUILD" >&2
  exit 1
fi
[ -f Makefile ] || "$root/configure" -q --disable-shared CFLAGS=-O2
make -j2 >/dev/null
make -j2 check TESTS= >/dev/null          # builds the test programs without running them
rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/lib"
cp clstencil "$dir/bin/"
for t in tests/test_* tests/example_*; do
  case $t in *.o|*.log|*.trs|*.sh) continue ;; esac
  [ -x "$t" ] && [ -f "$t" ] && cp "$t" "$dir/bin/"
done
for l in libcjson.so.1 libOpenCL.so.1 libpng16.so.16; do
  cp -L "/usr/lib/x86_64-linux-gnu/$l" "$dir/lib/"
done
du -sh "$dir"
