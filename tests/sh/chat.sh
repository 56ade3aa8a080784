#!/bin/sh
# chat: the mail command end to end with what reads the history after it.
# A chat is a note in the game file's history (who and when, never the text:
# src/game/game.h); the tests play by mail around chats and check that the
# note is no turn (the #turn of the next move, the turn count), that an open
# undo or draw offer outlives chats and is accepted after them, that the
# history listing (`oustpbm show`, the board mails' "Last turns") shows the
# chat, that fsck finds the files sound (the history replays to the board),
# and that `oustpbm export` and `oustpbm import` give back the same game file.
. "$(dirname "$0")/lib.sh"
tmpdir

A=alice@example.org
B=bob@example.com
h=$tmp/home
mkhome "$h" 'max_mails_per_hour = 0'
t=$T0
# run FROM SUBJECT [BODY]: one mail, a minute after the last; prints the exit status
run() {
	t=$((t + 60))
	mail "$1" "$2" "" "${3:-}" | deliver "$h" $t
	echo $?
}
run $A "register alice secret" >/dev/null
run $B "register bob hunter2" >/dev/null
run $A "challenge alice secret bob -size=5 -noswap" >/dev/null
run $A "move 101#1 alice secret C3" >/dev/null

# ---- a chat is no turn
before=$(grep -c '^[0-9]' "$h/games/101.game")
check "bob chats: exit 0" [ "$(run $B "chat 101 bob hunter2" "Nice opening.")" = 0 ]
check "... noted in the history, without the text" sh -c "tail -1 '$h/games/101.game' | grep -q '^- [0-9T:Z-]* o bob chat\$' &&
    ! grep -q 'Nice opening' '$h/games/101.game'"
check "... the turn count and the side to move stay" sh -c "grep -q '^turn: 2\$' '$h/games/101.game' &&
    grep -q '^to-move: white\$' '$h/games/101.game' && [ \$(grep -c '^[0-9]' '$h/games/101.game') = $before ]"
