#!/bin/sh
# redelivery: the same mail delivered again (same Message-ID) is dropped
# without a second answer, whatever its command; a mail without a
# Message-ID is answered each time; the per-sender limit
# (max_mails_per_hour) drops mails beyond it without a reply (src/store/seen.h).
. "$(dirname "$0")/lib.sh"
tmpdir

# run HOME TIME FROM SUBJECT ID: feed a mail, print the exit status ("" ID: no Message-ID header)
run() {
	mail "$3" "$4" "${5:--}" hello | deliver "$1" "$2"
	echo $?
}

home() { # HOME [CONF LINE]
	mkhome "$1" ${2:+"$2"}
}

A=alice@example.org
B=bob@example.com

# ---- a move delivered twice, without #turn
h=$tmp/move
home "$h"
run "$h" $T0 $A "register alice secret" r1@x >/dev/null
run "$h" $T0 $B "register bob hunter2" r2@x >/dev/null
run "$h" $T0 $A "challenge alice secret bob -size=5" c1@x >/dev/null
check "a move is handled" [ "$(run "$h" $((T0 + 60)) $A "move 101 alice secret C3" m1@x)" = 0 ]
before=$(store_sum "$h")
ra=$(replies "$h" $A)
rb=$(replies "$h" $B)
check "the same move again: exit 0" [ "$(run "$h" $((T0 + 120)) $A "move 101 alice secret C3" m1@x)" = 0 ]
check "... the store is unchanged" [ "$(store_sum "$h")" = "$before" ]
check "... no reply to the mover" [ "$(replies "$h" $A)" = "$ra" ]
check "... none to the opponent" [ "$(replies "$h" $B)" = "$rb" ]
check "... logged as a dropped copy" \
    grep -q '^2023-11-14T22:15:20Z mail <m1@x> from=alice@example.org board=- cmd="" dropped: a copy of the mail handled at 2023-11-14T22:14:20Z (same Message-ID)$' "$h/log"
check "a challenge delivered again makes no second board" \
    sh -c '[ "$1" = 0 ] && [ ! -f "$2" ]' sh "$(run "$h" $((T0 + 130)) $A "challenge alice secret bob -size=5" c1@x)" "$h/games/102.game"
check "a register delivered again is not answered again" \
    [ "$(run "$h" $((T0 + 140)) $A "register alice secret" r1@x) $(replies "$h" $A)" = "0 $ra" ]

# ---- refusals, show and help are not answered twice either
for cmd in "show 101" "help" "move 101 alice wrong C4" "nonsense words"; do
	id=$(echo "$cmd" | tr -c 'a-z0-9' '-')@x
	run "$h" $((T0 + 200)) $A "$cmd" "$id" >/dev/null
	r=$(replies "$h" $A)
	check "'$cmd' delivered again: exit 0" [ "$(run "$h" $((T0 + 210)) $A "$cmd" "$id")" = 0 ]
	check "... and not answered again" [ "$(replies "$h" $A)" = "$r" ]
done

# ---- a chat delivered again: its text does not reach the opponent twice
run "$h" $((T0 + 220)) $A "chat 101 alice secret" chat1@x >/dev/null
ra=$(replies "$h" $A)
rb=$(replies "$h" $B)
check "a chat reaches the opponent" grep -q 'alice writes to you about board 101' "$(ls -t "$h/mail/$B/new/"* | head -1)"
check "... delivered again: exit 0" [ "$(run "$h" $((T0 + 230)) $A "chat 101 alice secret" chat1@x)" = 0 ]
check "... no second copy to the opponent, nor to the sender" [ "$(replies "$h" $A) $(replies "$h" $B)" = "$ra $rb" ]
check "... the chat noted once in the history" [ "$(grep -c '^- .* x alice chat$' "$h/games/101.game")" = 1 ]

# ---- two copies of one chat delivered at the same instant: the board's lock
# is held while both start, so that both pass the first look at the record
# before either takes the lock; the one that gets it second finds the first's
# record under it (MAILCMD_LOCK) and is dropped
ra=$(replies "$h" $A)
rb=$(replies "$h" $B)
notes=$(grep -c '^- .* x alice chat$' "$h/games/101.game")
hold_lock "$h/games/101.lock"
for i in 1 2; do
	(mail $A "chat 101 alice secret" chat2@x hello | deliver "$h" $((T0 + 240)); echo $? >"$tmp/twin$i") &
