#!/bin/sh
# ratings: the ratings file (src/store/ratings.h) end to end: rated games ended by
# resignation (by mail and by the robot player) and by time (oustpbm
# cleanup), an -unrated game left out, robots rated by level, the file
# --rebuild makes equal to the one kept game by game, a damaged file
# refused with its line number (the game still ends, its mark kept and
# settled once the file is mended), and a stale mark dropped.
. "$(dirname "$0")/lib.sh"
tmpdir
unset OUSTPBM_TEST_ROBOT_PLAYOUTS
DAY=86400

has() { grep -q -- "$2" "$1"; }
hasnt() { ! grep -q -- "$2" "$1"; }
same() { cmp -s "$1" "$2"; }
# turns HOME TIME BOARD BLACK-FROM "BLACK PW" WHITE-FROM "WHITE PW": two turns each, isolated
# stones (no capture): a game is rated once both made two turns (ratings.h)
turns() {
	send at="$2" "$1" "$4" "move $3 $5 C3"
	send at=$(($2 + 1)) "$1" "$6" "move $3 $7 A1"
	send at=$(($2 + 2)) "$1" "$4" "move $3 $5 E5"
	send at=$(($2 + 3)) "$1" "$6" "move $3 $7 E1"
}

h=$tmp/home
mkhome "$h" 'timeout_days = 3'
send at=$T0 "$h" a@example.org "register alice secret"
send at=$T0 "$h" b@example.org "register bob hunter2"
send at=$T0 "$h" c@example.org "register carol pw3"
# 101 small: bob resigns; 102 standard: carol resigns; 103 unrated: carol resigns
send at=$((T0 + 10)) "$h" a@example.org "challenge alice secret bob -size=5 -noswap"
turns "$h" $((T0 + 11)) 101 a@example.org "alice secret" b@example.org "bob hunter2"
send at=$((T0 + 20)) "$h" b@example.org "resign 101 bob hunter2"
send at=$((T0 + 30)) "$h" a@example.org "challenge alice secret carol -noswap"
turns "$h" $((T0 + 31)) 102 a@example.org "alice secret" c@example.org "carol pw3"
send at=$((T0 + 40)) "$h" c@example.org "resign 102 carol pw3"
send at=$((T0 + 50)) "$h" b@example.org "challenge bob hunter2 carol -unrated"
send at=$((T0 + 60)) "$h" c@example.org "resign 103 carol pw3"
check "a rated resignation on 5x5 is a small game: alice beat bob" \
    has "$h/ratings" "^game: 101 small 2023-11-14T22:13:40Z alice bob black-won$"
check "on 11x11 a standard game" has "$h/ratings" "^game: 102 standard .* alice carol black-won$"
check "an -unrated game is left out" hasnt "$h/ratings" "^game: 103 "
check "the game file says rated: no" has "$h/games/103.game" "^rated: no$"
check "alice is rated in two classes" sh -c "[ \$(grep -c '^player: [a-z]* alice ' '$h/ratings') = 2 ]"
check "the winner above 1500, the loser below" sh -c \
    "grep -q '^player: small alice 1662.31 290.32 ' '$h/ratings' && grep -q '^player: small bob 1337.69 290.32 ' '$h/ratings'"

# the robot player, rated by level: two turns (its test player's first legal point), then it resigns
OUSTPBM_TEST_ROBOT=first send at=$((T0 + 70)) "$h" a@example.org "challenge alice secret robot -size=7 -level=2 -noswap"
OUSTPBM_TEST_ROBOT=first send at=$((T0 + 71)) "$h" a@example.org "move 104 alice secret D4"
OUSTPBM_TEST_ROBOT=first send at=$((T0 + 72)) "$h" a@example.org "move 104 alice secret B6"
OUSTPBM_TEST_ROBOT=resign send at=$((T0 + 80)) "$h" a@example.org "move 104 alice secret F2"
check "the robot's resignation is rated, the robot as robot:2" has "$h/ratings" "^game: 104 small .* alice robot:2 black-won$"
check "robot:2 has a rating" has "$h/ratings" "^player: small robot:2 "

# a loss on time by oustpbm cleanup, 15x15: a large game
send at=$((T0 + 90)) "$h" b@example.org "challenge bob hunter2 carol -size=15 -noswap"
send at=$((T0 + 91)) "$h" b@example.org "move 105 bob hunter2 C3"
send at=$((T0 + 92)) "$h" c@example.org "move 105 carol pw3 A1"
OUSTPBM_TEST_TIME=$((T0 + 4 * DAY)) "$bin" -d "$h" cleanup >/dev/null 2>&1
check "a loss on time is rated (cleanup): large" has "$h/ratings" "^game: 105 large .* bob carol white-won$"
check "no mark is left" sh -c "[ -z \"\$(ls '$h/ratings-pending')\" ]"

