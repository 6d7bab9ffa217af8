#!/bin/sh
# test_cli_system.sh: the command line with systems of fields, reported as TAP: run and bench of
# every built-in system with --verify, per-field files (--input/--output FIELD=FILE), pictures
# (--png, with snapshots), the refusals that name the option and the field, and outputs never
# written by a failed or unverified run.
CLI=${builddir:-.}/clstencil
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-sys.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "${CLS_SRCDIR:-$(dirname "$0")/..}/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi
have_python=0
if command -v python3 >/dev/null 2>&1; then have_python=1; fi
# The image part (libpng) is built in when `clstencil --help` lists its commands.
have_png=0
"$CLI" --help 2>/dev/null | grep -q poisson-edit && have_png=1

# ---------------------------------------------------------------- help (no device needed)
cli run --help
r=$rc
for w in '--input \[FIELD=\]' '--output \[FIELD=\]' '--png \[FIELD=\]' 'RdBu' 'viridis' \
    'middle' 'wave2d, wave3d, acoustic3d_r4' 'gray_scott' 'fdtd2d' 'fdtd3d' 'u_prev = u' \
    'Gaussian pulse' 'time level'; do
    out_has "$w" || { r=1; echo "# run --help lacks: $w"; }
done
verdict $r "run --help documents per-field files, --png and each built-in system's start"

cli bench --help
[ $rc -eq 0 ] && out_has 'system of fields'
verdict $? "bench --help says how a system's traffic is counted"

# The man page's run section documents every option run --help lists, and the systems.
man=${CLS_SRCDIR:-$(dirname "$0")/..}/doc/clstencil.1
sed -n '/^\.SS run$/,/^\.SS schedules$/p' "$man" >"$tmp/man_run"
"$CLI" run --help | grep -o -e '--[a-z][a-z-]*' | grep -v -x -e '--help' | sort -u >"$tmp/opts"
r=0
while read -r o; do
    grep -q -F -e "$(echo "$o" | sed 's/-/\\-/g')" "$tmp/man_run" || { r=1; echo "# clstencil.1 run lacks $o"; }
done <"$tmp/opts"
for w in gray_scott fdtd3d 'Gaussian pulse' 'RdBu' 'viridis' 'middle plane' 'time level'; do
    grep -q -e "$w" "$tmp/man_run" || { r=1; echo "# clstencil.1 run lacks $w"; }
done
[ -s "$tmp/opts" ] && [ $r -eq 0 ]
verdict $? "clstencil.1 documents every option of run --help and the systems' starts and pictures"

# Refusals found before a device is opened.
cli run gray_scott --png u=pic.jpg
[ $rc -eq 2 ] && err_has '--png' && err_has 'pic.jpg' && err_has '\.png'
verdict $? "--png to a name not ending in .png is refused with the option and the name"

cli run gray_scott --input u=
[ $rc -eq 2 ] && err_has "--input 'u='"
verdict $? "--input FIELD= without a file is refused"

cli run gray_scott --snapshot-every 5
[ $rc -eq 2 ] && err_has '--png'
verdict $? "--snapshot-every without --output or --png is refused"

# ---------------------------------------------------------------- devices
cli devices
if [ $rc -ne 0 ]; then
    sed 's/^/# /' "$tmp/err"
    skip "run and bench of systems" "no usable OpenCL device"
    echo "1..$n"
    exit 0
fi

