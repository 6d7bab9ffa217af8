#!/bin/sh
# test_cumapz_cli.sh: `clstencil analyze` end to end (no device needed), reported as TAP.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-analyze.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

cli analyze --help
[ $rc -eq 0 ] && out_has "--param" && out_has "MPE" && out_has "Eq. 8"
verdict $? "analyze --help describes the factors and options"

cli --help
[ $rc -eq 0 ] && out_has "analyze"
verdict $? "clstencil --help lists analyze"

cli analyze --list
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 6 ] && out_has "^fig2-fetch" && out_has "^stencil3d"
verdict $? "analyze --list names the six built-in cases"

cli analyze fig2-layout --param ROWS=16
[ $rc -eq 0 ] && out_has "^col-cw .* shm_eff" && out_has "^col-rw .*  1 " &&
    out_has "^best: col-rw" && out_has "data_reuse.*lat_hiding.*bw_util.*ch_skew.*shm_eff.*branch_eff.*MPE" &&
    err_has "analysed 9 variants"
verdict $? "fig2-layout: the six factors and MPE side by side; row-wise first, column-wise held back by shm_eff"

cli analyze fig2-write --param ROWS=16 --variant col-rw --variant col-cw --verbose
[ $rc -eq 0 ] && out_has "^col-cw .* ch_skew" && [ "$(grep -c '^col-' "$tmp/out")" -eq 4 ] &&
    out_has "8.00 (32/32 on 1 of 8)"
verdict $? "fig2-write: the column-wise write's bottleneck is ch_skew, --verbose names the camping instruction"

cli analyze transpose --param N=512 --format json
if [ $rc -eq 0 ] && command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = {x["name"]: x for x in d["variants"]}
assert d["family"] == "gt200" and len(v) == 6
assert v["diag"]["rank"] == 1 and v["padded"]["bottleneck"] == "ch_skew"
assert v["tiled"]["counts"]["worst_degree"] == 16
PY
    verdict $? "transpose as JSON: the diagonal padded tile ranks first, padded is held by ch_skew"
else
    verdict $rc "transpose as JSON"
fi

cli analyze --dump fig2-fetch
cp "$tmp/out" "$tmp/fig2.json"
cli analyze "$tmp/fig2.json" --param ROWS=16
cp "$tmp/out" "$tmp/a.txt"
cli analyze fig2-fetch --param ROWS=16
[ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/a.txt"
verdict $? "--dump writes a description file that analyses the same as the case"

cli analyze stencil2d --param NY=48 --device h100
[ $rc -eq 0 ] && out_has "h100 (gpu family" && out_has "^aligned-32x6 "
verdict $? "stencil2d on the H100 model (gpu family rules)"

printf '{"name": "bad", "kernel": {"block": [16, 0], "grid": [1], "arrays": {"in": {"elem_size": 4, "elements": 16}}, "body": [{"read": "in[tx]"}]}}\n' >"$tmp/bad.json"
cli analyze "$tmp/bad.json"
[ $rc -eq 1 ] && err_has 'CLS_ERR_INVALID_SPEC' && err_has '\$.kernel.block\[1\]: a zero-sized'
verdict $? "a zero-sized work-group is refused with its JSON path"

printf '{"name": "big", "kernel": {"block": [16], "grid": [1], "arrays": {"in": {"elem_size": 4, "elements": 16}}, "buffers": {"s": {"elem_size": 4, "elements": 8192}}, "body": [{"fetch": "s[tx] = in[tx]"}]}}\n' >"$tmp/big.json"
cli analyze "$tmp/big.json" --device gtx280
[ $rc -eq 1 ] && err_has 'CLS_ERR_PLAN_INFEASIBLE' && err_has 'need 32768 bytes of local memory'
verdict $? "buffers larger than local memory are refused"

printf '{"name": "oob", "kernel": {"block": [16], "grid": [2], "arrays": {"in": {"elem_size": 4, "elements": 16}}, "body": [{"read": "in[bx*16+tx]"}]}}\n' >"$tmp/oob.json"
cli analyze "$tmp/oob.json"
[ $rc -eq 1 ] && err_has "element 16 of array 'in' is outside its 16 elements (work-group (1,0,0)"
verdict $? "an out-of-range reference names the work-group and work-item"

cli analyze transpose --max-work 1000
[ $rc -eq 1 ] && err_has 'more than the bound' && err_has 'Sect. 7'
verdict $? "--max-work bounds the emulation with a hint to reduce the input"

cli analyze nosuchcase
[ $rc -eq 1 ] && err_has "unknown case 'nosuchcase'" && err_has 'fig2-fetch'
verdict $? "an unknown case lists the built-in ones"

cli analyze fig2-fetch --variant nope
[ $rc -eq 1 ] && err_has "no variant 'nope' (it has: none, col, col+1, col+2)"
verdict $? "an unknown variant lists the variants"

cli analyze fig2-fetch --param NOPE=1
[ $rc -eq 1 ] && err_has "has no param 'NOPE'"
verdict $? "an unknown --param is refused"

cli analyze
[ $rc -eq 2 ] && err_has "usage:"
verdict $? "no case is a usage error"

cli analyze fig2-fetch --param ROWS
[ $rc -eq 2 ] && err_has "NAME=VALUE"
verdict $? "a malformed --param is a usage error"

echo "1..$n"
exit $failed
