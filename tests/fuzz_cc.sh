#!/bin/sh
# fuzz_cc.sh: builds one fuzz target for libFuzzer (make fuzz, tests/fuzz.mk).
# Usage: fuzz_cc.sh 'COMPILER FLAGS' SRCDIR OUTPUT SOURCE_OR_FLAG...
# Sources are relative to SRCDIR (the make variables list them so); headers among them are
# dropped, flags (-l...) pass through.
cc=$1 srcdir=$2 out=$3
shift 3
args=
for a in "$@"; do
    case $a in
    *.h) ;;
    *) args="$args $a" ;;
    esac
done
mkdir -p "$(dirname "$out")" || exit 1
cd "$srcdir" || exit 1
# shellcheck disable=SC2086 # the compiler and its flags are words
exec $cc -o "$out" $args
