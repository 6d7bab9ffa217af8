#!/bin/sh
# check_layers.sh: the one-way layers of doc/architecture.md, as TAP: what each folder's files
# may include, and what the lower layers' convenience libraries may call.  The include path
# already refuses most upward includes at compile time; this also catches the ones a path
# would let through (a header named the same in two folders, a system header).
#
# The rules are the two tables below; extend them, not the code.
#
# Includes: the files (a folder, or a pattern of files below the source tree such as
# lib/schedules/*/exec.c), then what they may include: the folders whose headers they may
# include with "..." ("build": config.h at the top of the build tree; ".": the file's own
# folder); "X/": no system header <X/...>; "!name.h": not that header; "-": nothing more
# forbidden; "none": no #include at all.  A schedule's executor (exec.c) sees the state it
# advances (lib/exec.h) and its configuration, never the planner core (schedule.h, plan.h),
# its own planner's header (planner.h), the model or the tuning headers.
INCLUDE_RULES='
include/clstencil.h        include  CL/
include/clstencil_[!c]*.h  include  CL/
include/clstencil_cl.h     include  -
model    model include       CL/
devices  devices model include  CL/
lib      lib model devices include build  -
lib/schedules/*.c          lib include  -
lib/schedules/*/*.[ch]     . lib model devices include build  -
lib/schedules/*/exec.c     . lib  CL/ !schedule.h !plan.h !planner.h
tools    tools include       CL/ cjson/
cl       -                   none
'
# Symbols: a convenience library (in the build tree), and where its undefined symbols may be
# defined: other convenience libraries, "libc", "libm", "cJSON" (cJSON_*).  Toolchain and
# sanitizer runtime symbols are always allowed.  model/ parses access descriptions with
# cJSON (model/access_json.c).
SYMBOL_RULES='
libcls_model    libc libm cJSON
libcls_devices  libcls_model libc libm cJSON
'

srcdir=${CLS_SRCDIR:-$(dirname "$0")/..}
NM=${NM:-nm}
CC=${CC:-cc}
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-layers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# --------------------------------------------------------------------------- includes
echo "$INCLUDE_RULES" | while read -r folder rest; do
    [ -n "$folder" ] || continue
    set -- $rest
    allowed=""
    forbidden=""
    for w in "$@"; do
        case $w in
        */ | none | - | !*) forbidden="$forbidden $w" ;;
        *) allowed="$allowed $w" ;;
        esac
    done
    case $folder in
    *'*'* | *.c | *.h | *.cl) files="$srcdir/$folder" ;;
    *) files="$srcdir/$folder/*.c $srcdir/$folder/*.h $srcdir/$folder/*.cl" ;;
    esac
    bad=""
    for f in $files; do
        [ -f "$f" ] || continue
        rel=${f#"$srcdir"/}
        grep -n '^[[:space:]]*#[[:space:]]*include' "$f" >"$tmp/inc" || continue
        while IFS= read -r line; do
            num=${line%%:*}
            hdr=$(echo "$line" | sed -n 's/.*#[[:space:]]*include[[:space:]]*\(["<][^">]*[">]\).*/\1/p')
            case " $forbidden " in
            *" none "*) bad="$bad
# $rel:$num: $hdr (this folder includes nothing)"; continue ;;
            esac
            case $hdr in
            \<*)
                name=${hdr#<}
                name=${name%>}
                for p in $forbidden; do
                    case $p in */) case $name in "$p"*) bad="$bad
# $rel:$num: <$name> (no ${p%/} headers here)" ;; esac ;; esac
                done ;;
            \"*)
                name=${hdr#\"}
                name=${name%\"}
                case " $forbidden " in *" !${name##*/} "*) bad="$bad
# $rel:$num: \"$name\" (not here)"; continue ;; esac
                found=""
                for d in $allowed; do
                    if [ "$d" = build ]; then [ -f "./$name" ] && found=$d && break
                    elif [ "$d" = . ]; then [ -f "${f%/*}/$name" ] && found=$d && break
                    elif [ -f "$srcdir/$d/$name" ]; then found=$d && break; fi
                done
                [ -n "$found" ] || bad="$bad
# $rel:$num: \"$name\" is in none of:$allowed" ;;
            esac
        done <"$tmp/inc"
    done
    if [ -z "$bad" ]; then
        echo "ok - $folder includes only from:${allowed:- nothing}"
    else
        echo "not ok - $folder includes only from:${allowed:- nothing}$bad"
    fi
done >"$tmp/includes"
while IFS= read -r line; do
    case $line in
    "ok - "*) ok "${line#ok - }" ;;
    "not ok - "*) not_ok "${line#not ok - }" ;;
    *) echo "$line" ;;
    esac
