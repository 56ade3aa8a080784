#!/bin/sh
# Every path of the project that the docs, the comments and the tests name
# (src/..., tests/..., doc/..., scripts/..., templates/...) exists: a file
# moved or renamed leaves no stale name behind.  So do the source files
# named by their folder under src/ ("commands/keywords/move.c", as the
# comments name them), and the file names that the strings of src/ quote
# (an error that says "see robothost.h" must name a file there is), and
# doc/HACKING.md's table of the source names every file of src/.
# Prints one "not ok" line per named path that is missing, or one "ok" line
# for each kind.
cd "$(dirname "$0")/../.." || exit 2
bad=$(mktemp) || exit 2
trap 'rm -f "$bad" "$bad.names"' EXIT
files=$(git ls-files 2>/dev/null | grep -E '^(README\.md|doc/|src/|tests/|scripts/|templates/|games/README|Makefile)' |
	grep -v -E '^tests/(golden|data|fuzz/(seeds|regress))/')
[ -n "$files" ] || files=$(find README.md doc src tests scripts templates -type f 2>/dev/null |
	grep -v -E '^tests/(golden|data|fuzz/(seeds|regress))/')
# only the files there are (a deleted one git still lists is no text to read)
set --
for f in $files; do
	[ -f "$f" ] && set -- "$@" "$f"
done
checked=$#

# named FILE PATH: the names found, one "FILE PATH" a line, once each (one
# grep for all the files: a process a file made this check slow)
# the paths from the top: src/..., tests/..., doc/..., scripts/..., templates/...
grep -o -H -E '(^|[^A-Za-z0-9_./$*%-])(src|tests|doc|scripts|templates)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$@" |
	sed -E 's/^([^:]*):[^a-z]?/\1 /' | sort -u | while read -r f p; do
	case $p in
	*//*) continue ;;
	esac
	p=${p%.}
	# a module named without its ending (src/game/rules for .c and .h),
	# or a prefix the text completes (tests/unit/test_*), counts
	[ -e "$p" ] && continue
	set -- "$p"*
	[ -e "$1" ] || echo "$f names $p, which does not exist"
done >>"$bad"

# the C files named by their folder under src/, as comments name them
# (commands/keywords/move.c, mail/reply.h)
grep -o -H -E '(^|[^A-Za-z0-9_./$*%<-])(base|game|store|mail|outbox|commands)/[A-Za-z0-9_/]*[A-Za-z0-9_]\.[ch]\b' "$@" |
	sed -E 's/^([^:]*):[^a-z]?/\1 /' | sort -u | while read -r f p; do
	[ -e "src/$p" ] || echo "$f names $p, which is no file of src/"
done >>"$bad"

# the file names quoted in the strings of src/ (errors, usage, log lines):
# a bare name.h or name.c is one of src/'s files
srcnames=$(git ls-files src 2>/dev/null || find src -type f)
echo "$srcnames" | sed 's#.*/##' >"$bad.names"
grep -H -E '"[^"]*[A-Za-z0-9_]\.[ch]\b[^"]*"' $(echo "$srcnames" | grep -E '\.[ch]$') |
	grep -v -E '^[^:]*:[[:space:]]*#[[:space:]]*include' |
	awk 'FILENAME == ARGV[1] { have[$0] = 1; next }
	{
		f = $0
		sub(/:.*/, "", f)
		line = substr($0, length(f) + 2)
		# the quoted parts of the line only
		n = split(line, q, "\"")
		for (i = 2; i <= n; i += 2) {
			s = q[i]
			while (match(s, /[A-Za-z0-9_]+\.[ch]([^A-Za-z0-9_]|$)/)) {
				name = substr(s, RSTART, RLENGTH)
				sub(/[^A-Za-z0-9_.]$/, "", name)
				if ((RSTART == 1 || substr(s, RSTART - 1, 1) != "/") && !(name in have) && !((f, name) in told)) {
					told[f, name] = 1
					print f " quotes " name " in a string, which is no file of src/"
				}
				s = substr(s, RSTART + RLENGTH)
			}
		}
	}' "$bad.names" - >>"$bad"
rm -f "$bad.names"

# doc/HACKING.md's table of the source names every file of src/: by its
# path, by its name after a path of its folder in the same row, or by a
# pattern (gamefile_*.c, admin_<name>.c)
echo "$srcnames" | awk '
FILENAME == ARGV[1] {
	if ($0 ~ /^## The source/) { on = 1; next }
	if (on && $0 ~ /^## /) on = 0
	if (!on || $0 !~ /^\| `/) next
	split($0, cell, "|")
	c = cell[2]
	dir = ""
	n = 0
	while (match(c, /`[^`]*`/)) {
		tok[++n] = substr(c, RSTART + 1, RLENGTH - 2)
		c = substr(c, RSTART + RLENGTH)
	}
	for (i = 1; i <= n; i++) {
		t = tok[i]
		# a bare name is in the folder of the path before it in the row
		if (t ~ /^src\//) {
			dir = t
			sub(/\/[^\/]*$/, "", dir)
		} else if (dir == "")
			continue
		else
			t = dir "/" t
		gsub(/<[a-z]*>/, "*", t)
		gsub(/\./, "\\.", t)
		gsub(/\*/, "[^/]*", t)
		re[++nre] = "^" t "$"
	}
	next
}
{
	for (i = 1; i <= nre; i++)
		if ($0 ~ re[i]) next
	print "doc/HACKING.md: the table of the source (## The source) lacks " $0
}' doc/HACKING.md - >>"$bad"

if [ -s "$bad" ]; then
	sed 's/^/not ok - /' "$bad"
	exit 1
fi
echo "ok - every path named in $checked files exists"
echo "ok - every file of src/ named by its folder exists"
echo "ok - every file name quoted in the strings of src/ is a file of src/"
echo "ok - doc/HACKING.md's table of the source names every file of src/"