# --rebuild makes the same file from the game files
cp "$h/ratings" "$tmp/incremental"
rm "$h/ratings"
OUSTPBM_TEST_TIME=$((T0 + 5 * DAY)) "$bin" -d "$h" ratings --rebuild >"$tmp/out" 2>&1
check "ratings --rebuild says what it made" has "$tmp/out" "ratings rebuilt: 7 player ratings from 4 rated games"
check "--rebuild gives the file kept game by game, byte for byte" same "$h/ratings" "$tmp/incremental"
OUSTPBM_TEST_TIME=$((T0 + 5 * DAY)) "$bin" -d "$h" ratings >"$tmp/out" 2>&1
check "oustpbm ratings prints the file" same "$tmp/out" "$h/ratings"

# a damaged file: refused with its line number; the game still ends and is counted once the file is mended
sed -i 's/^player: small bob 1337.69/player: small bob 13x7.69/' "$h/ratings"
line=$(grep -n '13x7.69' "$h/ratings" | cut -d: -f1)
OUSTPBM_TEST_TIME=$((T0 + 5 * DAY)) "$bin" -d "$h" ratings >"$tmp/out" 2>&1
rc=$?
check "oustpbm ratings on a damaged file exits 65" [ "$rc" = 65 ]
check "the error names the line: ratings:$line: bad rating '13x7.69'" has "$tmp/out" "ratings:$line: bad rating '13x7.69'"
send at=$((T0 + 5 * DAY)) "$h" a@example.org "challenge alice secret bob -size=9 -noswap"
turns "$h" $((T0 + 5 * DAY + 1)) 106 a@example.org "alice secret" b@example.org "bob hunter2"
send at=$((T0 + 5 * DAY + 10)) "$h" a@example.org "resign 106 alice secret"
check "the game ends all the same" has "$h/games/106.game" "^status: white-won$"
check "its mark is kept" test -f "$h/ratings-pending/106"
check "the log says why" has "$h/log" "ratings:$line: bad rating"
OUSTPBM_TEST_TIME=$((T0 + 5 * DAY)) "$bin" -d "$h" ratings --rebuild >/dev/null 2>&1
check "once rebuilt, the game is counted" has "$h/ratings" "^game: 106 small .* alice bob white-won$"
check "and its mark is gone" test ! -e "$h/ratings-pending/106"

# a stale mark (a crash before its game's commit): dropped, nothing counted
send at=$((T0 + 6 * DAY)) "$h" a@example.org "challenge alice secret carol"
: >"$h/ratings-pending/107"
cp "$h/ratings" "$tmp/before"
OUSTPBM_TEST_TIME=$((T0 + 6 * DAY)) "$bin" -d "$h" cleanup >/dev/null 2>&1
check "a mark of a game still playing is dropped by cleanup" test ! -e "$h/ratings-pending/107"
check "and changes no rating" same "$h/ratings" "$tmp/before"

# the index of active boards (src/store/active.h): made with the board, gone at its end, mended by cleanup
check "a board being played has its entry" test -f "$h/active/107.alice.carol"
check "a finished board has none" test ! -e "$h/active/106.alice.bob"
rm "$h/active/107.alice.carol"
: >"$h/active/106.alice.bob"
OUSTPBM_TEST_TIME=$((T0 + 6 * DAY)) "$bin" -d "$h" cleanup >/dev/null 2>&1
check "cleanup puts back a missing entry" test -f "$h/active/107.alice.carol"
check "and removes a stale one" test ! -e "$h/active/106.alice.bob"
send at=$((T0 + 6 * DAY + 10)) "$h" c@example.org "seek carol pw3 4"
send at=$((T0 + 6 * DAY + 20)) "$h" c@example.org "standings standard"
check "standings: carol's active board and the 4 games she seeks" sh -c \
    "grep -h '^ *[0-9]*  carol  .*  1      4\$' '$h'/mail/c@example.org/new/* >/dev/null"

# a second period: the same results give the same file in any order of arrival
cp -R "$h" "$tmp/copy"
rm "$tmp/copy/ratings"
OUSTPBM_TEST_TIME=$((T0 + 30 * DAY)) "$bin" -d "$tmp/copy" ratings --rebuild >/dev/null 2>&1
check "rebuilt later, the file is the same (the deviation's growth is the reader's)" same "$tmp/copy/ratings" "$h/ratings"

