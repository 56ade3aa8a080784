#!/bin/sh
# cleanup: `oustpbm cleanup` with a fake clock (OUSTPBM_TEST_TIME, never a
# sleep): reminders and losses on time sent exactly once, the remind: header,
# old files without it, the board lock respected, the outbox flushed, a
# damaged board not stopping the others.
. "$(dirname "$0")/lib.sh"
tmpdir
DAY=86400

cleanup() { # HOME TIME: run cleanup, print its exit status
	OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" cleanup >/dev/null 2>"$tmp/stderr"
	echo $?
}
last() { # HOME ADDRESS: the newest mail to ADDRESS: latest Date: (the fake clock), then latest file
	# (file times alone tie when two runs fall in one clock tick of the file system)
	ls -t "$1/mail/$2/new/"* | while read -r f; do
		printf '%s %s\n' "$(date -d "$(sed -n 's/^Date: //p' "$f" | head -1)" +%s)" "$f"
	done | sort -s -k1,1nr | head -1 | cut -d' ' -f2-
}
header() { # FILE KEY: the value of a game file header line
	sed -n "s/^$2: //p" "$1" | head -1
}
iso() { # SECONDS: the game file time
	date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ
}

# base HOME [conf lines...]: alice, bob, board 101 (5x5) after alice's turn at T0
base() {
	h=$1
	shift
	# challenge_expiry_days off: these boards wait for bob's first turn far longer than 14 days (expire.sh)
	mkhome "$h" 'challenge_expiry_days = 0' "$@"
	# members for a year: a full vacation bank (src/store/vacations.h)
	send at=$((T0 - 365 * 86400)) body=body "$h" alice@example.org "register alice secret"
	send at=$((T0 - 365 * 86400)) body=body "$h" bob@example.com "register bob hunter2"
	send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5"
	send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
}

A=alice@example.org
B=bob@example.com

# ---- reminders
h=$tmp/remind
base "$h"
g=$h/games/101.game
a0=$(replies "$h" $A)
b0=$(replies "$h" $B)
check "a turn sets remind: to last-move + remind_days (7)" [ "$(header "$g" remind)" = "$(iso $((T0 + 7 * DAY)))" ]
check "6 days on: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 6 * DAY)))" = 0 ]
check "... and sends nothing" [ "$(replies "$h" $B)" = "$b0" ]
check "7 days on: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 7 * DAY)))" = 0 ]
check "... one reminder to bob, the player to move" [ "$(replies "$h" $B)" = $((b0 + 1)) ]
check "... nothing to alice" [ "$(replies "$h" $A)" = "$a0" ]
r=$(last "$h" $B)
check "... subject 'Oust Board 101 reminder bob #2 [token]' (its reply token: issue 40)" \
    grep -qx 'Subject: Oust Board 101 reminder bob #2 \[[2-9A-HJKMNP-Z-]\{15\}\]' "$r"
check "... its board's points are tap links playing turn 2, with the reminder's Subject" \
    grep -q 'href="mailto:oust@example.net?subject=Oust%20Board%20101%20reminder%20bob%20%232%20%5B[^"]*&amp;body=%232%0AA1"' "$r"
check "... its text says a reply or a tap plays" grep -q '^Reply to this mail with your turn' "$r"
check "... threaded under the board" grep -q '^References: <board-101\.' "$r"
check "... its own Message-ID" grep -q '^Message-Id: <101\.1\.bob\.reminder\.' "$r"
check "... Auto-Submitted: auto-generated (RFC 3834: it answers no mail)" grep -qx 'Auto-Submitted: auto-generated' "$r"
check "... the command to send and the board" sh -c "grep -q 'move 101#2 bob <password>' '$r' && grep -q '^ 3  \. \. X' '$r'"
check "... the days since the last turn" grep -q 'it has been 7 days since the last turn' "$r"
check "... no deadline without timeout_days" sh -c "! grep -q 'on time' '$r'"
check "... the next reminder is remind_days later" [ "$(header "$g" remind)" = "$(iso $((T0 + 14 * DAY)))" ]
check "... the reminder is logged" grep -q 'cleanup board=101 ok: reminded bob, idle 7 days' "$h/log"
check "... nothing is left in the outbox" [ -z "$(ls "$h/outbox/new")" ]
check "run again at once: exit 0" [ "$(cleanup "$h" $((T0 + 7 * DAY)))" = 0 ]
check "... nothing new is sent" [ "$(replies "$h" $B)" = $((b0 + 1)) ]
check "a day later: nothing new" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 8 * DAY)) '$bin' -d '$h' cleanup; echo \$?) = 0 ] && [ \$(ls '$h/mail/$B/new' | wc -l) = $((b0 + 1)) ]"
cleanup "$h" $((T0 + 14 * DAY)) >/dev/null
check "14 days on: a second reminder" [ "$(replies "$h" $B)" = $((b0 + 2)) ]
cleanup "$h" $((T0 + 14 * DAY)) >/dev/null
check "... and only one" [ "$(replies "$h" $B)" = $((b0 + 2)) ]
cleanup "$h" $((T0 + 40 * DAY)) >/dev/null
check "a late run (day 40) sends one reminder, not the missed ones" [ "$(replies "$h" $B)" = $((b0 + 3)) ]
check "... and keeps the schedule (next on day 42)" [ "$(header "$g" remind)" = "$(iso $((T0 + 42 * DAY)))" ]
send at=$((T0 + 41 * DAY)) body=body "$h" bob@example.com "move 101 bob hunter2 A1"
check "bob's turn moves remind: to his turn + 7 days" [ "$(header "$g" remind)" = "$(iso $((T0 + 48 * DAY)))" ]
a1=$(replies "$h" $A)
cleanup "$h" $((T0 + 47 * DAY)) >/dev/null
check "... no reminder before it" [ "$(replies "$h" $A)" = "$a1" ]
cleanup "$h" $((T0 + 48 * DAY)) >/dev/null
check "... then alice, now to move, is reminded" [ "$(replies "$h" $A)" = $((a1 + 1)) ]
check "... 'Oust Board 101 reminder alice'" grep -q '^Subject: Oust Board 101 reminder alice #3 \[' "$(last "$h" $A)"
check "fsck finds the file sound after the reminders" "$bin" -d "$h" fsck

