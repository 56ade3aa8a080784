#!/bin/sh
# bench_tournament: whole-process times of ./oustpbm for a round robin of
# 50 players (issue 44: divisions of 10, 225 boards):
#   begin_ms       "begin T1": seeded, divided, paired, its 225 boards made
#                  with their mails, every player mailed the pairings;
#   show_ms        "tournament T1" answered (players, pairings, crosstables);
#   games_ms       "games p01" answered, for comparison (issue 44: as fast).
# One line per repetition ($REPS, default 5): begin once on a fresh copy of
# the home, the two others medians of $BENCH_RUNS runs (default 11).
# BENCH_OLD_BIN=path (another build of oustpbm, e.g. the previous commit's)
# adds a line "tournament_50_old begin_ms=..." per repetition, its begin
# run on its own fresh copy right after this build's, so that the two are
# measured side by side under the same load.
# (tests/sh/lib.sh only: no helper of the bench preamble is needed)
. "$(dirname "$0")/../sh/lib.sh"
tmpdir
median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
REPS=${REPS:-5}
RUNS=${BENCH_RUNS:-11}
base=$tmp/base
mkhome "$base" "max_challenges_per_hour = 0" "max_mails_per_hour = 0" "max_open_boards = 0"
{
	printf 'tournament: T1\nname: Fifty\nformat: roundrobin\ndirector: p01\nstatus: open\noptions: -size=9\n'
	printf 'players: 2-64\ndouble: no\nrepeat: no\nrounds: 0\nreach: 3\nidle: 30\nround: 0\n'
	printf 'created: 2023-11-14T22:13:20Z\nmailed: 0\nfinal-mailed: no\n\n'
} >"$tmp/t1"
i=0
while [ $i -lt 50 ]; do
	i=$((i + 1))
	u=p$(printf %02d $i)
	pw=$("$bin" -d "$base" adduser "$u" "$u@example.org" 2>/dev/null | tail -1 | awk '{ print $NF }')
	[ -n "$pw" ] || { echo "bench_tournament: adduser $u failed" >&2; exit 1; }
	[ $i = 1 ] && dpw=$pw
	echo "player: $u $((1200 + 7 * i))" >>"$tmp/t1"
done
mkdir -p "$base/tournaments"
cp "$tmp/t1" "$base/tournaments/1"
mail p01@example.org "begin T1 p01 $dpw" begin@bench >"$tmp/begin"
mail p02@example.org "tournament T1" show@bench >"$tmp/show"
mail p02@example.org "games p01" games@bench >"$tmp/games"
run() { # MAIL HOME TIME [BIN]: microseconds of one delivery
	rm -rf "$2/mail" "$2/seen" "$2/log"
	sync
	s=$(date +%s%N)
	OUSTPBM_TEST_TIME=$3 "${4:-$bin}" -d "$2" <"$1" >/dev/null || exit 1
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
}
ms() { median | awk '{ printf "%.2f", $1 / 1000 }'; }
rep=0
while [ $rep -lt "$REPS" ]; do
	rep=$((rep + 1))
	h=$tmp/h$rep
	rm -rf "$h"
	cp -R "$base" "$h"
	b=$(run "$tmp/begin" "$h" $((T0 + rep)))
	n=$(grep -c '^game: .* [0-9][0-9]* \*$' "$h/tournaments/1")
	[ "$n" = 225 ] || { echo "bench_tournament: $n boards begun, not 225" >&2; exit 1; }
	: >"$tmp/st"
	: >"$tmp/gt"
	k=0
	while [ $k -lt "$RUNS" ]; do
		k=$((k + 1))
		run "$tmp/show" "$h" $((T0 + 100 + k)) >>"$tmp/st"
		run "$tmp/games" "$h" $((T0 + 100 + k)) >>"$tmp/gt"
	done
	echo "tournament_50 boards=$n begin_ms=$(echo "$b" | awk '{ printf "%.2f", $1 / 1000 }')" \
	    "show_ms=$(ms <"$tmp/st") games_ms=$(ms <"$tmp/gt")"
	rm -rf "$h"
	if [ -n "${BENCH_OLD_BIN:-}" ]; then
		cp -R "$base" "$h"
		b=$(run "$tmp/begin" "$h" $((T0 + rep)) "$BENCH_OLD_BIN")
		echo "tournament_50_old begin_ms=$(echo "$b" | awk '{ printf "%.2f", $1 / 1000 }')"
		rm -rf "$h"
	fi
done
