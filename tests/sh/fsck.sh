#!/bin/sh
# fsck: `oustpbm fsck` on damaged homes, one kind of damage per case, each
# checked for the exact report (file, line, message) and the exit status.
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_TIME=$T0


# A home with board 101 (5x5, three turns: C3, A1, E5), whose game file is:
#  2 board: 101 / 5 black: alice / 6 white: bob / 7 status: playing / 8 to-move: white
#  18-22 the rows 5 to 1 / 25 history: / 26-28 the turns 1-3
mkhome "$tmp/pristine"
send id=- "$tmp/pristine" alice@example.org "register alice secret"
send id=- "$tmp/pristine" bob@example.com "register bob pw"
send id=- "$tmp/pristine" alice@example.org "challenge alice secret bob -size=5"
send id=- "$tmp/pristine" alice@example.org "move 101 alice secret C3"
send id=- "$tmp/pristine" bob@example.com "move 101 bob pw A1"
send id=- "$tmp/pristine" alice@example.org "move 101 alice secret E5"

# fsck_case NAME EXPECTED-EXIT EXPECTED-OUTPUT [fsck arguments] <<< damage commands on stdin, run in the home
fsck_case() {
	name=$1
	want_rc=$2
	want_out=$3
	shift 3
	h=$tmp/$name
	rm -rf "$h"
	cp -a "$tmp/pristine" "$h"
	(cd "$h" && sh -e) || echo "not ok - $name: the damage could not be made"
	all=$("$bin" -d "$h" fsck "$@" 2>"$tmp/err")
	rc=$?
	check "$name: exit $want_rc" [ "$rc" = "$want_rc" ]
	# the last line sums up: the number of problems, also none
	out=$(printf '%s\n' "$all" | sed '$d')
	k=$(printf '%s' "$want_out" | grep -c .)
	case $k in
	0) want_sum="fsck: no problems found" ;;
	1) want_sum="fsck: 1 problem found" ;;
	*) want_sum="fsck: $k problems found" ;;
	esac
	check "$name: the last line is '$want_sum'" [ "$(printf '%s\n' "$all" | tail -n 1)" = "$want_sum" ]
	if [ "$out" = "$want_out" ]; then
		echo "ok $((n + 1)) - $name: reports '$(echo "$want_out" | tr '\n' '|')'"
	else
		echo "not ok $((n + 1)) - $name: reports '$out', expected '$want_out'"
	fi
	n=$((n + 1))
}

fsck_case sound 0 "" </dev/null
check "sound: nothing on stderr either" [ ! -s "$tmp/err" ]
check "the game file's line numbers are the ones this test assumes" \
    sh -c "sed -n '7p;22p;28p' '$tmp/pristine/games/101.game' | tr '\n' '|' | grep -qx 'status: playing| 1  o . . . .   1|3 2023-11-14T22:13:20Z x alice E5|'"

# the pending part of a turn sent by reply token (games/README.md): it must begin a turn from the position
fsck_case pending-occupied 65 "games/101.game:9: pending: E5 is not legal there (the point is occupied)" <<'EOF'
sed -i '8a pending: E5' games/101.game
EOF
fsck_case pending-turn-over 65 "games/101.game:9: pending: the turn is over after B2: it is no part of a turn" <<'EOF'
sed -i '8a pending: B2' games/101.game
EOF
fsck_case pending-not-placements 65 "games/101.game:9: pending: want placements joined by commas, at most 2600 bytes, not 'B2;C1'" <<'EOF'
sed -i '8a pending: B2;C1' games/101.game
EOF

fsck_case parse-error 65 "games/101.game:7: unknown status 'plying'" <<'EOF'
sed -i 's/^status: playing/status: plying/' games/101.game
EOF
check "parse-error: the count on stderr" grep -qx 'oustpbm: fsck: 1 problem' "$tmp/err"

fsck_case history-form 65 "games/101.game:27: 'carol' is not a player of board 101" <<'EOF'
sed -i 's/^2 \(.*\) o bob A1/2 \1 o carol A1/' games/101.game
EOF

