#!/bin/sh
# queue: conditional turns end to end.  A queued answer that became illegal
# (the admin put a stone on its point after the queue was sent) is dropped,
# its owner alone told why, the opponent's turn played all the same; a
# queued answer played in the same delivery as the opponent's move is
# played once when that mail is delivered again; oustpbm fsck accepts the
# boards afterwards.
. "$(dirname "$0")/lib.sh"
tmpdir
A=alice@example.org
B=bob@example.com

# base HOME: alice and bob, board 101 (5x5) after C3 and A5, alice to move; bob's queue
base() {
	mkhome "$1"
	for m in "$A|register alice secret" "$B|register bob hunter2" "$A|challenge alice secret bob -size=5" \
	    "$A|move 101 alice secret C3" "$B|move 101 bob hunter2 A5" "$B|queue 101 bob hunter2 E1 => A1; D4 => E5"; do
		mail "${m%%|*}" "${m#*|}" | deliver "$1" $T0
	done
}

h=$tmp/illegal
base "$h"
check "the queue is in the game file" grep -qx 'queue: bob E1=>A1;D4=>E5' "$h/games/101.game"
# the admin's edit: a white stone on E5, bob's answer to D4 (the history no longer leads to the drawing)
sed -i 's/^ 5  \([oO]\) \. \. \. \.   5$/ 5  \1 . . . o   5/' "$h/games/101.game"
check "the edit took" grep -q '^ 5  [oO] \. \. \. o   5$' "$h/games/101.game"
a0=$(replies "$h" $A)
b0=$(replies "$h" $B)
mail $A "move 101 alice secret D4" | deliver "$h" $((T0 + 60))
check "alice's D4 is played" grep -q '^3 .* x alice D4$' "$h/games/101.game"
check "... bob's queued E5 is not" sh -c "! grep -q '^4 ' '$h/games/101.game'"
check "... the queue is gone" sh -c "! grep -q '^queue:' '$h/games/101.game'"
check "... bob is to move" grep -qx 'to-move: white' "$h/games/101.game"
check "... one mail to alice" [ "$(replies "$h" $A)" = $((a0 + 1)) ]
check "... one mail to bob" [ "$(replies "$h" $B)" = $((b0 + 1)) ]
check "... bob is told his answer became illegal" grep -q 'Your queued answer E5 to D4 (line 2) has become illegal' \
    "$(newest "$h" $B)"
check "... alice is not told of it" sh -c "! grep -q 'queue' '$(newest "$h" $A)'"

h=$tmp/again
base "$h"
mail $A "move 101 alice secret D4" "queued-again@example.org" >"$tmp/m"
deliver "$h" $((T0 + 60)) <"$tmp/m"
cp "$h/games/101.game" "$tmp/after"
check "D4 and bob's queued E5 are played" grep -q '^4 .* o bob E5$' "$h/games/101.game"
a0=$(replies "$h" $A)
deliver "$h" $((T0 + 120)) <"$tmp/m"
check "the same mail again changes nothing" cmp -s "$h/games/101.game" "$tmp/after"
check "... and sends nothing new" [ "$(replies "$h" $A)" = "$a0" ]
check "oustpbm fsck accepts the board" sh -c "'$bin' -d '$h' fsck >/dev/null 2>&1"
done_testing
