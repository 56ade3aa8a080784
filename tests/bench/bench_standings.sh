#!/bin/sh
# bench_standings: whole-process time of ./oustpbm answering "standings"
# (fork to exit, as the MTA sees it: the mail parsed, the ratings file
# read, the index of active boards listed, the reply composed, queued and
# delivered into the Maildir) with 10,000 rated players in the standard
# class (made from 25,000 rated games over a year, the ratings file written
# by the server itself) and 2,000 boards being played; interleaved with
# "help" on the same home, the cost of any answered mail (its fsyncs), so
# that the difference is the standings' own.  Prints one line per
# repetition ($REPS, default 5), each the median of $BENCH_RUNS runs
# (default 11):  standings_mail players=10002 standings_ms=... help_ms=...
cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
REPS=${REPS:-5}
RUNS=${BENCH_RUNS:-11}
PLAYERS=${BENCH_PLAYERS:-10000}
GAMES=${BENCH_GAMES:-25000}
bin=$top/oustpbm
[ -x "$bin" ] || { echo "bench_standings: run make first" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-bench-standings.XXXXXX") || exit 2
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
T0=1700000000

h=$tmp/home
mkdir -p "$h"
printf 'from_address = oust@example.net\ntemplates = %s/templates\npassword_cost = 1\n' "$top" >"$h/oustpbm.conf"
# one real game ends, so that the server writes the file from every game line
for m in "a@example.org|register alice secret" "b@example.org|register bob hunter2" \
    "a@example.org|challenge alice secret bob" "b@example.org|resign 101 bob hunter2"; do
	printf 'From: %s\nSubject: %s\nMessage-ID: <%s@bench>\n\n' "${m%%|*}" "${m#*|}" "$(echo "$m" | cksum | cut -d' ' -f1)" |
	    OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" >/dev/null || exit 1
done
# the year's games: random pairs of p00001..pNNNNN, a minute apart, ending before board 101
awk -v players="$PLAYERS" -v games="$GAMES" -v t0=$((T0 - 365 * 86400)) 'BEGIN {
	srand(7)
	print "period-days: 14"
	for (i = 0; i < games; i++) {
		a = 1 + int(rand() * players); b = 1 + int(rand() * players)
		if (a == b) b = a % players + 1
		r = rand(); res = r < 0.48 ? "black-won" : r < 0.96 ? "white-won" : "drawn"
		t = t0 + i * int(365 * 86400 / games)
		printf "game: %d standard %s p%05d p%05d %s\n", 1000 + i, strftime("%Y-%m-%dT%H:%M:%SZ", t, 1), a, b, res
	}
}' >"$tmp/games"
# every player has played at least once: the rest of them against alice's opponent bob
awk -v players="$PLAYERS" '/^game:/ { seen[$5] = 1; seen[$6] = 1 } END {
	for (i = 1; i <= players; i++) { p = sprintf("p%05d", i); if (!(p in seen)) print p } }' "$tmp/games" |
    awk -v t0=$((T0 - 900)) '{ printf "game: %d standard %s %s bob black-won\n", 90000 + NR, strftime("%Y-%m-%dT%H:%M:%SZ", t0 + NR, 1), $1 }' >>"$tmp/games"
grep '^game: 101 ' "$h/ratings" >>"$tmp/games"
cp "$tmp/games" "$h/ratings"
# the server computes and writes the file: board 101's mark settled again
mkdir -p "$h/ratings-pending" && : >"$h/ratings-pending/101"
sed -i 's/^game: 101 .*//' "$h/ratings"
OUSTPBM_TEST_TIME=$T0 "$bin" -d "$h" ratings >/dev/null || { echo "bench_standings: the ratings file was not made" >&2; exit 1; }
n=$(grep -c '^player: standard ' "$h/ratings")
[ "$n" -ge "$PLAYERS" ] || { echo "bench_standings: only $n players rated" >&2; exit 1; }
# 2,000 boards being played
mkdir -p "$h/active"
i=0
while [ $i -lt 2000 ]; do
	: >"$h/active/$((200000 + i)).p$(printf %05d $((i + 1))).p$(printf %05d $((i + 2001)))"
	i=$((i + 1))
done
printf 'From: a@example.org\nSubject: standings\nMessage-ID: <standings@bench>\n\n' >"$tmp/mail"
printf 'From: a@example.org\nSubject: help\nMessage-ID: <help@bench>\n\n' >"$tmp/help"
# run MAIL TIME: microseconds of one whole run
run() {
	rm -rf "$h/mail" "$h/seen" "$h/log"
	sync
	s=$(date +%s%N)
	OUSTPBM_TEST_TIME=$2 "$bin" -d "$h" <"$1" >/dev/null || exit 1
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
}
rep=0
while [ $rep -lt "$REPS" ]; do
	rep=$((rep + 1))
	k=0
	: >"$tmp/times"
	: >"$tmp/htimes"
	while [ $k -lt "$RUNS" ]; do
		k=$((k + 1))
		run "$tmp/mail" $((T0 + 60 + k)) >>"$tmp/times"
		grep -q "standings: $n ratings" "$h/log" || { echo "bench_standings: no standings answered" >&2; exit 1; }
		run "$tmp/help" $((T0 + 60 + k)) >>"$tmp/htimes"
	done
	med=$(sort -n "$tmp/times" | sed -n "$(((RUNS + 1) / 2))p")
	hmed=$(sort -n "$tmp/htimes" | sed -n "$(((RUNS + 1) / 2))p")
	echo "standings_mail players=$n standings_ms=$(awk -v u="$med" 'BEGIN { printf "%.2f", u / 1000 }')" \
	    "help_ms=$(awk -v u="$hmed" 'BEGIN { printf "%.2f", u / 1000 }')"
done