# incremental (ratings.h): a game's end updates its two players from the exact state beside the file
h2=$tmp/inc
mkhome "$h2"
send at=$T0 "$h2" a@example.org "register alice secret"
send at=$T0 "$h2" b@example.org "register bob hunter2"
send at=$T0 "$h2" c@example.org "register carol pw3"
send at=$((T0 + 10)) "$h2" a@example.org "challenge alice secret bob -size=5 -noswap"
turns "$h2" $((T0 + 11)) 101 a@example.org "alice secret" b@example.org "bob hunter2"
send at=$((T0 + 20)) "$h2" b@example.org "resign 101 bob hunter2"
# the second game against another opponent: a second game of the same pair in the period would count with weight 0
send at=$((T0 + 30)) "$h2" b@example.org "challenge bob hunter2 carol -size=5 -noswap"
turns "$h2" $((T0 + 31)) 102 b@example.org "bob hunter2" c@example.org "carol pw3"
check "the first game's end leaves the exact state beside the file" test -s "$h2/ratings-state"
cp -R "$h2" "$tmp/inc-tampered"
# bob's exact rating as he entered the period altered in the state alone (its tie to the file kept):
# only the incremental update reads it
# (bob entered it new: made a player of 1587 with a game behind him)
sed -i 's/^\(0 bob .*\) 0000000000000000 \([0-9a-f]*\) \([0-9a-f]*\) 0 0$/\1 3fe0000000000000 \2 \3 1 0/' \
    "$tmp/inc-tampered/ratings-state"
check "(the state altered)" sh -c "! cmp -s '$h2/ratings-state' '$tmp/inc-tampered/ratings-state'"
send at=$((T0 + 40)) "$h2" c@example.org "resign 102 carol pw3"
send at=$((T0 + 40)) "$tmp/inc-tampered" c@example.org "resign 102 carol pw3"
check "the second game's end counted" has "$h2/ratings" "^game: 102 small .* bob carol black-won$"
check "its players were updated from the state (an altered state shows)" sh -c \
    "! cmp -s '$h2/ratings' '$tmp/inc-tampered/ratings'"
cp "$h2/ratings" "$tmp/inc.kept"
OUSTPBM_TEST_TIME=$((T0 + 50)) "$bin" -d "$h2" ratings --rebuild >/dev/null 2>&1
check "the incremental file is the one --rebuild makes" same "$h2/ratings" "$tmp/inc.kept"
OUSTPBM_TEST_TIME=$((T0 + 50)) "$bin" -d "$tmp/inc-tampered" ratings --rebuild >/dev/null 2>&1
check "and --rebuild mends the altered one" same "$tmp/inc-tampered/ratings" "$tmp/inc.kept"
# a late result (an admin's edit of an older period) is counted by computing every rating again
send at=$((T0 + 60)) "$h2" a@example.org "challenge alice secret bob -size=5"
send at=$((T0 + 40 * DAY)) "$h2" b@example.org "resign 103 bob hunter2"
send at=$((T0 + 40 * DAY + 10)) "$h2" a@example.org "challenge alice secret bob -size=5"
send at=$((T0 + 40 * DAY + 20)) "$h2" a@example.org "resign 104 alice secret"
cp "$h2/ratings" "$tmp/inc.kept"
OUSTPBM_TEST_TIME=$((T0 + 41 * DAY)) "$bin" -d "$h2" ratings --rebuild >/dev/null 2>&1
check "over periods too, the kept file is the one --rebuild makes" same "$h2/ratings" "$tmp/inc.kept"