done
sleep 1
release_lock
wait
check "two copies of a chat at once: both exit 0" [ "$(cat "$tmp/twin1") $(cat "$tmp/twin2")" = "0 0" ]
check "... one handled, one dropped as a copy" \
    [ "$(grep -c '<chat2@x>.* ok: chat' "$h/log") $(grep -c '<chat2@x>.* dropped: a copy of the mail' "$h/log")" = "1 1" ]
check "... the opponent gets it once, the sender one copy" [ "$(replies "$h" $A) $(replies "$h" $B)" = "$((ra + 1)) $((rb + 1))" ]
check "... noted once" [ "$(grep -c '^- .* x alice chat$' "$h/games/101.game")" = $((notes + 1)) ]

# ---- and without holding the lock: pairs started together, each passed on once
bad=
for i in 1 2 3 4 5; do
	rb=$(replies "$h" $B)
	for j in 1 2; do
		(mail $A "chat 101 alice secret" "chat-pair$i@x" "pair $i" | deliver "$h" $((T0 + 250 + i)); echo $? >"$tmp/pair$j") &
	done
	wait
	[ "$(cat "$tmp/pair1") $(cat "$tmp/pair2")" = "0 0" ] || bad="$bad; pair $i: exits $(cat "$tmp/pair1") $(cat "$tmp/pair2")"
	[ "$(replies "$h" $B)" = $((rb + 1)) ] || bad="$bad; pair $i: bob got $(($(replies "$h" $B) - rb)) mails"
	[ "$(grep -c "<chat-pair$i@x>.* ok: chat" "$h/log")" = 1 ] || bad="$bad; pair $i: not handled once"
done
check "five pairs of copies of a chat at once: each passed on once${bad}" [ -z "$bad" ]

# ---- no Message-ID: no record, answered each time
r=$(replies "$h" $A)
run "$h" $((T0 + 300)) $A "help" "" >/dev/null
run "$h" $((T0 + 301)) $A "help" "" >/dev/null
check "a mail without Message-ID is answered each time" [ "$(replies "$h" $A)" = $((r + 2)) ]

# ---- crash after the commit, before anything else: the record says pending
h=$tmp/crash
home "$h"
run "$h" $T0 $A "register alice secret" r1@x >/dev/null
run "$h" $T0 $B "register bob hunter2" r2@x >/dev/null
run "$h" $T0 $A "challenge alice secret bob -size=5" c1@x >/dev/null
run "$h" $((T0 + 60)) $A "move 101 alice secret C3" m1@x >/dev/null
check "the move's entry is pending until the next change of the board" grep -q ' 101 [0-9]*:[0-9a-f]* alice@example.org m1@x$' "$h/seen"
cp "$h/games/101.game" "$tmp/101.after"
run "$h" $((T0 + 120)) $B "move 101 bob hunter2 A1" m2@x >/dev/null
check "the next move settles it" grep -q '^[0-9]* 101 = alice@example.org m1@x$' "$h/seen"
check "redelivering the first move after the board moved on: dropped" \
    [ "$(run "$h" $((T0 + 180)) $A "move 101 alice secret E5" m1@x) $(grep -c 'm1@x.*dropped' "$h/log")" = "0 1" ]

# ---- a move with a wrong password: refused before its transaction begins
# (src/commands/pipeline/txn.h: authentication is the step before), so
# nothing is recorded pending the board
cp "$h/games/101.game" "$tmp/101.before-wrong"
run "$h" $((T0 + 240)) $A "move 101 alice wrong E5" w1@x >/dev/null
check "a wrong password changes no board" cmp -s "$h/games/101.game" "$tmp/101.before-wrong"
check "no entry pending the board for it" sh -c '! grep -q " 101 [^ ]* alice@example.org w1@x\$" "$1"' sh "$h/seen"
check "and the refusal is recorded as a handled mail" grep -q '^[0-9]* 0 - alice@example.org w1@x$' "$h/seen"
check "redelivered, it is dropped, not answered again" \
    [ "$(run "$h" $((T0 + 300)) $A "move 101 alice wrong E5" w1@x) $(grep -c 'w1@x.*dropped' "$h/log")" = "0 1" ]

