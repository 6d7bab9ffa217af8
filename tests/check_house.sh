#!/bin/sh
# check_house.sh: two rules of the developers' guide, checked on the sources, as TAP.
#  1. The research documents are cited by author and year (Meng & Skadron 2010, Mo & Li,
#     Chen et al., Visschers 2012, Kim & Shrivastava), never by the name of the file that holds
#     them (three digits, an underscore, sixteen hex digits): not in the product's sources, its
#     scripts and data, the man page and doc/'s pages (doc/data/ and doc/img/ are recorded data
#     and may quote anything).
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
