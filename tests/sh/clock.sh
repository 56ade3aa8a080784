#!/bin/sh
# clock: boards with clocks (challenge -clock=D+I/C, issue 43) played across
# days with the test clock (OUSTPBM_TEST_TIME, never a sleep): the increment
# and its cap, the loss on time at exactly zero, weekends in two time zones
# (the zone of the player to move decides), a vacation that stops the clock,
# deadline warnings at each mark and never twice, a crash at every step of a
# loss on time, and a board without a clock that keeps today's rule.
. "$(dirname "$0")/lib.sh"
tmpdir
H=3600
DAY=86400

cleanup() { # HOME TIME [CRASH]: run cleanup, print its exit status
	if [ -n "${3:-}" ]; then
		OUSTPBM_TEST_CRASH=$3 OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" cleanup >/dev/null 2>"$tmp/stderr"
	else
		OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" cleanup >/dev/null 2>"$tmp/stderr"
	fi
	echo $?
}
header() { # BOARD-FILE KEY
	sed -n "s/^$2: //p" "$1" | head -1
}
count() { # HOME ADDRESS PATTERN: the mails to ADDRESS holding PATTERN
	grep -l -- "$3" "$1/mail/$2/new/"* 2>/dev/null | wc -l
}

# home HOME [conf...]: alice and bob, no server-wide reminder or time limit
home() {
	h=$1
	shift
	mkhome "$h" 'remind_days = 0' 'timeout_days = 0' "$@"
	# members for a year: a full vacation bank (src/store/vacations.h)
	send at=$((T0 - 365 * 86400)) body=body "$h" alice@example.org "register alice secret"
	send at=$((T0 - 365 * 86400)) body=body "$h" bob@example.com "register bob hunter2"
}

# ---- the increment and its cap
h=$tmp/inc
home "$h"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=1+0.25/1.25"
g=$h/games/101.game
check "a clock: both players start with D days" \
    sh -c "[ '$(header "$g" clock)' = 1+0.25/1.25 ] && [ '$(header "$g" clock-black)' = 86400 ] && [ '$(header "$g" clock-white)' = 86400 ]"
send at=$((T0 + 5 * H)) body=body "$h" alice@example.org "move 101 alice secret C3"
check "a turn after 5 hours: 1 day - 5 h + 6 h" [ "$(header "$g" clock-black)" = 90000 ]
check "... the opponent's clock has not moved" [ "$(header "$g" clock-white)" = 86400 ]
send at=$((T0 + 6 * H)) body=body "$h" bob@example.com "move 101 bob hunter2 A1"
check "bob's turn after 1 hour: 1 day - 1 h + 6 h" [ "$(header "$g" clock-white)" = 104400 ]
send at=$((T0 + 6 * H + 60)) body=body "$h" alice@example.org "move 101 alice secret E5"
check "alice's after a minute: 1 day 1 h - 1 min + 6 h, past the cap of 1.25 days: the cap" \
    [ "$(header "$g" clock-black)" = 108000 ]
check "the board mail says how long each player has" \
    grep -q "alice (x) 1 day 6 hours, bob (o) 1 day 5 hours" "$(ls -t "$h"/mail/bob@example.com/new/* | head -1)"

# a queued turn that answers at once: both turns add their increment
h=$tmp/queue
home "$h"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=1+0.25/2"
send at=$((T0 + H)) body=body "$h" alice@example.org "move 101 alice secret C3"
send at=$((T0 + H)) body=body "$h" alice@example.org "queue 101 alice secret A1 => E5"
send at=$((T0 + 3 * H)) body=body "$h" bob@example.com "move 101 bob hunter2 A1"
g=$h/games/101.game
check "a queued answer: both played (turn 4 next)" [ "$(header "$g" turn)" = 4 ]
check "... bob's clock: 1 day - 2 h + 6 h" [ "$(header "$g" clock-white)" = 100800 ]
check "... alice's: 1 day - 1 h + 6 h, then + 6 h for the queued turn" [ "$(header "$g" clock-black)" = 126000 ]

# ---- a loss on time at exactly zero, in the zone of the reader
h=$tmp/zero
home "$h"
send at=$T0 body=body "$h" bob@example.com "set bob hunter2 timezone=Asia/Tokyo"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=2+0/2"
send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
g=$h/games/101.game
check "bob's board mail gives the deadline in his zone (Asia/Tokyo, UTC+9)" \
    grep -q "until Fri 2023-11-17 07:13 Asia/Tokyo" "$(ls -t "$h"/mail/bob@example.com/new/* | head -1)"
check "alice's in hers (UTC)" \
    grep -q "bob has 2 days to move, until Thu 2023-11-16 22:13 UTC" "$(ls -t "$h"/mail/alice@example.org/new/* | head -1)"
