#!/bin/sh
# robotmail: the robot player on another host, by mail (robotremote.h on
# the server, robothost.h on the robot host), with the maildir transport
# standing for the mail system (robothost.sh does it through Postfix):
# the server's board mail to robot_address carries the game record and the
# robot's token; `oustpbm robot-mail` on the robot home answers it with the
# turn alone; the server plays it.  Failure paths: a forged reply (no valid
# token) is refused and the robot host, getting the refusal, answers
# nothing and tells its admin; a mail not from the server, a mail of the
# server without a game record and a board mail answered already get no
# answer; every think slot busy: the board mail waits in robot-queue/ for
# `robot-mail --queued`; a home without robot_server answers nothing.
. "$(dirname "$0")/lib.sh"
need "$PY"
tmpdir
export OUSTPBM_TEST_ROBOT=first

s=$tmp/server
r=$tmp/robot
R=robot@robots.test
S=oust@example.net
mkhome "$s" "robot_address = $R" 'max_mails_per_hour = 4'
mkhome "$r" "from_address = $R" "robot_server = $S" 'robot_seconds = 1' 'robot_max_thinking = 1' \
    'admin_address = admin@robots.test'
echo 0 >"$tmp/clock"
at() { # the next minute (a file: $(at) runs in a subshell)
	k=$(($(cat "$tmp/clock") + 1))
	echo "$k" >"$tmp/clock"
	echo $((T0 + 60 * k))
}
robot_mail() { # [ARGS]: robot-mail on the robot home, the mail on stdin; prints the exit status
	OUSTPBM_TEST_TIME=$(at) "$bin" -d "$r" robot-mail "$@" >/dev/null 2>>"$tmp/robot.err"
	echo $?
}
nreplies() { replies "$r" "$S"; }

mail alice@example.org 'register alice secret' | deliver "$s" "$(at)"
mail alice@example.org 'challenge alice secret robot -size=5 -noswap -white' | deliver "$s" "$(at)"
check "a challenge with the robot as Black: no think on the server" sh -c "! grep -q 'robot played' '$s/log'"
check "... the board waits for the robot's turn 1" grep -q '^turn: 1$' "$s/games/101.game"
check "... one board mail to the robot's address" [ "$(replies "$s" "$R")" = 1 ]
m=$(newest "$s" "$R")
check "... its Subject: the board, robot, the turn and a token" grep -Eq '^Subject: Oust Board 101 robot #1 \[[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{5}\]$' "$m"
check "... the game record attached (application/x-oust-game)" sh -c "grep -q '^Content-Type: application/x-oust-game; name=oust-101.game' '$m' && grep -q '^board: 101\$' '$m' && grep -q '^robot-level: 3\$' '$m'"
check "... Auto-Submitted: auto-generated (it answers no mail)" grep -q '^Auto-Submitted: auto-generated' "$m"
check "... alice got her board mail at once" grep -q '^Subject: New Oust Board 101' "$(newest "$s" alice@example.org)"
OUSTPBM_TEST_TIME=$(at) "$bin" -d "$s" robot >/dev/null 2>&1
check "oustpbm robot on the server plays no turn of a remote robot" grep -q '^turn: 1$' "$s/games/101.game"

check "robot-mail answers the board mail: exit 0" [ "$(robot_mail <"$m")" = 0 ]
check "... one reply to the server" [ "$(nreplies)" = 1 ]
a=$(newest "$r" "$S")
check "... Subject: Re: and the board mail's, token and turn" sh -c "grep '^Subject: ' '$a' | sed 's/^Subject: Re: //' >'$tmp/s1' && grep '^Subject: ' '$m' | sed 's/^Subject: //' >'$tmp/s2' && cmp -s '$tmp/s1' '$tmp/s2'"
check "... In-Reply-To the board mail" grep -q '^In-Reply-To: <101.1.robot.' "$a"
check "... Auto-Submitted: auto-replied (RFC 3834)" grep -q '^Auto-Submitted: auto-replied' "$a"
check "... the text is the turn alone" [ "$(sed '1,/^$/d' "$a")" = A1 ]
check "... logged on the robot host, the token masked" sh -c "grep -q 'robot-mail ok: board 101 turn 1: robot played A1 (level 3) (Subject: Oust Board 101 robot #1 \[token\])' '$r/log'"
deliver "$s" "$(at)" <"$a"
check "the reply delivered to the server: exit 0" [ $? = 0 ]
check "... the robot's turn is played" sh -c "grep -q '^1 [^ ]* x robot A1\$' '$s/games/101.game' && grep -q '^turn: 2\$' '$s/games/101.game'"
check "... logged as a token reply" grep -q 'from=robot@robots.test board=101 cmd="reply to board 101#1 \[token\]: A1" ok: turn 1: robot played A1' "$s/log"
check "... alice has the board after it" grep -q 'robot played A1' "$(newest "$s" alice@example.org)"
check "... nothing more to the robot (alice to move)" [ "$(replies "$s" "$R")" = 1 ]

