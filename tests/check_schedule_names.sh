#!/bin/sh
# check_schedule_names.sh: outside its own folder (lib/schedules/NAME/) and the registry
# (lib/schedules/registry.c), no code in lib/ names a schedule: the planner core walks the
# registry and knows no schedule, and no schedule knows another.  A schedule is named by what
# identifies it: its operations and functions (cls__NAME_...), its public id
# (CLS_SCHEDULE_NAME), its name or template as a string ("NAME", "NAME.cl") and its parameters
# (NAME.param).  Comments are stripped (the compiler's preprocessor, expanding nothing).  The
# public headers (the API lists the schedules) are outside lib/'s code.
src=${CLS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/tap.sh"
cc=${CC:-cc}
names=$(cd "$src/lib/schedules" && for d in */; do printf '%s ' "${d%/}"; done)
files=$(cd "$src" && find lib -name '*.c' -o -name '*.h' | grep -v '^lib/clstencil' | sort)
for f in $files; do
    own=""
    case $f in lib/schedules/registry.c) own=ALL ;; lib/schedules/*/*) own=${f#lib/schedules/}; own=${own%%/*} ;; esac
    if [ "$own" = ALL ]; then
        ok "$f: the registry may name every schedule"
        continue
    fi
    code=$("$cc" -fpreprocessed -dD -E -P -x c "$src/$f" 2>/dev/null)
    bad=""
    for s in $names; do
        [ "$s" = "$own" ] && continue
        up=$(printf '%s' "$s" | tr a-z A-Z)
        hits=$(printf '%s\n' "$code" |
               grep -nE "cls__${s}_|CLS_SCHEDULE_${up}|\"${s}\"|\"[^\"]*${s}\.[a-z_]" | head -3)
        [ -n "$hits" ] && bad="$bad $s: $(printf '%s' "$hits" | tr '\n' ' ')"
    done
    if [ -z "$bad" ]; then ok "$f names no other schedule"; else echo "$bad" >"$tmp/out"; : >"$tmp/err"; not_ok "$f names another schedule"; fi
done
echo "1..$n"
exit $failed
