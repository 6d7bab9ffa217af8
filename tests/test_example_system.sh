#!/bin/sh
# test_example_system.sh: runs the user guide's system example (doc/example_system.c) as
# tests/test_example.sh runs the single-field one.
example=./tests/example_system
what="guide system example runs, advances a state and matches the reference"
. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/test_example.sh"
