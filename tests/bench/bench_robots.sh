#!/bin/sh
# bench_robots: 20 robot games (level 5, 9x9) whose human moves arrive at
# once, on this machine's processors, robot_seconds and robot_max_thinking
# at their defaults.  Each move is delivered by its own `oustpbm -d HOME`,
# all started together, as a mail system does with a burst; a robot turn
# past the cap is left to `oustpbm robot`, run as cron would (a run at
# once, as the minute's tick may come, then one more each minute while
# turns are left).  Prints one line per repetition ($BENCH_ROBOTS_REPS,
# default 1: a repetition takes minutes):
#   robots games=20 cap=N robot_seconds=S deliver_max_ms=... deliver_median_ms=...
#          in_mail=... left=... cron_runs=... last_turn_s=... over_budget=...
# deliver_*: the wall time of each delivery, fork to exit; in_mail: the
# robot turns thought inside a delivery; last_turn_s: from the burst to the
# last robot turn played (the game files' times); over_budget: deliveries
# that took longer than robot_seconds + 2 s (the issue's bound: 0).
. "$(dirname "$0")/lib.sh"
REPS=${BENCH_ROBOTS_REPS:-1}
GAMES=${BENCH_ROBOT_GAMES:-20}
unset OUSTPBM_TEST_ROBOT OUSTPBM_TEST_ROBOT_PLAYOUTS

base=$tmp/base
mkhome "$base" 'max_mails_per_hour = 0' 'max_registrations_per_hour = 0' 'max_registrations_per_domain = 0'
i=1
while [ "$i" -le "$GAMES" ]; do
	mail "p$i@example.org" "register p$i pw$i" "reg.$i@example.org" | deliver "$base" || exit 1
	mail "p$i@example.org" "challenge p$i pw$i robot -size=9 -level=5 -noswap" "ch.$i@example.org" |
	    deliver "$base" || exit 1
	i=$((i + 1))
done
cap=$(nproc)
secs=5

rep=0
while [ "$rep" -lt "$REPS" ]; do
	rep=$((rep + 1))
	h=$tmp/run
	rm -rf "$h"
	cp -a "$base" "$h"
	rm -rf "$h/mail" "$h/log"
	start=$(date +%s)
	i=1
	while [ "$i" -le "$GAMES" ]; do
		b=$((100 + i))
		(
			t0=$(date +%s%N)
			mail "p$i@example.org" "move $b#1 p$i pw$i E5" "mv.$i.$rep@example.org" | "$bin" -d "$h" >/dev/null 2>&1
			echo $((($(date +%s%N) - t0) / 1000000)) >"$tmp/ms.$i"
		) &
		i=$((i + 1))
	done
	wait
	# cron: a run now, then one each minute while robot turns are left;
	# each second, the boards whose robot turn got played since (the time
	# a turn is played: a run's log and game file carry its start)
	rm -f "$tmp"/done.*
	for g in "$h"/games/*.game; do
		grep -q '^to-move: white' "$g" || echo 0 >"$tmp/done.$(basename "$g" .game)"
	done
	runs=0
	sec=0
	next=0
	while [ "$(ls "$tmp"/done.* 2>/dev/null | wc -l)" -lt "$GAMES" ] && [ "$sec" -lt 1800 ]; do
		if [ "$sec" -ge "$next" ]; then
			next=$((sec + 60))
			runs=$((runs + 1))
			"$bin" -d "$h" robot >/dev/null 2>&1 &
		fi
		sleep 1
		sec=$(($(date +%s) - start))
		for g in "$h"/games/*.game; do
			d=$tmp/done.$(basename "$g" .game)
			[ -f "$d" ] || grep -q '^to-move: white' "$g" || echo "$sec" >"$d"
		done
	done
	wait
	last=$(cat "$tmp"/done.* | sort -n | tail -n 1)
	cat "$tmp"/ms.* | sort -n >"$tmp/all"
	max=$(tail -n 1 "$tmp/all")
	over=$(awk -v b=$(((secs + 2) * 1000)) '$1 > b { n++ } END { print n + 0 }' "$tmp/all")
	inmail=$(grep -c 'ok: turn 1: p[0-9]* played E5; turn 2: robot played' "$h/log")
	leftm=$(grep -c 'turn 2: the robot could not play (the robot thinks on' "$h/log")
	echo "robots games=$GAMES cap=$cap robot_seconds=$secs deliver_max_ms=$max deliver_median_ms=$(median <"$tmp/all") in_mail=$inmail left=$leftm cron_runs=$runs last_turn_s=$last over_budget=$over"
done