# ---- a file without remind: (written before reminders existed)
h=$tmp/old
base "$h"
g=$h/games/101.game
sed -i '/^remind: /d' "$g"
b0=$(replies "$h" $B)
cleanup "$h" $((T0 + 6 * DAY)) >/dev/null
check "no remind: line: nothing before last-move + 7 days" [ "$(replies "$h" $B)" = "$b0" ]
cleanup "$h" $((T0 + 7 * DAY)) >/dev/null
check "... a reminder at last-move + 7 days" [ "$(replies "$h" $B)" = $((b0 + 1)) ]
check "... and the line is written" [ "$(header "$g" remind)" = "$(iso $((T0 + 14 * DAY)))" ]

# ---- reminders off
h=$tmp/off
base "$h" "remind_days = 0"
check "remind_days = 0: no remind: line" [ -z "$(header "$h/games/101.game" remind)" ]
b0=$(replies "$h" $B)
cleanup "$h" $((T0 + 100 * DAY)) >/dev/null
check "... and no reminder, ever" [ "$(replies "$h" $B)" = "$b0" ]

# ---- loss on time
h=$tmp/timeout
base "$h" "timeout_days = 10"
g=$h/games/101.game
cleanup "$h" $((T0 + 7 * DAY)) >/dev/null
r=$(last "$h" $B)
check "with timeout_days the reminder gives the deadline" grep -q "If you have not played by 2023-11-24 22:13 UTC, you lose the game on time" "$r"
check "... and when the last turn was, one UTC (issue 40: it said \"UTC UTC\")" sh -c \
    "grep -q 'You have not played on board 101 since 2023-11-14 22:13 UTC (7 days)' '$r' && ! grep -q 'UTC UTC' '$r'"
a0=$(replies "$h" $A)
b0=$(replies "$h" $B)
cleanup "$h" $((T0 + 10 * DAY - 1)) >/dev/null
check "a second before timeout_days: nothing" [ "$(replies "$h" $A)$(header "$g" status)" = "${a0}playing" ]
check "10 days on: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 10 * DAY)))" = 0 ]
check "... bob, to move, lost on time: white... black-won" [ "$(header "$g" status)" = black-won ]
check "... end: timeout" [ "$(header "$g" end)" = timeout ]
check "... the history records it" grep -qx "2 $(iso $((T0 + 10 * DAY))) o bob timeout" "$g"
check "... no remind: line once over" [ -z "$(header "$g" remind)" ]
check "... one mail to each player" [ "$(replies "$h" $A)$(replies "$h" $B)" = "$((a0 + 1))$((b0 + 1))" ]
check "... the game's one Subject, the result in the text" sh -c "grep -qE '^Subject: Oust Board 101 alice vs bob \[[-0-9A-Z]+\]\$' '$(last "$h" $A)' && grep -q 'is over: alice won' '$(last "$h" $A)' && grep -qE '^Subject: Oust Board 101 alice vs bob \[[-0-9A-Z]+\]\$' '$(last "$h" $B)'"
r=$(last "$h" $B)
check "... the result, the time limit, the board and the whole history" sh -c "grep -q 'is over: alice won: bob ran out of time' '$r' && grep -q 'The time limit on this board is 10 days' '$r' && grep -q '^ 3  \. \. x' '$r' && grep -q '   2  2023-11-24 22:13 UTC  o bob    out of time' '$r'"
check "... threaded under the board" grep -q '^References: <board-101\.' "$r"
check "... logged" grep -q 'cleanup board=101 ok: turn 2: bob lost on time after 10 days; alice won' "$h/log"
check "the file replays (fsck)" "$bin" -d "$h" fsck
check "show works on the ended board" sh -c "'$bin' -d '$h' show 101 | grep -q 'alice won: bob ran out of time'"
cleanup "$h" $((T0 + 10 * DAY)) >/dev/null
cleanup "$h" $((T0 + 30 * DAY)) >/dev/null
check "run again, and later: nothing new" [ "$(replies "$h" $A)$(replies "$h" $B)" = "$((a0 + 1))$((b0 + 1))" ]
check "a move after the loss on time is refused" sh -c "printf 'From: $B\nSubject: move 101 bob hunter2 A1\n\n' | OUSTPBM_TEST_TIME=$((T0 + 31 * DAY)) '$bin' -d '$h' && grep -q 'board 101 is over (won by alice)' \"\$(ls -t '$h/mail/$B/new/'* | head -1)\""