# Every built-in system, bitwise against the host reference (float; gray_scott in double too).
for s in wave2d:40x36 wave3d:20x18x16 acoustic3d_r4:20x18x16 gray_scott:40x36 fdtd2d:40x36 \
    fdtd3d:20x18x16; do
    name=${s%%:*} size=${s#*:}
    cli run "$name" --size "$size" --steps 7 --verify
    [ $rc -eq 0 ] && out_has "^stencil: $name (.*; fields " && out_has '^verify: OK (bitwise, [0-9]* fields)'
    verdict $? "run $name --verify is bitwise equal to the reference in every field"
done
# A device-memory cap below the fields' buffers: the pipeline runs the system tile by tile
# (periodic edge tiles filled from the far side), bitwise.
for b in mirror periodic; do
    cli run wave2d --size 200x150 --steps 6 --boundary $b --device-memory 300K --verify
    [ $rc -eq 0 ] && out_has '^pipeline: scalable, tile ' && out_has '^verify: OK (bitwise, 2 fields)'
    verdict $? "run wave2d --boundary $b --device-memory 300K runs tiled, bitwise"
done

cli run gray_scott --size 40x36 --steps 7 --dtype double --verify
[ $rc -eq 0 ] && out_has 'double' && out_has '^verify: OK (bitwise, 2 fields)'
verdict $? "run gray_scott --dtype double --verify"

# A system from a JSON spec; its fields start smooth, its time level as its field.
cat >"$tmp/sys.json" <<'EOF'
{ "name": "damped", "dims": 2, "params": {"c2": 0.2, "d": 0.01},
  "fields": ["p", {"name": "p_old", "previous": "p"}],
  "stages": [ {"update": {"p": "(2 - d) * IN(p,0,0) - (1 - d) * IN(p_old,0,0) + c2 * (IN(p,1,0) + IN(p,-1,0) + IN(p,0,1) + IN(p,0,-1) - 4 * IN(p,0,0))"}} ] }
EOF
cli run "$tmp/sys.json" --size 24x20 --steps 5 --verify --output p_old="$tmp/pold.npy"
[ $rc -eq 0 ] && out_has '^verify: OK' && out_has "^output: p_old=" && [ -s "$tmp/pold.npy" ]
verdict $? "a JSON system runs, verifies and writes its time level"

# ---------------------------------------------------------------- per-field files
cli run gray_scott --size 40x36 --steps 5 --output u="$tmp/u.npy" --output v="$tmp/v.npy"
[ $rc -eq 0 ] && [ "$(head -c 6 "$tmp/u.npy" | tail -c 5)" = NUMPY ] &&
    [ "$(head -c 6 "$tmp/v.npy" | tail -c 5)" = NUMPY ] && out_has "^output: u=" && out_has "^output: v="
verdict $? "--output FIELD=FILE writes each named field"

cli run gray_scott --steps 3 --input u="$tmp/u.npy" --input v="$tmp/v.npy" --output v="$tmp/v2.npy" --verify
[ $rc -eq 0 ] && out_has '^grid: 40x36' && out_has '^verify: OK' && [ -s "$tmp/v2.npy" ]
verdict $? "--input FIELD=FILE reads each field (size from the files) and verifies"

cli run gray_scott --steps 3 --input v="$tmp/v.npy" --verify
[ $rc -eq 0 ] && out_has '^grid: 40x36' && out_has '^verify: OK'
verdict $? "a field not given starts from its default beside one that is"

# Runs of 5 and of 3 + 2 steps through the files agree bit for bit.
cli run gray_scott --size 40x36 --steps 3 --output u="$tmp/u3.npy" --output v="$tmp/v3.npy"
cli run gray_scott --steps 2 --input u="$tmp/u3.npy" --input v="$tmp/v3.npy" --output u="$tmp/u5.npy" --output v="$tmp/v5.npy"
[ $rc -eq 0 ] && cmp -s "$tmp/u5.npy" "$tmp/u.npy" && cmp -s "$tmp/v5.npy" "$tmp/v.npy"
verdict $? "5 steps equal 3 steps written and 2 steps read back, in every field"

cli run wave2d --size 32x30 --steps 4 --output u="$tmp/w_u.npy" --output u_prev="$tmp/w_up.npy"
cli run wave2d --steps 4 --input u="$tmp/w_u.npy" --input u_prev="$tmp/w_up.npy" --verify
[ $rc -eq 0 ] && out_has '^verify: OK (bitwise, 2 fields)'
verdict $? "a time level's --input is allowed (an initial value like any field's)"

cli run gray_scott --size 40x36 --steps 5 --pinned --output u="$tmp/pu.npy" --output v="$tmp/pv.npy"
[ $rc -eq 0 ] && cmp -s "$tmp/pu.npy" "$tmp/u.npy" && cmp -s "$tmp/pv.npy" "$tmp/v.npy"
verdict $? "--pinned runs a system's fields from pinned memory to the same result"

mkdir "$tmp/s3"
cli run wave3d --size 16x12x10 --steps 5 --snapshot-every 2 --output u_prev="$tmp/s3/p.npy" --verify
[ $rc -eq 0 ] && out_has '^verify: OK (bitwise, 2 fields)' && [ -s "$tmp/s3/p-2.npy" ] &&
    [ -s "$tmp/s3/p-4.npy" ] && [ -s "$tmp/s3/p.npy" ] && [ "$(ls "$tmp/s3" | wc -l)" -eq 3 ]
verdict $? "--snapshot-every with a system keeps the fields on the device, snapshots and verifies"

cli run hotspot --size 32x48 --steps 2 --output "$tmp/h.npy"
cli run hotspot --input "$tmp/h.npy" --steps 2 --output "$tmp/h2.npy" --verify
[ $rc -eq 0 ] && out_has '^verify: OK' && out_has "^output: $tmp/h2.npy"
verdict $? "single-field stencils keep --input FILE and --output FILE"

# ---------------------------------------------------------------- refusals naming option and field
cli run gray_scott --steps 2 --input "$tmp/u.npy"
[ $rc -eq 1 ] && err_has '--input' && err_has 'name the field' && err_has 'u, v'
verdict $? "a system refuses --input FILE without a field, saying to name it"

cli run gray_scott --steps 2 --output "$tmp/x.npy"
[ $rc -eq 1 ] && err_has '--output' && err_has 'name the field' && [ ! -e "$tmp/x.npy" ]
verdict $? "a system refuses --output FILE without a field"

cli run gray_scott --steps 2 --input w="$tmp/u.npy"
[ $rc -eq 1 ] && err_has '--input' && err_has "no field 'w'" && err_has 'u, v'
verdict $? "an unknown field is refused with the option, the field and the fields there are"

# (A build without the image part refuses --png before looking at the field: see below.)
if [ $have_png -eq 1 ]; then
    cli run gray_scott --steps 2 --png w="$tmp/w.png"
    [ $rc -eq 1 ] && err_has '--png' && err_has "no field 'w'"
    verdict $? "--png of an unknown field is refused"
fi

cli run gray_scott --steps 2 --input u="$tmp/u.npy" --input u="$tmp/v.npy"
[ $rc -eq 1 ] && err_has '--input' && err_has "field 'u' is given twice"
verdict $? "a field given twice is refused"

cli run gray_scott --steps 2 --output v="$tmp/o1.npy" --output v="$tmp/o2.npy"
[ $rc -eq 1 ] && err_has '--output' && err_has "field 'v' is given twice" &&
    [ ! -e "$tmp/o1.npy" ] && [ ! -e "$tmp/o2.npy" ]
verdict $? "an output field given twice is refused before any work"

cli run hotspot --steps 2 --input "$tmp/h.npy" --input "$tmp/h2.npy"
[ $rc -eq 1 ] && err_has '--input' && err_has 'given twice'
verdict $? "a single-field stencil's --input given twice is refused"

cli run gray_scott --steps 2 --output u="$tmp/same.npy" --output v="$tmp/same.npy"
[ $rc -eq 1 ] && err_has 'two outputs'
verdict $? "two fields written to one file are refused"

cli run gray_scott --steps 2 --input u="$tmp/u.npy" --output u="$tmp/u.npy"
[ $rc -eq 1 ] && err_has 'is the input'
verdict $? "an output that is an input is refused"

cli run wave3d --steps 2 --input u="$tmp/u.npy"
[ $rc -eq 1 ] && err_has "--input 'u=" && err_has '3D'
verdict $? "an input of the wrong dimensionality is refused with the option and field"

cli run gray_scott --steps 2 --input u="$tmp/u.npy" --input v="$tmp/h.npy"
[ $rc -eq 1 ] && err_has "--input 'v=" && err_has 'size' && err_has '32x48' && err_has '40x36'
verdict $? "inputs of different sizes are refused, naming both"

cli run gray_scott --size 16x16 --steps 2 --input u="$tmp/u.npy"
[ $rc -eq 1 ] && err_has "--input 'u=" && err_has '16x16'
verdict $? "an input contradicting --size is refused"

cli run gray_scott --size 40x36 --steps 1 --dtype double --output u="$tmp/ud.npy"
cli run gray_scott --steps 2 --input u="$tmp/u.npy" --input v="$tmp/ud.npy"
[ $rc -eq 1 ] && err_has "--input 'v=" && err_has 'float64' && err_has '--dtype'
verdict $? "inputs of two precisions are refused without --dtype"
cli run gray_scott --steps 2 --input u="$tmp/u.npy" --input v="$tmp/ud.npy" --dtype double --verify
[ $rc -eq 0 ] && out_has 'double' && out_has '^verify: OK'
verdict $? "... and converted with --dtype"

printf 'not a numpy file' >"$tmp/junk.npy"
cli run gray_scott --steps 2 --input v="$tmp/junk.npy"
[ $rc -eq 1 ] && err_has "--input 'v=" && err_has 'junk.npy'
verdict $? "a malformed input file is refused with the option and field"

if [ $have_png -eq 1 ]; then
    # The picture's size is checked before the run: nothing at all is written.
    CLSTENCIL_IMAGE_MAX_PIXELS=1000 cli run gray_scott --size 40x30 --steps 2 \
        --output u="$tmp/big-u.npy" --png v="$tmp/big-v.png"
    [ $rc -eq 1 ] && err_has '--png' && err_has 'big-v.png' && err_has '1200 pixels' &&
        err_has 'CLSTENCIL_IMAGE_MAX_PIXELS' && [ ! -e "$tmp/big-v.png" ] &&
        [ ! -e "$tmp/big-u.npy" ] && ! out_has '^time'
    verdict $? "a picture past the image limits is refused before the run, nothing written"
    cli run moving_average --size 64 --steps 2 --png "$tmp/ma.png"
    [ $rc -eq 1 ] && err_has '--png' && err_has '1D' && [ ! -e "$tmp/ma.png" ]
    verdict $? "--png of a 1D field is refused"
fi

# ---------------------------------------------------------------- pictures
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}'; }
is_png() { [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]; }
if [ $have_png -eq 1 ]; then
    cli run gray_scott --size 40x36 --steps 20 --png v="$tmp/gs.png" --verify
    [ $rc -eq 0 ] && is_png "$tmp/gs.png" && [ "$(png_size "$tmp/gs.png")" = 40x36 ] && out_has '^picture: v='
    verdict $? "--png writes a PNG of the field's size"

    cli run fdtd3d --size 24x20x9 --steps 3 --png Ez="$tmp/ez.png"
    [ $rc -eq 0 ] && is_png "$tmp/ez.png" && [ "$(png_size "$tmp/ez.png")" = 24x20 ]
    verdict $? "--png of a 3D field is its middle plane, NX x NY"

    cli run hotspot --size 30x20 --steps 2 --png "$tmp/hs.png"
    [ $rc -eq 0 ] && is_png "$tmp/hs.png" && [ "$(png_size "$tmp/hs.png")" = 30x20 ]
    verdict $? "a single-field stencil takes --png FILE"

    mkdir "$tmp/snap"
    cli run wave2d --size 32x24 --steps 10 --snapshot-every 3 --png u="$tmp/snap/u.png" \
        --output u="$tmp/snap/u.npy"
    ls "$tmp/snap" >"$tmp/list"
    [ $rc -eq 0 ] && [ "$(grep -c '^u-[0-9][0-9]\.png$' "$tmp/list")" -eq 3 ] &&
        [ "$(grep -c '^u-[0-9][0-9]\.npy$' "$tmp/list")" -eq 3 ] &&
        grep -q '^u-09\.png$' "$tmp/list" && [ -s "$tmp/snap/u.png" ] && [ -s "$tmp/snap/u.npy" ] &&
        is_png "$tmp/snap/u-03.png" && [ "$(png_size "$tmp/snap/u-06.png")" = 32x24 ]
    verdict $? "--snapshot-every 3 of 10 steps writes 3 pictures named as the .npy snapshots, and the final one"

    if [ $have_python -eq 1 ]; then
        # A wave of both signs is drawn symmetric around 0: the picture's colours come from
        # RdBu (near-white at 0), a positive field's from viridis (dark violet at its minimum).
        cli run wave2d --size 48x48 --steps 60 --png u="$tmp/wv.png" --output u="$tmp/wv.npy"
        python3 - "$tmp/wv.npy" "$tmp/gs.png" >"$tmp/py" 2>&1 <<'EOF'
