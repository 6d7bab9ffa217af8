#!/bin/sh
# test_man_help.sh: the man page (doc/clstencil.1) and the command line's --help agree, option by
# option, for every command: each option a command's help lists (in its usage lines and its
# option table) is described in the command's section of the man page (an entry of its own, or
# named in a list "as for run"), each option the man page has an entry for there is one the
# help lists, and the man page's synopsis names every command.  TAP.
CLI=${builddir:-.}/clstencil
src=${CLS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
man=$src/doc/clstencil.1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-manhelp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$src/tests/tap.sh"

if [ ! -x "$CLI" ]; then
    echo "1..0 # SKIP $CLI not built"
    exit 0
fi

# The options a help text names: every --word, sorted, once each (-h, --help left out).
help_options() {
    grep -oE '(^|[^a-z0-9-])--[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | grep -vx -e '--help' |
        LC_ALL=C sort -u
}
# The man page's section ".SS $1" as plain text, "\-" read as "-".
man_section() {
    awk -v want="$1" '
        /^\.S[HS] / { sec = $0; sub(/^\.S[HS] /, "", sec); next }
        sec == want { print }
    ' "$man" | sed 's/\\-/-/g'
}
# The options a section describes as entries (.TP followed by .B or .BI): each must exist.
man_entries() {
    man_section "$1" | awk '/^\.TP/ { tp = 1; next } tp { tp = 0; print $2 }' |
        sed 's/"//g' | grep -E '^--[a-z]' | grep -vx -e '--help' | LC_ALL=C sort -u
}
# The options a section mentions anywhere (entries, "as for run" lists, running text): each
# option of the help must be among them.  poisson-edit and sfs share the solver options that
# the solve section describes and say so.
man_mentions() {
    { man_section "$1"
      case $1 in poisson-edit|sfs) man_section solve ;; esac
    } | grep -oE '(^|[^a-z0-9-])--[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | LC_ALL=C sort -u
}

cmds=$("$CLI" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF && $1 != "help" { print $1 }')
[ -n "$cmds" ]
verdict $? "clstencil --help lists the commands ($(echo $cmds | wc -w))"

for c in $cmds "bench transit" "bench suite"; do
    # A command's help ends where a subcommand's usage ("see clstencil X Y --help") begins.
    "$CLI" $c --help 2>"$tmp/err" | grep -v 'see clstencil .* --help' | help_options >"$tmp/help"
    man_mentions "$c" >"$tmp/man"
    man_entries "$c" >"$tmp/entries"
    comm -23 "$tmp/help" "$tmp/man" >"$tmp/only-help"
    comm -13 "$tmp/help" "$tmp/entries" >"$tmp/only-man"
    : >"$tmp/out"
    [ -s "$tmp/only-help" ] && sed 's/^/only in --help: /' "$tmp/only-help" >>"$tmp/out"
    [ -s "$tmp/only-man" ] && sed 's/^/only in the man page: /' "$tmp/only-man" >>"$tmp/out"
    [ -s "$tmp/help" ] && [ ! -s "$tmp/out" ]
    verdict $? "clstencil $c: --help and the man page describe the same $(wc -l <"$tmp/help") options"
done

# The synopsis names every command.
: >"$tmp/out"
for c in $cmds; do
    sed 's/\\-/-/g' "$man" | grep -q "^\.B clstencil $c\$" || echo "no synopsis line for $c" >>"$tmp/out"
done
[ ! -s "$tmp/out" ]
verdict $? "the man page's synopsis names every command"

echo "1..$n"
exit $failed
