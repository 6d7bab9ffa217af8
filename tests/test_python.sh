#!/bin/sh
# test_python.sh: the Python package as a user installs it, as TAP.  A fresh virtual
# environment (with the system's site packages, for NumPy) gets `pip install` of a copy of
# python/ (pip writes into the folder it installs from, and the source tree may be read-only);
# the package records $CLS_PY_LIBDIR, the staged `make install` of this build (tests/python.mk),
# and its tests then run against that library.  Skipped without a Python 3 with NumPy and venv.
src=${CLS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
libdir=${CLS_PY_LIBDIR:?CLS_PY_LIBDIR: the staged library folder (tests/python.mk)}
work=$(pwd)/tests/python-work
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; sed 's/^/#   /' "$work/log" | tail -n 40; }

py=""
for cand in "${CLS_PYTHON:-}" python3 /usr/bin/python3; do
    [ -n "$cand" ] || continue
    if "$cand" -c 'import numpy, venv, ensurepip' >/dev/null 2>&1; then py=$cand; break; fi
done
if [ -z "$py" ]; then
    echo "1..0 # SKIP no Python 3 with NumPy, venv and ensurepip (Debian: python3-numpy python3-venv)"
    exit 0
fi

rm -rf "$work" && mkdir -p "$work" || exit 1
echo "# $py: $("$py" -c 'import sys, numpy; print(sys.version.split()[0], "numpy", numpy.__version__)')"
: >"$work/log"
if "$py" -m venv --system-site-packages "$work/venv" >"$work/log" 2>&1; then
    ok "a fresh virtual environment ($py -m venv --system-site-packages)"
else
    not_ok "a fresh virtual environment ($py -m venv --system-site-packages)"; echo "1..$n"; exit 1
fi
cp -R "$src/python" "$work/src" && chmod -R u+w "$work/src"
if CLSTENCIL_LIBDIR=$libdir PIP_NO_INPUT=1 "$work/venv/bin/python" -m pip install --no-index \
        --no-build-isolation --no-cache-dir --disable-pip-version-check --quiet "$work/src" \
        >"$work/log" 2>&1; then
    ok "pip install of python/ over the installed library"
else
    not_ok "pip install of python/ over the installed library"; echo "1..$n"; exit 1
fi

# A library built with the sanitizers needs their runtimes loaded first; the interpreter keeps
# memory to its end by design, so leak checks are off.
preload=$(ldd "$libdir/libclstencil.so.0" 2>/dev/null |
          awk '/lib(asan|ubsan)\.so/ { printf "%s ", $3 }')
# The tests run from the work folder, so that the installed package is the one imported.
(cd "$work" && CLS_PY_EXPECT_LIBDIR=$libdir CLS_SRCDIR=$src LD_PRELOAD=$preload \
    ASAN_OPTIONS=detect_leaks=0 "$work/venv/bin/python" "$work/src/tests/tap.py") >"$work/tap" 2>"$work/log"
rc=$?
# The package's TAP lines, numbered after this script's own.
awk -v n=$n '/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n) } /^1\.\.[0-9]+$/ { next } { print } END { print n > "/dev/stderr" }' \
    "$work/tap" 2>"$work/count"
n=$(cat "$work/count")
if [ $rc -ne 0 ] && ! grep -q '^not ok' "$work/tap"; then not_ok "the package's tests exit with status $rc"; fi
[ $rc -ne 0 ] && sed 's/^/#   stderr: /' "$work/log" | tail -n 40
echo "1..$n"
