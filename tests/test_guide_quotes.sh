#!/bin/sh
# test_guide_quotes.sh: doc/guide.md must quote doc/example.c verbatim (so the guide's example is
# the program make check compiles and runs).
src=${CLS_SRCDIR:-$(dirname "$0")/..}
tmp=$(mktemp)
awk '/^```c example/{on=1; next} /^```/{on=0} on' "$src/doc/guide.md" > "$tmp"
if cmp -s "$tmp" "$src/doc/example.c"; then echo "ok 1 - guide quotes doc/example.c verbatim"
else echo "not ok 1 - guide quotes doc/example.c verbatim"; diff "$tmp" "$src/doc/example.c" | sed 's/^/# /' | head -20
fi
rm -f "$tmp"
echo "1..1"
