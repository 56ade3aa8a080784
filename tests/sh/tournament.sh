#!/bin/sh
# tournament: tournaments run by mail from the start to the final standings
# mail (issue 44): a round robin of 5 (a bye each round), a Swiss of 8 over
# 3 rounds, a knockout of 6 (a draw replayed), a ladder with three climbs;
# each checked by tests/sh/tourncheck.py, a computation of its own of the
# pairing rules and the standings, against the file and the final mail;
# the withdrawal rule both sides of half; a robot entrant; the refusals.
. "$(dirname "$0")/lib.sh"
tmpdir
need "$PY"
h=$tmp/h
mkhome "$h" "max_challenges_per_hour = 0" "max_open_challenges = 0"
at=$T0

go() { # FROM COMMAND: one mail at the next minute; its exit status must be 0
	at=$((at + 60))
	mail "$1@example.org" "$2" | deliver "$h" $at || fail "'$2' from $1 exits $?: $(cat "$tmp/stderr")"
}

for u in ann bob cat dan eve fay gus hal ivy jon; do
	go "$u" "register $u pw$u"
done

# The result every game gets, from its board number: a third drawn, then Black and White in turn.
play() { # TID: ends every board of the tournament being played, until it is finished
	f=$h/tournaments/$1
	while grep -q '^status: running' "$f"; do
		line=$(grep '^game: .* [0-9][0-9]* \*$' "$f" | head -1)
		[ -n "$line" ] || { fail "T$1 runs with no game being played"; return; }
		set -- $1 $line
		b=$6 w=$7 board=$8
		case $((board % 3)) in
		0) go "$b" "move $board $b pw$b propose"
		   go "$w" "move $board $w pw$w accept" ;;
		1) go "$w" "resign $board $w pw$w" ;;
		2) go "$b" "resign $board $b pw$b" ;;
		esac
	done
}

# The players of the final standings mail to $2, in its order.
standings() { # TID USER
	m=$(grep -l "^Subject: Oust tournament T$1 .*final standings" "$h/mail/$2@example.org/new/"* | head -1)
	[ -n "$m" ] || { echo "no final mail"; return; }
	sed -n '/^Standings/,/^Pairings/p' "$m" | grep -E '^ ?([0-9]+| -)  [a-z]' | awk '{ print $2 }'
}

checked() { # TID USER: the final mail's order is the checker's
	"$PY" "$top/tests/sh/tourncheck.py" "$h/tournaments/$1" >"$tmp/want" 2>&1
	standings "$1" "$2" >"$tmp/got"
	if cmp -s "$tmp/want" "$tmp/got"; then
		pass "T$1: the pairing rules hold, and the final mail's standings are the checker's"
	else
		fail "T$1: checker: $(tr '\n' ' ' <"$tmp/want"); mail: $(tr '\n' ' ' <"$tmp/got")"
	fi
}

# ---- a round robin of 5: a bye each round
go ann "tournament ann pwann roundrobin -size=5 -players=3-5 Five of us"
check "T1 is made" grep -q '^tournament: T1$' "$h/tournaments/1"
for u in ann bob cat dan; do
	go "$u" "join t1 $u pw$u"
done
check "not full: still open" grep -q '^status: open$' "$h/tournaments/1"
go eve "join T1 eve pweve"
check "full: it begins by itself" grep -q '^status: running$' "$h/tournaments/1"
check "ten boards, every round at once" test "$(grep -c '^game: .* [0-9][0-9]* \*$' "$h/tournaments/1")" = 10
check "a bye each round" test "$(grep -c ' - - bye$' "$h/tournaments/1")" = 5
t1boards=$(grep '^game: .* [0-9][0-9]* \*$' "$h/tournaments/1" | awk '{ print $7 }')
check "each board of T1 says its tournament (tournament: T1)" test "$(for b in $t1boards; do
	grep -l '^tournament: T1$' "$h/games/$b.game"; done | wc -l)" = 10
check "each player one mail with the pairings" test "$(grep -l 'Subject: Oust tournament T1 .* has begun' \
    "$h"/mail/*/new/* | wc -l)" = 5
m=$(grep -l 'Subject: Oust tournament T1 .* has begun' "$h/mail/bob@example.org/new/"*)
check "... naming the boards" grep -q '^Round [1-5]: \(Black\|White\) against [a-z]*, board 1[0-9][0-9]\.$' "$m"
play 1
check "T1 ends" grep -q '^status: finished$' "$h/tournaments/1"
for u in ann bob cat dan eve; do
	check "T1: $u gets the final standings" sh -c "grep -l 'Subject: Oust tournament T1 .*final standings' \
	    '$h/mail/$u@example.org/new/'* >/dev/null"