# leaving (issue 20): signoff and the admin's deluser take the account out of the standings; its results stay
listed() { # HOME MAILDIR PLAYER: the newest standings reply lists PLAYER
	grep -q "^ *[0-9]*  $3 " "$(ls -t "$1"/mail/"$2"/new/* | head -1)"
}
unlisted() { ! listed "$@"; }
send at=$((T0 + 7 * DAY)) "$h" b@example.org "standings"
check "before: carol is in the standings" listed "$h" b@example.org carol
check "and alice too" listed "$h" b@example.org alice
cp "$h/ratings" "$tmp/before-leaving"
send at=$((T0 + 7 * DAY + 10)) "$h" c@example.org "signoff carol pw3"
last=$(ls -t "$h"/mail/a@example.org/new/* | head -1)
check "the opponent's mail tells the signoff as the server's notice" has "$last" "^carol closed the account: every board carol played was resigned"
check "not as carol's own words" hasnt "$last" "carol writes:"
check "and offers no return game against the closed account" hasnt "$last" "challenge alice <password> carol"
check "it says why" has "$last" "There is no return game: carol closed the"
send at=$((T0 + 7 * DAY + 20)) "$h" b@example.org "standings"
check "after signoff: carol is not in the standings" unlisted "$h" b@example.org carol
check "alice still is" listed "$h" b@example.org alice
OUSTPBM_TEST_TIME=$((T0 + 7 * DAY + 30)) "$bin" -d "$h" deluser alice >/dev/null 2>&1
send at=$((T0 + 7 * DAY + 40)) "$h" b@example.org "standings"
check "after deluser: alice is not in the standings" unlisted "$h" b@example.org alice
check "bob still is" listed "$h" b@example.org bob
check "their games still count: the ratings file is the one --rebuild makes" sh -c \
    "cp -R '$h' '$tmp/copy2' && rm '$tmp/copy2/ratings' &&
    OUSTPBM_TEST_TIME=$((T0 + 7 * DAY + 50)) '$bin' -d '$tmp/copy2' ratings --rebuild >/dev/null 2>&1 &&
    cmp -s '$tmp/copy2/ratings' '$h/ratings'"

# ---- rating farming (issue 31): games resigned at once, and one pair's games in a row
h3=$tmp/farm
mkhome "$h3" 'max_mails_per_hour = 0' 'max_challenges_per_hour = 0'
send at=$T0 "$h3" a@example.org "register alice secret"
send at=$T0 "$h3" m@example.org "register mule secret2"
send at=$T0 "$h3" c@example.org "register carol pw3"
b=101
while [ $b -le 110 ]; do
	send at=$((T0 + b)) "$h3" a@example.org "challenge alice secret mule -size=5"
	send at=$((T0 + b)) "$h3" m@example.org "resign $b mule secret2"
	b=$((b + 1))
done
check "rating-farm-resign-at-once: ten games resigned at once, none rated" sh -c \
    "[ \$(grep -c '^status: black-won' '$h3'/games/1[01]*.game | grep -c ':1\$') = 10 ] && ! grep -q '^game: ' '$h3/ratings' 2>/dev/null"
check "... alice has no rating from them" sh -c "! grep -q '^player: small alice' '$h3/ratings' 2>/dev/null"
check "... the game's mail says why it is not rated" sh -c \
    "grep -l 'This game is not rated: a game counts once each player has made 2 turns' '$h3'/mail/m@example.org/new/* >/dev/null"
# three full games of alice and mule in one period: the first counts, the others with weight 0
for b in 111 112 113; do
	send at=$((T0 + 200 + b * 10)) "$h3" a@example.org "challenge alice secret mule -size=5 -noswap"
	turns "$h3" $((T0 + 201 + b * 10)) $b a@example.org "alice secret" m@example.org "mule secret2"
	send at=$((T0 + 208 + b * 10)) "$h3" m@example.org "resign $b mule secret2"
done
check "rating-farm-same-pair: the three games are listed" sh -c "[ \$(grep -c '^game: 11[123] small .* alice mule black-won' '$h3/ratings') = 3 ]"
check "... alice's rating counts one game" has "$h3/ratings" "^player: small alice [0-9.]* [0-9.]* [0-9.]* 1 1 0 0 "
check "... as after one win (1662.31)" has "$h3/ratings" "^player: small alice 1662.31 "
send at=$((T0 + 2000)) "$h3" a@example.org "challenge alice secret carol -size=5 -noswap"
turns "$h3" $((T0 + 2001)) 114 a@example.org "alice secret" c@example.org "carol pw3"
send at=$((T0 + 2010)) "$h3" c@example.org "resign 114 carol pw3"
check "... a game against another opponent counts fully (alice: 2 games)" has "$h3/ratings" "^player: small alice [0-9.]* [0-9.]* [0-9.]* 2 2 0 0 "
check "... --rebuild gives the same file" sh -c "cp '$h3/ratings' '$tmp/farm.kept' &&
    OUSTPBM_TEST_TIME=$((T0 + 3000)) '$bin' -d '$h3' ratings --rebuild >/dev/null 2>&1 && cmp -s '$tmp/farm.kept' '$h3/ratings'"
check "... oustpbm ratings shows the rule" sh -c "OUSTPBM_TEST_TIME=$((T0 + 3000)) '$bin' -d '$h3' ratings | grep -q 'the first counts, the others with weight 0'"

# a ratings file that counts a game the rule leaves out (an older version's): fsck names the rule
cp -R "$h3" "$tmp/farm-old"
sed -i 's/^# game: board .*$/&\ngame: 101 small 2023-11-14T22:15:00Z alice mule black-won/' "$tmp/farm-old/ratings"
OUSTPBM_TEST_TIME=$((T0 + 3000)) "$bin" -d "$tmp/farm-old" fsck >"$tmp/fsck.out" 2>&1
check "fsck: a counted game against the rule is a problem naming the rule" \
    grep -q '^ratings: board 101 is counted, but a game counts once each player has made 2 turns' "$tmp/fsck.out"

done_testing
