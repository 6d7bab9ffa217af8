#!/bin/sh
# test_example.sh: runs the user guide's example program (doc/example.c) and reports it as TAP.
# The example is a plain program, so LeakSanitizer checks it at exit; that check can crash in
# LeakSanitizer's own tracer while PoCL's threads shut down ("LeakSanitizer has encountered a
# fatal error"): only that case is run again (a real leak report is a failure).
# tests/test_example_system.sh sets example and what to run the system example the same way.
example=${example:-./tests/example_guide}
what=${what:-guide example runs and matches the reference}
run() { LSAN_OPTIONS="${LSAN_OPTIONS:-}:leak_check_at_exit=1" "$example" 2>&1; }
for try in 1 2 3; do
  out=$(run); rc=$?
  echo "$out" | grep -q "LeakSanitizer has encountered a fatal error" || break
  echo "# LeakSanitizer's tracer crashed at exit (try $try); running again"
done
echo "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then echo "ok 1 - $what"
else echo "not ok 1 - $what (exit $rc)"; fi
echo "1..1"
