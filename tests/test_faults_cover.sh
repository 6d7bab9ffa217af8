#!/bin/sh
# test_faults_cover.sh: the OpenCL fault-injection shim (tests/ocl_shim.c) defines every OpenCL
# entry point the library calls, so that test_faults can fail each of them.  Compares the
# library's undefined cl* symbols (nm -D) with `test_faults --list`, as TAP.
b=${builddir:-.}
lib=$b/.libs/libclstencil.so
echo "1..1"
if [ ! -f "$lib" ] || ! command -v nm >/dev/null 2>&1; then
    echo "ok 1 - the shim covers the library's OpenCL entry points # SKIP no shared library or nm"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-cover.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
nm -D --undefined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | grep '^cl[A-Z]' |
    sort -u >"$tmp/lib"
"$b/tests/test_faults" --list | sort -u >"$tmp/shim"
missing=$(comm -23 "$tmp/lib" "$tmp/shim" | tr '\n' ' ')
if [ -s "$tmp/lib" ] && [ -z "$missing" ]; then
    echo "ok 1 - the shim covers the library's $(wc -l <"$tmp/lib") OpenCL entry points"
else
    echo "not ok 1 - the shim covers the library's OpenCL entry points (missing: ${missing:-nm found none})"
    exit 1
fi
