#!/bin/sh
# test_cli_model.sh: `clstencil model`, `probe` and the models `devices` shows, reported as TAP.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# A cache of its own (program binaries are kept between runs, the probe result is not), so
# that other tests matching the same device never see this probe result.
CLSTENCIL_CACHE_DIR=${CLSTENCIL_CACHE_DIR:-$tmp}/cli-model
export CLSTENCIL_CACHE_DIR
rm -rf "$CLSTENCIL_CACHE_DIR/models"
unset CLSTENCIL_CACHE CLSTENCIL_MODEL_DIR

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"
have_python=0
if command -v python3 >/dev/null 2>&1; then have_python=1; fi
json_ok() { python3 -c 'import json,sys; json.load(sys.stdin)' <"$1" 2>/dev/null; }

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

# ---------------------------------------------------------------- model: no device needed
cli model --help
[ $rc -eq 0 ] && out_has --device && out_has --list && out_has --format
verdict $? "model --help exits 0 and names --device, --list, --format"

cli probe --help
[ $rc -eq 0 ] && out_has --output && out_has --quick && out_has --device && out_has --format
verdict $? "probe --help exits 0 and names --output, --quick, --device, --format"

cli model --list
[ $rc -eq 0 ] && out_has '^gtx280 ' && out_has '^c1060 ' && out_has '^c2050 ' && \
    out_has '^gtx460 ' && out_has '^pocl-cpu '
verdict $? "model --list lists the shipped models"

cli model --list --format json
if [ $have_python -eq 1 ]; then
    [ $rc -eq 0 ] && json_ok "$tmp/out" && out_has '"c2050"'
    verdict $? "model --list --format json is valid JSON"
else
    skip "model --list --format json is valid JSON" "python3 not found"
fi

cli model --device gtx280
[ $rc -eq 0 ] && out_has '^model: gtx280 (family gt200)' && \
    out_has '^compute.clock_mhz  *1300  *MHz  *file' && \
    out_has '^sync.barrier_cycles_per_group  *210.3 ' && \
    out_has '^memory.channel_width_bytes .*assumed' && out_has '^memory.global_bytes  *- '
verdict $? "model --device gtx280 prints the document values with units and origins"

cli model --device c2050
[ $rc -eq 0 ] && out_has '^transfer.overlap_factor  *1.26 ' && \
    out_has '^transfer.host_to_device_pinned' && out_has '10000000 .*1.698 ms'
verdict $? "model --device c2050 prints the overlap factor and the transfer tables"

cli model --device gtx280 --format json
if [ $have_python -eq 1 ]; then
    [ $rc -eq 0 ] && json_ok "$tmp/out" && out_has '"key": "compute.clock_mhz"'
    verdict $? "model --device gtx280 --format json is valid JSON"
else
    skip "model --device gtx280 --format json is valid JSON" "python3 not found"
fi

cli model --device nosuch
[ $rc -ne 0 ] && err_has 'nosuch' && err_has 'CLS_ERR_UNKNOWN_MODEL'
verdict $? "model --device nosuch fails and names it"

cli model --device "$tmp/missing.json"
[ $rc -ne 0 ] && err_has 'missing.json'
verdict $? "model --device with a missing file fails and names it"

cli model --device gtx280 hotspot --size 64x64
[ $rc -eq 0 ] && out_has '^chosen: h ' && out_has 'CPL against h'
verdict $? "a stencil argument asks the ghost-zone model (tests/tune.mk tests it further)"

cli model --list --device gtx280
[ $rc -eq 2 ]
verdict $? "--list with --device is a usage error"

# ---------------------------------------------------------------- with a device
cli devices
if [ $rc -ne 0 ]; then
    reason="no usable OpenCL device"
    for t in "devices shows a model" "devices --format json has a model object" \
        "model matches the default device" "probe --quick --output" "the probe file loads" \
        "the probe result is then the device's model"; do
        skip "$t" "$reason"
    done
    echo "1..$n"
    exit 0
fi
head -n 1 "$tmp/out" | grep -q 'MODEL' && out_has '(file)\|(defaults)\|(probe)' && \
    out_has '^Models'
verdict $? "devices shows the model each device got and why"

cli devices --format json
if [ $have_python -eq 1 ]; then
    [ $rc -eq 0 ] && json_ok "$tmp/out" && out_has '"model": {' && out_has '"why": '
    verdict $? "devices --format json has a model object per device"
else
    skip "devices --format json has a model object" "python3 not found"
fi

cli model
[ $rc -eq 0 ] && out_has '^device: ' && out_has '^why: ' && out_has '^compute.clock_mhz '
verdict $? "model without --device shows the default device's model and why"

cli probe --quick --output "$tmp/probe.json" --format json
if [ $have_python -eq 1 ]; then
    [ $rc -eq 0 ] && [ -s "$tmp/probe.json" ] && json_ok "$tmp/probe.json" && \
        json_ok "$tmp/out" && out_has '"measurements"' && err_has '^probe: '
else
    [ $rc -eq 0 ] && [ -s "$tmp/probe.json" ] && out_has '"measurements"'
fi
verdict $? "probe --quick --output writes a model and prints JSON, progress on stderr"

cli model --device "$tmp/probe.json"
[ $rc -eq 0 ] && out_has '^memory.bandwidth_measured_gbs .*measured' && \
    out_has '^transfer.host_to_host'
verdict $? "the probe file loads with measured values and tables"

cli devices
[ $rc -eq 0 ] && grep -q '(probe)' "$tmp/out" && out_has 'probe result cached'
verdict $? "the probe result is then the device's model (devices)"

echo "1..$n"