# ---- a pending move whose game file was never written is handled when redelivered
h=$tmp/lost
home "$h"
run "$h" $T0 $A "register alice secret" r1@x >/dev/null
run "$h" $T0 $B "register bob hunter2" r2@x >/dev/null
run "$h" $T0 $A "challenge alice secret bob -size=5" c1@x >/dev/null
printf '%s 101 99:0123456789abcdef alice@example.org m1@x\n' $((T0 + 50)) >>"$h/seen"
check "a move recorded pending but never written: handled on redelivery" \
    sh -c '[ "$1" = 0 ] && grep -q "^turn: 2\$" "$2"' sh "$(run "$h" $((T0 + 60)) $A "move 101 alice secret C3" m1@x)" "$h/games/101.game"

# ---- Message-IDs are compared whole, per sender
h=$tmp/ids
home "$h"
long=$(printf '%0250d' 7)
# answered HOME TIME FROM ID COUNT: the mail exits 0 and FROM then has COUNT replies
answered() {
	[ "$(run "$1" "$2" "$3" help "$4")" = 0 ] && [ "$(replies "$1" "$3")" = "$5" ]
}
check "an id of 260 bytes: answered" answered "$h" $T0 $A "${long}aaaaaaaaaa@x" 1
check "... another with the same first 250 bytes is another mail: answered" answered "$h" $T0 $A "${long}bbbbbbbbbb@x" 2
check "... the first again is a copy: dropped" answered "$h" $T0 $A "${long}aaaaaaaaaa@x" 2
check "an id with a space: answered" answered "$h" $T0 $A "sp ace@x" 3
check "... the same id without the space is another mail: answered" answered "$h" $T0 $A "space@x" 4
check "... the id with the space again: dropped" answered "$h" $T0 $A "sp ace@x" 4
check "the same id from another sender is that sender's mail: answered" answered "$h" $T0 $B "space@x" 1

# ---- the per-sender limit
h=$tmp/rate
home "$h" "max_mails_per_hour = 3"
for i in 1 2 3; do
	run "$h" $((T0 + i)) $A help "h$i@x" >/dev/null
done
check "three mails in the hour are answered" [ "$(replies "$h" $A)" = 3 ]
check "the fourth: exit 0" [ "$(run "$h" $((T0 + 10)) $A help h4@x)" = 0 ]
check "... not carried out, but the sender is told, once" sh -c \
    '[ "$(ls "$1" | wc -l)" = 4 ] && [ "$(for f in "$1"/*; do tr "\n" " " <"$f" | grep -q "you have sent 3 mails  *in  *the  *last  *hour" && echo "$f"; done | wc -l)" = 1 ]' sh "$h/mail/$A/new"
check "... logged as refused" grep -q 'mail <h4@x> from=alice@example.org board=- cmd="" refused: you have sent 3 mails in the last hour' "$h/log"
check "the fifth: exit 0, dropped without a word" [ "$(run "$h" $((T0 + 10)) $A help h4b@x) $(replies "$h" $A)" = "0 4" ]
check "... logged as dropped" grep -q 'mail <h4b@x> from=alice@example.org board=- cmd="" dropped: alice@example.org sent 4 mails in the last hour (max_mails_per_hour = 3)$' "$h/log"
check "mails without Message-ID count too" [ "$(run "$h" $((T0 + 11)) $A help "") $(replies "$h" $A)" = "0 4" ]
check "another sender is still answered" [ "$(run "$h" $((T0 + 12)) $B help h5@x) $(replies "$h" $B)" = "0 1" ]
check "an hour after the first, answered again" [ "$(run "$h" $((T0 + 3601)) $A help h6@x) $(replies "$h" $A)" = "0 5" ]
check "dropped mails are not recorded (the notice is)" [ "$(grep -c 'alice@example.org' "$h/seen")" = 5 ]
h=$tmp/norate
home "$h" "max_mails_per_hour = 0"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; do
	run "$h" $((T0 + i)) $A help "n$i@x" >/dev/null
done
check "max_mails_per_hour = 0: no limit (32 answered)" [ "$(replies "$h" $A)" = 32 ]
h=$tmp/defrate
home "$h"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; do
	run "$h" $((T0 + i)) $A help "d$i@x" >/dev/null
done
check "the default limit is 30 an hour (and one notice)" [ "$(replies "$h" $A)" = 31 ]

done_testing
