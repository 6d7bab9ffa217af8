#!/bin/sh
# check_house.sh: two rules of the developers' guide, checked on the sources, as TAP.
#  1. The research documents are cited by author and year (Meng & Skadron 2010, Mo & Li,
#     Chen et al., Visschers 2012, Kim & Shrivastava), never by the name of the file that holds
#     them (three digits, an underscore, sixteen hex digits): not in the product's sources, its
#     scripts and data, the man page and doc/'s pages (doc/data/ and doc/img/ are recorded data
#     and may quote anything), nor in what the command line prints (help texts and runs).
#  2. Comments in the C and OpenCL sources say why; the history of the runs and issues that led
#     there lives in commit messages and doc/'s result pages, so no comment names a run
#     ("run 20", "Run 24a", "runs 8-15") or an issue ("issue 9").
src=${CLS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clstencil-house.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/tap.sh"

# The text sources of a list of folders, one relative path a line.
sources() {
    (cd "$src" && find "$@" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cl' \
        -o -name '*.mk' -o -name '*.sh' -o -name '*.py' -o -name '*.json' -o -name '*.md' \
        -o -name '*.cu' -o -name '*.cuh' -o -name '*.in' -o -name '*.1' \) 2>/dev/null) |
        LC_ALL=C sort
}

# --------------------------------------------------------------------- 1. seed file names
dirs=""
for d in lib model devices tools cl include python; do [ -d "$src/$d" ] && dirs="$dirs $d"; done
{
    sources $dirs
    (cd "$src" && ls README.md doc/*.md doc/*.1 2>/dev/null)
} >"$tmp/files"
: >"$tmp/out"
while read -r f; do
    grep -nE '[0-9]{3}_[0-9a-f]{16}' "$src/$f" | sed "s|^|$f:|" >>"$tmp/out"
done <"$tmp/files"
: >"$tmp/err"
[ ! -s "$tmp/out" ]
verdict $? "the research documents are cited by author and year, not by file name ($(wc -l <"$tmp/files") files)"

# The same for what the command line prints: the help of the program and of every command
# (and of the commands' own subcommands), and the output of runs whose explanations ("why:")
# cite the documents.
CLI=${builddir:-.}/clstencil
if [ -x "$CLI" ]; then
    : >"$tmp/said"
    say() { echo "=== clstencil $*" >>"$tmp/said"; "$CLI" "$@" >>"$tmp/said" 2>&1; }
    say --help
    cmds=$("$CLI" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
    for c in $cmds; do say "$c" --help; done
    for c in "bench transit" "bench suite" "tune pipeline"; do say $c --help; done
    say schedules
    say model --device gtx280 hotspot --size 1024x1024
    say model --list
    say run hotspot --size 64x64 --steps 4 --verify
    say run hotspot --size 64x64 --steps 4 --schedule trapezoid --format json
    say run heat3d7 --size 24x20x16 --steps 3 --schedule stream25d
    say run jacobi3d --size 24x20x16 --steps 3 --device-memory 64K --verify
    grep -nE '[0-9]{3}_[0-9a-f]{16}' "$tmp/said" >"$tmp/out"
    [ ! -s "$tmp/out" ] && [ "$(grep -c '^=== ' "$tmp/said")" -ge 20 ]
    verdict $? "clstencil's help and run output cite no research document by file name ($(grep -c '^=== ' "$tmp/said") commands)"
else
    skip "clstencil's help and run output cite no research document by file name" "$CLI not built"
fi

# ------------------------------------------------------- 2. runs and issues in comments
# The comments of a C or OpenCL file, as FILE:LINE: TEXT (string and character literals
# skipped, so that a format string is not taken for a comment).
comments() {
    awk -v f="$1" '
    BEGIN { st = 0 }   # 0 code, 1 block comment, 2 string, 3 character
    {
        line = $0; out = ""; i = 1; n = length(line)
        while (i <= n) {
            c = substr(line, i, 1); d = substr(line, i, 2)
            if (st == 1) {
                if (d == "*/") { st = 0; i += 2; continue }
                out = out c
            } else if (st == 2 || st == 3) {
                if (c == "\\") { i += 2; continue }
                if ((st == 2 && c == "\"") || (st == 3 && c == "'\''")) st = 0
            } else if (d == "/*") { st = 1; i += 2; out = out " "; continue }
            else if (d == "//") { out = out substr(line, i + 2); break }
            else if (c == "\"") st = 2
            else if (c == "'\''") st = 3
            i++
        }
        if (st == 2 || st == 3) st = 0   # an unterminated literal ends with its line
        if (out ~ /[^ \t]/) print f ":" NR ": " out
    }' "$src/$1"
}
cdirs=""
for d in lib model devices tools cl include tests; do [ -d "$src/$d" ] && cdirs="$cdirs $d"; done
sources $cdirs | grep -E '\.(c|h|cl|cu|cuh)$' >"$tmp/cfiles"
: >"$tmp/out"
while read -r f; do comments "$f"; done <"$tmp/cfiles" |
    grep -iE '(^|[^a-z])(run [0-9]+[a-z]?|runs [0-9]+[a-z]?(-| and | to )[0-9]+|issues? [0-9]+)([^0-9a-z.]|\.([^0-9]|$)|$)' \
        >>"$tmp/out"
[ ! -s "$tmp/out" ]
verdict $? "no comment narrates a run or an issue ($(wc -l <"$tmp/cfiles") C and OpenCL files)"

echo "1..$n"
exit $failed