check "... alice got the text" grep -q 'Nice opening' "$(newest "$h" $A)"
check "bob's move 101#2 after the chat: turn 2 still" [ "$(run $B "move 101#2 bob hunter2 A5")" = 0 ]
check "... played" grep -q '^2 .* o bob A5$' "$h/games/101.game"
check "... its mail lists the chat among the last turns" sh -c "grep -q '^   -  o bob    chat (wrote to the board.s readers)\$' '$(newest "$h" $A)'"
check "show lists the chat between turns 1 and 2" sh -c "'$bin' -d '$h' show 101 | grep -A1 '^   1  ' |
    grep -q '^   -  o bob    chat'"
check "show 101#1: the position after turn 1" sh -c "'$bin' -d '$h' show 101#1 | grep -q 'after turn 1 of 2'"

# ---- an offer outlives chats: a draw offered, chatted about, accepted
check "alice proposes a draw" [ "$(run $A "move 101 alice secret propose")" = 0 ]
check "bob chats about it" [ "$(run $B "chat 101 bob hunter2" "Why a draw?")" = 0 ]
check "alice answers" [ "$(run $A "chat 101 alice secret" "I am busy this month.")" = 0 ]
check "bob accepts after the chats" [ "$(run $B "move 101 bob hunter2 accept")" = 0 ]
check "... the game is drawn by agreement" sh -c "grep -q '^status: drawn\$' '$h/games/101.game' &&
    grep -q '^end: agreement\$' '$h/games/101.game'"
check "a chat after the end: exit 0" [ "$(run $A "chat 101 alice secret" "Thanks for the game.")" = 0 ]
check "... noted after the accept" sh -c "tail -2 '$h/games/101.game' | head -1 | grep -q ' o bob accept draw\$' &&
    tail -1 '$h/games/101.game' | grep -q ' x alice chat\$'"

# ---- an undo outlives chats too
run $B "challenge bob hunter2 alice -size=5 -noswap" >/dev/null
run $B "move 102#1 bob hunter2 C3" >/dev/null
run $A "move 102#2 alice secret E5" >/dev/null
run $B "move 102#3 bob hunter2 A1" >/dev/null
check "bob asks to take back turn 3" [ "$(run $B "move 102 bob hunter2 undo")" = 0 ]
check "alice chats" [ "$(run $A "chat 102 alice secret" "Misclick?")" = 0 ]
check "bob chats" [ "$(run $B "chat 102 bob hunter2" "Yes, sorry.")" = 0 ]
check "alice accepts the undo after the chats" [ "$(run $A "move 102 alice secret accept")" = 0 ]
check "... turn 3 is gone, bob plays it again" sh -c "! grep -q '^3 ' '$h/games/102.game' &&
    grep -q '^turn: 3\$' '$h/games/102.game' && grep -q ' o alice accept undo:3\$' '$h/games/102.game'"
check "bob's move 102#3 again" [ "$(run $B "move 102#3 bob hunter2 B2")" = 0 ]
check "... played" grep -q '^3 .* x bob B2$' "$h/games/102.game"

# ---- the cap: a board whose history holds GAME_CHATS_MAX (2000) chats takes no more
# (chats of the day before: max_chats_per_hour counts the last hour)
run $A "challenge alice secret bob -size=5 -noswap" >/dev/null
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "- 2023-11-13T22:30:00Z %s chat\n", i % 2 ? "o bob" : "x alice" }' \
    >>"$h/games/103.game"
check "a board with 2000 chats loads" sh -c "'$bin' -d '$h' fsck 103 >/dev/null 2>&1"
cp "$h/games/103.game" "$tmp/103.before"
rb=$(replies "$h" $B)
check "chat 2001: exit 0" [ "$(run $A "chat 103 alice secret" "One more.")" = 0 ]
check "... refused, saying why" grep -q 'refused: board 103 has had 2000 chats, as many as its history keeps: no more can be passed on$' "$h/log"
check "... nothing changed, nothing passed on" sh -c "cmp -s '$tmp/103.before' '$h/games/103.game' && [ \$(ls '$h/mail/$B/new' | wc -l) = $rb ]"
check "... a move still works there" [ "$(run $A "move 103#1 alice secret C3")" = 0 ]

# ---- what reads the whole file
check "fsck: both boards sound (the histories replay to the boards)" sh -c "'$bin' -d '$h' fsck 101 102 >/dev/null 2>&1"
for b in 101 102; do
	# the board aside meanwhile: import refuses a copy of a game the home holds
	check "board $b: export, then import as board $((b + 100)): exit 0" sh -c "'$bin' -d '$h' export $b >'$tmp/$b.sgf' &&
	    mv '$h/games/$b.game' '$tmp/$b.aside' && '$bin' -d '$h' import '$tmp/$b.sgf' $((b + 100)) >/dev/null;
	    rc=\$?; mv '$tmp/$b.aside' '$h/games/$b.game'; exit \$rc"
	check "... the record holds the chats as notes" grep -q 'OUSTNOTE\[- [0-9T:Z-]* [xo] [a-z]* chat\]' "$tmp/$b.sgf"
	sed "s/^board: $b\$/board: $((b + 100))/" "$h/games/$b.game" >"$tmp/$b.want"
	check "... the same game file back" cmp -s "$tmp/$b.want" "$h/games/$((b + 100)).game"
done
# ---- chat-rate-limit: max_chats_per_hour per account (on all its boards) and per board
h=$tmp/rate
mkhome "$h" 'max_mails_per_hour = 0' 'max_chats_per_hour = 2'
t=$T0
run $A "register alice secret" >/dev/null
run $B "register bob hunter2" >/dev/null
run $A "challenge alice secret bob -size=5" >/dev/null
run $A "challenge alice secret bob -size=5" >/dev/null
run $A "chat 101 alice secret" "One." >/dev/null
run $A "chat 102 alice secret" "Two." >/dev/null
rb=$(replies "$h" $B)
check "chat-rate-limit: alice's third chat in the hour: exit 0" \
    [ "$(run $A "chat 101 alice secret" "Three.")" = 0 ]
check "... refused, saying which limit" sh -c 'tail -n 1 "$1" | grep -q "refused: alice has sent 2 chats in the last hour, the most an account sends (max_chats_per_hour = 2)"' sh "$h/log"
check "... and bob got nothing" [ "$(replies "$h" $B)" = "$rb" ]
run $B "chat 101 bob hunter2" "Four." >/dev/null
check "chat-rate-limit: board 101's second chat of the hour goes (bob's first)" sh -c 'tail -n 1 "$1" | grep -q "ok: chat"' sh "$h/log"
run $B "chat 101 bob hunter2" "Five." >/dev/null
check "... its third is refused, saying the board's limit" sh -c 'tail -n 1 "$1" | grep -q "refused: board 101 has carried 2 chats in the last hour"' sh "$h/log"
t=$((T0 + 7200))
check "an hour later alice chats again" [ "$(run $A "chat 101 alice secret" "Six.")" = 0 ]
check "... passed on" sh -c 'tail -n 1 "$1" | grep -q "ok: chat"' sh "$h/log"

done_testing
