#!/bin/sh
# test_example.sh: runs the user guide's example program (doc/example.c) and reports it as TAP.
out=$(./tests/example_guide 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then echo "ok 1 - guide example runs and matches the reference"
else echo "not ok 1 - guide example runs and matches the reference (exit $rc)"; fi
echo "1..1"