done
checked 1 cat
m=$(grep -l 'Subject: Oust tournament T1 .*final standings' "$h/mail/dan@example.org/new/"*)
check "the crosstable's header" grep -q '^ #  Player  Rating   1  2  3  4  5  Score    S-B  Direct$' "$m"

# ---- a Swiss of 8 over 3 rounds
go fay "tournament fay pwfay swiss -rounds=3 -size=5 -players=8-8 Swiss eight"
for u in ann bob cat dan eve fay gus hal; do
	go "$u" "join T2 $u pw$u"
done
check "T2 begins with round 1 only" test "$(grep -c '^game: 1 ' "$h/tournaments/2")" = 4
play 2
check "T2 played 3 rounds" test "$(grep -c '^game: 3 ' "$h/tournaments/2")" = 4
checked 2 hal

# ---- a knockout of 6: byes to the top two seeds
go gus "tournament gus pwgus knockout -size=5 -players=6-6 Cup"
for u in ann bob cat dan eve fay; do
	go "$u" "join T3 $u pw$u"
done
check "T3: two byes in round 1" test "$(grep -c '^game: 1 .* bye$' "$h/tournaments/3")" = 2
play 3
checked 3 ann
check "T3: a drawn match was replayed" sh -c "grep -q ' 1/2$' '$h/tournaments/3'"

# ---- refusals
go hal "tournament hal pwhal roundrobin -size=5 -players=3-3 Small"
go hal "join T4 hal pwhal"
go ivy "join T4 ivy pwivy"
go ivy "begin T4 ivy pwivy"
check "begin by someone else is refused" grep -q 'only the director of T4, hal, may begin it' "$h/log"
go jon "join T4 jon pwjon"
check "T4 is full and begins" grep -q '^status: running$' "$h/tournaments/4"
go ann "join T4 ann pwann"
check "join after the start is refused" sh -c "tail -1 '$h/log' | grep -q 'T4 has begun: players join'"
go hal "begin T4 hal pwhal"
check "begin twice is refused" sh -c "tail -1 '$h/log' | grep -q 'T4 has begun already'"

# ---- withdrawal: before half (annulled) and after half (forfeits), in a round robin of 5
go ivy "tournament ivy pwivy roundrobin -size=5 -players=5-5 Leavers"
for u in ann bob cat dan eve; do
	go "$u" "join T5 $u pw$u"
done
# ann plays one game of four, then leaves: annulled
board=$(grep '^game: .* ann .* [0-9][0-9]* \*$' "$h/tournaments/5" | head -1 | awk '{ print $7 }')
go ann "resign $board ann pwann"
go ann "withdraw T5 ann pwann"
check "left before half: annulled" grep -q '^player: ann .* left annulled$' "$h/tournaments/5"
check "... every game of hers annulled" test "$(grep -c '^game: .* ann .* annulled$' "$h/tournaments/5")" = 4
check "the director is told" sh -c "grep -l 'Subject: Oust tournament T5 .*: ann left' '$h/mail/ivy@example.org/new/'* >/dev/null"
go ann "withdraw T5 ann pwann"
check "withdraw twice is refused" sh -c "tail -1 '$h/log' | grep -q 'ann has left T5 already'"
# bob plays two of four (half), then the director removes him: forfeits
for board in $(grep '^game: .* bob .* [0-9][0-9]* \*$' "$h/tournaments/5" | head -2 | awk '{ print $7 }'); do
	go bob "resign $board bob pwbob"
done
go ivy "withdraw T5 ivy pwivy bob"
check "left at half: not annulled" grep -q '^player: bob .* left$' "$h/tournaments/5"
check "... his unplayed games lost by forfeit" test "$(grep -c '^game: .* bob .* \(+-\|-+\)$' "$h/tournaments/5")" = 1
play 5
checked 5 cat
m=$(grep -l 'Subject: Oust tournament T5 .*final standings' "$h/mail/cat@example.org/new/"*)
check "the crosstable marks the leavers" grep -q 'ann (left) .* x  x  x' "$m"