fsck_case history-replay 65 "games/101.game:28: turn 3: C3: the point is occupied" <<'EOF'
sed -i 's/^3 \(.*\) x alice E5/3 \1 x alice C3/' games/101.game
EOF

fsck_case position-edited 65 "games/101.game:19: A4 is black, but empty after the history" <<'EOF'
sed -i 's/^ 4  \. \. \. \. \.   4/ 4  x . . . .   4/' games/101.game
EOF

fsck_case header-status 65 "games/101.game:7: the result is B+, but unknown after the history" <<'EOF'
sed -i 's/^status: playing/status: black-won/; s/^to-move: white/end: capture/; /^remind: /d' games/101.game
EOF

fsck_case board-id 65 "games/102.game:2: board 101 in a file named for board 102" <<'EOF'
cp games/101.game games/102.game
echo 103 >games/next-board
EOF

fsck_case counter-behind 65 "games/next-board:1: the counter 101 is not ahead of board 101 (games/101.game)" <<'EOF'
echo 101 >games/next-board
EOF

fsck_case counter-garbage 65 "games/next-board:1: 'abc' is not a board number" <<'EOF'
echo abc >games/next-board
EOF

fsck_case counter-missing 65 "games/next-board: missing, but board 101 exists" <<'EOF'
rm games/next-board
EOF

fsck_case user-missing 65 "games/101.game:6: white bob has no account in the users file" <<'EOF'
sed -i '/^bob:/d' users
EOF

# "Alice" after "alice": ids compare without case, so the second is never found
fsck_case user-twice-by-case 65 "users:9: user id alice is the one of line 7 (user ids compare without case): this account can never be reached" <<'EOF'
echo 'Alice:alice2@example.org:*:The other Alice' >>users
EOF

# an account from before the robot player: the name is the robot's now
fsck_case user-robot 65 "users:9: user id robot is the built-in robot player's (robot.h): this account can never log in, and its games are played by the robot; rename it" <<'EOF'
echo 'robot:robbie@example.org:*:An old account' >>users
EOF

fsck_case users-damaged 65 "users: $tmp/users-damaged/users line 9 has fewer than four ':'-separated fields" <<'EOF'
echo 'carol:carol@example.net' >>users
EOF

fsck_case stale-tmp-games 65 "games/.101.game.99999999.0.tmp: temporary file of an interrupted write, its process gone: remove it" <<'EOF'
echo partial >games/.101.game.99999999.0.tmp
EOF

fsck_case stale-tmp-home 65 ".users.99999999.3.tmp: temporary file of an interrupted write, its process gone: remove it" <<'EOF'
echo partial >.users.99999999.3.tmp
EOF

# a temporary file whose writer still runs (this shell) is not stale
fsck_case live-tmp 0 "" <<EOF
echo partial >games/.101.game.$$.0.tmp
EOF

fsck_case misnamed 65 "games/0101.game: not a board file name (<board>.game, board 101 to 99999999): the server never reads it" <<'EOF'
cp games/101.game games/0101.game
EOF

fsck_case two-problems 65 "games/next-board:1: 'abc' is not a board number
games/101.game:7: unknown status 'plying'" <<'EOF'
sed -i 's/^status: playing/status: plying/' games/101.game
echo abc >games/next-board
EOF
check "two-problems: the count on stderr" grep -qx 'oustpbm: fsck: 2 problems' "$tmp/err"

# the boards given: only those files, no store-wide checks
fsck_case given-board-sound 0 "" 101 <<'EOF'
echo abc >games/next-board
EOF
fsck_case given-board-missing 65 "games/555.game: no such board" 555 </dev/null
fsck_case given-board-damaged 65 "games/101.game:7: unknown status 'plying'" 101 <<'EOF'
sed -i 's/^status: playing/status: plying/' games/101.game
EOF
# the clock keys of a game file (issue 43, src/game/gamefile_clock.c)
fsck_case clock-bad-spec 65 "games/101.game:9: clock must be D+I/C in days (0 < D <= C <= 3650, as 3+1.5/5), not '3+x/3'" <<'EOF'
sed -i '8a clock: 3+x/3\nclock-black: 259200\nclock-white: 259200' games/101.game
EOF
fsck_case clock-without-left 65 "games/101.game:9: clock needs clock-black: and clock-white: lines" <<'EOF'
sed -i '8a clock: 3+0/3' games/101.game
EOF
fsck_case weekends-off 65 "games/101.game:9: weekends must be on (off is not written), not 'off'" <<'EOF'
sed -i '8a weekends: off' games/101.game
EOF
fsck_case warned-not-hours 65 "games/101.game:9: warned must be the hours of a warn mark, 1 to 8784, not 'soon'" <<'EOF'
sed -i '8a warned: soon' games/101.game
EOF

