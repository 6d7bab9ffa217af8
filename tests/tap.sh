# tap.sh: the TAP helpers the command-line test scripts share (tests/tap.h is the C side).
# Sourced after the script has set CLI (the clstencil binary) and tmp (its scratch folder).
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
    n=$((n + 1)); echo "not ok $n - $1"; failed=1
    # The command's own words help more than the test's name.
    sed 's/^/#   stderr: /' "$tmp/err" 2>/dev/null | head -n 20
    sed 's/^/#   stdout: /' "$tmp/out" 2>/dev/null | head -n 40
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
verdict() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }
# Runs the CLI with stdout and stderr captured; sets rc.
cli() { "$CLI" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
out_has() { grep -q -e "$1" "$tmp/out"; }
err_has() { grep -q -i -e "$1" "$tmp/err"; }
