#!/bin/sh
# bench_standings: whole-process times of ./oustpbm, as the MTA sees them
# (fork to exit: the mail parsed, the work, the reply composed, queued and
# delivered into the Maildir), with 10,000 rated players in the standard
# class (made from 25,000 rated games over a year, the ratings file written
# by the server itself) and 2,000 boards being played:
#   standings_ms    "standings" answered (read the ratings file's players,
#                   the index of active boards, the reply);
#   help_ms         "help", interleaved: the cost of any answered mail (its
#                   fsyncs), so that the difference is the standings' own;
#   end_full_ms     a resignation that ends a rated game, the ratings
#                   computed again from all results (as before the
#                   incremental update: its state file removed first);
#   end_incr_ms     the same with the state file: the two players updated.
# The two ends interleaved, each on a board challenged just before (not
# timed).  One line per repetition ($REPS, default 5), each a median of
# $BENCH_RUNS runs (default 11).
. "$(dirname "$0")/lib.sh"
REPS=${REPS:-5}
RUNS=${BENCH_RUNS:-11}
PLAYERS=${BENCH_PLAYERS:-10000}
GAMES=${BENCH_GAMES:-25000}

h=$tmp/home
players "$h" "max_challenges_per_hour = 0" "max_mails_per_hour = 0"
# one real game ends, so that the server writes the file from every game line
mail a@example.org "challenge alice secret bob" c0@bench | deliver "$h" $T0 || exit 1
mail b@example.org "resign 101 bob hunter2" r0@bench | deliver "$h" $T0 || exit 1
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
mail a@example.org standings standings@bench >"$tmp/mail"
mail a@example.org help help@bench >"$tmp/help"
# run MAIL TIME: microseconds of one whole run
run() {
	rm -rf "$h/mail" "$h/seen" "$h/log"
	sync
	s=$(date +%s%N)
	OUSTPBM_TEST_TIME=$2 "$bin" -d "$h" <"$1" >/dev/null || exit 1
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
}
# end FULL TIME: microseconds of a rated game's end (a board challenged first, untimed); FULL 1: no state file
board=101
end() {
	board=$((board + 1))
	mail a@example.org "challenge alice secret bob" "c$board@bench" | deliver "$h" "$2" || exit 1
	[ "$1" = 1 ] && rm -f "$h/ratings-state"
	mail b@example.org "resign $board bob hunter2" "r$board@bench" >"$tmp/end"
	run "$tmp/end" "$2"
	grep -q "^game: $board standard" "$h/ratings" || { echo "bench_standings: board $board not rated" >&2; exit 1; }
}
ms() { median | awk '{ printf "%.2f", $1 / 1000 }'; }
rep=0
while [ $rep -lt "$REPS" ]; do
	rep=$((rep + 1))
	k=0
	: >"$tmp/times"
	: >"$tmp/htimes"
	: >"$tmp/full"
	: >"$tmp/incr"
	while [ $k -lt "$RUNS" ]; do
		k=$((k + 1))
		t=$((T0 + 60 + 100 * (rep * RUNS + k)))
		run "$tmp/mail" $t >>"$tmp/times"
		grep -q "standings: $n ratings" "$h/log" || { echo "bench_standings: no standings answered" >&2; exit 1; }
		run "$tmp/help" $t >>"$tmp/htimes"
		end 1 $((t + 10)) >>"$tmp/full"
		end 0 $((t + 20)) >>"$tmp/incr"
	done
	echo "standings_mail players=$n standings_ms=$(ms <"$tmp/times") help_ms=$(ms <"$tmp/htimes")" \
	    "end_full_ms=$(ms <"$tmp/full") end_incr_ms=$(ms <"$tmp/incr")"
done
