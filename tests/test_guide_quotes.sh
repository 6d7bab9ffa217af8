#!/bin/sh
# test_guide_quotes.sh: doc/guide.md must quote doc/example.c and doc/example_system.c verbatim (so
# the guide's examples are the programs make check compiles and runs).
src=${CLS_SRCDIR:-$(dirname "$0")/..}
tmp=$(mktemp)
n=0
# quote TAG FILE: the guide's block opened by "```c TAG" is FILE.
quote() {
    n=$((n + 1))
    awk -v open="\`\`\`c $1" '$0 == open {on=1; next} /^```/{on=0} on' "$src/doc/guide.md" > "$tmp"
    if [ -s "$tmp" ] && cmp -s "$tmp" "$src/$2"; then echo "ok $n - guide quotes $2 verbatim"
    else echo "not ok $n - guide quotes $2 verbatim"; diff "$tmp" "$src/$2" | sed 's/^/# /' | head -20
    fi
}
quote example doc/example.c
quote example_system doc/example_system.c
rm -f "$tmp"
echo "1..$n"
