#!/bin/sh
# expire: challenges not accepted within challenge_expiry_days (issue 43
# item 7) are withdrawn by `oustpbm cleanup` with the test clock: a
# challenge bob never answered, an open challenge nobody took, both sides
# told once and never again; a board both played is kept; 0 turns it off;
# and the withdrawal killed at each of its durable steps (OUSTPBM_TEST_CRASH)
# then run again tells each player exactly once.
. "$(dirname "$0")/lib.sh"
tmpdir
DAY=86400
A=alice@example.org
B=bob@example.com

cleanup() { # HOME TIME [STEP]: cleanup (killed at durable step STEP), its exit status
	if [ -n "${3:-}" ]; then
		OUSTPBM_TEST_CRASH=$3 OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" cleanup >/dev/null 2>"$tmp/stderr"
	else
		OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" cleanup >/dev/null 2>"$tmp/stderr"
	fi
	echo $?
}
withdrawn() { # HOME ADDRESS: the "withdrawn" mails ADDRESS got
	grep -l '^Subject: Oust Board 101 withdrawn' "$1/mail/$2/new/"* 2>/dev/null | wc -l | tr -d ' '
}

# base HOME [conf...]: alice and bob; board 101 (5x5), alice's first turn at T0, bob's still to come
base() {
	h=$1
	shift
	mkhome "$h" "$@"
	send at=$T0 body=body "$h" $A "register alice secret"
	send at=$T0 body=body "$h" $B "register bob hunter2"
	send at=$T0 body=body "$h" $A "challenge alice secret bob -size=5"
	send at=$T0 body=body "$h" $A "move 101 alice secret C3"
}

h=$tmp/plain
base "$h"
check "13 days on: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 13 * DAY)))" = 0 ]
check "... the challenge stands" test -f "$h/games/101.game"
check "... nobody is told" [ "$(withdrawn "$h" $A)$(withdrawn "$h" $B)" = 00 ]
check "14 days on: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 14 * DAY)))" = 0 ]
check "... the board is removed" test ! -f "$h/games/101.game"
check "... alice is told once" [ "$(withdrawn "$h" $A)" = 1 ]
check "... bob is told once" [ "$(withdrawn "$h" $B)" = 1 ]
m=$(grep -l '^Subject: Oust Board 101 withdrawn' "$h/mail/$B/new/"*)
check "... saying why: not answered in 14 days, bob to play" \
    sh -c "tr '\n' ' ' <'$m' | grep -q 'was not answered within 14 days (challenge_expiry_days): bob has not played on it yet'"
check "... and how to start another" grep -q 'challenge <userid> <password> <opponent>' "$m"
check "... Auto-Submitted: it answers no mail" grep -qx 'Auto-Submitted: auto-generated' "$m"
check "... logged" grep -q 'cleanup board=101 ok: challenge not accepted within 14 days, withdrawn' "$h/log"
check "... nothing left in the outbox" [ -z "$(find "$h/outbox/new" "$h/outbox/tmp" -type f)" ]
check "a day later: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 15 * DAY)))" = 0 ]
check "... and nobody is told twice" [ "$(withdrawn "$h" $A)$(withdrawn "$h" $B)" = 11 ]
check "fsck finds nothing wrong" sh -c "'$bin' -d '$h' fsck >/dev/null 2>&1"

# a board both have played on is a game, never a challenge that expires
h=$tmp/played
base "$h"
send at=$((T0 + DAY)) body=body "$h" $B "move 101 bob hunter2 A1"
cleanup "$h" $((T0 + 40 * DAY)) >/dev/null
check "a board both played: kept after 40 days" test -f "$h/games/101.game"
check "... nobody told it was withdrawn" [ "$(withdrawn "$h" $A)$(withdrawn "$h" $B)" = 00 ]

# challenge_expiry_days = 0: never
h=$tmp/off
base "$h" 'challenge_expiry_days = 0'
cleanup "$h" $((T0 + 100 * DAY)) >/dev/null
check "challenge_expiry_days = 0: the challenge stands after 100 days" test -f "$h/games/101.game"

# its own number of days; the open challenge nobody took: its challenger alone is told
h=$tmp/open
mkhome "$h" 'challenge_expiry_days = 3'
send at=$T0 body=body "$h" $A "register alice secret"
send at=$T0 body=body "$h" $A "challenge alice secret *"
cleanup "$h" $((T0 + 2 * DAY)) >/dev/null
check "an open challenge: kept 2 days (challenge_expiry_days = 3)" test -f "$h/games/101.game"
check "3 days on: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 3 * DAY)))" = 0 ]
check "... the open challenge is withdrawn" test ! -f "$h/games/101.game"
m=$(grep -l '^Subject: Oust Board 101 withdrawn' "$h/mail/$A/new/"*)
check "... alice is told once, nobody accepted it" \
    sh -c "[ \$(echo '$m' | wc -w) = 1 ] && tr '\n' ' ' <'$m' | grep -q 'Nobody accepted the open challenge of alice on board 101'"
check "a bad value is refused naming the key" \
    sh -c "printf 'challenge_expiry_days = 4000\n' >>'$h/oustpbm.conf'; ! '$bin' -d '$h' cleanup >/dev/null 2>'$tmp/err' && grep -q challenge_expiry_days '$tmp/err'"

# killed at each durable step of the withdrawal, then run again: told once each, the board gone
h=$tmp/crash
base "$h"
rm -rf "$h/mail"
k=0
bad=
while :; do
	k=$((k + 1))
	rm -rf "$tmp/w"
	cp -R "$h" "$tmp/w"
	rc=$(cleanup "$tmp/w" $((T0 + 14 * DAY)) $k)
	[ "$rc" = 0 ] && break
	[ "$rc" = 137 ] || { bad="$bad; step $k: exit $rc"; break; }
	rc=$(cleanup "$tmp/w" $((T0 + 14 * DAY + 3600)))
	[ "$rc" = 0 ] || bad="$bad; step $k: the next run exits $rc"
	[ -f "$tmp/w/games/101.game" ] && bad="$bad; step $k: the board is still there"
	[ "$(withdrawn "$tmp/w" $A)$(withdrawn "$tmp/w" $B)" = 11 ] ||
	    bad="$bad; step $k: told $(withdrawn "$tmp/w" $A) and $(withdrawn "$tmp/w" $B) times"
	[ -z "$(find "$tmp/w/outbox/new" "$tmp/w/outbox/tmp" -type f)" ] || bad="$bad; step $k: mail left in the outbox"
	[ $k -lt 200 ] || { bad="$bad; no end after 200 steps"; break; }
done
check "killed at each of $((k - 1)) durable steps and run again: both told once, the board gone${bad:+ ($bad)}" \
    sh -c '[ -z "$1" ] && [ "$2" -gt 3 ]' sh "$bad" $k
done_testing
