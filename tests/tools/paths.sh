#!/bin/sh
# Every path of the project that the docs, the comments and the tests name
# (src/..., tests/..., doc/..., scripts/..., templates/...) exists: a file
# moved or renamed leaves no stale name behind.  Prints one "ok"/"not ok"
# line per named path that is missing, or one "ok" line for all.
cd "$(dirname "$0")/../.." || exit 2
bad=$(mktemp) || exit 2
trap 'rm -f "$bad"' EXIT
files=$(git ls-files 2>/dev/null | grep -E '^(README\.md|doc/|src/|tests/|scripts/|templates/|games/README|Makefile)' |
	grep -v -E '^tests/(golden|data|fuzz/(seeds|regress))/')
[ -n "$files" ] || files=$(find README.md doc src tests scripts templates -type f 2>/dev/null |
	grep -v -E '^tests/(golden|data|fuzz/(seeds|regress))/')
checked=0
for f in $files; do
	[ -f "$f" ] || continue
	grep -o -E '(^|[^A-Za-z0-9_./$*%-])(src|tests|doc|scripts|templates)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$f" |
		sed -E 's/^[^a-z]//' | sort -u | while read -r p; do
		case $p in
		*//*) continue ;;
		esac
		p=${p%.}
		# a module named without its ending (src/game/rules for .c and .h),
		# or a prefix the text completes (tests/unit/test_*), counts
		[ -e "$p" ] || ls -d "$p"* >/dev/null 2>&1 ||
			echo "$f names $p, which does not exist" >>"$bad"
	done
	checked=$((checked + 1))
done
if [ -s "$bad" ]; then
	sed 's/^/not ok - /' "$bad"
	exit 1
fi
echo "ok - every path named in $checked files exists"
