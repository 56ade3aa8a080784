#!/bin/sh
# vacation: the vacation bank (issue 43, src/store/vacations.h) played
# across days with the test clock (OUSTPBM_TEST_TIME, never a sleep): the
# member-since registration writes, a bank that accrues a day every 12 days
# and runs out, its cap, an absence booked ahead that stops a clock (no loss
# on time during it, the clock running again after it, the loss at exactly
# zero), and a home from before the bank (no since, an old vacations line)
# that keeps working; a booking killed at each durable step.
. "$(dirname "$0")/lib.sh"
tmpdir
H=3600
DAY=86400

cleanup() { # HOME TIME: run cleanup, print its exit status
	OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" cleanup >/dev/null 2>"$tmp/stderr"
	echo $?
}
logged() { # HOME TEXT: the log holds TEXT
	grep -qF -- "$2" "$1/log"
}

# ---- the member-since, and a bank that accrues and runs out
h=$tmp/bank
mkhome "$h" 'remind_days = 0' 'timeout_days = 0'
send at=$T0 body=body "$h" alice@example.org "register alice secret"
send at=$T0 body=body "$h" bob@example.com "register bob hunter2"
tab=$(printf '\t')
check "registration writes bob's member-since (Tue 2023-11-14 22:13:20 UTC)" \
    grep -q "^bob:bob@example.com:[^:]*:${tab}since=2023-11-14T22:13:20Z\$" "$h/users"
send at=$((T0 + 11 * DAY)) body=body "$h" bob@example.com "vacation bob hunter2 1"
check "a member for 11 days: nothing in the bank" \
    logged "$h" "refused: vacation 1: 1 day asked, your vacation bank holds 0"
send at=$((T0 + 12 * DAY)) body=body "$h" bob@example.com "settings bob hunter2"
check "12 days: a day in the bank, the next at 24 days" \
    grep -q "^Vacation bank: 1 day (a day for every 12 days as a member, at most" "$(newest "$h" bob@example.com)"
check "... the next day on Fri 2023-12-08 (24 days)" grep -q "the next day on Fri 2023-12-08 22:13 UTC" \
    "$(newest "$h" bob@example.com)"
send at=$((T0 + 36 * DAY)) body=body "$h" bob@example.com "vacation bob hunter2 3"
check "36 days: 3 days taken, the bank is empty" logged "$h" "ok: bob away for 3 days, until 2023-12-23T22:13:20Z; 0 days left in the bank"
send at=$((T0 + 39 * DAY)) body=body "$h" bob@example.com "vacation bob hunter2 1"
check "back at 39 days: the bank has run out" logged "$h" "refused: vacation 1: 1 day asked, your vacation bank holds 0"
send at=$((T0 + 48 * DAY)) body=body "$h" bob@example.com "vacation bob hunter2 1"
check "48 days: a day again, taken" logged "$h" "ok: bob away for 1 day, until 2024-01-02T22:13:20Z; 0 days left in the bank"
send at=$((T0 + 1000 * DAY)) body=body "$h" bob@example.com "settings bob hunter2"
check "1000 days on: the bank at its cap, 30 days" \
    grep -q "^Vacation bank: 30 days (a day for every 12 days as a member, at most\$" "$(newest "$h" bob@example.com)"
check "... full" grep -q "^30): full.\$" "$(newest "$h" bob@example.com)"
sed -i 's/^vacation_max_days.*//' "$h/oustpbm.conf"
echo 'vacation_max_days = 10' >>"$h/oustpbm.conf"
send at=$((T0 + 1001 * DAY)) body=body "$h" bob@example.com "vacation bob hunter2 11"
check "vacation_max_days lowered to 10: the bank holds 10" \
    logged "$h" "refused: vacation 11: 11 days asked, your vacation bank holds 10 (a day for every 12 days as a member, at most 10)"

# ---- an absence booked ahead stops the clock, which runs again after it
# bob to move from Tue 2023-11-14 22:13:20 UTC with 2 days on his clock;
# away from Thu 11-16 00:00 to Sun 11-19 00:00 (booked: 11-16 to 11-18):
# 1 day 1 h 47 min run before, 22 h 13 min 20 s left after: zero at Sun
# 11-19 22:13:20, T0 + 5 days
h=$tmp/booked
mkhome "$h" 'remind_days = 0' 'timeout_days = 0'
send at=$((T0 - 400 * DAY)) body=body "$h" alice@example.org "register alice secret"
send at=$((T0 - 400 * DAY)) body=body "$h" bob@example.com "register bob hunter2"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=2+0/2"
send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
send at=$T0 body=body "$h" bob@example.com "vacation bob hunter2 2023-11-16 2023-11-18"
check "bob books 2023-11-16 to 2023-11-18" logged "$h" "ok: bob booked 2023-11-16 to 2023-11-18, 3 days; 27 left in the bank"
check "... the reply shows the booking" grep -q "^Booked: 2023-11-16 to 2023-11-18 (3 days).\$" \
    "$(newest "$h" bob@example.com)"