done <"$tmp/includes"

# --------------------------------------------------------------------------- symbols
# Defined dynamic symbols of a system library, by the compiler's search path.
system_symbols() {
    so=$($CC -print-file-name="$1" 2>/dev/null)
    [ -f "$so" ] || return 1
    $NM -D --defined-only "$so" 2>/dev/null | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }'
}
system_symbols libc.so.6 >"$tmp/libc" || : >"$tmp/libc"
system_symbols libm.so.6 >"$tmp/libm" || : >"$tmp/libm"
echo "$SYMBOL_RULES" | while read -r lib rest; do
    [ -n "$lib" ] || continue
    archive=.libs/$lib.a
    if [ ! -f "$archive" ]; then
        echo "skip - $lib calls only into:$rest # $archive not built"
        continue
    fi
    $NM "$archive" 2>/dev/null | awk 'NF >= 3 && $2 ~ /^[TDBRVWCGS]$/ { print $3 }' | sort -u >"$tmp/own"
    : >"$tmp/allowed"
    for r in $rest; do
        case $r in
        libc | libm) cat "$tmp/$r" >>"$tmp/allowed" ;;
        cJSON) ;;
        *) $NM ".libs/$r.a" 2>/dev/null | awk 'NF >= 3 && $2 ~ /^[TDBRVWCGS]$/ { print $3 }' >>"$tmp/allowed" ;;
        esac
    done
    cat "$tmp/own" >>"$tmp/allowed"
    sort -u "$tmp/allowed" -o "$tmp/allowed"
    $NM -u "$archive" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u >"$tmp/undef"
    cjson=no
    case " $rest " in *" cJSON "*) cjson=yes ;; esac
    stray=$(comm -23 "$tmp/undef" "$tmp/allowed" | while read -r s; do
        case $s in
        __asan_* | __ubsan_* | __lsan_* | __sanitizer_* | _GLOBAL_OFFSET_TABLE_ | __tls_get_addr | \
            __stack_chk_fail | _DYNAMIC) ;;
        cJSON_*) [ $cjson = yes ] || echo "$s" ;;
        *) echo "$s" ;;
        esac
    done)
    if [ -z "$stray" ]; then
        echo "ok - $lib calls only into:$rest"
    else
        echo "not ok - $lib calls only into:$rest; it also calls:"
        echo "$stray" | sed 's/^/#   /'
    fi
done >"$tmp/symbols"
while IFS= read -r line; do
    case $line in
    "ok - "*) ok "${line#ok - }" ;;
    "not ok - "*) not_ok "${line#not ok - }" ;;
    "skip - "*) l=${line#skip - }; skip "${l%% \# *}" "${l#* \# }" ;;
    *) echo "$line" ;;
    esac
done <"$tmp/symbols"

# --------------------------------------------------------------------------- public headers
# The core header stands alone, and every optional one includes it: each compiles by itself.
for h in "$srcdir"/include/*.h; do
    name=${h##*/}
    printf '#include "%s"\nint main(void) { return 0; }\n' "$name" >"$tmp/alone.c"
    if $CC -std=c11 -fsyntax-only -I"$srcdir/include" "$tmp/alone.c" 2>"$tmp/cc"; then
        ok "include/$name compiles on its own"
    else
        not_ok "include/$name compiles on its own"
        sed 's/^/#   /' "$tmp/cc" | head -n 10
    fi
done
if grep -q '^#include "clstencil_' "$srcdir/include/clstencil.h"; then
    not_ok "clstencil.h includes no other clstencil header"
else
    ok "clstencil.h includes no other clstencil header"
fi
echo "1..$n"