import struct, sys, zlib
def pixels(path):
    d = open(path, 'rb').read(); pos = 8; idat = b''; w = h = 0
    while pos < len(d):
        n, = struct.unpack('>I', d[pos:pos+4]); t = d[pos+4:pos+8]; body = d[pos+8:pos+8+n]
        if t == b'IHDR': w, h = struct.unpack('>II', body[:8])
        if t == b'IDAT': idat += body
        pos += 12 + n
    raw = zlib.decompress(idat); stride = 3 * w; rows = []; prev = bytearray(stride)
    for y in range(h):
        f = raw[y*(stride+1)]; line = bytearray(raw[y*(stride+1)+1:(y+1)*(stride+1)])
        for i in range(stride):
            a = line[i-3] if i >= 3 else 0; b = prev[i]; c = prev[i-3] if i >= 3 else 0
            p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
            pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + [0, a, b, (a+b)//2, pr][f]) & 255
        rows.append(line); prev = line
    return [tuple(r[3*x:3*x+3]) for r in rows for x in range(w)]
vals = open(sys.argv[1], 'rb').read()
hl, = struct.unpack('<H', vals[8:10]); u = struct.unpack('<%df' % (48*48), vals[10+hl:])
assert min(u) < 0 < max(u), 'the wave should have both signs'
wv = pixels(sys.argv[1][:-4] + '.png')
m = max(-min(u), max(u)); i = min(range(len(u)), key=lambda k: abs(u[k]))
assert abs(u[i]) < 0.05 * m and all(c > 200 for c in wv[i]), (u[i], wv[i])   # white near 0
k = u.index(min(u)); assert wv[k][2] > wv[k][0], wv[k]                       # blue below
k = u.index(max(u)); assert wv[k][0] > wv[k][2], wv[k]                       # red above
gs = pixels(sys.argv[2]); assert (68, 1, 84) in gs, 'viridis minimum missing'
print('ok')
EOF
        [ $rc -eq 0 ] && grep -q '^ok' "$tmp/py"
        r=$?
        [ $r -eq 0 ] || sed 's/^/# /' "$tmp/py"
        verdict $r "the colour maps: RdBu symmetric around 0 for a wave, viridis min..max"
    else
        skip "the colour maps: RdBu symmetric around 0 for a wave, viridis min..max" "python3 not found"
    fi
else
    cli run gray_scott --size 40x36 --steps 2 --png v="$tmp/gs.png"
    [ $rc -eq 1 ] && err_has '--png' && err_has 'libpng' && [ ! -e "$tmp/gs.png" ]
    verdict $? "--png is refused in a build without the image part, saying why"
fi

# ---------------------------------------------------------------- nothing written on failure
printf 'old' >"$tmp/keep.npy"
cli run gray_scott --steps 2 --input u="$tmp/u.npy" --input v="$tmp/h.npy" --output u="$tmp/keep.npy"
[ $rc -eq 1 ] && [ "$(cat "$tmp/keep.npy")" = old ]
verdict $? "a refused run leaves the --output file as it was"

# Kernels whose interior reads are scaled by 1.5 (read through CLSTENCIL_KERNEL_DIR) fail
# --verify on the naive schedule, which reads through them: neither --output nor --png
# replaces its file, and no temporary is left.
mkdir "$tmp/badcl"
cp "${CLS_SRCDIR:-..}"/cl/*.cl "$tmp/badcl/"
sed 's/^    return a\[CLS_DIDX(x, y, z)\];$/    return a[CLS_DIDX(x, y, z)] * (real)1.5;/' \
    "${CLS_SRCDIR:-..}/cl/prelude.cl" >"$tmp/badcl/prelude.cl"
mkdir "$tmp/bad"
printf 'old' >"$tmp/bad/v.npy"
printf 'old' >"$tmp/bad/v.png"
CLSTENCIL_KERNEL_DIR="$tmp/badcl" "$CLI" run wave2d --size 32x24 --steps 3 --verify --schedule naive \
    --output u="$tmp/bad/v.npy" $([ $have_png -eq 1 ] && echo --png u="$tmp/bad/v.png") \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
! cmp -s "${CLS_SRCDIR:-..}/cl/prelude.cl" "$tmp/badcl/prelude.cl" && [ $rc -eq 1 ] &&
    out_has '^verify: FAILED' && out_has 'of field u' && out_has 'not written' &&
    [ "$(cat "$tmp/bad/v.npy")" = old ] && [ "$(cat "$tmp/bad/v.png")" = old ] &&
    [ "$(ls "$tmp/bad" | wc -l)" -eq 2 ]
verdict $? "a system failing --verify names the field and writes no output nor picture"

# ---------------------------------------------------------------- JSON and bench
if [ $have_python -eq 1 ]; then
    cli run fdtd2d --size 24x20 --steps 3 --verify --format json --output Hz="$tmp/hz.npy"
    [ $rc -eq 0 ] && python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["stencil"]["fields"] == ["Ex", "Ey", "Hz"], d["stencil"]
assert d["verify"]["ok"] and d["verify"]["mode"] == "bitwise"
assert d["files"] == [{"option": "output", "field": "Hz", "path": sys.argv[1]}], d["files"]
assert d["report"]["bytes_per_point"] == 36
' "$tmp/hz.npy" <"$tmp/out"
    verdict $? "run --format json names the fields, the files and the system's traffic"
else
    skip "run --format json names the fields, the files and the system's traffic" "python3 not found"
fi

cli bench gray_scott --size 64x64 --steps 2 --reps 1
[ $rc -eq 0 ] && out_has '^traffic: 16 bytes/point (per stage' && out_has '^stencil ' &&
    out_has '^stencil/copy: '
verdict $? "bench of a system prints GPoints/s and GB/s at the system's minimal traffic"

cli bench fdtd3d --size 16x16x16 --steps 2 --reps 1 --format csv
[ $rc -eq 0 ] && tail -n 1 "$tmp/out" | grep -q '^fdtd3d,16x16x16,float,2,1,[a-z0-9]*,.*,72,'
verdict $? "bench --format csv of a 3D system"

echo "1..$n"
exit $failed
