#!/bin/sh
# bench_web: the web site's cost with 10,000 boards in the store
# ($BENCH_WEB_BOARDS): the whole-process time of one move mail on an 11x11
# board with web_dir set (the site brought up to date after the replies
# are flushed) and without, run interleaved, and their difference, the
# update's own cost; which files of the site that one move wrote: it must
# be only the pages that changed (the board's page, the new turn's page and
# the one before it, boards.txt, index.html, the page of the full list that
# holds the board, and the two players' pages: 8), and no page rewritten
# with the text it had (unchanged_rewritten, 0); and the time of a full
# `oustpbm web`.  Prints one line per repetition ($REPS):
#   web move_ms=... noweb_ms=... web_ms=... pages=... unchanged_rewritten=... build_ms=...
# The other boards are copies of one 5x5 game, between 400 players two by
# two (50 boards each).
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
REPS=${REPS:-5}
RUNS=${BENCH_RUNS:-5}
BOARDS=${BENCH_WEB_BOARDS:-10000}
bin=$top/oustpbm
[ -x "$bin" ] || { echo "bench_web: run make first" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-bench-web.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

mb=$tmp/mailbench
objs=
for o in game/rules game/game game/gamefile game/board base/ident base/msgid base/mailaddr base/utf8; do
	objs="$objs build/obj/$o.o"
done
${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE -Isrc -o "$mb" tests/bench/mail/mailbench.c $objs ||
    { echo "bench_web: cannot build the helper" >&2; exit 1; }

h=$tmp/web
mkdir -p "$h"
printf 'from_address = oust@example.net\ntemplates = %s/templates\nmax_mails_per_hour = 0\n' "$top" >"$h/oustpbm.conf"
for u in "alice secret" "bob hunter2"; do
	printf 'From: %s@example.org\nSubject: register %s\nMessage-ID: <reg.%s@example.org>\n\n' \
	    "${u%% *}" "$u" "${u%% *}" | "$bin" -d "$h" >/dev/null || exit 1
done
printf 'From: alice@example.org\nSubject: challenge alice secret bob -size=5\nMessage-ID: <c@example.org>\n\n' |
    "$bin" -d "$h" >/dev/null || exit 1
"$mb" copies "$h/games/101.game" "$h/games" 102 "$BOARDS" || exit 1
# 400 players, two by two on 50 boards each
/usr/bin/python3 -c 'import os, sys
d = sys.argv[1]
for f in os.listdir(d):
    if f.endswith(".game") and f != "101.game":
        b = int(f[:-5])
        p = open(os.path.join(d, f)).read()
        open(os.path.join(d, f), "w").write(p.replace("alice", "p%d" % (b % 200)).replace("bob", "q%d" % (b % 200)))' "$h/games" ||
    exit 1
echo $((102 + BOARDS)) >"$h/games/next-board"
set -- $("$mb" game 20 "$tmp/101.game") || exit 1
pw=secret
[ "$1" = bob ] && pw=hunter2
printf 'From: %s@example.org\nSubject: move 101#%s %s %s %s\nMessage-ID: <bench@example.org>\n\n' \
    "$1" "$2" "$1" "$pw" "$3" >"$tmp/move.eml"
cp "$tmp/101.game" "$h/games/101.game"
cp -a "$h" "$tmp/noweb"
echo 'web_dir = site' >>"$h/oustpbm.conf"
start=$(date +%s%N)
"$bin" -d "$h" web >/dev/null || exit 1
build_ms=$(( ($(date +%s%N) - start) / 1000000 ))
cp -a "$h/site" "$tmp/site.orig"

# once HOME: the move on a fresh copy of board 101 (and of the site); prints the time in ms
once() {
	cp "$tmp/101.game" "$1/games/101.game"
	rm -f "$1"/mail/*/new/* "$1/log" "$1/seen"
	if [ -d "$1/site" ]; then
		rm -rf "$1/site"
		cp -a "$tmp/site.orig" "$1/site"
		touch -d '2000-01-01' $(find "$1/site" -type f)
	fi
	sync
	"$mb" time "$tmp/move.eml" "$bin" -d "$1" || exit 1
	grep -q ' ok: turn ' "$1/log" || { echo "bench_web: the move was not applied: $(cat "$1/log")" >&2; exit 1; }
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

once "$h" >/dev/null
once "$tmp/noweb" >/dev/null
rep=0
while [ "$rep" -lt "$REPS" ]; do
	rep=$((rep + 1))
	: >"$tmp/web.t"
	: >"$tmp/noweb.t"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		once "$h" >>"$tmp/web.t"
		once "$tmp/noweb" >>"$tmp/noweb.t"
	done
	# the files the last move wrote, and those whose text it changed
	(cd "$h/site" && find . -type f -newermt '2001-01-01' ! -name .lock | LC_ALL=C sort) >"$tmp/written"
	(cd "$h/site" && find . -type f ! -name .lock | while read -r f; do
		cmp -s "$f" "$tmp/site.orig/$f" || echo "$f"
	done | LC_ALL=C sort) >"$tmp/changed"
	pages=$(wc -l <"$tmp/written")
	same=$(LC_ALL=C comm -23 "$tmp/written" "$tmp/changed" | wc -l)
	cmp -s "$tmp/written" "$tmp/changed" || [ "$same" -gt 0 ] ||
	    echo "bench_web: pages changed but not written: $(LC_ALL=C comm -13 "$tmp/written" "$tmp/changed")" >&2
	mw=$(median <"$tmp/web.t")
	mn=$(median <"$tmp/noweb.t")
	echo "web move_ms=$mw noweb_ms=$mn web_ms=$(echo "$mw $mn" | awk '{ print $1 - $2 }') pages=$pages unchanged_rewritten=$same build_ms=$build_ms"
done