# ---- a board's own time limits (challenge -remind=DAYS -timeout=DAYS) over the configuration's
h=$tmp/own
base "$h" "timeout_days = 30"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -remind=2 -timeout=5"
send at=$T0 body=body "$h" alice@example.org "move 102 alice secret C3"
g=$h/games/102.game
check "-remind=2 -timeout=5: stored in the game file" sh -c "[ '$(header "$g" remind-days)' = 2 ] && [ '$(header "$g" timeout-days)' = 5 ]"
check "... remind: is the last turn + 2 days" [ "$(header "$g" remind)" = "$(iso $((T0 + 2 * DAY)))" ]
check "... the board without options keeps the configuration's (no such lines)" sh -c "! grep -q '^remind-days\|^timeout-days' '$h/games/101.game'"
check "... bob's mail gives his time left" grep -q 'You have 5 days to move, until 2023-11-19 22:13 UTC' "$(last "$h" $B)"
b0=$(replies "$h" $B)
cleanup "$h" $((T0 + 2 * DAY - 1)) >/dev/null
check "a second before 2 days: no reminder" [ "$(replies "$h" $B)" = "$b0" ]
cleanup "$h" $((T0 + 2 * DAY)) >/dev/null
check "2 days on: bob is reminded of board 102 (101 waits for the server's 7 days)" sh -c "[ $(replies "$h" $B) = $((b0 + 1)) ] && grep -q '^Subject: Oust Board 102 reminder bob #' '$(last "$h" $B)'"
check "... the reminder gives the board's own deadline" grep -q "If you have not played by 2023-11-19 22:13 UTC, you lose the game on time" "$(last "$h" $B)"
check "... the next one 2 days later" [ "$(header "$g" remind)" = "$(iso $((T0 + 4 * DAY)))" ]
cleanup "$h" $((T0 + 5 * DAY - 1)) >/dev/null
check "a second before 5 days: still playing" [ "$(header "$g" status)" = playing ]
cleanup "$h" $((T0 + 5 * DAY)) >/dev/null
check "5 days on: bob lost board 102 on time" sh -c "[ '$(header "$g" status)' = black-won ] && [ '$(header "$g" end)' = timeout ]"
check "... the mail names the board's limit" grep -q 'The time limit on this board is 5 days' "$(last "$h" $B)"
check "... logged with it" grep -q 'cleanup board=102 ok: turn 2: bob lost on time after 5 days; alice won' "$h/log"
check "... board 101 goes on (timeout_days = 30)" [ "$(header "$h/games/101.game" status)" = playing ]
check "the files pass fsck" "$bin" -d "$h" fsck
cleanup "$h" $((T0 + 30 * DAY)) >/dev/null
check "board 101 is lost on time at the server's 30 days" [ "$(header "$h/games/101.game" end)" = timeout ]
sed -i 's/^timeout-days: 5$/timeout-days: 0/' "$g"
check "a game file with timeout-days: 0 is refused by fsck" sh -c "! '$bin' -d '$h' fsck >/dev/null 2>&1"

# ---- the board lock is respected
if [ -x "$PY" ]; then
	h=$tmp/locked
	base "$h" "lock_timeout_ms = 100"
	before=$(cksum <"$h/games/101.game")
	b0=$(replies "$h" $B)
	hold_lock "$h/games/101.lock"
	check "board locked by a mail being handled: exit 75" [ "$(cleanup "$h" $((T0 + 7 * DAY)))" = 75 ]
	check "... nothing sent, the file unchanged" [ "$(replies "$h" $B)$(cksum <"$h/games/101.game")" = "$b0$before" ]
	check "... the board named on stderr" grep -q 'board 101: cannot lock the board' "$tmp/stderr"
	release_lock
	check "the next run does it" [ "$(cleanup "$h" $((T0 + 7 * DAY)))$(replies "$h" $B)" = "0$((b0 + 1))" ]