# ---- the robot entrant
go jon "tournament jon pwjon roundrobin -size=5 -players=3-3 With the robot"
go jon "join T6 jon pwjon -robot=1"
check "the robot is in" grep -q '^player: robot [0-9]* robot=1' "$h/tournaments/6"
go ann "join T6 ann pwann -robot=2"
check "only the director enters the robot" sh -c "tail -1 '$h/log' | grep -q 'only the director of T6, jon, may enter the robot'"
go ann "join T6 ann pwann"
go jon "join T6 jon pwjon"
check "T6 begins" grep -q '^status: running$' "$h/tournaments/6"
b=$(grep '^game: .* robot ' "$h/tournaments/6" | head -1 | awk '{ print $7 }')
check "the robot's board has its level" grep -q '^robot-level: 1$' "$h/games/$b.game"

# ---- a ladder with three climbs: ann bob cat dan eve (equal ratings: by user id)
go ann "tournament ann pwann ladder -size=5 -players=2-10 -rounds=3 Ladder"
for u in ann bob cat dan eve; do
	go "$u" "join T7 $u pw$u"
done
go ann "begin T7 ann pwann"
check "T7: places by rating" test "$(grep '^player:' "$h/tournaments/7" | sed 's/.*place=\([0-9]*\).*/\1/' |
    tr -d '\n')" = 12345
ladder() { # the players by place
	grep '^player:' "$h/tournaments/7" | sed 's/^player: \([a-z]*\) .*place=\([0-9]*\).*/\2 \1/' | sort -n |
	    awk '{ printf "%s ", $2 }'
}
go eve "challenge eve pweve ann -ladder=T7"
check "a challenge 4 places up is refused (reach 3)" sh -c "tail -1 '$h/log' | grep -q 'a challenge goes 1 to 3 places up'"
go eve "challenge eve pweve bob -ladder=T7"
board=$(grep '^game: .* eve bob [0-9]* \*$' "$h/tournaments/7" | awk '{ print $7 }')
check "eve challenges bob, 3 up: board $board" test -f "$h/games/$board.game"
go bob "resign $board bob pwbob"
check "climb 1: eve takes place 2, bob and those between move down" test "$(ladder)" = "ann eve bob cat dan "
go dan "challenge dan pwdan cat -ladder=T7"
go dan "challenge dan pwdan bob -ladder=T7"
check "a second open ladder challenge is refused" sh -c "tail -1 '$h/log' | grep -q 'open ladder challenge in T7 already'"
board=$(grep '^game: .* dan cat [0-9]* \*$' "$h/tournaments/7" | awk '{ print $7 }')
go cat "resign $board cat pwcat"
check "climb 2" test "$(ladder)" = "ann eve bob dan cat "
go cat "challenge cat pwcat bob -ladder=T7 -white"
board=$(grep '^game: .* bob cat [0-9]* \*$' "$h/tournaments/7" | awk '{ print $7 }')
go bob "resign $board bob pwbob"
check "climb 3 (the challenger White)" test "$(ladder)" = "ann eve cat bob dan "
check "T7 ends after its 3 games" grep -q '^status: finished$' "$h/tournaments/7"
check "the final standings: the ladder's places" test "$(standings 7 dan | tr '\n' ' ')" = "ann eve cat bob dan "

# ---- fsck: the boards' tournament: lines against the tournament files (doc/game-file.md)
"$bin" -d "$h" fsck >"$tmp/fsck" 2>&1
check "fsck: every tournament board names its tournament" sh -c "! grep -q 'game of T\\|no tournament: line' '$tmp/fsck'"
f=$tmp/f
cp -R "$h" "$f"
set -- $t1boards
sed -i 's/^tournament: T1$/tournament: T2/' "$f/games/$1.game"
sed -i '/^tournament: T1$/d' "$f/games/$2.game"
sed -e 's/^board: .*/board: 990/' "$f/games/$3.game" >"$f/games/990.game"
sed -i 's/^tournament: T1$/tournament: T1x/' "$f/games/$4.game"
"$bin" -d "$f" fsck >"$tmp/fsck" 2>&1
check "fsck: a board of T1 naming T2 is a problem" grep -q "^tournaments/1: board $1 says it is a game of T2$" "$tmp/fsck"
check "fsck: a board of T1 without the line is a note" grep -q "^tournaments/1: note: board $2 has no tournament: line" \
    "$tmp/fsck"
check "fsck: a board naming T1 that T1 does not list is a problem" \
    grep -q "^tournaments/1: board 990 says it is a game of T1, which does not list it$" "$tmp/fsck"
check "fsck: a bad tournament: line is named" grep -q "^games/$4.game:[0-9]*: .*tournament must be T1 to T999999, not '1x'" \
    "$tmp/fsck"
check "a board without the line still loads" sh -c "printf 'loadgame %s\\n' '$f/games/$2.game' | '$bin' engine | grep -q '^= '"

done_testing