check "the same board mail again: exit 0" [ "$(robot_mail <"$m")" = 0 ]
check "... not answered twice" sh -c "[ $(nreplies) = 1 ] && tail -1 '$r/log' | grep -q 'ignored: this board mail was answered already'"

# alice moves; the robot's next board mail; a forged reply first
mail alice@example.org 'move 101#2 alice secret C3' | deliver "$s" "$(at)"
check "alice moves: a second board mail to the robot" [ "$(replies "$s" "$R")" = 2 ]
m2=$(newest "$s" "$R")
cp "$s/games/101.game" "$tmp/before.game"
for i in 1 2 3 4 5 6; do
	printf 'From: %s\nTo: %s\nSubject: Re: Oust Board 101 robot #3 [AAAA-BBBB-CCCCC]\nMessage-ID: <forged.%s@robots.test>\n\nE5\n' \
	    "$R" "$S" "$i" | deliver "$s" "$(at)"
done
check "a reply from the robot's address with a wrong token: refused, the game unchanged" cmp -s "$s/games/101.game" "$tmp/before.game"
check "... the log says why" grep -q "from=robot@robots.test board=101 .* refused: the token in the Subject is not robot's token for board 101" "$s/log"
check "... six forgeries lock nobody out (not counted by the throttle)" sh -c "! grep -qs '^robot ' '$s/throttle'"
check "... not limited by max_mails_per_hour (the robot's replies are exempt)" [ "$(grep -c 'refused: the token in the Subject is not robot' "$s/log")" = 6 ]
refusal=$(newest "$s" "$R")
check "... the refusal went to the robot's address, the token masked" sh -c "grep -q 'robot.s token for board 101' '$refusal' && ! grep -q 'AAAA-BBBB-CCCCC' '$refusal'"
n0=$(nreplies)
check "robot-mail, given the server's refusal: exit 0" [ "$(robot_mail <"$refusal")" = 0 ]
check "... no answer (never an error reply)" [ "$(nreplies)" = "$n0" ]
check "... logged as not answered" sh -c "tail -2 '$r/log' | grep -q 'robot-mail not answered: a mail of the server without a game record'"
check "... the robot host's admin told" sh -c "grep -lq 'refused or answered a reply of the robot' '$r'/mail/admin@robots.test/new/*"

printf 'From: mallory@example.org\nTo: %s\nSubject: Oust Board 101 robot #3 [AAAA-BBBB-CCCCC]\n\nhello\n' "$R" >"$tmp/stranger"
check "a mail not from the server: exit 0" [ "$(robot_mail <"$tmp/stranger")" = 0 ]
check "... ignored, no answer" sh -c "[ $(nreplies) = $n0 ] && tail -1 '$r/log' | grep -q 'ignored: a mail from mallory@example.org, not from the server'"
printf 'From: %s\nTo: %s\nSubject: Oust help\nAuto-Submitted: auto-replied\n\nThe commands:\n' "$S" "$R" >"$tmp/help"
check "a mail of the server without a game record: no answer" sh -c "[ \$(OUSTPBM_TEST_ROBOT=first '$bin' -d '$r' robot-mail <'$tmp/help' >/dev/null 2>&1; echo \$?) = 0 ] && [ $(nreplies) = $n0 ]"

# every think slot busy: the board mail waits for robot-mail --queued
hold_lock "$r/robot-thinking.0.lock"
check "every think slot busy: robot-mail exits 0" [ "$(robot_mail <"$m2")" = 0 ]
check "... the board mail kept in robot-queue/, no answer yet" sh -c "[ \$(ls '$r/robot-queue' | wc -l) = 1 ] && [ $(nreplies) = $n0 ]"
check "... logged" sh -c "tail -1 '$r/log' | grep -q 'robot-mail queued: every think slot is busy'"
release_lock
check "robot-mail --queued: exit 0" [ "$(robot_mail --queued </dev/null)" = 0 ]
check "... the kept board mail answered, the queue empty" sh -c "[ $(nreplies) = $((n0 + 1)) ] && [ -z \"\$(ls '$r/robot-queue')\" ]"
a2=$(newest "$r" "$S")
deliver "$s" "$(at)" <"$a2"
check "... its reply played on the server" grep -q '^turn: 4$' "$s/games/101.game"

mkhome "$tmp/plain"
check "robot-mail on a home without robot_server: exit 75 (the mail kept), nothing answered" \
    [ "$(OUSTPBM_TEST_TIME=$T0 "$bin" -d "$tmp/plain" robot-mail <"$m2" >/dev/null 2>&1; echo $?)" = 75 ]
check "fsck: the server's game file is sound" sh -c "'$bin' -d '$s' fsck >/dev/null 2>&1"
done_testing