else
	skip "no $PY for the lock test"
fi

# ---- the outbox is flushed; a damaged board does not stop the others
h=$tmp/flush
base "$h"
msg='From: oust@example.net
To: carol@example.org
Subject: queued earlier

waiting in the outbox
'
size=$(printf '%s' "$msg" | wc -c)
printf 'oustpbm-queue 1\nfrom oust@example.net\nrcpt carol@example.org\nsize %s\n\n%s' "$size" "$msg" \
    >"$h/outbox/new/1700000000.M1P1Q1.test"
cleanup "$h" $((T0 + DAY)) >/dev/null
check "cleanup delivers what waited in the outbox" [ "$(replies "$h" carol@example.org)" = 1 ]
check "... and the outbox is empty" [ -z "$(ls "$h/outbox/new")" ]
cp "$h/games/101.game" "$h/games/102.game"
sed -i 's/^board: 101/board: 102/; s/^status: playing/status: plying/' "$h/games/102.game"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5"
b0=$(replies "$h" $B)
check "a damaged game file: exit 65" [ "$(cleanup "$h" $((T0 + 7 * DAY)))" = 65 ]
check "... named on stderr with its line" grep -q 'games/102.game line 7: unknown status' "$tmp/stderr"
check "... the other boards are reminded all the same" [ "$(replies "$h" $B)" = $((b0 + 1)) ]
check "... and alice on board 103" grep -q 'cleanup board=103 ok: reminded alice' "$h/log"

# ---- the command line
check "cleanup takes no arguments: exit 64" [ "$("$bin" -d "$h" cleanup now 2>/dev/null; echo $?)" = 64 ]
check "OUSTPBM_HOME is the home without -d" [ "$(OUSTPBM_HOME=$h OUSTPBM_TEST_TIME=$T0 "$bin" cleanup 2>/dev/null; echo $?)" = 65 ]
check "-dDIR works" [ "$(OUSTPBM_TEST_TIME=$T0 "$bin" -d"$tmp/remind" cleanup; echo $?)" = 0 ]
mkdir -p "$tmp/badconf"
echo 'remind_days = soon' >"$tmp/badconf/oustpbm.conf"
check "a bad remind_days: exit 78" [ "$("$bin" -d "$tmp/badconf" cleanup 2>/dev/null; echo $?)" = 78 ]
echo 'timeout_days = 4000' >"$tmp/badconf/oustpbm.conf"
check "timeout_days over 3650: exit 78" [ "$("$bin" -d "$tmp/badconf" cleanup 2>/dev/null; echo $?)" = 78 ]

# ---- vacation: bob, to move since T0, away by mail from T0 + 1 day for
# 10 days (timeout_days = 12): cron's cleanup (env -i) sends no reminder and
# ends no game while he is away, then counts the 10 days out
h=$tmp/vacation
base "$h" "timeout_days = 12"
send at=$((T0 + DAY)) body=body "$h" $B "vacation bob hunter2 10"
check "vacation: the opponent is told" grep -q '^Subject: Oust Board 101: bob is away' "$(last "$h" $A)"
b0=$(replies "$h" $B)
vclean() { # TIME: cleanup from cron's bare environment
	env -i OUSTPBM_TEST_TIME=$1 "$bin" -d "$h" cleanup >/dev/null 2>"$tmp/stderr"
	echo $?
}
check "vacation: 8 days on, cleanup exits 0" [ "$(vclean $((T0 + 8 * DAY)))" = 0 ]
check "... no reminder to bob, away" [ "$(replies "$h" $B)" = "$b0" ]
check "vacation: 13 days on (past timeout_days), cleanup exits 0" [ "$(vclean $((T0 + 13 * DAY)))" = 0 ]
check "... the game goes on" grep -qx 'status: playing' "$h/games/101.game"
check "vacation: 17 days on (7 on the running clock), cleanup exits 0" [ "$(vclean $((T0 + 17 * DAY - 60)))" = 0 ]
check "... still no reminder" [ "$(replies "$h" $B)" = "$b0" ]
check "vacation: 17 days on, cleanup exits 0" [ "$(vclean $((T0 + 17 * DAY)))" = 0 ]
check "... one reminder to bob" [ "$(replies "$h" $B)" = $((b0 + 1)) ]
check "vacation: 22 days on (12 on the running clock), cleanup exits 0" [ "$(vclean $((T0 + 22 * DAY)))" = 0 ]
check "... bob lost on time" grep -qx 'end: timeout' "$h/games/101.game"