# the vacation bank (src/store/vacations.h) and the member-since of the users file (src/store/store.h)
fsck_case vacations-both-forms 0 "" <<'EOF'
printf 'alice 2023-11-01T00:00:00Z 2023-11-08T00:00:00Z 2023 7\nbob bank=3 ticks=40 away=2024-01-02T00:00:00Z,2024-01-03T00:00:00Z,1\n' >vacations
EOF
fsck_case vacations-bad-bank 65 "vacations: $tmp/vacations-bad-bank/vacations line 1 is not 'userid bank=DAYS ticks=N [away=FROM,TO,DAYS]...' (at most 6 absences, sorted, apart) nor 'userid start end year used' (cleanup sends no reminder and ends no game on time until it is mended)" <<'EOF'
printf 'bob bank=many ticks=40\n' >vacations
EOF
fsck_case vacations-four-booked 65 "vacations: bob has 4 absences booked ahead, more than 3" <<'EOF'
printf 'bob bank=3 ticks=40 away=2024-01-02T00:00:00Z,2024-01-03T00:00:00Z,1 away=2024-01-05T00:00:00Z,2024-01-06T00:00:00Z,1 away=2024-01-08T00:00:00Z,2024-01-09T00:00:00Z,1 away=2024-01-12T00:00:00Z,2024-01-13T00:00:00Z,1\n' >vacations
EOF
fsck_case users-bad-since 65 "users: $tmp/users-bad-since/users line 9 has a member-since that is not 'since=YYYY-MM-DDTHH:MM:SSZ' after its full name" <<'EOF'
printf 'carol:carol@example.net:$y$j9T$abc$def:Carol\tsince=yesterday\n' >>users
EOF
fsck_case users-no-since 0 "" <<'EOF'
sed -i 's/	since=.*$//' users
EOF

check "a bad board argument: exit 64" [ "$("$bin" -d "$tmp/pristine" fsck 12x 2>/dev/null; echo $?)" = 64 ]
check "fsck changes nothing" sh -c "cd '$tmp/parse-error' && grep -q '^status: plying' games/101.game"

# A home whose board 101 is a hex board of side 3 (b2, then d3): rows e to a
# are lines 19-23 of its game file, so the edited c2 is reported on line 21.
rm -rf "$tmp/pristine"
mkhome "$tmp/pristine"
send id=- "$tmp/pristine" alice@example.org "register alice secret"
send id=- "$tmp/pristine" bob@example.com "register bob pw"
send id=- "$tmp/pristine" alice@example.org "challenge alice secret bob -hex=3"
send id=- "$tmp/pristine" alice@example.org "move 101 alice secret B2"
send id=- "$tmp/pristine" bob@example.com "move 101 bob pw d3"
fsck_case hex-sound 0 "" </dev/null
check "hex: the file's drawing is the one this test assumes" \
    sh -c "sed -n '3p;21p' '$tmp/pristine/games/101.game' | tr '\n' '|' | grep -qx 'shape: hex|c  . . . . .  c|'"
fsck_case hex-position-edited 65 "games/101.game:21: c2 is white, but empty after the history" <<'EOF2'
sed -i 's/^c  \. \. \. \. \.  c/c  . o . . .  c/' games/101.game
EOF2
fsck_case hex-history-off-board 65 "games/101.game:28: 'c6' is not a cell of a hex board of side 3" <<'EOF2'
sed -i 's/ o bob d3$/ o bob c6/' games/101.game
EOF2