check "cleanup a second before zero: exit 0" [ "$(cleanup "$h" $((T0 + 2 * DAY - 1)))" = 0 ]
check "... the game goes on" [ "$(header "$g" status)" = playing ]
check "cleanup at exactly zero: exit 0" [ "$(cleanup "$h" $((T0 + 2 * DAY)))" = 0 ]
check "... bob lost on time" sh -c "[ '$(header "$g" status)' = black-won ] && [ '$(header "$g" end)' = timeout ]"
check "... the log says the clock is at zero" grep -q "board=101 ok: turn 2: bob lost on time, the clock at zero; alice won" "$h/log"
check "... both players are told, once" sh -c "[ $(count "$h" bob@example.com "clock ran out") = 1 ] && [ $(count "$h" alice@example.org "clock ran out") = 1 ]"
check "a later cleanup changes nothing" [ "$(cleanup "$h" $((T0 + 3 * DAY)))" = 0 ]
check "... no third mail" [ "$(count "$h" bob@example.com "clock ran out")" = 1 ]

# ---- weekends: the zone of the player to move decides
# T0 is Tue 2023-11-14 22:13 UTC; a clock of 3 days runs out on Fri 17 22:13 UTC,
# before a UTC weekend, but within the weekend of Pacific/Auckland (UTC+13: Fri 11:00 UTC)
for zone in UTC Pacific/Auckland; do
	h=$tmp/weekend-$(echo $zone | tr / -)
	home "$h"
	send at=$T0 body=body "$h" bob@example.com "set bob hunter2 timezone=$zone"
	send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=3+0/3 -weekends"
	send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
	check "weekends ($zone): the game file says so" [ "$(header "$h/games/101.game" weekends)" = on ]
done
h=$tmp/weekend-UTC
check "weekends, bob in UTC: lost at Fri 22:13 UTC, before his weekend" \
    sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 3 * DAY)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && grep -q '^end: timeout' '$h/games/101.game'"
h=$tmp/weekend-Pacific-Auckland
check "weekends, bob in Pacific/Auckland: the board mail counts his weekend in" \
    grep -q "until Mon 2023-11-20 11:13 Pacific/Auckland" "$(ls -t "$h"/mail/bob@example.com/new/* | head -1)"
check "... not lost at Fri 22:13 UTC" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 3 * DAY)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && grep -q '^status: playing' '$h/games/101.game'"
check "... nor on Sun 22:12 UTC" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 5 * DAY - 60)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && grep -q '^status: playing' '$h/games/101.game'"
check "... lost on Sun 22:13 UTC (Mon 11:13 in Auckland): the 48 hours of his weekend counted out" \
    sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 5 * DAY)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && grep -q '^end: timeout' '$h/games/101.game'"
# both players' settings ask for weekends: the board without -weekends stops too
h=$tmp/weekend-settings
home "$h"
send at=$T0 body=body "$h" alice@example.org "set alice secret weekends=on"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=3+0/3"
check "weekends=on for one player only: the board does not stop" [ -z "$(header "$h/games/101.game" weekends)" ]
send at=$T0 body=body "$h" bob@example.com "set bob hunter2 weekends=on"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=3+0/3"
check "weekends=on for both: it does" [ "$(header "$h/games/102.game" weekends)" = on ]

# ---- a vacation stops the clock
h=$tmp/vacation
home "$h"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=1+0/1"
send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
send at=$((T0 + H)) body=body "$h" bob@example.com "vacation bob hunter2 2"
check "bob away 2 days: not lost a day later" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + DAY)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && grep -q '^status: playing' '$h/games/101.game'"
check "... nor a second before zero, 3 days later" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 3 * DAY - 1)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && grep -q '^status: playing' '$h/games/101.game'"
check "... lost at zero, the 2 days counted out" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 3 * DAY)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && grep -q '^end: timeout' '$h/games/101.game'"

