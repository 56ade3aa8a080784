#!/bin/sh
# tournament-crash: a tournament's begin killed with SIGKILL at every durable
# step (OUSTPBM_TEST_CRASH, src/store/store.h), then the mail delivered
# again: after each kill the tournament file reads (never half written) and
# every board it names that exists loads; after the redelivery it has begun
# with every board of its start made (each with the players the file says),
# every player has had the pairings mail, and once cleanup ran (it sends
# what a killed run queued) no committed mail is left unsent.
# The same for the end of a Swiss round (the next round's start) and for a
# game's end in a tournament.
# Four parts, one a shard (tests/run-tests): the begin, a Swiss round's
# end, a knockout round's end, a game's end (one taking a result only,
# then the last one, mailing the final standings).
# shards: 4
# TOURN_CRASH_PLAYERS (default 3: 3 boards, about 220 kills) sets the round robin's size;
# 10 is the 45-board start of issue 44 (about 10 times longer).
. "$(dirname "$0")/lib.sh"
tmpdir
need "$PY"
np=${TOURN_CRASH_PLAYERS:-3}
kills=0
readable() { # HOME: the tournament file reads and names boards with its players (fsck's tournament lines)
	"$bin" -d "$1" fsck >"$tmp/fsck" 2>&1
	grep '^tournaments/' "$tmp/fsck" | grep -v ': note: ' | head -1
	games_load "$1"
}
after_kill() { # HOME K [K2]
	why=$(readable "$1")
	[ -z "$why" ] || bad="$bad; killed at step $2${3:+ then $3}: $why"
}
at=$T0
go() { # FROM COMMAND
	at=$((at + 60))
	mail "$1@example.org" "$2" | deliver "$h" $at || fail "'$2' from $1 exits $?"
}

if part; then
h=$tmp/h
mkhome "$h"
users=$(seq 1 "$np" | sed 's/^/p/')
for u in $users; do
	go "$u" "register $u pw$u"
done
go p1 "tournament p1 pwp1 roundrobin -size=5 -players=$np-$np Crash"
last=p$np
for u in $users; do
	[ "$u" = "$last" ] || go "$u" "join T1 $u pw$u"
done
mail "$last@example.org" "join T1 $last pw$last" crash-join@example.net >"$tmp/join.eml"
games=$((np * (np - 1) / 2))

after_redelivery() { # HOME K [K2]: after a cleanup (a mail queued by the killed run is its to send)
	OUSTPBM_TEST_TIME=$((at + 240)) "$bin" -d "$1" cleanup >/dev/null 2>&1
	f=$1/tournaments/1
	grep -q '^status: running$' "$f" || bad="$bad; killed at step $2: not begun after the redelivery"
	nb=$(grep -c '^game: .* [0-9][0-9]* \*$' "$f")
	[ "$nb" = "$games" ] || bad="$bad; killed at step $2: $nb boards of $games"
	grep '^game: .* [0-9][0-9]* \*$' "$f" | while read -r _ _ _ _ b w board _; do
		grep -q "^black: $b$" "$1/games/$board.game" 2>/dev/null && grep -q "^white: $w$" "$1/games/$board.game" ||
		    echo "board $board is not $b - $w"
	done >"$tmp/wrong"
	[ -s "$tmp/wrong" ] && bad="$bad; killed at step $2: $(head -1 "$tmp/wrong")"
	for u in $users; do
		grep -l "^Subject: Oust tournament T1 .* has begun" "$1/mail/$u@example.org/new/"* >/dev/null 2>&1 ||
		    bad="$bad; killed at step $2: $u had no pairings mail"
	done
	# outbox/tmp/ may keep a mail the kill cut before its commit: never sent, cleanup removes it once stale
	[ -z "$(find "$1/outbox/new" -type f 2>/dev/null)" ] ||
	    bad="$bad; killed at step $2: committed mail left unsent in the outbox"
}
crash_each_step "$h" "$((at + 60)) $((at + 120)) $((at + 180))" "$tmp/join.eml" "" after_kill after_redelivery
check "the begin of $games boards killed at each of its $((k - 1)) steps, then delivered again: begun whole$bad" \
    test -z "$bad"
check "... the kills happened" test "$kills" -gt "$games"
fi

# ---- a Swiss round's end: the last game of round 1 ends, round 2 starts; killed at each step
if part; then
s=$tmp/s
mkhome "$s"
h=$s
for u in p1 p2 p3 p4; do
	go "$u" "register $u pw$u"
done
go p1 "tournament p1 pwp1 swiss -rounds=2 -size=5 -players=4-4 Crash Swiss"
for u in p1 p2 p3 p4; do
	go "$u" "join T1 $u pw$u"