send at=$((T0 + H)) body=body "$h" bob@example.com "show 101"
check "... and show counts it out: zero on Sun 11-19 22:13" \
    grep -q "bob has 1 day 23 hours to move, until Sun 2023-11-19 22:13 UTC" "$(newest "$h" bob@example.com)"
check "2 days on (zero without the absence): cleanup exits 0" [ "$(cleanup "$h" $((T0 + 2 * DAY)))" = 0 ]
check "... no loss on time during the booked absence" grep -qx 'status: playing' "$h/games/101.game"
check "4 days on, still away: no loss on time" [ "$(cleanup "$h" $((T0 + 4 * DAY)))" = 0 ]
check "... playing" grep -qx 'status: playing' "$h/games/101.game"
check "a second before zero, after the absence: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 5 * DAY - 1)))" = 0 ]
check "... playing: the clock ran again only from the absence's end" grep -qx 'status: playing' "$h/games/101.game"
check "at zero: cleanup exits 0" [ "$(cleanup "$h" $((T0 + 5 * DAY)))" = 0 ]
check "... bob lost on time" grep -qx 'end: timeout' "$h/games/101.game"

# ---- a home from before the bank: no since, an old vacations line
h=$tmp/old
mkhome "$h" 'remind_days = 0' 'timeout_days = 0'
send at=$T0 body=body "$h" alice@example.org "register alice secret"
send at=$T0 body=body "$h" bob@example.com "register bob hunter2"
send at=$T0 body=body "$h" alice@example.org "challenge alice secret bob -size=5 -clock=1+0/1"
send at=$T0 body=body "$h" alice@example.org "move 101 alice secret C3"
sed -i "s/${tab}since=.*\$//" "$h/users"
printf '# oustpbm vacations: userid start end year used. Format: games/README.md\nbob %s %s 2023 5\n' \
    2023-11-15T00:00:00Z 2023-11-17T00:00:00Z >"$h/vacations"
check "an old line's absence stops the clock: not lost a day on" [ "$(cleanup "$h" $((T0 + DAY)))" = 0 ]
check "... playing" grep -qx 'status: playing' "$h/games/101.game"
check "... lost at zero, its 2 days counted out" [ "$(cleanup "$h" $((T0 + 3 * DAY)))" = 0 ]
check "... end: timeout" grep -qx 'end: timeout' "$h/games/101.game"
send at=$((T0 + 4 * DAY)) body=body "$h" bob@example.com "settings bob hunter2"
check "an account without since: a full bank, less the 5 days of 2023's allowance" \
    grep -q "^Vacation bank: 25 days" "$(newest "$h" bob@example.com)"
check "... the line untouched by reading it" grep -q "^bob 2023-11-15T00:00:00Z 2023-11-17T00:00:00Z 2023 5\$" \
    "$h/vacations"
send at=$((T0 + 4 * DAY)) body=body "$h" bob@example.com "vacation bob hunter2 2023-12-01 2023-12-02"
check "a booking writes the line in the new form, the old absence kept" \
    grep -q "^bob bank=23 ticks=[0-9]* away=2023-11-15T00:00:00Z,2023-11-17T00:00:00Z,2 away=2023-12-01T00:00:00Z,2023-12-03T00:00:00Z,2\$" \
    "$h/vacations"
check "fsck: the home is sound" sh -c "'$bin' -d '$h' fsck >/dev/null 2>&1"

# ---- a booking killed at each durable step, the mail delivered again:
# booked once, its days taken once, one reply (crash_each_step of lib.sh)
b0=$tmp/before-book
mkhome "$b0" 'remind_days = 0' 'timeout_days = 0'
send at=$((T0 - 400 * DAY)) body=body "$b0" alice@example.org "register alice secret"
send at=$((T0 - 400 * DAY)) body=body "$b0" bob@example.com "register bob hunter2"
send at=$T0 body=body "$b0" alice@example.org "challenge alice secret bob -size=5"
send at=$T0 body=body "$b0" alice@example.org "move 101 alice secret C3"
rm -rf "$b0/mail"
mail bob@example.com "vacation bob hunter2 2023-12-24 2023-12-31" "book@x" >"$tmp/bookmail"
cp -R "$b0" "$tmp/book-ref"
check "the booking, never killed: exit 0" [ "$(crash_feed "$tmp/book-ref" $((T0 + 60)) "$tmp/bookmail")" = 0 ]
reply_sums "$tmp/book-ref" >"$tmp/want"
check "... one reply" [ "$(wc -l <"$tmp/want")" = 1 ]
book_killed() { :; }
book_redelivered() { # HOME K [K2]
	crash_replied "$@"
	grep -q "^bob bank=22 ticks=[0-9]* away=2023-12-24T00:00:00Z,2024-01-01T00:00:00Z,8\$" "$1/vacations" ||
	    bad="$bad; killed at step $2: the line is $(grep '^bob' "$1/vacations")"
}
crash_each_step "$b0" $((T0 + 60)) "$tmp/bookmail" "" book_killed book_redelivered
check "killed at each of $((k - 1)) durable steps of a booking, delivered again: booked once, told once${bad}" \
    test -z "$bad" -a "$k" -gt 3

done_testing