# ---- warnings at each mark, never twice
h=$tmp/warn
home "$h"
send at=$T0 body=body "$h" bob@example.com "set bob hunter2 warn=20h,10h,2h"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=1+0/1"
send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
g=$h/games/101.game
cleanup "$h" $((T0 + 3 * H)) >/dev/null
check "21 hours left: no warning" [ "$(count "$h" bob@example.com "Subject: Oust Board 101 warning")" = 0 ]
cleanup "$h" $((T0 + 5 * H)) >/dev/null
check "19 hours left: the warning of the 20 hour mark" [ "$(count "$h" bob@example.com "less than 20 hours")" = 1 ]
check "... the game file keeps it" [ "$(header "$g" warned)" = 20 ]
w=$(grep -l "less than 20 hours" "$h"/mail/bob@example.com/new/*)
check "... a board mail bob can tap: his reply token in the Subject" grep -q "^Subject: Oust Board 101 warning bob #2 \[[A-Z0-9-]*\]" "$w"
check "... and tap links in its HTML" grep -q "mailto:" "$w"
cleanup "$h" $((T0 + 6 * H)) >/dev/null
check "an hour later: not again" [ "$(count "$h" bob@example.com "Subject: Oust Board 101 warning")" = 1 ]
cleanup "$h" $((T0 + 15 * H)) >/dev/null
cleanup "$h" $((T0 + 16 * H)) >/dev/null
check "9 hours left: the 10 hour mark, once" [ "$(count "$h" bob@example.com "less than 10 hours")" = 1 ]
cleanup "$h" $((T0 + 23 * H)) >/dev/null
check "1 hour left: the 2 hour mark" [ "$(count "$h" bob@example.com "less than 2 hours")" = 1 ]
check "three warnings in all" [ "$(count "$h" bob@example.com "Subject: Oust Board 101 warning")" = 3 ]
# a reply to the warning plays with its token
tok=$(sed -n 's/^Subject: Oust Board 101 warning bob #2 \(\[[A-Z0-9-]*\]\)$/\1/p' "$w")
printf 'From: bob@example.com\nTo: oust@example.net\nSubject: Re: Oust Board 101 warning bob #2 %s\nMessage-ID: <tapwarn@example.com>\n\nA1\n' "$tok" |
    deliver "$h" $((T0 + 23 * H + 60))
check "a reply to the warning with a placement plays it" [ "$(header "$g" turn)" = 3 ]
check "... the new turn's mark is forgotten" [ -z "$(header "$g" warned)" ]
# a player who turned warnings off gets none
h=$tmp/warnoff
home "$h"
send at=$T0 body=body "$h" bob@example.com "set bob hunter2 warn=off"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=1+0/1"
send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
cleanup "$h" $((T0 + 23 * H)) >/dev/null
check "warn=off: no warning" [ "$(count "$h" bob@example.com "Subject: Oust Board 101 warning")" = 0 ]

# ---- a crash at every step of a loss on time: lost once, told once
h=$tmp/crashbase
home "$h"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=1+0/1"
send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
k=0
bad=
while [ $k -lt 60 ]; do
	k=$((k + 1))
	rm -rf "$tmp/cw"
	cp -R "$h" "$tmp/cw"
	rc=$(cleanup "$tmp/cw" $((T0 + DAY)) $k)
	[ "$rc" = 0 ] && break
	[ "$rc" = 137 ] || bad="$bad; step $k: exit $rc"
	rc=$(cleanup "$tmp/cw" $((T0 + DAY + 60)))
	[ "$rc" = 0 ] || bad="$bad; step $k: the next run exits $rc"
	grep -q '^end: timeout' "$tmp/cw/games/101.game" || bad="$bad; step $k: not lost on time"
	[ "$(count "$tmp/cw" bob@example.com "clock ran out")" = 1 ] || bad="$bad; step $k: bob told $(count "$tmp/cw" bob@example.com "clock ran out") times"
	[ "$(count "$tmp/cw" alice@example.org "clock ran out")" = 1 ] || bad="$bad; step $k: alice told $(count "$tmp/cw" alice@example.org "clock ran out") times"
	[ -z "$(find "$tmp/cw/outbox/new" "$tmp/cw/outbox/tmp" -type f 2>/dev/null)" ] || bad="$bad; step $k: mail left in the outbox"
done
check "crash at each of the $((k - 1)) steps of a loss on time: lost once, each player told once${bad}" test -z "$bad" -a "$k" -gt 1

# ---- a damaged settings file: named by fsck, no command that reads it answers wrongly
h=$tmp/damaged
home "$h"
printf '# damaged\nalice timezone=UTC colour=blue\n' >"$h/settings"
before=$(ls "$h/mail/alice@example.org/new" | wc -l)
rc=$(mail alice@example.org "settings alice secret" "damaged.$$@example.org" | OUSTPBM_TEST_TIME=$((T0 + 60)) "$bin" -d "$h" 2>"$tmp/stderr"; echo $?)
check "settings with a damaged settings file: not answered with defaults (exit $rc)" \
    sh -c "[ $rc != 0 ] && [ \$(ls '$h/mail/alice@example.org/new' | wc -l) = $before ]"
check "... stderr names the line" grep -q "settings:2: unknown setting 'colour'" "$tmp/stderr"
rc=$("$bin" -d "$h" fsck >"$tmp/fsck" 2>&1; echo $?)
check "fsck reports it (exit $rc)" sh -c "[ $rc = 65 ] && grep -q \"^settings: settings:2: unknown setting 'colour'\" '$tmp/fsck'"

# ---- a board without a clock keeps today's rule
h=$tmp/old
home "$h"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -timeout=2"
send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
check "-timeout=2 writes no clock" sh -c "! grep -q '^clock' '$h/games/101.game' && grep -q '^timeout-days: 2' '$h/games/101.game'"
check "... lost after 2 days, as today" sh -c "[ \$(OUSTPBM_TEST_TIME=$((T0 + 2 * DAY)) '$bin' -d '$h' cleanup >/dev/null 2>&1; echo \$?) = 0 ] && grep -q 'lost on time after 2 days' '$h/log'"

done_testing
