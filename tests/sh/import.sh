#!/bin/sh
# import: `oustpbm import` checks a record as a mail's game is checked
# (issue 31, finding 6; src/commands/admin/admin_import.c):
#  - import-bad-thread-refused: a value the game file cannot hold
#    (OUSTTHREAD[<a\]b@c>]) is refused, nothing written, the home still
#    answers show and move;
#  - import-duplicate-refused: a game whose players, board and placements
#    equal an existing one's is refused naming that board;
#  - a player playing himself, the robot on both sides, an unknown player:
#    refused;
#  - games/next-board is advanced past the imported board (fsck stays
#    clean, the next challenge gets the next number).
. "$(dirname "$0")/lib.sh"
tmpdir

h=$tmp/home
mkhome "$h" 'max_mails_per_hour = 0'
t=$T0
run() { # FROM SUBJECT
	t=$((t + 60))
	mail "$1" "$2" | deliver "$h" $t
	echo $?
}
run alice@example.org "register alice secret" >/dev/null
run bob@example.com "register bob hunter2" >/dev/null
run carol@example.net "register carol pw3" >/dev/null
run alice@example.org "challenge alice secret bob -size=5" >/dev/null
run alice@example.org "move 101 alice secret C3" >/dev/null
"$bin" -d "$h" export 101 >"$tmp/101.sgf"
before=$(store_sum "$h")

# imp FILE [BOARD]: the exit status of the import; its stderr in $tmp/err
imp() {
	"$bin" -d "$h" import "$@" >/dev/null 2>"$tmp/err"
	echo $?
}

sed 's/OUSTTHREAD\[[^]]*\]/OUSTTHREAD[<a\\]b@c>]/' "$tmp/101.sgf" >"$tmp/thread.sgf"
grep -q 'OUSTTHREAD\[<a\\\]b@c>\]' "$tmp/thread.sgf" || sed 's/^(;/(;OUSTTHREAD[<a\\]b@c>]/' "$tmp/101.sgf" >"$tmp/thread.sgf"
check "import-bad-thread-refused: exit 65" [ "$(imp "$tmp/thread.sgf" 201)" = 65 ]
check "... saying the game file would not read back" grep -q 'would not read back' "$tmp/err"
check "... nothing written" sh -c "[ ! -e '$h/games/201.game' ] && [ \"\$(cd '$h' && cat games/next-board)\" = 102 ]"
check "... show of the home's boards still works" [ "$(run alice@example.org "show 101")" = 0 ]

sed 's/PW\[bob\]/PW[alice]/' "$tmp/101.sgf" >"$tmp/self.sgf"
check "a player playing himself: exit 65" sh -c "[ \$(\"$bin\" -d '$h' import '$tmp/self.sgf' 202 >/dev/null 2>'$tmp/err'; echo \$?) = 65 ] && grep -q 'alice would play himself' '$tmp/err'"
sed 's/PW\[bob\]/PW[robot]/; s/PB\[alice\]/PB[robot]/' "$tmp/101.sgf" >"$tmp/robots.sgf"
check "the robot on both sides: exit 65" [ "$(imp "$tmp/robots.sgf" 202)" = 65 ]
sed 's/PW\[bob\]/PW[zed]/' "$tmp/101.sgf" >"$tmp/zed.sgf"
check "an unknown player: exit 65, named" sh -c "[ \$(\"$bin\" -d '$h' import '$tmp/zed.sgf' 202 >/dev/null 2>'$tmp/err'; echo \$?) = 65 ] && grep -q 'there is no account zed' '$tmp/err'"
check "import-duplicate-refused: a copy of board 101: exit 73" [ "$(imp "$tmp/101.sgf" 202)" = 73 ]
check "... naming board 101" grep -q 'board 101 is the same game' "$tmp/err"
check "... the refusals changed nothing" [ "$(store_sum "$h" | grep -v 'games/next-board')" = "$(echo "$before" | grep -v 'games/next-board')" ]

sed 's/PW\[bob\]/PW[carol]/' "$tmp/101.sgf" >"$tmp/carol.sgf"
check "a new game (alice - carol) as board 250: exit 0" [ "$(imp "$tmp/carol.sgf" 250)" = 0 ]
check "... next-board is advanced past it" [ "$(cat "$h/games/next-board")" = 251 ]
check "... fsck finds the home sound" sh -c "'$bin' -d '$h' fsck >/dev/null 2>&1"
check "... the next challenge gets board 251" sh -c "[ \$(t=$((t + 600)); printf 'From: bob@example.com\\nSubject: challenge bob hunter2 carol\\n\\n' | OUSTPBM_TEST_TIME=\$t '$bin' -d '$h' >/dev/null 2>&1; echo \$?) = 0 ] && [ -e '$h/games/251.game' ]"
done_testing
