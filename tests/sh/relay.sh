#!/bin/sh
# relay: the spam relay of issue 31.  An attacker forges 25 registrations
# in the names of victimN@victim.example (who never write to the server),
# subscribes each to every board from the attacker's own address, and
# chats and moves on a board between two accounts of the attacker's own.
# With registrations confirmed (src/commands/keywords/register.c) none of the
# victims' accounts exists: each victim gets one mail at most (the code,
# or past the per-domain limit of code mails, max_pending_per_domain_per_hour
# = 10, the refusal), never a board, never the attacker's words.
. "$(dirname "$0")/lib.sh"
need "$bin"
tmpdir
h=$tmp/h
# the attacker rotates senders in the issue: the per-sender limit is no defence here
mkhome "$h" "max_mails_per_hour = 0"
M=mallory@attacker.example
send "$h" $M "register mallory secret" >/dev/null
send "$h" mallory2@attacker.example "register mallory2 secret" >/dev/null
check "setup: the attacker's two accounts" sh -c 'grep -q "^mallory:" "$1/users" && grep -q "^mallory2:" "$1/users"' sh "$h"
send "$h" $M "challenge mallory secret mallory2 -size=5" >/dev/null
check "setup: board 101 between them" [ -f "$h/games/101.game" ]

# the forged registrations: never confirmed (the attacker cannot read the code)
i=0
while [ $i -lt 25 ]; do
	i=$((i + 1))
	mail "victim$i@victim.example" "register v$i pw$i" "forged.$i@attacker.example" >"$tmp/m"
	crash_feed "$h" $((T0 + i)) "$tmp/m" >/dev/null
done
# subscribed from the attacker's own address, to every board and to board 101
i=0
while [ $i -lt 25 ]; do
	i=$((i + 1))
	mail $M "subscribe v$i pw$i all" "suball.$i@attacker.example" | deliver "$h" $((T0 + 100 + i))
	mail $M "subscribe 101 v$i pw$i" "sub101.$i@attacker.example" | deliver "$h" $((T0 + 200 + i))
done
check "no victim became an observer of every board" sh -c '! grep -q "^v[0-9]" "$1/watchers" 2>/dev/null' sh "$h"
check "... nor of board 101" sh -c '! grep "^observers:" "$1/games/101.game" | grep -q "v[0-9]"' sh "$h"
# the attacker's words, by chat and by a move's comment
mail $M "chat 101 mallory secret" "chat1@attacker.example" "BUY CHEAP WATCHES at attacker.example" | deliver "$h" $((T0 + 400))
mail $M "move 101 mallory secret C3" "move1@attacker.example" "BUY CHEAP WATCHES at attacker.example" |
    deliver "$h" $((T0 + 500))
check "setup: the chat and the move were handled" sh -c 'grep -q "cmd=\"chat 101 mallory \*\*\*\*\" ok" "$1/log" &&
    grep -q "cmd=\"move 101 mallory \*\*\*\* C3\" ok" "$1/log"' sh "$h"

# what reached the victims
most=0
words=0
boards=0
i=0
while [ $i -lt 25 ]; do
	i=$((i + 1))
	got=$(replies "$h" "victim$i@victim.example")
	[ "$got" -gt "$most" ] && most=$got
	if [ "$got" -gt 0 ]; then
		grep -l 'BUY CHEAP' "$h/mail/victim$i@victim.example/new/"* >/dev/null 2>&1 && words=$((words + 1))
		grep -l '^Subject: .*Oust Board' "$h/mail/victim$i@victim.example/new/"* >/dev/null 2>&1 &&
		    boards=$((boards + 1))
	fi
done
check "each victim got one mail at most (got $most)" [ "$most" -le 1 ]
check "no victim got the attacker's words ($words did)" [ "$words" = 0 ]
check "no victim got a board mail ($boards did)" [ "$boards" = 0 ]
check "no victim has an account" sh -c '! grep -q "^v[0-9]*:" "$1/users"' sh "$h"
check "the victims past the per-domain limit of code mails were refused" \
    [ "$(grep -c 'register v[0-9]* \*\*\*\*" refused: no registration code now: 10 registration codes were mailed to addresses at victim.example' "$h/log")" = 15 ]
# a day later the registrations lapse: cleanup drops them, the user ids are free
check "cleanup a day later: exit 0" sh -c 'OUSTPBM_TEST_TIME=$(($2 + 86400 + 60)) "$1" -d "$3" cleanup >/dev/null 2>&1' sh "$bin" $T0 "$h"
check "... drops the 10 registrations never confirmed" grep -q 'cleanup board=0 ok: dropped 10 registrations a day old' "$h/log"
check "... none is left in the pending file" sh -c '! grep -q "^v[0-9]* " "$1/pending"' sh "$h"
done_testing
