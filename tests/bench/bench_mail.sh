#!/bin/sh
# bench_mail: whole-process time of ./oustpbm handling one move mail on an
# 11x11 board (fork to exit, as the MTA sees it: parse, password check,
# game file read and written, both replies composed, queued and delivered
# into the Maildirs, every fsync included):
#   turn2      the move of turn 2 of a new game
#   turn2c1    the same with the password hashed at yescrypt cost 1, the
#              cheapest (the other cases use libxcrypt's default cost, as a
#              server does: password_cost = 0)
#   turn300    the move of turn 300 (a game file with 299 turns of history)
#   boards100k turn 2 again, with 100,000 other boards in games/
#   games100k  "games carol" with those 100,000 boards, carol playing on one
#              (read through the index of boards per player, src/store/players.h)
# Every run applies a real move to a fresh copy of the prepared board (the
# game file is restored, the delivered replies and the log removed; the
# Maildir directories stay, as on a server whose players have had mail
# before), after a sync, so that no earlier write is flushed in its time.  Prints one line
# per repetition ($REPS, default 5), each the median of $BENCH_RUNS runs
# (default 11):  mail turn2_ms=... turn2c1_ms=... turn300_ms=... boards100k_ms=... games100k_ms=...
# The helper tests/bench/mail/mailbench.c is built here from the objects
# `make` left in build/obj.
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
REPS=${REPS:-5}
RUNS=${BENCH_RUNS:-11}
BOARDS=${BENCH_BOARDS:-100000}
bin=$top/oustpbm
[ -x "$bin" ] || { echo "bench_mail: run make first" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-bench-mail.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

mb=$tmp/mailbench
objs=
for o in game/rules game/game game/gamefile game/board base/ident base/msgid base/mailaddr base/utf8; do
	objs="$objs build/obj/$o.o"
done
${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE -Isrc -o "$mb" tests/bench/mail/mailbench.c $objs ||
    { echo "bench_mail: cannot build the helper" >&2; exit 1; }

# the accounts, made the way players make them: base at libxcrypt's default
# cost (password_cost = 0), base1 at cost 1 (README: Speed states both)
for b in base:0 base1:1; do
	d=$tmp/${b%:*}
	mkdir -p "$d"
	printf 'from_address = oust@example.net\ntemplates = %s/templates\npassword_cost = %s\n' "$top" "${b#*:}" \
	    >"$d/oustpbm.conf"
	for u in "alice secret" "bob hunter2"; do
		printf 'From: %s@example.org\nSubject: register %s\nMessage-ID: <reg.%s@example.org>\n\n' \
		    "${u%% *}" "$u" "${u%% *}" | "$bin" -d "$d" >/dev/null || exit 1
	done
	rm -rf "$d/mail" "$d/log"
done
base=$tmp/base

# prepare NAME TURNS [BASE]: a home with board 101 after TURNS turns, and the mail of the next one
prepare() {
	h=$tmp/$1
	cp -a "${3:-$base}" "$h"
	next=$("$mb" game "$2" "$h/games/101.game") || exit 1
	cp "$h/games/101.game" "$tmp/$1.game"
	set -- "$1" $next
	pw=secret
	[ "$2" = bob ] && pw=hunter2
	printf 'From: %s@example.org\nSubject: move 101#%s %s %s %s\nMessage-ID: <bench@example.org>\n\n' \
	    "$2" "$3" "$2" "$pw" "$4" >"$tmp/$1.eml"
}
prepare turn2 1
prepare turn2c1 1 "$tmp/base1"
prepare turn300 299
prepare boards100k 1
# other boards: small 5x5 games, each with its own number
printf 'From: alice@example.org\nSubject: challenge alice secret bob -size=5\nMessage-ID: <c@example.org>\n\n' |
    "$bin" -d "$tmp/base" >/dev/null || exit 1
"$mb" copies "$tmp/base/games/101.game" "$tmp/boards100k/games" 102 "$BOARDS" || exit 1
echo $((102 + BOARDS)) >"$tmp/boards100k/games/next-board"
# games: carol, with one board among the 100,000, asks for her boards; the
# index of boards per player (src/store/players.h) is built by the first request
g=$tmp/games100k
cp -a "$tmp/boards100k" "$g"
rm -rf "$g/players"
# alice is on 100,000 boards: no limit on open boards for her challenge to carol
printf 'max_open_boards = 0\nmax_open_challenges = 0\n' >>"$g/oustpbm.conf"
printf 'From: carol@example.org\nSubject: register carol pw3\nMessage-ID: <reg.carol@example.org>\n\n' |
    "$bin" -d "$g" >/dev/null || exit 1
printf 'From: alice@example.org\nSubject: challenge alice secret carol -size=5\nMessage-ID: <c2@example.org>\n\n' |
    "$bin" -d "$g" >/dev/null || exit 1
printf 'From: carol@example.org\nSubject: games carol\nMessage-ID: <games@example.org>\n\n' >"$tmp/games100k.eml"

# once NAME: one run on a fresh copy of board 101; prints the time in ms
once() {
	h=$tmp/$1
	cp "$tmp/$1.game" "$h/games/101.game"
	rm -f "$h"/mail/*/new/* "$h/log"
	sync
	"$mb" time "$tmp/$1.eml" "$bin" -d "$h" || exit 1
	# a run that did not apply the move (refused, dropped) would time something else
	grep -q ' ok: turn ' "$h/log" || { echo "bench_mail: $1: the move was not applied: $(cat "$h/log")" >&2; exit 1; }
}

# once_games: carol's games mail on the home of 100,000 boards; prints the time in ms
once_games() {
	rm -f "$g"/mail/*/new/* "$g/log" "$g/seen"
	"$mb" time "$tmp/games100k.eml" "$bin" -d "$g" || exit 1
	grep -q ' ok: 1 board of carol' "$g/log" || { echo "bench_mail: games: $(cat "$g/log")" >&2; exit 1; }
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# warm the page cache once
for s in turn2 turn2c1 turn300 boards100k; do
	once "$s" >/dev/null
done
once_games >/dev/null	# builds the index
rep=0
while [ "$rep" -lt "$REPS" ]; do
	rep=$((rep + 1))
	: >"$tmp/turn2.t"
	: >"$tmp/turn2c1.t"
	: >"$tmp/turn300.t"
	: >"$tmp/boards100k.t"
	: >"$tmp/games100k.t"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		for s in turn2 turn2c1 turn300 boards100k; do
			once "$s" >>"$tmp/$s.t"
		done
		once_games >>"$tmp/games100k.t"
	done
	echo "mail turn2_ms=$(median <"$tmp/turn2.t") turn2c1_ms=$(median <"$tmp/turn2c1.t")" \
	    "turn300_ms=$(median <"$tmp/turn300.t")" \
	    "boards100k_ms=$(median <"$tmp/boards100k.t") games100k_ms=$(median <"$tmp/games100k.t")"
done