done
first=$(grep '^game: 1 .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
set -- $first
go "$5" "resign $7 $5 pw$5"
second=$(grep '^game: 1 .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
set -- $second
mail "$5@example.org" "resign $7 $5 pw$5" crash-resign@example.net >"$tmp/resign.eml"
games=2
users="p1 p2 p3 p4"
round_ok() { # HOME K [K2]: after a cleanup (a copy dropped as handled leaves the step to it)
	OUSTPBM_TEST_TIME=$((at + 240)) "$bin" -d "$1" cleanup >/dev/null 2>&1
	f=$1/tournaments/1
	nb=$(grep -c '^game: 2 .* [0-9][0-9]* \*$' "$f")
	[ "$nb" = 2 ] || bad="$bad; killed at step $2: round 2 has $nb boards, not 2"
	grep '^game: 2 .* [0-9][0-9]* \*$' "$f" | while read -r _ _ _ _ b w board _; do
		grep -q "^black: $b$" "$1/games/$board.game" 2>/dev/null || echo "board $board missing"
	done >"$tmp/wrong"
	[ -s "$tmp/wrong" ] && bad="$bad; killed at step $2: $(head -1 "$tmp/wrong")"
	grep -q "^mailed: 2$" "$f" || bad="$bad; killed at step $2: round 2 not mailed"
}
crash_each_step "$s" "$((at + 60)) $((at + 120)) $((at + 180))" "$tmp/resign.eml" "" after_kill round_ok
check "a round's end killed at each of its $((k - 1)) steps, then delivered again: the next round whole$bad" \
    test -z "$bad"
fi

# ---- a knockout's round end: the last game of round 1 ends, the final starts; killed at each step
if part; then
s=$tmp/ko
mkhome "$s"
h=$s
for u in p1 p2 p3 p4; do
	go "$u" "register $u pw$u"
done
go p1 "tournament p1 pwp1 knockout -size=5 -players=4-4 Crash Knockout"
for u in p1 p2 p3 p4; do
	go "$u" "join T1 $u pw$u"
done
set -- $(grep '^game: 1 .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
go "$5" "resign $7 $5 pw$5"
set -- $(grep '^game: 1 .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
mail "$5@example.org" "resign $7 $5 pw$5" crash-ko@example.net >"$tmp/ko.eml"
final_ok() { # HOME K [K2]
	OUSTPBM_TEST_TIME=$((at + 240)) "$bin" -d "$1" cleanup >/dev/null 2>&1
	f=$1/tournaments/1
	set -- "$1" "$2" $(grep '^game: 2 .* [0-9][0-9]* \*$' "$f")
	if [ -z "${9:-}" ]; then
		bad="$bad; killed at step $2: the final has no board"
	else
		grep -q "^black: $7$" "$1/games/$9.game" 2>/dev/null && grep -q "^tournament: T1$" "$1/games/$9.game" ||
		    bad="$bad; killed at step $2: the final's board $9 is not made whole"
	fi
	grep -q "^mailed: 2$" "$f" || bad="$bad; killed at step $2: the final not mailed"
	[ -z "$(find "$1/outbox/new" -type f 2>/dev/null)" ] || bad="$bad; killed at step $2: committed mail left unsent"
}
crash_each_step "$s" "$((at + 60)) $((at + 120)) $((at + 180))" "$tmp/ko.eml" "" after_kill final_ok
check "a knockout round's end killed at each of its $((k - 1)) steps, then delivered again: the final whole$bad" \
    test -z "$bad"
fi

# ---- a game's end in a tournament: one that ends nothing more, then the last one (the final standings)
if part; then
s=$tmp/end
mkhome "$s"
h=$s
for u in p1 p2 p3; do
	go "$u" "register $u pw$u"
done
go p1 "tournament p1 pwp1 roundrobin -size=5 -players=3-3 Crash End"
for u in p1 p2 p3; do
	go "$u" "join T1 $u pw$u"
done
set -- $(grep '^game: .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
mail "$5@example.org" "resign $7 $5 pw$5" crash-end1@example.net >"$tmp/end1.eml"
b1=$7
result_ok() { # HOME K [K2]
	OUSTPBM_TEST_TIME=$((at + 240)) "$bin" -d "$1" cleanup >/dev/null 2>&1
	grep -q "^game: .* $b1 0-1$" "$1/tournaments/1" || bad="$bad; killed at step $2: board $b1's result not taken"
	grep -q '^status: running$' "$1/tournaments/1" || bad="$bad; killed at step $2: no longer running"
}
crash_each_step "$s" "$((at + 60)) $((at + 120)) $((at + 180))" "$tmp/end1.eml" "" after_kill result_ok
check "a game's end killed at each of its $((k - 1)) steps, then delivered again: its result taken$bad" test -z "$bad"
go "$5" "resign $7 $5 pw$5"
set -- $(grep '^game: .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
go "$5" "resign $7 $5 pw$5"
set -- $(grep '^game: .* [0-9][0-9]* \*$' "$s/tournaments/1" | head -1)
mail "$5@example.org" "resign $7 $5 pw$5" crash-end3@example.net >"$tmp/end3.eml"
end_ok() { # HOME K [K2]
	OUSTPBM_TEST_TIME=$((at + 240)) "$bin" -d "$1" cleanup >/dev/null 2>&1
	grep -q '^status: finished$' "$1/tournaments/1" || bad="$bad; killed at step $2: not finished"
	grep -q '^final-mailed: yes$' "$1/tournaments/1" || bad="$bad; killed at step $2: the standings not mailed"
	for u in p1 p2 p3; do
		grep -l "^Subject: Oust tournament T1 .*final standings" "$1/mail/$u@example.org/new/"* >/dev/null 2>&1 ||
		    bad="$bad; killed at step $2: $u had no final standings"
	done
	[ -z "$(find "$1/outbox/new" -type f 2>/dev/null)" ] || bad="$bad; killed at step $2: committed mail left unsent"
}
crash_each_step "$s" "$((at + 60)) $((at + 120)) $((at + 180))" "$tmp/end3.eml" "" after_kill end_ok
check "the last game's end killed at each of its $((k - 1)) steps, then delivered again: the final standings mailed$bad" \
    test -z "$bad"
fi

done_testing
